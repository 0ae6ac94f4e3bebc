// Puts the package's modules into one file (docs/performance.md "Start-up"). Node's ES module
// loader pays for every file it loads: it resolves the specifier, looks for the package scope,
// stats and reads the file and links it, about a third of a millisecond each, and the service
// starts with some 190 of them. In one file they cost one read and one compile.
//
// Each module keeps its own scope and its own evaluation order: TypeScript turns it into a
// CommonJS-shaped function (its `exports.name` reads stay live, as ES module bindings are),
// `load` runs each at most once and on first need, and `import.meta.url` reads the URL the
// module has in dist/, so paths it builds from it (the default fixture, the inspector's files,
// the checkpoint worker) stay right. The files loaded from outside the bundle (ENTRIES) become
// two-line stubs that load their module from it; main.js and what it imports statically stay
// files of their own, written for any Node to parse, so an old Node still reaches the floor
// message. dist/ keeps the declarations of every module.

import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const BUNDLE = 'modules.js';
const MAIN = 'main.js';
/** Modules loaded by a path rather than an import: the CLI (main.js's dynamic import), the package's import, the SQLite store's two threads. */
const ENTRIES = ['cli/process.js', 'index.js', 'store/checkpoint-worker.js', 'store/connection-handoff-worker.js'];

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

/** The ids main.js imports statically, with theirs: they load before the bundle and stay files. */
function mainClosure(dist: string): Set<string> {
  const closure = new Set<string>();
  const visit = (id: string): void => {
    if (closure.has(id)) return;
    closure.add(id);
    for (const [, specifier] of readFileSync(join(dist, id), 'utf8').matchAll(/^import [^;]*? from ["'](\.[^"']+)["'];$/gm)) {
      visit(posix.join(posix.dirname(id), specifier as string));
    }
  };
  visit(MAIN);
  return closure;
}

function asFunction(id: string, code: string, ids: ReadonlySet<string>): string {
  const commonJs = ts.transpileModule(code.replaceAll('import.meta.url', '__moduleUrl'), {
    fileName: id,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, newLine: ts.NewLineKind.LineFeed },
  }).outputText;
  if (/\bimport\.meta\b/.test(commonJs)) throw new Error(`bundle-package: ${id} reads import.meta beyond its url`);
  // Relative specifiers become ids here, once, rather than paths joined at every start.
  const withIds = commonJs.replace(/\brequire\("(\.{1,2}\/[^"]+)"\)/g, (_, specifier: string) => {
    const target = posix.join(posix.dirname(id), specifier);
    if (!ids.has(target)) throw new Error(`bundle-package: ${id} imports ${specifier}, which is not in dist/`);
    return `require(${JSON.stringify(target)})`;
  });
  // In parentheses: V8 compiles such a function with the file, so the compile cache keeps it.
  return `${JSON.stringify(id)}: (function (exports, require, __moduleUrl) {\n${withIds}\n}),`;
}

const LOADER = `
import { createRequire } from 'node:module';

const nodeRequire = createRequire(import.meta.url);
const BASE = new URL('./', import.meta.url).href;
const loaded = new Map();
const requireModule = (specifier) => (Object.hasOwn(MODULES, specifier) ? load(specifier) : nodeRequire(specifier));

/** The exports of the module \`id\` ("store/open.js"), evaluated on its first load. */
export function load(id) {
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

export async function bundleDist(dist: string): Promise<void> {
  const ids = moduleIds(dist);
  for (const entry of ENTRIES) if (!ids.includes(entry)) throw new Error(`bundle-package: entry ${entry} is not in dist/`);
  // The package's import keeps its names: read from the module tsc wrote, before it is replaced.
  const indexNames = Object.keys(await import(pathToFileURL(join(dist, 'index.js')).href)).filter((name) => name !== 'default');
  // A thread started from a module's URL needs its file: every one must be an entry.
  for (const id of ids) {
    for (const [, name] of readFileSync(join(dist, id), 'utf8').matchAll(/new Worker\(new URL\(`\.\/([\w-]+)\$\{/g)) {
      const worker = posix.join(posix.dirname(id), `${name as string}.js`);
      if (!ENTRIES.includes(worker)) throw new Error(`bundle-package: ${id} starts a thread from ${worker}, which is not in ENTRIES`);
    }
  }
  const keep = mainClosure(dist);
  const bundled = ids.filter((id) => id !== MAIN);
  const definitions = bundled.map((id) => asFunction(id, readFileSync(join(dist, id), 'utf8'), new Set(ids)));
  writeFileSync(join(dist, BUNDLE), `// The package's modules in one file, built by .ci/bundle-package.ts.\n${LOADER}\nconst MODULES = {\n${definitions.join('\n')}\n};\n`);
  for (const id of bundled) if (!keep.has(id)) rmSync(join(dist, id));
  for (const entry of ENTRIES) {
    const bundle = posix.relative(posix.dirname(entry), BUNDLE);
    const from = bundle.startsWith('.') ? bundle : `./${bundle}`;
    const body = entry === 'index.js' ? `const index = load('index.js');\nexport const { ${indexNames.join(', ')} } = index;\n` : `load('${entry}');\n`;
    writeFileSync(join(dist, entry), `import { load } from '${from}';\n${body}`);
  }
}
