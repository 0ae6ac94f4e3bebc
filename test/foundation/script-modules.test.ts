// The conversion of ES modules into one classic script (src/cli/script-modules.ts), which the
// package's bin and a source checkout start from: what each accepted form becomes, run through
// the script's own loader, and every form it refuses rather than converting it wrongly.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { posix } from 'node:path';
import { describe, it } from 'node:test';
import { runInThisContext } from 'node:vm';
import { asAscii, ScriptModuleError, scriptOf } from '../../src/cli/script-modules.ts';
import type { SourceModule } from '../../src/cli/script-modules.ts';

const BASE = 'file:///checkout/src/';

/** `load` of the script made of `modules` (id → code). */
function loaderOf(modules: Record<string, string>): (id: string) => Record<string, unknown> {
  const list: SourceModule[] = Object.entries(modules).map(([id, code]) => ({ id, code }));
  const script = scriptOf(list);
  const loader = runInThisContext(asAscii(script)) as (nodeRequire: NodeJS.Require, base: string) => (id: string) => Record<string, unknown>;
  return loader(createRequire(import.meta.url), BASE);
}

const refusal = (modules: Record<string, string>): string => {
  try {
    loaderOf(modules);
  } catch (error) {
    assert.ok(error instanceof ScriptModuleError, String(error));
    return error.message;
  }
  assert.fail('converted');
};

describe('modules as one script (src/cli/script-modules.ts)', () => {
  it('converts the import and export forms the code base writes', async () => {
    const load = loaderOf({
      'a.ts': [
        "import { b as renamed, c } from './lib/b.ts';",
        "import * as whole from './lib/b.ts';",
        "import path from 'node:path';",
        "import {",
        "  sep,",
        "} from 'node:path';",
        'export function f() { return renamed + c; }',
        'export async function g() { return (await import("./lib/b.ts")).b; }',
        'export function* h() { yield whole.c; }',
        'export const url = import.meta.url;',
        'export class K { static base = path.basename("/x/y.ts"); }',
        'const local = sep;',
        'export { local as separator };',
        'export {          };',
        "export { b } from './lib/b.ts';",
      ].join('\n'),
      'lib/b.ts': "export const b = 'b';\nexport const c = \"c\";\n",
    });
    const a = load('a.ts');
    assert.equal((a['f'] as () => string)(), 'bc');
    assert.equal(await (a['g'] as () => Promise<string>)(), 'b');
    assert.deepEqual([...(a['h'] as () => Iterable<string>)()], ['c']);
    assert.equal(a['url'], `${BASE}a.ts`, "import.meta.url is the module's own URL");
    assert.equal((a['K'] as { base: string }).base, 'y.ts');
    assert.equal(a['separator'], posix.sep);
    assert.equal(a['b'], 'b');
    assert.deepEqual(Object.keys(a).sort(), ['K', 'b', 'f', 'g', 'h', 'separator', 'url']);
  });

  it('runs each module once, when first imported, after the modules it imports', () => {
    const order: string[] = [];
    (globalThis as { __order?: string[] }).__order = order;
    try {
      const load = loaderOf({
        // A statement written before an import still runs after it, as in an ES module.
        'main.ts': "__order.push('main starts');\nimport { one } from './one.ts';\nimport './two.ts';\n__order.push('main ' + one);",
        'one.ts': "import './two.ts';\n__order.push('one');\nexport const one = 1;\nexport {} from './three.ts';",
        'three.ts': "__order.push('three');",
        'two.ts': "__order.push('two');",
        'unused.ts': "__order.push('unused');",
      });
      load('main.ts');
      load('main.ts');
      assert.deepEqual(order, ['two', 'three', 'one', 'main starts', 'main 1']);
    } finally {
      delete (globalThis as { __order?: string[] }).__order;
    }
  });

  it('keeps every line where it was, so stack traces name the source line', () => {
    const code = ["import {", "  b,", "} from './b.ts';", 'export const x = b;', "export { b as c } from './b.ts';", 'export function f() { throw new Error("line 6"); }'].join('\n');
    const script = scriptOf([{ id: 'a.ts', code }, { id: 'b.ts', code: 'export const b = 1;' }]);
    const body = script.slice(script.indexOf('"a.ts": function'));
    const lines = body.split('\n').slice(1);
    assert.equal(lines[5], 'export function f() { throw new Error("line 6"); }'.replace('export', '      '));
  });

  it('refuses what it cannot convert faithfully, naming the module', () => {
    assert.match(refusal({ 'a.ts': "import { b } from './b.ts';\nexport const a = 1;", 'b.ts': "import { a } from './a.ts';\nexport const b = a;" }), /modules import each other: a\.ts -> b\.ts -> a\.ts|b\.ts -> a\.ts -> b\.ts/);
    assert.match(refusal({ 'a.ts': 'export let counter = 0;' }), /^a\.ts: an exported binding that can be reassigned/);
    assert.match(refusal({ 'a.ts': 'export default 1;' }), /^a\.ts: a default export/);
    assert.match(refusal({ 'a.ts': "import b from './b.ts';", 'b.ts': '' }), /^a\.ts: a default import/);
    assert.match(refusal({ 'a.ts': "import fs, { readFileSync } from 'node:fs';" }), /^a\.ts: an import clause/);
    assert.match(refusal({ 'a.ts': 'export const load = (name) => import(name);' }), /^a\.ts: an import\(\) of a specifier known only when it runs/);
    assert.match(refusal({ 'a.ts': 'export const dir = import.meta.dirname;' }), /^a\.ts: import\.meta beyond its url/);
    assert.match(refusal({ 'a.ts': 'export const text = String.raw`\\u00e9`;' }), /^a\.ts: a raw template/);
    assert.match(refusal({ 'a.ts': "export const text = '\\é';" }), /^a\.ts: an escaped character beyond ASCII/);
    assert.match(refusal({ 'a.ts': "import { x } from './missing.ts';" }), /^a\.ts imports \.\/missing\.ts, which is not a module here/);
    assert.match(refusal({ 'a.ts': 'export * from "./b.ts";', 'b.ts': '' }), /^a\.ts: an export this conversion does not know/);
  });

  it('writes the script in ASCII with the same meaning', () => {
    const load = loaderOf({ 'a.ts': "export const dot = 'a · b';\nexport const dash = /[–—]/.test('x — y');\nexport const rocket = `🚀`;\n// a comment with × in it\n" });
    const a = load('a.ts');
    assert.deepEqual([a['dot'], a['dash'], a['rocket']], ['a · b', true, '🚀']);
    assert.equal(asAscii("'é'\u2002x"), "'\\u00e9' x", 'whitespace the stripping wrote becomes a space');
    assert.match(asAscii(scriptOf([{ id: 'a.ts', code: "export const s = 'ü';" }])), /^[\x00-\x7f]*$/);
  });
});
