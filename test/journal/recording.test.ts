// Recording never fails a request (docs/journal.md): an exception inside the journal is logged, not
// thrown, and the journal goes on recording. Each entry reads back as it was recorded, and what the
// journal counts of it is never less than the bytes of its text.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Clock } from '../../src/domain/clock.ts';
import { emptyTrace } from '../../src/http/request.ts';
import type { ApiRequest } from '../../src/http/request.ts';
import { json } from '../../src/http/result.ts';
import { LastQuery, entryOf, entryText } from '../../src/journal/entry.ts';
import { Journal } from '../../src/journal/journal.ts';

function request(path: string): ApiRequest {
  return { method: 'GET', path, query: new URLSearchParams(), search: '', headers: {}, body: Buffer.alloc(0), baseUrl: 'http://127.0.0.1', localPort: 0, trace: emptyTrace() };
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

it('reads every entry back as recorded while the oldest go and the journal is cleared', () => {
  const journal = new Journal(300, new Clock(() => Date.UTC(2026, 9, 19)), { info() {}, error() {} });
  // Paths from a few bytes to 40 kB.
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
});

it('counts every entry at no fewer bytes than its text, whatever its strings hold', () => {
  // Units JSON.stringify writes longest (a control character, a lone surrogate: six bytes), or
  // UTF-8 does (three), beside plain ones.
  const units = ['\u0000', '\u001f', '"', '\\', '\ud800', '\udfff', '\u00e9', '\u4e2d', '\ud83d\ude00', 'a', '/', '%'];
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const text = (length: number) => Array.from({ length }, () => units[Math.floor(random() * units.length)]).join('');
  for (let i = 0; i < 500; i++) {
    const req = request(`/${text(Math.floor(random() * 80))}`);
    if (random() < 0.5) {
      req.query = new URLSearchParams([[text(5), text(30)], ['syncToken', text(60)]]);
      req.search = req.query.toString();
    }
    if (random() < 0.5) req.body = Buffer.from(JSON.stringify({ summary: text(100) }));
    req.method = random() < 0.5 ? 'GET' : text(8);
    if (random() < 0.7) Object.assign(req.trace, { operation: text(20), userId: text(20), clientId: text(20), connectionId: text(20), fault: text(12) });
    const status = random() < 0.5 ? 200 : 404;
    const answer = json(status, { error: { errors: [{ reason: text(20) }] } });
    const entry = entryOf(req, answer, { id: Number.MAX_SAFE_INTEGER - i, at: Date.UTC(9999, 11, 31) + i, durationMs: random() * 1e9 }, new LastQuery());
    const bytes = Buffer.byteLength(entryText(entry));
    assert.ok(entry.bytes >= bytes, `entry ${i}: counted ${entry.bytes}, written ${bytes}`);
  }
});

it('shows each request its own query, however queries repeat and alternate', () => {
  const journal = new Journal(100, new Clock(() => 0), { info() {}, error() {} });
  const searches = ['syncToken=abc&maxResults=5', 'syncToken=abc&maxResults=5', 'maxResults=5', '', 'access_token=x&q=1', 'syncToken=abc&maxResults=5', '', 'a=1&a=2'];
  for (const search of searches) journal.record({ ...request('/q'), query: new URLSearchParams(search), search }, json(200, {}), 1);
  const { requests } = JSON.parse(Buffer.concat(journal.read({ since: 0, limit: 100 })).toString()) as { requests: Array<{ query: unknown }> };
  assert.deepEqual(
    requests.map((entry) => entry.query),
    [
      { syncToken: 'abc', maxResults: '5' },
      { syncToken: 'abc', maxResults: '5' },
      { maxResults: '5' },
      {},
      { access_token: '[redacted]', q: '1' },
      { syncToken: 'abc', maxResults: '5' },
      {},
      { a: ['1', '2'] },
    ],
  );
});
