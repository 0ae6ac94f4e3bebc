// ES modules as one classic script (docs/performance.md "Start-up"): the form in which the
// package's bin and a source checkout start the service. Node's ES module loader pays for every
// file it loads (it resolves the specifier, looks up the package scope, reads, compiles and links
// it), the service starts with some 160, and Node's compile cache of a module holds only the code
// V8 compiles before the module runs; one script compiled with a V8 code cache made after the
// start (package-modules.ts) avoids all three.
//
// Each module becomes a function with its own scope, evaluated at most once and on first need, in
// the order its importers ask for it. Its `import` declarations become `const` bindings of the
// imported module's exports, all at the top of the function in the order they were written (ES
// modules evaluate what they import before their own body), and its exports are set when its
// body has run. That is what the ES module would do, given two properties the conversion checks instead of assuming: no module
// imports itself through others (a cycle would let an importer read exports not yet set), and no
// exported binding is reassigned (`export let`), so a copy is as good as a live binding. Only the
// forms this code base writes are accepted, each at the start of a line; anything else (a default
// export, `import.meta` beyond its url, an `import()` of a computed specifier) is refused with
// the module's name, and the caller starts from the ES modules instead. Line numbers stay those of
// the source.

import { posix } from 'node:path';

export class ScriptModuleError extends Error {}

/** A module's code, with types stripped, and its id ("store/open.ts"). */
export interface SourceModule {
  readonly id: string;
  readonly code: string;
}

/**
 * The script of `modules`: evaluated, a function of Node's require and the base URL of the
 * modules' folder, returning `load(id)`. A relative specifier names the module whose id is the
 * importer's folder joined with it ("../store/open.ts" from "cli/run.ts" is "store/open.ts"); any
 * other is Node's (a builtin).
 */
export function scriptOf(modules: readonly SourceModule[]): string {
  const ids = new Set(modules.map((module) => module.id));
  const imports = new Map<string, string[]>();
  const definitions = modules.map((module) => {
    const converted = convert(module, (specifier) => {
      if (!specifier.startsWith('.')) return specifier;
      const target = posix.join(posix.dirname(module.id), specifier);
      if (!ids.has(target)) throw new ScriptModuleError(`${module.id} imports ${specifier}, which is not a module here`);
      return target;
    });
    imports.set(module.id, converted.imports);
    // The bindings go on the function's own line, so the module's lines keep their numbers.
    return `${JSON.stringify(module.id)}: function (exports, require, __moduleUrl) { ${converted.bindings}\n${converted.code}\n},`;
  });
  refuseCycles(imports);
  return `${LOADER}\nconst MODULES = {\n${definitions.join('\n')}\n};\nreturn load;\n})\n`;
}

// The loader the script opens with; package-modules.ts calls the function it evaluates to.
const LOADER = `(function (nodeRequire, BASE) {
const loaded = new Map();
const requireModule = (specifier) => (Object.hasOwn(MODULES, specifier) ? load(specifier) : nodeRequire(specifier));

function load(id) {
  let exports = loaded.get(id);
  if (exports !== undefined) return exports;
  const define = MODULES[id];
  if (define === undefined) throw new Error(\`no module \${id} in the script\`);
  exports = {};
  loaded.set(id, exports);
  define(exports, requireModule, BASE + id);
  return exports;
}`;

// `import … from '…'`, `import '…'` and `export { … } from '…'`: what a module links to.
const LINK = /^import\s+([^'";]*?)\s*from\s*['"]([^'"]+)['"];|^import\s*['"]([^'"]+)['"];|^export\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]\s*;/gm;
const EXPORT_DECLARATION = /^export\s+(async\s+function\s*\*?|function\s*\*?|const\b|class\b|let\b|var\b|default\b)\s*([A-Za-z_$][\w$]*)?/gm;
const EXPORT_LIST = /^export\s*\{([^}]*)\}\s*;/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const NAME = /^[A-Za-z_$][\w$]*$/;

