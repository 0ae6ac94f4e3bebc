// The CLI entry (src/main.ts): the Node floor it checks first, and Node's compile cache it turns
// on in the user's cache directory (docs/cli.md). The floor on a real older Node is checked by
// test/package/run.ts, which can install one.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { userCacheDirectory } from '../../src/cli/compile-cache.ts';
import { nodeFloor } from '../../src/cli/node-floor.ts';
import { openPackageModules, openScriptModules } from '../../src/cli/package-modules.ts';
import { ScriptModuleError } from '../../src/cli/script-modules.ts';
import { currentSourceScript, sourceScriptPath } from '../../src/cli/source-script.ts';
import { writeSourceScript } from '../../src/cli/source-script-writer.ts';
import { ownSourceModule } from '../../src/cli/source-imports.ts';
import { nativeTypeScript, nodeTsArgs } from '../_helpers/node.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;
// A checkout starts from the script it wrote of itself (src/cli/source-script.ts) once it has
// one; asking for source maps runs src/ itself, as tsx (Node 20) always does.
const FROM_SRC = nativeTypeScript ? ['--enable-source-maps'] : [];
const NO_STRIP = typeof (module as { stripTypeScriptTypes?: unknown }).stripTypeScriptTypes === 'function' ? false : `Node strips types in process from 22.13 (this is ${process.version})`;

const scratch = mkdtempSync(join(tmpdir(), 'lce-entry-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const NO_CACHE_API = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function' ? false : `Node's compile cache needs Node >= 22.1 (this is ${process.version})`;

/** The environment of a first start whose user cache directory is `cacheHome`. */
function envWithCacheHome(cacheHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cacheHome };
  delete env['NODE_COMPILE_CACHE'];
  delete env['NODE_DISABLE_COMPILE_CACHE'];
  return env;
}

/** Runs `fn` with the user cache directory at `cacheHome` and `extra` in the environment. */
const withCacheHome = <T>(cacheHome: string, fn: () => T, extra: Record<string, string> = {}): T => {
  const saved = { ...process.env };
  Object.assign(process.env, { XDG_CACHE_HOME: cacheHome, ...extra });
  delete process.env['LOCALAPPDATA'];
  if (!('NODE_DISABLE_COMPILE_CACHE' in extra)) delete process.env['NODE_DISABLE_COMPILE_CACHE'];
  try {
    return fn();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
};

/** src/main.ts with `flags` (Node's) and `args` (its own), started to its Listening line; `exited` settles when it ends. */
async function startMain(flags: string[], args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, [...nodeTsArgs, ...flags, MAIN, '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve) => {
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (stdout.includes('Listening on')) resolve();
    });
  });
  return { child, exited };
}

/** The files of the compile cache under `cacheHome` (one folder per Node version inside). */
function cachedEntries(cacheHome: string): string[] {
  const dir = join(cacheHome, 'local-calendar-emulator', 'compile-cache');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((version) => readdirSync(join(dir, version)));
}

describe('the Node floor', () => {
  it('asks for 20.16 below it, for 22.3 on 21.x and early 22.x, and nothing from there on', () => {
    for (const old of ['12.22.12', '16.20.2', '18.20.8', '20.0.0', '20.11.1', '20.12.2', '20.15.1']) assert.equal(nodeFloor(old), '20.16', old);
    for (const between of ['21.0.0', '21.7.3', '22.0.0', '22.2.0']) assert.equal(nodeFloor(between), '22.3', between);
    for (const fine of ['20.16.0', '20.19.5', '22.3.0', '22.13.1', '23.0.0', '24.21.0', '25.1.0']) assert.equal(nodeFloor(fine), undefined, fine);
  });
});

