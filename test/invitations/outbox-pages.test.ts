// The outbox bounded and read in pages (docs/invitations.md): the newest 10,000 messages, at
// most 16 MiB in all, the oldest dropped first; GET /__svc/outbox?since=<id>&limit=<n> answers
// `{"messages":[…],"last":<id>}` with numeric ids going up, and refuses parameters it does not
// know, repeats and bad values as GET /__svc/requests does.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { call } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';
import { meeting, startWorld } from './world.ts';
import type { World } from './world.ts';

/** `n` external guests, numbered from 0. */
function guests(n: number, name = (i: number) => `guest-${i}@elsewhere.example.org`): { email: string }[] {
  return Array.from({ length: n }, (_, i) => ({ email: name(i) }));
}

const outbox = (w: World, query = ''): Promise<Answer> => call(`${w.url}/__svc/outbox${query}`);

// The contract's bound is 250 ms; a test on a shared, loaded machine allows four times that.
const READ_BUDGET_MS = 1000;

async function timed(read: () => Promise<Answer>): Promise<Answer & { ms: number }> {
  const started = performance.now();
  const answer = await read();
  return { ...answer, ms: performance.now() - started };
}

for (const backend of BACKENDS) {
  describe(`outbox pages and bounds (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('a 309 KB insert mailing 2,000 guests leaves GET /__svc/outbox answering 200 with a page of the newest', async (t) => {
      const w = await startWorld(t, backend);
      // Each of the 2,000 messages repeats the summary: 500 MB of JSON in one answer before.
      const body = meeting({ summary: 'S'.repeat(250_000), attendees: guests(2000) });
      assert.ok(JSON.stringify(body).length > 309_000);
      const insert = await w.as('aiko', 'POST', w.events('aiko', '?sendUpdates=all'), body);
      assert.equal(insert.status, 200, insert.text.slice(0, 300));
      const page = await timed(() => outbox(w));
      assert.equal(page.status, 200, page.text.slice(0, 300));
      assert.ok(page.ms < READ_BUDGET_MS, `${page.ms} ms`);
      // A page holds a few MiB, not the 16 MiB the outbox may hold.
      assert.ok(page.text.length < 5 * 1024 * 1024, `${page.text.length} bytes`);
      const { last } = page.json;
      const messages = [...page.json.messages];
      while (messages.at(-1).id < last) messages.push(...(await outbox(w, `?since=${messages.at(-1).id}`)).json.messages);
      // 16 MiB holds 67 messages of 250 KB: the newest, oldest first, ids going up by one.
      assert.equal(messages.length, 67);
      assert.equal(messages[0].to, 'guest-1933@elsewhere.example.org');
      assert.equal(messages.at(-1).to, 'guest-1999@elsewhere.example.org');
      assert.deepEqual(messages.map((m: { id: number }) => m.id - messages[0].id), [...messages.keys()]);
      assert.deepEqual((await outbox(w, `?since=${last}`)).json, { messages: [], last });
      const one = await outbox(w, `?since=${last - 2}&limit=1`);
      assert.deepEqual(one.json.messages.map((m: { id: number }) => m.id), [last - 1]);
    });

    test('keeps the newest 10,000 messages and reads 1,000 of them within the time bound', async (t) => {
      const w = await startWorld(t, backend);
      for (let write = 0; write < 6; write++) {
        const answer = await w.as('aiko', 'POST', w.events('aiko', '?sendUpdates=all'), meeting({ attendees: guests(2000, (i) => `w${write}-${i}@elsewhere.example.org`) }));
        assert.equal(answer.status, 200);
      }
      const first = await outbox(w, '?limit=1');
      const { last } = first.json;
      assert.equal(last - first.json.messages[0].id + 1, 10_000);
      assert.equal(first.json.messages[0].to, 'w1-0@elsewhere.example.org');
      const page = await timed(() => outbox(w, `?since=${last - 1000}&limit=1000`));
      assert.equal(page.status, 200);
      assert.ok(page.ms < READ_BUDGET_MS, `${page.ms} ms`);
      assert.equal(page.json.messages.length, 1000);
      assert.equal(page.json.messages.at(-1).to, 'w5-1999@elsewhere.example.org');
    });

    test('since and limit page through the outbox; the limit is 100 unless given, at most 1,000', async (t) => {
      const w = await startWorld(t, backend);
      await w.as('aiko', 'POST', w.events('aiko', '?sendUpdates=all'), meeting({ attendees: guests(150) }));
      const all = await outbox(w);
      assert.equal(all.json.messages.length, 100);
      const ids: number[] = all.json.messages.map((m: { id: number }) => m.id);
      assert.ok(ids.every((id) => typeof id === 'number'));
      const last = ids[0]! + 149;
      assert.equal(all.json.last, last);
      const rest = await outbox(w, `?since=${ids.at(-1)}&limit=1000`);
      assert.deepEqual(rest.json.messages.map((m: { to: string }) => m.to), guests(150).slice(100).map((g) => g.email));
      const two = await outbox(w, `?since=${ids[0]}&limit=2`);
      assert.deepEqual(two.json, { messages: all.json.messages.slice(1, 3), last });
      // Emptied, the outbox answers last 0; numbering goes on.
      assert.equal((await call(`${w.url}/__svc/outbox`, { method: 'DELETE' })).status, 204);
      assert.deepEqual((await outbox(w)).json, { messages: [], last: 0 });
      await w.as('aiko', 'POST', w.events('aiko', '?sendUpdates=all'), meeting({ attendees: guests(1) }));
      assert.equal((await outbox(w)).json.last, last + 1);
    });

    test('unknown, repeated and invalid parameters are 400 invalid_request', async (t) => {
      const w = await startWorld(t, backend);
      for (const query of ['?limit=0', '?limit=1001', '?limit=ten', '?since=-1', '?since=1.5', '?since=', '?after=3', '?limit=1&limit=2', '?since=1&since=1']) {
        const answer = await outbox(w, query);
        assert.equal(answer.status, 400, query);
        assert.equal(answer.json.error, 'invalid_request', query);
      }
      assert.match((await outbox(w, '?user=x')).json.error_description, /Unknown parameter "user"; the parameters are since and limit\./);
      assert.equal((await outbox(w, '?since=0&limit=1000')).status, 200);
    });
  });
}
