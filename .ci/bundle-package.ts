// The package's modules once more, in one script, for the bin to start from (docs/performance.md
// "Start-up"). dist/ keeps src/'s module layout, a JavaScript file per module, which is what
// `import` from the package and the SQLite store's threads load. But Node's ES module loader
// pays for every file it loads (it resolves the specifier, looks for the package scope, stats,
// reads and links the file), the service starts with some 160 of them, and Node's compile cache
// of a module holds only the code V8 compiles before the module runs. So the bin (main.js)
// starts from dist/modules.js, the same modules in one classic script, which
// src/cli/package-modules.ts compiles with a V8 code cache made after the start.
//
// Each module keeps its own scope and its own evaluation order: TypeScript turns it into a
// CommonJS-shaped function (its `exports.name` reads stay live, as ES module bindings are),
// `load` runs each at most once and on first need, and `import.meta.url` reads the URL of the
// module's own file in dist/, so paths it builds from it (the default fixture, the inspector's
// files, a thread's module) stay right. Comments are left out (a quarter less to read and hash at
// every start); the per-module files beside it keep them. main.js itself is not in it: it is
// written for any Node to parse, so that an old one still reaches the floor message.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

const BUNDLE = 'modules.js';
const MAIN = 'main.js';

/** dist/'s modules as ids relative to it, posix-style ("store/open.js"), without the inspector's browser files. */
function moduleIds(dist: string): string[] {
  const ids: string[] = [];
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const id = relative(dist, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (!id.startsWith('inspector/')) ids.push(id);
  }
  return ids.sort();
}

function asFunction(id: string, code: string, ids: ReadonlySet<string>): string {
  const commonJs = ts.transpileModule(code.replaceAll('import.meta.url', '__moduleUrl'), {
    fileName: id,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, newLine: ts.NewLineKind.LineFeed, removeComments: true },
  }).outputText;
  if (/\bimport\.meta\b/.test(commonJs)) throw new Error(`bundle-package: ${id} reads import.meta beyond its url`);
  // Relative specifiers become ids here, once, rather than paths joined at every start.
  const withIds = commonJs.replace(/\brequire\("(\.{1,2}\/[^"]+)"\)/g, (_, specifier: string) => {
    const target = posix.join(posix.dirname(id), specifier);
    if (!ids.has(target)) throw new Error(`bundle-package: ${id} imports ${specifier}, which is not in dist/`);
    return `require(${JSON.stringify(target)})`;
  });
  return `${JSON.stringify(id)}: function (exports, require, __moduleUrl) {\n${withIds}\n},`;
}

// A script, not a module: src/cli/package-modules.ts compiles it with a code cache of its own.
// It evaluates to a function of Node's require and the URL of dist/, which returns `load`.
const LOADER = `(function (nodeRequire, BASE) {
const loaded = new Map();
const requireModule = (specifier) => (Object.hasOwn(MODULES, specifier) ? load(specifier) : nodeRequire(specifier));

/** The exports of the module \`id\` ("store/open.js"), evaluated on its first load. */
function load(id) {
  let exports = loaded.get(id);
  if (exports !== undefined) return exports;
  const define = MODULES[id];
  if (define === undefined) throw new Error(\`no module \${id} in the bundle\`);
  exports = {};
  loaded.set(id, exports);
  define(exports, requireModule, BASE + id);
  return exports;
}
`;

export function bundleDist(dist: string): void {
  const ids = moduleIds(dist).filter((id) => id !== MAIN);
  const known = new Set(ids);
  const definitions = ids.map((id) => asFunction(id, readFileSync(join(dist, id), 'utf8'), known));
  writeFileSync(join(dist, BUNDLE), `// The package's modules in one file, built by .ci/bundle-package.ts.\n${LOADER}\nconst MODULES = {\n${definitions.join('\n')}\n};\nreturn load;\n})\n`);
}
