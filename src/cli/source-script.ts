// How a source checkout starts fast (docs/performance.md "Start-up"): from its modules in one
// script (script-modules.ts), as the package does, which the checkout writes for itself into the
// user's cache directory after a start from src/. The script records every module it was made
// from, with its size and modification time; a start uses it only while each of those files is
// still exactly as recorded and the Node that runs it is the one that stripped its types, so an
// edited, removed or newly imported module sends the start back to src/, which then writes the
// script anew. Asking for source positions in stack traces (--enable-source-maps; tsx turns them
// on) also runs src/ itself. Imported by main.ts, so in syntax any Node parses.

import { readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userCacheDirectory } from './compile-cache.ts';
import { fnv1a } from './package-modules.ts';

/** A module's path relative to src/ ("cli/run.ts"), its size and its mtimeMs. */
export type Stamp = [path: string, size: number, mtimeMs: number];

/** What the script's first line records. */
export interface Made {
  readonly node: string;
  readonly src: string;
  readonly stamps: Stamp[];
}

export interface SourceScript {
  readonly path: string;
  /** The script without its first line (a comment). */
  readonly text: string;
}

/** Where the script of the checkout whose src/ is `src` lives: one file per checkout and Node. */
export function sourceScriptPath(src: string): string {
  return join(userCacheDirectory(process.env, process.platform, homedir()), 'local-calendar-emulator', 'source-script', `${fnv1a(`${process.version} ${src}`)}.js`);
}

interface StripApi {
  stripTypeScriptTypes?: (code: string, options: { mode: 'strip' }) => string;
}
export const strip = (module as unknown as StripApi).stripTypeScriptTypes;

/** Whether this start may use a checkout's script and write one: not with source maps on or the compile cache off, and only where Node strips types itself (22.13). */
export function sourceScriptWanted(): boolean {
  return !process.sourceMapsEnabled && !process.env['NODE_DISABLE_COMPILE_CACHE'] && typeof strip === 'function';
}

/** The script of the checkout at `srcUrl`, if one was made from its modules exactly as they are now. */
export function currentSourceScript(srcUrl: URL): SourceScript | undefined {
  if (!sourceScriptWanted()) return undefined;
  const src = fileURLToPath(srcUrl);
  const path = sourceScriptPath(src);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  // ASCII throughout (script-modules.ts escapes the rest), so each byte is a character.
  const lineEnd = bytes.indexOf(10);
  let made: Made;
  try {
    made = JSON.parse(bytes.toString('latin1', 2, lineEnd)) as Made;
  } catch {
    return undefined;
  }
  if (made.node !== process.version || made.src !== src || !Array.isArray(made.stamps) || made.stamps.length === 0) return undefined;
  try {
    for (let i = 0; i < made.stamps.length; i++) {
      const stamp = made.stamps[i] as Stamp;
      const stats = statSync(src + stamp[0], { throwIfNoEntry: false });
      if (stats === undefined || stats.size !== stamp[1] || stats.mtimeMs !== stamp[2]) return undefined;
    }
  } catch {
    // A folder turned into a file (ENOTDIR), one no longer readable: not as recorded either.
    return undefined;
  }
  return { path, text: bytes.toString('latin1', lineEnd + 1) };
}
