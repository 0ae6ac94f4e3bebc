// The package's modules once more, in one script, for the bin to start from (docs/performance.md
// "Start-up"). dist/ keeps src/'s module layout, a JavaScript file per module, which is what
// `import` from the package and the SQLite store's threads load; the bin (main.js) starts from
// dist/modules.js, the same modules converted by src/cli/script-modules.ts, the conversion a
// source checkout makes of itself, and compiled by src/cli/package-modules.ts with a V8 code cache
// made after the start. Comments are left out (a quarter less to read and hash at every start);
// the per-module files beside it keep them. main.js itself is not in it: it is written for any
// Node to parse, so that an old one still reaches the floor message.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { asAscii, refuseWideSpace, scriptOf } from '../src/cli/script-modules.ts';

const BUNDLE = 'modules.js';
const MAIN = 'main.js';

/** dist/'s modules as ids relative to it, posix-style ("store/open.js"), without the inspector's browser files. */
function moduleIds(dist: string): string[] {
  const ids: string[] = [];
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const id = relative(dist, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (!id.startsWith('inspector/') && id !== MAIN && id !== BUNDLE) ids.push(id);
  }
  return ids.sort();
}

const withoutComments = (id: string, code: string): string =>
  ts.transpileModule(code, {
    fileName: id,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, newLine: ts.NewLineKind.LineFeed, removeComments: true },
  }).outputText;

export function bundleDist(dist: string): void {
  const ids = moduleIds(dist);
  const modules = ids.map((id) => {
    const code = readFileSync(join(dist, id), 'utf8');
    refuseWideSpace(id, code);
    return { id, code: withoutComments(id, code) };
  });
  const script = scriptOf(modules);
  writeFileSync(join(dist, BUNDLE), asAscii(`// The package's modules in one file, built by .ci/bundle-package.ts.\n${script}`), 'latin1');
}
