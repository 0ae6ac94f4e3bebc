// Where Event input validation sits: src/event-model/ is below both the calendar API
// and the fixture loader, so it imports neither them nor HTTP, and the fixture loader reaches
// event validation without going through the calendar API; the writes and series revision import
// each other in one direction only. Reads the import lines of src/ (type imports included).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The src-relative paths a file imports (`event-model/occurrences.ts`), type imports included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(/^import\s[^;]*?from\s+'(\.[^']+)'/gm)) {
    out.push(relative(SRC, normalize(join(dirname(file), match[1] as string))));
  }
  return out;
}

describe('event input layer', () => {
  it('src/event-model/ imports only the domain, store types, the validation vocabulary, the shared crypto and itself', () => {
    for (const file of filesUnder(join(SRC, 'event-model'))) {
      for (const target of importsOf(file)) {
        const allowed = /^(event-model|domain|store|validation|crypto)\//.test(target);
        assert.ok(allowed, `${relative(SRC, file)} imports ${target}`);
      }
    }
  });

  it('the fixture loader reaches event validation without the calendar API', () => {
    const files = filesUnder(join(SRC, 'fixtures'));
    const targets = files.flatMap(importsOf);
    assert.ok(targets.includes('event-model/event-insert.ts'), 'fixtures build events through src/event-model/');
    for (const target of targets) {
      assert.ok(!/^(calendar|http|api|management|push)\//.test(target), `fixtures import ${target}`);
    }
  });

  it('no import cycle runs through the event writes', () => {
    const graph = new Map(filesUnder(SRC).map((file) => [relative(SRC, file), importsOf(file)]));
    const start = ['calendar/events/write.ts', 'calendar/events/series-revision.ts', ...[...graph.keys()].filter((f) => f.startsWith('event-model/'))];
    for (const origin of start) {
      // Every module reachable from `origin`; reaching `origin` again is a cycle.
      const seen = new Set<string>();
      const queue = [...(graph.get(origin) ?? [])];
      while (queue.length > 0) {
        const next = queue.pop() as string;
        assert.notEqual(next, origin, `${origin} reaches itself through its imports`);
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(...(graph.get(next) ?? []));
      }
    }
  });
});