function convert(module: SourceModule, resolve: (specifier: string) => string): { bindings: string; code: string; imports: string[] } {
  const refuse = (what: string): never => {
    throw new ScriptModuleError(`${module.id}: ${what}`);
  };
  const imports: string[] = [];
  const importOf = (specifier: string): string => {
    const id = resolve(specifier);
    if (specifier.startsWith('.')) imports.push(id);
    return JSON.stringify(id);
  };
  const links: string[] = [];
  const exported: Array<[name: string, local: string]> = [];
  let code = module.code.replace(
    LINK,
    (whole: string, clause: string | undefined, from: string | undefined, bare: string | undefined, list: string | undefined, reexported: string | undefined) => {
      if (bare !== undefined) links.push(`require(${importOf(bare)});`);
      else if (from !== undefined) links.push(`const ${bindings(clause as string, from.startsWith('.'), refuse)} = require(${importOf(from)});`);
      else {
        const names = specifiers(list as string, refuse);
        const source = `require(${importOf(reexported as string)})`;
        links.push(names.length === 0 ? `${source};` : `{ const from = ${source}; ${names.map(([local, name]) => `exports.${name} = from.${local};`).join(' ')} }`);
      }
      return keepLines(whole, '');
    },
  );
  code = code.replace(EXPORT_LIST, (whole: string, list: string) => {
    exported.push(...specifiers(list, refuse).map(([local, name]): [string, string] => [name, local]));
    return keepLines(whole, '');
  });
  code = code.replace(EXPORT_DECLARATION, (whole: string, keyword: string, name: string | undefined) => {
    if (keyword === 'let' || keyword === 'var') refuse('an exported binding that can be reassigned');
    if (keyword === 'default') refuse('a default export');
    if (name === undefined) refuse(`an export this conversion does not know: ${whole}`);
    exported.push([name as string, name as string]);
    // The keyword stays where it was, and so does every column after it.
    return `      ${whole.slice(6)}`;
  });
  if (/^export\b/m.test(code)) refuse('an export this conversion does not know');
  if (/^import\b/m.test(code)) refuse('an import this conversion does not know');
  code = code.replace(DYNAMIC_IMPORT, (_, specifier: string) => `Promise.resolve().then(() => require(${importOf(specifier)}))`);
  // (A call with anything but a quoted specifier; "import()" in a comment or string is neither.)
  if (/\bimport\s*\(\s*[^'"\s)]/.test(code)) refuse('an import() of a specifier known only when it runs');
  if (/\bimport\.meta\.(?!url\b)/.test(code)) refuse('import.meta beyond its url');
  // What asAscii could not write the same.
  if (/\bString\.raw\b/.test(code)) refuse('a raw template');
  if (/\\[^\x00-\x7f]/.test(code)) refuse('an escaped character beyond ASCII');
  code = code.replaceAll('import.meta.url', '__moduleUrl');
  const exports = exported.map(([name, local]) => `exports.${name} = ${local};`).join(' ');
  return { bindings: links.join(' '), code: exports === '' ? code : `${code}\n${exports}`, imports };
}

/** The `{ a, b as c }` of an import clause as a destructuring pattern, a namespace (or a builtin's default) as a name. */
function bindings(clause: string, relative: boolean, refuse: (what: string) => never): string {
  const braces = clause.indexOf('{');
  const head = (braces === -1 ? clause : clause.slice(0, braces)).replace(/,\s*$/, '').trim();
  const list = braces === -1 ? [] : specifiers(clause.slice(braces + 1, clause.lastIndexOf('}')), refuse);
  const pattern = `{ ${list.map(([imported, local]) => (imported === local ? local : `${imported}: ${local}`)).join(', ')} }`;
  if (head === '') return pattern;
  const namespace = head.startsWith('*');
  const name = namespace ? head.replace(/^\*\s*as\s+/, '') : head;
  if (!NAME.test(name) || list.length > 0) refuse(`an import clause this conversion does not know: ${clause}`);
  // A builtin's default export is its module.exports, which is also what require gives; a
  // module here has no default export.
  if (!namespace && relative) refuse(`a default import: ${clause}`);
  return name;
}

/** `a, b as c` as [name in the module, name here] pairs; a list emptied by type stripping gives none. */
function specifiers(list: string, refuse: (what: string) => never): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of list.split(',')) {
    const words = part.trim().split(/\s+as\s+/);
    if (words[0] === '') continue;
    const [first, second = first] = words as [string, string?];
    if (!NAME.test(first) || !NAME.test(second as string) || words.length > 2) refuse(`a specifier this conversion does not know: ${part.trim()}`);
    pairs.push([first, second as string]);
  }
  return pairs;
}

/** `replacement` followed by as many line breaks as `original` held, so later lines keep their numbers. */
function keepLines(original: string, replacement: string): string {
  let breaks = 0;
  for (let i = original.indexOf('\n'); i !== -1; i = original.indexOf('\n', i + 1)) breaks++;
  return replacement + '\n'.repeat(breaks);
}

function refuseCycles(imports: ReadonlyMap<string, readonly string[]>): void {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (id: string): void => {
    if (done.has(id)) return;
    const at = path.indexOf(id);
    if (at !== -1) throw new ScriptModuleError(`modules import each other: ${[...path.slice(at), id].join(' -> ')}`);
    path.push(id);
    for (const next of imports.get(id) ?? []) visit(next);
    path.pop();
    done.add(id);
  };
  for (const id of imports.keys()) visit(id);
}

/** Whitespace beyond ASCII: Node's type stripping writes it where it removes a type that held such characters. */
const WIDE_SPACE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/**
 * Refuses module `id` if its text as written, before stripping or any other rewriting, holds
 * whitespace beyond ASCII: in the script, such whitespace then comes only from the rewriting, and
 * asAscii may write it as a space (a string holding it must not become one).
 */
export function refuseWideSpace(id: string, written: string): void {
  if (WIDE_SPACE.test(written)) throw new ScriptModuleError(`${id}: whitespace beyond ASCII`);
}

/**
 * `text` in ASCII: whitespace beyond it as spaces (in stripped sources, where only the stripping
 * puts it), every other character as a \u escape, which means the same in the strings,
 * templates, regular expressions, identifiers and comments of a converted module (convert refuses
 * raw templates and a backslash before such a character), so a script reads and hashes as
 * one-byte text.
 */
export function asAscii(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (c) => (WIDE_SPACE.test(c) ? ' ' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
