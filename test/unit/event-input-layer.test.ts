// Where Event input validation sits: src/events/ is below both the calendar API
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

/** The src-relative paths a file imports (`events/occurrences.ts`), type imports included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(/^import\s[^;]*?from\s+'(\.[^']+)'/gm)) {
    out.push(relative(SRC, normalize(join(dirname(file), match[1] as string))));
  }
  return out;
}

describe('event input layer', () => {
  it('src/events/ imports only the domain, store types, the validation vocabulary, the shared crypto and itself', () => {
    for (const file of filesUnder(join(SRC, 'events'))) {
      for (const target of importsOf(file)) {
        const allowed = /^(events|domain|store)\//.test(target) || target === 'validation.ts' || target === 'crypto.ts';
        assert.ok(allowed, `${relative(SRC, file)} imports ${target}`);
      }
    }
  });

  it('the fixture loader reaches event validation without the calendar API', () => {
    const files = [join(SRC, 'fixtures.ts'), ...filesUnder(join(SRC, 'fixtures'))];
    const targets = files.flatMap(importsOf);
    assert.ok(targets.includes('events/event-insert.ts'), 'fixtures build events through src/events/');
    for (const target of targets) {
      assert.ok(!/^(calendar|http|api|management|push)\//.test(target), `fixtures import ${target}`);
    }
  });

  it('no import cycle runs through the event writes', () => {
    const graph = new Map(filesUnder(SRC).map((file) => [relative(SRC, file), importsOf(file)]));
    const start = ['calendar/event-write.ts', 'calendar/series-revision.ts', ...[...graph.keys()].filter((f) => f.startsWith('events/'))];
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
