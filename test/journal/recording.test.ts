// Recording never fails a request (docs/journal.md): an exception inside the journal is logged, not
// thrown, and the journal goes on recording.

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
