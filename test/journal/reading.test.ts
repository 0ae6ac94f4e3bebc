// docs/journal.md: reading the journal (since, operation, status, userId, limit; bad values refused),
// emptying it (DELETE, reset, fixture load) with ids that go on, the ring's bound and size 0.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { CALENDAR_FIXTURE, api, tokenFor } from '../_helpers/calendar.ts';
import { readJournal } from '../_helpers/journal.ts';
import { call, postJson, startService } from '../_helpers/service.ts';

/** `n` unrouted requests, in parallel batches: the cheapest entries to make. */
async function unrouted(url: string, n: number, path = '/nope'): Promise<void> {
  for (let done = 0; done < n; done += 50) {
    await Promise.all(Array.from({ length: Math.min(50, n - done) }, () => call(`${url}${path}`)));
  }
}

describe('reading the request journal', () => {
  it('filters by since, operation, status and userId, oldest first', async (t) => {
    const url = await startService(t, { fixture: CALENDAR_FIXTURE });
    const aiko = await tokenFor(url, 'calendar');
    const ben = await tokenFor(url, 'calendar', 'user-ben');
    const mark = (await readJournal(url)).last;
    await api(url, aiko, 'users/me/calendarList');
    await api(url, ben, 'users/me/calendarList');
    await api(url, aiko, 'calendars/primary/events/missing');
    await call(`${url}/nope`);
    const since = await readJournal(url, `since=${mark}`);
    assert.deepEqual(since.requests.map((e) => e.id), [mark + 1, mark + 2, mark + 3, mark + 4]);
    assert.equal(since.last, mark + 4);

    const list = await readJournal(url, 'operation=calendar.calendarList.list');
    assert.deepEqual(list.requests.map((e) => e.userId), ['user-aiko', 'user-ben']);
    assert.equal(list.last, mark + 4, 'last is the newest entry held, whatever the filters');
    const missing = await readJournal(url, 'status=404');
    assert.deepEqual(missing.requests.map((e) => [e.operation, e.error]), [['calendar.events.get', 'notFound']]);
    // Before the mark, Ben's token grant is his too.
    const bens = await readJournal(url, 'userId=user-ben');
    assert.deepEqual(bens.requests.map((e) => e.operation), ['oauth.token', 'calendar.calendarList.list']);
    assert.deepEqual(bens.requests.at(-1)?.id, mark + 2);
    const combined = await readJournal(url, `userId=user-aiko&operation=calendar.events.get&since=${mark}`);
    assert.deepEqual(combined.requests.map((e) => e.id), [mark + 3]);
    assert.deepEqual((await readJournal(url, `since=${mark + 4}`)).requests, []);
  });

  it('limit: 100 by default, at most 1,000, the oldest first', async (t) => {
    const url = await startService(t);
    await unrouted(url, 1_005);
    const byDefault = await readJournal(url);
    assert.equal(byDefault.requests.length, 100);
    assert.equal(byDefault.requests[0]?.id, 1);
    assert.equal(byDefault.last, 1_005);
    const most = await readJournal(url, 'limit=1000');
    assert.equal(most.requests.length, 1_000);
    assert.equal(most.requests.at(-1)?.id, 1_000);
    assert.deepEqual((await readJournal(url, 'since=1000&limit=3')).requests.map((e) => e.id), [1_001, 1_002, 1_003]);
  });

  it('bad parameter values are 400 invalid_request', async (t) => {
    const url = await startService(t);
    for (const query of ['limit=0', 'limit=1001', 'limit=ten', 'since=-1', 'since=1.5', 'status=99', 'status=600', 'status=abc', 'operation=', 'userId=', 'since=1&since=2', 'user=user-aiko']) {
      const answer = await call(`${url}/__svc/requests?${query}`);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.json.error, 'invalid_request', query);
      assert.equal(typeof answer.json.error_description, 'string');
    }
  });

  it('DELETE empties it; ids go on from where they were', async (t) => {
    const url = await startService(t);
    await unrouted(url, 3);
    const deleted = await call(`${url}/__svc/requests`, { method: 'DELETE' });
    assert.equal(deleted.status, 204);
    assert.deepEqual(await readJournal(url), { requests: [], last: 0 });
    await unrouted(url, 1);
    assert.deepEqual((await readJournal(url)).requests.map((e) => e.id), [4]);
  });

  it('reset and fixture load empty it, and ids still go on', async (t) => {
    const url = await startService(t);
    await unrouted(url, 2);
    assert.equal((await call(`${url}/__svc/reset`, { method: 'POST' })).status, 204);
    assert.deepEqual(await readJournal(url), { requests: [], last: 0 });
    await unrouted(url, 1);
    assert.equal((await postJson(`${url}/__svc/fixtures`, CALENDAR_FIXTURE)).status, 200);
    assert.deepEqual(await readJournal(url), { requests: [], last: 0 });
    await unrouted(url, 1);
    assert.deepEqual((await readJournal(url)).requests.map((e) => e.id), [4]);
  });

  it('keeps only the newest journalSize entries', async (t) => {
    const url = await startService(t, { journalSize: 3 });
    await unrouted(url, 2);
    assert.deepEqual((await readJournal(url)).requests.map((e) => e.id), [1, 2]);
    for (const path of ['/a', '/b', '/c', '/d']) await call(`${url}${path}`);
    const page = await readJournal(url);
    assert.deepEqual(page.requests.map((e) => [e.id, e.path]), [[4, '/b'], [5, '/c'], [6, '/d']]);
    assert.equal(page.last, 6);
    assert.deepEqual((await readJournal(url, 'since=1')).requests.map((e) => e.id), [4, 5, 6]);
    assert.deepEqual((await readJournal(url, 'since=5')).requests.map((e) => e.id), [6]);
  });

  it('size 0 turns it off: GET answers 200 with no entries', async (t) => {
    const url = await startService(t, { journalSize: 0 });
    await unrouted(url, 3);
    assert.deepEqual(await readJournal(url), { requests: [], last: 0 });
    assert.equal((await call(`${url}/__svc/requests`, { method: 'DELETE' })).status, 204);
  });

  it('an invalid journalSize is a startup error naming the option', async () => {
    for (const journalSize of [-1, 1.5, 1_000_001, Number.NaN]) {
      // A service that wrongly starts is closed again, so a failure here cannot hang the run.
      const started = start({ port: 0, journalSize }).then((service) => service.close());
      await assert.rejects(started, /--journal-size must be an integer from 0 to 1000000/);
    }
  });
});
