// Writes a source checkout's script (source-script.ts, docs/performance.md "Start-up"): every
// module of src/ with its types stripped by Node, converted by script-modules.ts, and a first
// line that records what it was made from. Run on a thread of its own after a start from src/
// (source-script-worker.ts): stripping and converting some 190 modules takes a few hundred
// milliseconds, which a service that has just said it is listening must not take from its requests.

import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asAscii, refuseWideSpace, scriptOf } from './script-modules.ts';
import type { SourceModule } from './script-modules.ts';
import { sourceScriptPath, strip } from './source-script.ts';
import type { Made, Stamp } from './source-script.ts';

// The browser's files, and the entry, which runs before the script and decides to load it.
const NOT_IN_SCRIPT = /^(?:inspector\/|main\.ts$)/;

/**
 * Writes the script of the checkout at `srcUrl`, whole or not at all. Throws when this Node
 * cannot strip types itself, or a module is in a form script-modules.ts refuses.
 */
export function writeSourceScript(srcUrl: URL): string {
  if (typeof strip !== 'function') throw new Error(`Node ${process.version} cannot strip types in process`);
  const src = fileURLToPath(srcUrl);
  const stamps: Stamp[] = [];
  const modules: SourceModule[] = [];
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    const id = relative(src, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (!entry.isFile() || !id.endsWith('.ts') || NOT_IN_SCRIPT.test(id)) continue;
    // Stamped before it is read: a module edited meanwhile no longer matches, and is read anew next time.
    const stats = statSync(join(src, id));
    stamps.push([id, stats.size, stats.mtimeMs]);
    const code = readFileSync(join(src, id), 'utf8');
    refuseWideSpace(id, code);
    modules.push({ id, code: stripQuietly(strip, code) });
  }
  const script = scriptOf(modules);
  const made: Made = { node: process.version, src, stamps };
  const path = sourceScriptPath(src);
  mkdirSync(join(path, '..'), { recursive: true });
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, asAscii(`//${JSON.stringify(made)}\n${script}`), 'latin1');
  renameSync(partial, path);
  return path;
}

/**
 * `code` with its types stripped. Node warns that the call is experimental; the warning is for
 * whoever calls it, not for the person running the service, who gets the same modules either way.
 */
function stripQuietly(stripTypes: NonNullable<typeof strip>, code: string): string {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    return stripTypes(code, { mode: 'strip' });
  } finally {
    process.emitWarning = emitWarning;
  }
}
