// Writes a source checkout's script (source-script.ts, docs/performance.md "Start-up"): every
// module of src/ with its types stripped by Node, converted by script-modules.ts, and a first
// line that records what it was made from. Run on a thread of its own after a start from src/
// (source-script-worker.ts): stripping and converting some 190 modules takes a few hundred
// milliseconds, which a service that has just said it is listening must not take from its requests.

import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asAscii, ScriptModuleError, scriptOf, WIDE_SPACE } from './script-modules.ts';
import type { SourceModule } from './script-modules.ts';
import { NOT_IN_SCRIPT, sourceScriptPath, strip } from './source-script.ts';
import type { Made, Stamp } from './source-script.ts';

/**
 * Writes the script of the checkout at `srcUrl`, whole or not at all. Throws when this Node
 * cannot strip types itself, or a module is in a form script-modules.ts refuses.
 */
export function writeSourceScript(srcUrl: URL): string {
  if (typeof strip !== 'function') throw new Error(`Node ${process.version} cannot strip types in process`);
  const src = fileURLToPath(srcUrl);
  const stamps: Stamp[] = [];
  const modules: SourceModule[] = [];
  // Node warns that the call is experimental; the warning is for whoever calls it, not for the
  // person running the service, who gets the same modules either way.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    const id = relative(src, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (!entry.isFile() || !id.endsWith('.ts') || NOT_IN_SCRIPT.test(id)) continue;
    // Stamped before it is read: a module edited meanwhile no longer matches, and is read anew next time.
    const stats = statSync(join(src, id));
    stamps.push([id, stats.size, stats.mtimeMs]);
    const code = readFileSync(join(src, id), 'utf8');
    // (Any in the script then comes from the stripping, and asAscii may write it as a space.)
    if (WIDE_SPACE.test(code)) throw new ScriptModuleError(`${id}: whitespace beyond ASCII`);
    modules.push({ id, code: strip(code, { mode: 'strip' }) });
  }
  } finally {
    process.emitWarning = emitWarning;
  }
  const ids = new Set(modules.map((m) => m.id));
  const script = scriptOf(modules, (specifier, from) => {
    const target = posix.join(posix.dirname(from), specifier);
    return ids.has(target) ? target : undefined;
  });
  const made: Made = { node: process.version, src, stamps };
  const path = sourceScriptPath(src);
  mkdirSync(join(path, '..'), { recursive: true });
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, asAscii(`//${JSON.stringify(made)}\n${script}`), 'latin1');
  renameSync(partial, path);
  return path;
}

