// Node's module compile cache (docs/cli.md), for Node >= 22.1; a no-op on older ones. A second
// start reuses the first one's compiled code, and on Node >= 23 the type-stripped source too. It
// only covers modules loaded after it is switched on, so main.ts switches it on before importing
// the service. The directory is the user's cache directory, never the repository or the package.
// Imported by main.ts, so written in the same old syntax as it; and it reads the environment's
// cache directory itself because it runs before src/config/config.ts, the service's reader of it, is loaded.

import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

interface CompileCacheApi {
  enableCompileCache?: (directory: string) => unknown;
  flushCompileCache?: () => void;
}

const api = module as unknown as CompileCacheApi;

/** The per-user cache directory: XDG's on Linux, the platform's own on macOS and Windows. */
export function userCacheDirectory(env: NodeJS.ProcessEnv, platform: string, home: string): string {
  if (platform === 'win32' && env['LOCALAPPDATA']) return env['LOCALAPPDATA'];
  if (platform === 'darwin') return join(home, 'Library', 'Caches');
  return env['XDG_CACHE_HOME'] || join(home, '.cache');
}

/**
 * Switches the cache on. NODE_COMPILE_CACHE, when set, has already done so with its own
 * directory (Node then answers "already enabled"); NODE_DISABLE_COMPILE_CACHE keeps it off. A
 * directory that cannot be written leaves it off: Node reports that in the return value, which
 * does not matter here, rather than throwing.
 */
export function enableCompileCache(): void {
  if (typeof api.enableCompileCache !== 'function') return;
  api.enableCompileCache(join(userCacheDirectory(process.env, process.platform, homedir()), 'local-calendar-emulator', 'compile-cache'));
}

/**
 * Writes what was compiled so far to the cache now. Node writes it at a normal exit, which a
 * service stopped with SIGKILL (a container runtime's last resort, a test runner's timeout)
 * never reaches; flushed after start-up, the first start's work is kept in any case.
 */
export function flushCompileCache(): void {
  if (typeof api.flushCompileCache === 'function') api.flushCompileCache();
  for (const flush of alsoFlushed) flush();
}

const alsoFlushed: Array<() => void> = [];

/** `flush` runs with every flushCompileCache(): the package's own code cache (package-modules.ts). */
export function alsoFlush(flush: () => void): void {
  alsoFlushed.push(flush);
}