describe('the compile cache', () => {
  it("lives in the platform's user cache directory", () => {
    assert.equal(userCacheDirectory({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u'), '/x/cache');
    assert.equal(userCacheDirectory({}, 'linux', '/home/u'), join('/home/u', '.cache'));
    assert.equal(userCacheDirectory({ XDG_CACHE_HOME: '' }, 'linux', '/home/u'), join('/home/u', '.cache'));
    assert.equal(userCacheDirectory({}, 'darwin', '/Users/u'), join('/Users/u', 'Library', 'Caches'));
    assert.equal(userCacheDirectory({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Local');
  });

  it('is written there, with the modules the service starts with, and nothing in the repository', { skip: NO_CACHE_API }, () => {
    const cacheHome = mkdtempSync(join(scratch, 'home-'));
    const before = new Set(readdirSync(ROOT));
    const result = spawnSync(process.execPath, [...nodeTsArgs, ...FROM_SRC, MAIN, '--version'], { env: envWithCacheHome(cacheHome), encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    // More than the few modules main.ts itself imports: the service's were compiled after it.
    assert.ok(cachedEntries(cacheHome).length > 50, `${cachedEntries(cacheHome).length} entries`);
    assert.deepEqual(readdirSync(ROOT).filter((name) => !before.has(name)), []);
  });

  it('is flushed once the service has started, so a SIGKILL later does not lose it', { skip: NO_CACHE_API }, async () => {
    const cacheHome = mkdtempSync(join(scratch, 'home-'));
    const { child, exited } = await startMain(FROM_SRC, ['--quiet'], envWithCacheHome(cacheHome));
    child.kill('SIGKILL');
    await exited;
    assert.ok(cachedEntries(cacheHome).length > 50, `${cachedEntries(cacheHome).length} entries`);
  });

  it('a cache directory that cannot be made leaves the cache off and the service working', () => {
    const notADirectory = join(scratch, 'a-file');
    writeFileSync(notADirectory, '');
    const result = spawnSync(process.execPath, [...nodeTsArgs, MAIN, '--version'], { env: envWithCacheHome(notADirectory), encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.equal(result.stderr, '');
  });
});

describe('what a start loads', () => {
  it("resolves the service's relative TypeScript imports by URL, and leaves everything else to Node", () => {
    const parent = 'file:///checkout/src/composition/service.ts';
    assert.deepEqual(ownSourceModule('../store/open.ts', parent), { url: 'file:///checkout/src/store/open.ts', format: 'module-typescript', shortCircuit: true });
    assert.deepEqual(ownSourceModule('./workspace.ts', parent), { url: 'file:///checkout/src/composition/workspace.ts', format: 'module-typescript', shortCircuit: true });
    assert.equal(ownSourceModule('node:http', parent), undefined);
    assert.equal(ownSourceModule('typescript', parent), undefined);
    assert.equal(ownSourceModule('./inspector/app.js', parent), undefined);
    assert.equal(ownSourceModule('/abs/path.ts', parent), undefined);
    assert.equal(ownSourceModule('./x.ts', 'data:text/javascript,'), undefined);
    assert.equal(ownSourceModule('./x.ts', undefined), undefined);
  });

  // tsx's loader (Node 20) runs on a worker thread of its own.
  it('leaves the builtins a default start does not use unloaded until they are needed (docs/performance.md "Start-up")', { skip: nativeTypeScript ? false : 'tsx loads node:worker_threads itself' }, async () => {
    // Reports, at the Listening line, the builtin modules loaded so far.
    const probe = `const write = process.stdout.write.bind(process.stdout); process.stdout.write = (text, ...rest) => { if (String(text).startsWith('Listening on')) process.stderr.write('LOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'); return write(text, ...rest); };`;
    const child = spawn(process.execPath, [...nodeTsArgs, '--import', `data:text/javascript,${encodeURIComponent(probe)}`, MAIN, '--port', '0', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const loaded = await new Promise<string[]>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
        const line = /^LOADED (.*)$/m.exec(stderr);
        if (line) resolve(JSON.parse(line[1] as string) as string[]);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    child.kill();
    // (node:child_process and node:dns come with node:http's own start.)
    for (const builtin of ['https', 'tls', 'zlib', 'worker_threads']) {
      assert.ok(!loaded.includes(`NativeModule ${builtin}`), `node:${builtin} is loaded at start`);
    }
  });
});

describe("the package's code cache (src/cli/package-modules.ts)", () => {
  const cacheFiles = (cacheHome: string): string[] => {
    const dir = join(cacheHome, 'local-calendar-emulator', 'code-cache');
    return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
  };
  const script = (folder: string, body: string): URL => {
    mkdirSync(folder, { recursive: true });
    const path = join(folder, 'modules.js');
    writeFileSync(path, `(function (nodeRequire, BASE) { return (id) => ${body}; })\n`);
    return pathToFileURL(path);
  };

  it('loads modules from the script, writes its code cache once, and keeps it while V8 accepts it', { skip: process.platform === 'win32' ? 'XDG_CACHE_HOME is not read on Windows' : false }, () => {
    const cacheHome = mkdtempSync(join(scratch, 'code-'));
    const url = script(join(scratch, 'pkg-a'), "'loaded ' + id");
    const first = withCacheHome(cacheHome, () => openPackageModules(url));
    assert.equal(first.load('cli/process.js'), 'loaded cli/process.js');
    withCacheHome(cacheHome, () => first.saveCodeCache());
    const [file] = cacheFiles(cacheHome);
    assert.ok(file !== undefined, 'written');
    const written = statSync(file).mtimeMs;
    assert.match(readFileSync(file, 'latin1'), new RegExp(`^v[\\d.]+ \\S+ \\d+ [\\d.]+ ${url.pathname.replaceAll('/', '\\/')}\\n`), 'the key comes first');

    const second = withCacheHome(cacheHome, () => openPackageModules(url));
    withCacheHome(cacheHome, () => second.saveCodeCache());
    assert.equal(statSync(file).mtimeMs, written, 'an accepted cache is not written again');
    assert.equal(cacheFiles(cacheHome).length, 1);
  });

  it('never reads the cache of another file, and writes none with NODE_DISABLE_COMPILE_CACHE', { skip: process.platform === 'win32' ? 'XDG_CACHE_HOME is not read on Windows' : false }, () => {
    const cacheHome = mkdtempSync(join(scratch, 'code-'));
    const url = script(join(scratch, 'pkg-b'), "'b ' + id");
    withCacheHome(cacheHome, () => openPackageModules(url).saveCodeCache());
    const [file] = cacheFiles(cacheHome);
    assert.ok(file !== undefined);
    // Another file's cache under this one's name (a hash collision): its key does not match.
    writeFileSync(file, Buffer.concat([Buffer.from('another key\n'), readFileSync(file).subarray(readFileSync(file).indexOf(10) + 1)]));
    const reopened = withCacheHome(cacheHome, () => openPackageModules(url));
    assert.equal(reopened.load('x'), 'b x');
    withCacheHome(cacheHome, () => reopened.saveCodeCache());
    assert.ok(readFileSync(file, 'latin1').startsWith(`v`), 'written anew under its own key');

    // The file rebuilt: the old cache is never used for it, and its own replaces it.
    writeFileSync(fileURLToPath(url), `(function (nodeRequire, BASE) { return (id) => 'rebuilt ' + id; })\n`);
    const rebuilt = withCacheHome(cacheHome, () => openPackageModules(url));
    assert.equal(rebuilt.load('x'), 'rebuilt x');
    withCacheHome(cacheHome, () => rebuilt.saveCodeCache());
    assert.deepEqual(cacheFiles(cacheHome), [file]);
    const rebuiltSize = statSync(fileURLToPath(url)).size;
    assert.ok(readFileSync(file, 'latin1').startsWith(`${process.version} ${process.arch} ${rebuiltSize} `), "the rebuilt script's key");

    const off = mkdtempSync(join(scratch, 'code-'));
    withCacheHome(off, () => openPackageModules(url).saveCodeCache(), { NODE_DISABLE_COMPILE_CACHE: '1' });
    assert.deepEqual(cacheFiles(off), []);
  });
});

describe("a source checkout's own script (src/cli/source-script.ts)", { skip: NO_STRIP }, () => {
  /** A checkout in a scratch folder with `files` in src/, and its script written into `cacheHome`. */
  const checkout = (cacheHome: string, files: Record<string, string>): { src: URL; root: string } => {
    const root = mkdtempSync(join(scratch, 'checkout-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, 'src', path, '..'), { recursive: true });
      writeFileSync(join(root, 'src', path), text);
    }
    const src = pathToFileURL(join(root, 'src') + '/');
    withCacheHome(cacheHome, () => writeSourceScript(src));
    return { src, root };
  };
  const FILES = {
    'main.ts': 'not in the script: it decides whether to load it',
    'cli/process.ts': "import { greeting } from './words.ts';\nexport const started: string = greeting + ' from ' + import.meta.url;",
    'cli/words.ts': "export const greeting = 'hello';",
    'inspector/app.js': 'the browser runs this',
  };
  const current = (cacheHome: string, src: URL) => withCacheHome(cacheHome, () => currentSourceScript(src));

  it('is used while every module is as it was written, and runs them with their own URLs', () => {
    const cacheHome = mkdtempSync(join(scratch, 'home-'));
    const { src } = checkout(cacheHome, FILES);
    const script = current(cacheHome, src);
    assert.ok(script !== undefined);
    assert.equal(script.path, withCacheHome(cacheHome, () => sourceScriptPath(fileURLToPath(src))));
    assert.ok(script.path.startsWith(join(cacheHome, 'local-calendar-emulator', 'source-script')));
    const modules = withCacheHome(cacheHome, () => openScriptModules(script.path, script.text, src));
    assert.equal((modules.load('cli/process.ts') as { started: string }).started, `hello from ${new URL('cli/process.ts', src).href}`);
    assert.throws(() => modules.load('main.ts'), /no module main\.ts/);
    assert.throws(() => modules.load('inspector/app.js'), /no module inspector\/app\.js/);
  });

  it('is not used once a module is edited, touched or removed, nor when written by another Node or unreadable', () => {
    const cacheHome = mkdtempSync(join(scratch, 'home-'));
    const edited = checkout(cacheHome, FILES);
    writeFileSync(join(edited.root, 'src', 'cli', 'words.ts'), "export const greeting = 'hi';");
    assert.equal(current(cacheHome, edited.src), undefined, 'edited');

    const touched = checkout(cacheHome, FILES);
    utimesSync(join(touched.root, 'src', 'cli', 'words.ts'), new Date(), new Date(Date.now() + 5_000));
    assert.equal(current(cacheHome, touched.src), undefined, 'same size, newer');

    const removed = checkout(cacheHome, FILES);
    rmSync(join(removed.root, 'src', 'cli', 'words.ts'));
    assert.equal(current(cacheHome, removed.src), undefined, 'removed');

    const folderNowFile = checkout(cacheHome, FILES);
    rmSync(join(folderNowFile.root, 'src', 'cli'), { recursive: true });
    writeFileSync(join(folderNowFile.root, 'src', 'cli'), 'a file where the folder was');
    assert.equal(current(cacheHome, folderNowFile.src), undefined, 'a folder that is now a file');

    const otherNode = checkout(cacheHome, FILES);
    const path = withCacheHome(cacheHome, () => sourceScriptPath(fileURLToPath(otherNode.src)));
    writeFileSync(path, readFileSync(path, 'latin1').replace(`"node":"${process.version}"`, '"node":"v22.13.0"'), 'latin1');
    assert.equal(current(cacheHome, otherNode.src), undefined, 'written by another Node');
    writeFileSync(path, '//{"node": \nnot a script');
    assert.equal(current(cacheHome, otherNode.src), undefined, 'unreadable');

    const untouched = checkout(cacheHome, FILES);
    assert.equal(withCacheHome(cacheHome, () => currentSourceScript(untouched.src), { NODE_DISABLE_COMPILE_CACHE: '1' }), undefined, 'with the compile cache off');
    const enabled = process.sourceMapsEnabled;
    process.setSourceMapsEnabled(true);
    try {
      assert.equal(current(cacheHome, untouched.src), undefined, 'with source maps on');
    } finally {
      process.setSourceMapsEnabled(enabled);
    }
    assert.ok(current(cacheHome, untouched.src) !== undefined);
  });

  it('is not written for a checkout with a module it would convert wrongly', () => {
    const cacheHome = mkdtempSync(join(scratch, 'home-'));
    assert.throws(() => checkout(cacheHome, { ...FILES, 'cli/counter.ts': 'export let count = 0;' }), ScriptModuleError);
    const folder = join(cacheHome, 'local-calendar-emulator', 'source-script');
    assert.deepEqual(existsSync(folder) ? readdirSync(folder) : [], []);
  });

  it("holds every module of this checkout's src/ but the entry and the browser's files", () => {
    const cacheHome = mkdtempSync(join(scratch, 'home-'));
    const src = new URL('../../src/', import.meta.url);
    const text = readFileSync(withCacheHome(cacheHome, () => writeSourceScript(src)), 'latin1');
    const ids = [...text.matchAll(/^"([^"]+)": function \(exports, require, __moduleUrl\) \{/gm)].map((m) => m[1]);
    const expected = readdirSync(fileURLToPath(src), { recursive: true })
      .map((name) => String(name).split('\\').join('/'))
      .filter((id) => id.endsWith('.ts') && id !== 'main.ts' && !id.startsWith('inspector/'))
      .sort();
    assert.deepEqual(ids.sort(), expected);
  });

  it('is written by a start from src/ and used by the next start; not with --enable-source-maps', async () => {
    const cacheHome = mkdtempSync(join(scratch, 'home-'));
    const folder = (name: string): string[] => {
      const dir = join(cacheHome, 'local-calendar-emulator', name);
      return existsSync(dir) ? readdirSync(dir) : [];
    };
    /** Starts src/main.ts to its Listening line, then waits for `until` before stopping it. */
    const startOnce = async (flags: string[], until: () => boolean): Promise<void> => {
      const { child, exited } = await startMain(flags, ['--quiet'], envWithCacheHome(cacheHome));
      for (let waited = 0; !until() && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      child.kill();
      await exited;
    };
    await startOnce(['--enable-source-maps'], () => true);
    assert.deepEqual(folder('source-script'), [], 'none written with source maps on');
    await startOnce([], () => folder('source-script').length > 0);
    assert.equal(folder('source-script').length, 1, 'written after the first start');
    assert.deepEqual(folder('code-cache'), [], 'that start ran src/');
    // Only a start from a script writes a code cache of its own (src/cli/package-modules.ts).
    await startOnce([], () => folder('code-cache').length > 0);
    assert.equal(folder('code-cache').length, 1, 'the next start ran the script');
  });
});
