// What the store's files may know: the memory backend nothing of the SQLite one (so that either
// can change alone, and the memory store loads where node:sqlite does not exist), and no file
// of the store the calendar layer's rules of the wire (the default iCalUID `<id>@google.com` is
// made in the calendar layer, not known by the store).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const storeDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/store');

/** The relative imports of a source file, as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^import[^'"]*['"](\.[^'"]+)['"]/gm)].map((m) => resolve(dirname(file), m[1]!));
}

/** Every file `entry` reaches through relative imports, itself included. */
function reachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...importsOf(file));
  }
  return seen;
}

test('the memory backend imports nothing of the SQLite backend, directly or not', () => {
  const reached = [...reachedFrom(join(storeDir, 'memory.ts'))];
  assert.ok(reached.length > 1);
  for (const file of reached) {
    assert.doesNotMatch(file, /[/\\]sqlite[^/\\]*\.ts$/, `memory.ts reaches ${file}`);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /['"]node:sqlite['"]/, `memory.ts reaches ${file}, which uses node:sqlite`);
  }
});

test('no file of the store knows the default iCalUID form', () => {
  const files = readdirSync(storeDir).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 0);
  for (const f of files) assert.ok(!readFileSync(join(storeDir, f), 'utf8').includes('@google.com'), `src/store/${f} mentions @google.com`);
});
