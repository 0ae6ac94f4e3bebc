// Recording never fails a request (docs/journal.md): an exception inside the journal is logged, not
// thrown, and the journal goes on recording. Entries are written into shared slabs (journal.ts):
// each reads back as it was recorded, whatever the slabs it shares with older and newer ones.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Clock } from '../../src/domain/clock.ts';
import { emptyTrace } from '../../src/http/request.ts';
import type { ApiRequest } from '../../src/http/request.ts';
import { json } from '../../src/http/result.ts';
import { Journal } from '../../src/journal/journal.ts';

function request(path: string): ApiRequest {
  return { method: 'GET', path, query: new URLSearchParams(), headers: {}, body: Buffer.alloc(0), baseUrl: 'http://127.0.0.1', localPort: 0, trace: emptyTrace() };
}

it('an exception while recording is logged, never thrown, and later requests are still recorded', () => {
  const logged: string[] = [];
  const journal = new Journal(10, new Clock(() => Date.UTC(2026, 9, 19)), { info() {}, error: (message) => logged.push(message) });
  const broken = request('/broken');
  Object.defineProperty(broken, 'body', {
    get() {
      throw new Error('unreadable body');
    },
  });
  assert.doesNotThrow(() => journal.record(broken, json(200, {}), 1));
  assert.deepEqual(logged, ['the request journal could not record a request']);
  journal.record(request('/next'), json(200, {}), 1);
  const page = JSON.parse(Buffer.concat(journal.read({ since: 0, limit: 10 })).toString()) as { requests: Array<{ path: string; at: string }> };
  assert.deepEqual(page.requests.map((e) => [e.path, e.at]), [['/next', '2026-10-19T00:00:00.000Z']]);
});

it('reads every entry back as recorded while entries of every size share slabs, the oldest go, and the journal is cleared', () => {
  const journal = new Journal(300, new Clock(() => Date.UTC(2026, 9, 19)), { info() {}, error() {} });
  // Paths from a few bytes to 40 kB: small ones share a slab, large ones get a buffer of their own.
  const pathOf = (i: number) => `/p${i}/${'x'.repeat((i * 7919) % (i % 50 === 0 ? 40_000 : 900))}`;
  const entries = () => (JSON.parse(Buffer.concat(journal.read({ since: 0, limit: 1000 })).toString()) as { requests: Array<{ id: number; path: string }> }).requests;
  for (let i = 1; i <= 1000; i++) {
    journal.record(request(pathOf(i)), json(200, {}), 1);
    if (i % 97 === 0) {
      const held = entries();
      assert.equal(held.length, Math.min(i > 500 ? i - 500 : i, 300));
      for (const entry of held) assert.equal(entry.path, pathOf(entry.id), `entry ${entry.id} after ${i}`);
    }
    if (i === 500) journal.clear();
  }
  const held = entries();
  assert.deepEqual([held.length, held[0]?.id, held.at(-1)?.id], [300, 701, 1000]);
  for (const entry of held) assert.equal(entry.path, pathOf(entry.id));
  // The page is the kept texts themselves, after its opening part: small neighbours share a slab,
  // an entry of 40 kB has its own buffer.
  const texts = journal.read({ since: 0, limit: 1000 }).filter((part) => part.length > 1).slice(1, -1);
  assert.equal(texts[0]?.buffer, texts[1]?.buffer);
  const large = texts.find((text) => text.length > 30_000) as Buffer;
  assert.equal(large.byteLength, large.buffer.byteLength);
});
