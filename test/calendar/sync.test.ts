// Incremental sync of events.list (https://developers.google.com/workspace/calendar/api/v3/reference/events/list, https://developers.google.com/workspace/calendar/api/guides/sync): full sync, then
// exactly the changes and deletions; incompatible parameters; stale tokens after a reset.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, reason, tokenFor } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const EVENTS = 'calendars/primary/events';

describe('sync tokens', () => {
  const service = useSignedIn();
  const insert = async (summary: string, extra: object = {}) =>
    (await service.api(EVENTS, {
      method: 'POST',
      body: { summary, start: { dateTime: '2027-08-01T10:00:00Z' }, end: { dateTime: '2027-08-01T11:00:00Z' }, ...extra },
    })).json;


  async function fullSync(query = ''): Promise<{ ids: string[]; syncToken: string }> {
    const ids: string[] = [];
    let pageToken: string | undefined;
    for (;;) {
      const answer = await service.api(`${EVENTS}?maxResults=2${query}${pageToken ? `&pageToken=${pageToken}` : ''}`);
      assert.equal(answer.status, 200, answer.text);
      ids.push(...answer.json.items.map((e: { id: string }) => e.id));
      pageToken = answer.json.nextPageToken;
      if (pageToken === undefined) return { ids, syncToken: answer.json.nextSyncToken };
    }
  }

  test('round trip: changes and deletions, exactly once, across pages', async () => {
    const a = await insert('A');
    const b = await insert('B');
    const c = await insert('C');
    const full = await fullSync();
    assert.deepEqual(full.ids.sort(), [a.id, b.id, c.id].sort());

    const nothing = await service.api(`${EVENTS}?syncToken=${full.syncToken}`);
    assert.deepEqual(nothing.json.items, []);
    assert.equal(typeof nothing.json.nextSyncToken, 'string');

    await service.api(`${EVENTS}/${a.id}`, { method: 'PATCH', body: { summary: 'A2' } });
    await service.api(`${EVENTS}/${b.id}`, { method: 'DELETE' });
    const d = await insert('D');
    const inc = await service.api(`${EVENTS}?syncToken=${full.syncToken}`);
    assert.equal(inc.status, 200);
    const byId = new Map(inc.json.items.map((e: { id: string }) => [e.id, e]));
    assert.deepEqual([...byId.keys()].sort(), [a.id, b.id, d.id].sort());
    assert.equal((byId.get(a.id) as { summary: string }).summary, 'A2');
    const tomb = byId.get(b.id) as Record<string, unknown>;
    assert.deepEqual(tomb, { kind: 'calendar#event', etag: tomb.etag, id: b.id, status: 'cancelled' });

    // Paging through an incremental result repeats the syncToken with the pageToken.
    const page1 = await service.api(`${EVENTS}?syncToken=${full.syncToken}&maxResults=2`);
    assert.equal(page1.json.items.length, 2);
    assert.equal(page1.json.nextSyncToken, undefined);
    const page2 = await service.api(`${EVENTS}?syncToken=${full.syncToken}&maxResults=2&pageToken=${page1.json.nextPageToken}`);
    assert.equal(page2.json.items.length, 1);
    const next = page2.json.nextSyncToken as string;
    assert.deepEqual((await service.api(`${EVENTS}?syncToken=${next}`)).json.items, []);

    const e = await insert('E');
    assert.deepEqual((await service.api(`${EVENTS}?syncToken=${next}`)).json.items.map((x: { id: string }) => x.id), [e.id]);
    assert.deepEqual((await service.api(`${EVENTS}?syncToken=${next}&showDeleted=true`)).status, 200);
  });

  test('a windowed full sync still reports later changes outside the window', async () => {
    const full = await fullSync('&timeMin=2027-08-01T00:00:00Z&timeMax=2027-08-02T00:00:00Z');
    const outside = await insert('Outside', { start: { dateTime: '2030-01-01T10:00:00Z' }, end: { dateTime: '2030-01-01T11:00:00Z' } });
    const inc = await service.api(`${EVENTS}?syncToken=${full.syncToken}`);
    assert.ok(inc.json.items.some((x: { id: string }) => x.id === outside.id));
  });

  test('a deleted instance of a series is a tombstone with recurringEventId and originalStartTime', async () => {
    const series = await insert('Series', {
      start: { dateTime: '2027-09-01T10:00:00', timeZone: 'UTC' },
      end: { dateTime: '2027-09-01T11:00:00', timeZone: 'UTC' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const full = await fullSync();
    await service.api(`${EVENTS}/${series.id}_20270902T100000Z`, { method: 'DELETE' });
    const items = (await service.api(`${EVENTS}?syncToken=${full.syncToken}`)).json.items;
    assert.deepEqual(items.map((x: { id: string }) => x.id), [`${series.id}_20270902T100000Z`]);
    assert.equal(items[0].recurringEventId, series.id);
    assert.deepEqual(items[0].originalStartTime, { dateTime: '2027-09-02T19:00:00+09:00', timeZone: 'UTC' });
  });

  test('parameters that cannot accompany a sync token are 400', async () => {
    const { syncToken } = await fullSync();
    for (const extra of ['iCalUID=x', 'orderBy=updated', 'privateExtendedProperty=a%3Db', 'q=x', 'sharedExtendedProperty=a%3Db', 'timeMin=2027-01-01T00:00:00Z', 'timeMax=2027-01-01T00:00:00Z', 'updatedMin=2027-01-01T00:00:00Z', 'showDeleted=false']) {
      const answer = await service.api(`${EVENTS}?syncToken=${syncToken}&${extra}`);
      assert.equal(answer.status, 400, extra);
      assert.equal(reason(answer).location, extra.split('=')[0]);
    }
  });

  test('garbage and stale tokens are 410 fullSyncRequired', async () => {
    const garbage = await service.api(`${EVENTS}?syncToken=garbage`);
    assert.equal(garbage.status, 410);
    assert.deepEqual(reason(garbage), {
      domain: 'calendar',
      reason: 'fullSyncRequired',
      message: 'Sync token is no longer valid, a full sync is required.',
      locationType: 'parameter',
      location: 'syncToken',
    });
    const { syncToken } = await fullSync();
    // A token of another calendar is not valid here either.
    assert.equal((await service.api(`calendars/team-aiko%40group.calendar.example.com/events?syncToken=${syncToken}`)).status, 410);
    assert.equal((await fetch(`${service.url}/__svc/reset`, { method: 'POST' })).status, 204);
    const fresh = await tokenFor(service.url, 'calendar');
    const stale = await api(service.url, fresh, `${EVENTS}?syncToken=${syncToken}`);
    assert.equal(stale.status, 410);
    assert.equal(reason(stale).reason, 'fullSyncRequired');
  });
});
