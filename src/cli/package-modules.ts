// How the package's bin runs the service (docs/performance.md "Start-up"): from dist/modules.js,
// the service's modules in one script (.ci/bundle-package.ts), compiled with a V8 code cache of
// its own. Node's module compile cache is made when a module is compiled, before it runs, so it
// holds only what V8 compiles up front: every function the service first calls while it starts
// was compiled again at every start. A script's code cache made after the start holds those too.
// It is written once per version of the file, beside Node's compile cache in the user's cache
// directory, one file per installed script and Node; a cache V8 refuses (other flags) or that
// another version of the script wrote is written anew; NODE_DISABLE_COMPILE_CACHE leaves both
// off. Imported by main.ts, so in syntax any Node parses.

import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { userCacheDirectory } from './compile-cache.ts';

export interface PackageModules {
  /** The exports of module `id` ("cli/process.js"), evaluated on its first load. */
  load(id: string): unknown;
  /** Writes the code cache, unless the one read at start was accepted. */
  saveCodeCache(): void;
}

type Loader = (nodeRequire: NodeJS.Require, base: string) => (id: string) => unknown;

/** The package's dist/modules.js, whose modules are the files beside it. */
export function openPackageModules(url: URL): PackageModules {
  const path = fileURLToPath(url);
  return openScriptModules(path, readFileSync(path, 'utf8'), new URL('./', url));
}

/**
 * The modules of the script `source`, read from the file at `path`; `base` is the URL of the
 * folder of the files they were made from, where each module's `import.meta.url` points.
 */
export function openScriptModules(path: string, source: string, base: URL): PackageModules {
  const cache = codeCacheOf(path);
  const cached = cache && readCodeCache(cache);
  const script = new Script(source, cached === undefined ? { filename: path } : { filename: path, cachedData: cached });
  const loader = script.runInThisContext() as Loader;
  const load = loader(createRequire(base), base.href);
  const fresh = cached !== undefined && !script.cachedDataRejected;
  return {
    load,
    saveCodeCache() {
      if (fresh || cache === undefined) return;
      try {
        mkdirSync(join(cache.file, '..'), { recursive: true });
        // Whole or not at all: starts running side by side may write it at once.
        const partial = `${cache.file}.${process.pid}`;
        writeFileSync(partial, Buffer.concat([Buffer.from(`${cache.key}\n`), script.createCachedData()]));
        renameSync(partial, cache.file);
      } catch {
        // A cache directory that cannot be written leaves the cache off, as Node's does.
      }
    },
  };
}

interface CodeCache {
  readonly file: string;
  /**
   * The runtime and the file's path, size and modification time: a rebuilt or reinstalled file
   * never meets the cache of another (V8 itself checks only the source's length).
   */
  readonly key: string;
}

/** Named by the runtime and the script's path alone: a rebuilt script replaces its cache rather than adding one. */
function codeCacheOf(path: string): CodeCache | undefined {
  if (process.env['NODE_DISABLE_COMPILE_CACHE']) return undefined;
  const stats = statSync(path);
  const runtime = `${process.version} ${process.arch}`;
  return {
    key: `${runtime} ${stats.size} ${stats.mtimeMs} ${path}`,
    file: join(userCacheDirectory(process.env, process.platform, homedir()), 'local-calendar-emulator', 'code-cache', `${fnv1a(`${runtime} ${path}`)}.bin`),
  };
}

/** The cached data written for `cache.key`, or undefined: none, unreadable, or another key's under the same name. */
function readCodeCache(cache: CodeCache): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cache.file);
  } catch {
    return undefined;
  }
  const header = Buffer.from(`${cache.key}\n`);
  return bytes.subarray(0, header.length).equals(header) ? bytes.subarray(header.length) : undefined;
}

/** A 32-bit FNV-1a hash, as hex: a file name for a key (the file holds the key itself), not a secret. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
