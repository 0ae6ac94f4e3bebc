// Incremental sync of expanded listings (events.list singleEvents=true with a syncToken;
// part 1): exactly what changed, as instances; nothing when nothing changed; full and
// incremental syncs end at the horizon (src/calendar/horizon.ts) fixed by the full sync.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALENDAR_FIXTURE, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { postJson, startService } from '../_helpers/service.ts';
import { SyncClient } from './sync-client.ts';
import type { Item } from './sync-client.ts';

const NOW = '2030-03-06T12:00:00Z';
/** The end of NOW's date two years on (horizon.ts). */
const HORIZON = Date.parse('2032-03-07T00:00:00Z');
/** The test fixture with its first user (and so the primary calendar) in UTC. */
const FIXTURE = { ...CALENDAR_FIXTURE, users: CALENDAR_FIXTURE.users.map((u, i) => (i === 0 ? { ...u, timeZone: 'UTC' } : u)) };
const DAY = 86_400_000;
const EVENTS = 'calendars/primary/events';
const SERIES_START = '2030-03-01T09:00:00Z';

async function setUp(t: { after(fn: () => unknown): void }): Promise<{ url: string; token: string; client: SyncClient }> {
  const url = await startService(t, { fixture: FIXTURE });
  await postJson(`${url}/__svc/clock`, { now: NOW });
  const token = await tokenFor(url, 'calendar');
  return { url, token, client: new SyncClient(url, token, 'primary', true) };
}

async function write(url: string, token: string, method: string, path: string, body?: unknown): Promise<Item> {
  const answer = await api(url, token, path, body === undefined ? { method } : { method, body });
  assert.ok(answer.status === 200 || answer.status === 204, `${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.json;
}

function dailySeries(extra: object = {}): object {
  return {
    summary: 'Daily',
    start: { dateTime: SERIES_START, timeZone: 'UTC' },
    end: { dateTime: '2030-03-01T09:30:00Z', timeZone: 'UTC' },
    recurrence: ['RRULE:FREQ=DAILY'],
    ...extra,
  };
}

const single = { summary: 'Single', start: { dateTime: '2030-04-01T10:00:00Z' }, end: { dateTime: '2030-04-01T11:00:00Z' } };
/** Daily instances from SERIES_START up to the horizon. */
const DAILY_COUNT = Math.ceil((HORIZON - Date.parse(SERIES_START)) / DAY);

const ids = (items: Item[]): string[] => items.map((i) => i.id).sort();

describe('singleEvents=true listings end at the horizon', () => {
  test('a full sync over an unbounded series pages to the horizon, then hands out a sync token', async (t) => {
    const { url, token, client } = await setUp(t);
    const series = await write(url, token, 'POST', EVENTS, dailySeries());
    await write(url, token, 'POST', EVENTS, { ...single, start: { dateTime: '2040-01-01T10:00:00Z' }, end: { dateTime: '2040-01-01T11:00:00Z' } });
    const { items } = await client.pages('singleEvents=true', 500, undefined, 3);
    const instances = items.filter((i) => i.recurringEventId === series.id);
    assert.equal(instances.length, DAILY_COUNT);
    assert.ok(Date.parse(instances.at(-1)?.start.dateTime) < HORIZON);
    // Single events are listed whatever their date.
    assert.equal(items.length, DAILY_COUNT + 1);
    // timeMin alone ends at the horizon too; an explicit timeMax is honoured past it.
    const upcoming = await client.pages('singleEvents=true&timeMin=2032-03-01T00:00:00Z', 250, undefined, 1);
    assert.deepEqual(upcoming.items.map((i) => i.start.dateTime.slice(0, 10)), ['2032-03-01', '2032-03-02', '2032-03-03', '2032-03-04', '2032-03-05', '2032-03-06', '2040-01-01']);
    const later = await client.pages('singleEvents=true&timeMin=2033-01-01T00:00:00Z&timeMax=2033-01-03T00:00:00Z', 250);
    assert.equal(later.items.length, 2);
  });

  test('the horizon of the full sync holds for every incremental sync after it', async (t) => {
    const { url, token, client } = await setUp(t);
    const series = await write(url, token, 'POST', EVENTS, dailySeries());
    const { syncToken } = await client.pages('singleEvents=true', 2500, undefined, 1);
    await postJson(`${url}/__svc/clock`, { advanceSeconds: 400 * 86_400 });
    const later = await tokenFor(url, 'calendar');
    await write(url, later, 'PATCH', `${EVENTS}/${series.id}`, { summary: 'Renamed' });
    const { items } = await new SyncClient(url, later, 'primary', true).pages(`singleEvents=true&syncToken=${encodeURIComponent(syncToken)}`, 2500, undefined, 1);
    assert.equal(items.length, DAILY_COUNT);
    assert.ok(items.every((i) => i.summary === 'Renamed' && Date.parse(i.start.dateTime) < HORIZON));
  });
});

describe('singleEvents=true incremental sync reports exactly what changed', () => {
  test('nothing changed: no items and a sync token', async (t) => {
    const { url, token, client } = await setUp(t);
    await write(url, token, 'POST', EVENTS, dailySeries());
    await write(url, token, 'POST', EVENTS, single);
    await client.fullSync();
    for (let i = 0; i < 2; i++) {
      const answer = await api(url, token, `${EVENTS}?singleEvents=true&syncToken=${encodeURIComponent(client.syncToken)}`);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json.items, []);
      assert.equal(answer.json.nextPageToken, undefined);
      assert.equal(typeof answer.json.nextSyncToken, 'string');
      client.syncToken = answer.json.nextSyncToken;
    }
  });

  test('a single event changed, then deleted', async (t) => {
    const { url, token, client } = await setUp(t);
    await write(url, token, 'POST', EVENTS, dailySeries());
    const event = await write(url, token, 'POST', EVENTS, single);
    await client.fullSync();
    await write(url, token, 'PATCH', `${EVENTS}/${event.id}`, { summary: 'Renamed' });
    const changed = await client.sync();
    assert.deepEqual(changed.map((i) => [i.id, i.summary]), [[event.id, 'Renamed']]);
    await write(url, token, 'DELETE', `${EVENTS}/${event.id}`);
    const deleted = await client.sync();
    assert.deepEqual(deleted, [{ kind: 'calendar#event', etag: deleted[0]?.etag, id: event.id, status: 'cancelled' }]);
  });

  test('an instance modified, then cancelled: that instance alone', async (t) => {
    const { url, token, client } = await setUp(t);
    const series = await write(url, token, 'POST', EVENTS, dailySeries());
    await write(url, token, 'POST', EVENTS, single);
    await client.fullSync();
    const id = `${series.id}_20300310T090000Z`;
    await write(url, token, 'PATCH', `${EVENTS}/${id}`, { summary: 'Moved', start: { dateTime: '2030-03-10T15:00:00Z' }, end: { dateTime: '2030-03-10T16:00:00Z' } });
    const modified = await client.sync();
    assert.deepEqual(modified.map((i) => [i.id, i.summary, i.start.dateTime]), [[id, 'Moved', '2030-03-10T15:00:00Z']]);
    await write(url, token, 'DELETE', `${EVENTS}/${id}`);
    const cancelled = await client.sync();
    assert.deepEqual(cancelled, [
      {
        kind: 'calendar#event',
        etag: cancelled[0]?.etag,
        id,
        status: 'cancelled',
        recurringEventId: series.id,
        originalStartTime: { dateTime: '2030-03-10T09:00:00Z', timeZone: 'UTC' },
      },
    ]);
    await client.assertInStep('after the instance was cancelled');
  });

  test('a series created, renamed and deleted: its instances up to the horizon, nothing else', async (t) => {
    const { url, token, client } = await setUp(t);
    await write(url, token, 'POST', EVENTS, single);
    await client.fullSync();
    const series = await write(url, token, 'POST', EVENTS, dailySeries({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'] }));
    const created = await client.sync(2);
    assert.deepEqual(ids(created), ['20300301', '20300308', '20300315', '20300322', '20300329'].map((d) => `${series.id}_${d}T090000Z`));
    await write(url, token, 'PATCH', `${EVENTS}/${series.id}`, { summary: 'Renamed' });
    const renamed = await client.sync();
    assert.deepEqual(ids(renamed), ids(created));
    assert.ok(renamed.every((i) => i.summary === 'Renamed'));
    await write(url, token, 'DELETE', `${EVENTS}/${series.id}`);
    const deleted = await client.sync();
    assert.deepEqual(ids(deleted), ids(created));
    for (const tombstone of deleted) {
      assert.equal(tombstone.status, 'cancelled');
      assert.equal(tombstone.recurringEventId, series.id);
      assert.equal(tombstone.originalStartTime.timeZone, 'UTC');
    }
    await client.assertInStep('after the series was deleted');
  });

  test('a series moved: its new instances, and tombstones for the old ones', async (t) => {
    const { url, token, client } = await setUp(t);
    const series = await write(url, token, 'POST', EVENTS, dailySeries({ recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] }));
    await client.fullSync();
    await write(url, token, 'PATCH', `${EVENTS}/${series.id}`, {
      start: { dateTime: '2030-03-01T10:00:00Z', timeZone: 'UTC' },
      end: { dateTime: '2030-03-01T10:30:00Z', timeZone: 'UTC' },
    });
    const items = await client.sync();
    assert.deepEqual(
      items.map((i) => [i.id, i.status]),
      [
        [`${series.id}_20300301T100000Z`, 'confirmed'],
        [`${series.id}_20300302T100000Z`, 'confirmed'],
        [`${series.id}_20300301T090000Z`, 'cancelled'],
        [`${series.id}_20300302T090000Z`, 'cancelled'],
      ],
    );
  });

  test('a single event turned into a series and back', async (t) => {
    const { url, token, client } = await setUp(t);
    const event = await write(url, token, 'POST', EVENTS, { ...single, start: { dateTime: '2030-04-01T10:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2030-04-01T11:00:00Z', timeZone: 'UTC' } });
    await client.fullSync();
    await write(url, token, 'PATCH', `${EVENTS}/${event.id}`, { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] });
    const toSeries = await client.sync();
    assert.deepEqual(toSeries.map((i) => [i.id, i.status]), [
      [`${event.id}_20300401T100000Z`, 'confirmed'],
      [`${event.id}_20300402T100000Z`, 'confirmed'],
      [event.id, 'cancelled'],
    ]);
    await write(url, token, 'PATCH', `${EVENTS}/${event.id}`, { recurrence: null });
    const toSingle = await client.sync();
    assert.deepEqual(toSingle.map((i) => [i.id, i.status]), [
      [event.id, 'confirmed'],
      [`${event.id}_20300401T100000Z`, 'cancelled'],
      [`${event.id}_20300402T100000Z`, 'cancelled'],
    ]);
  });

  test('an exception moved in from past the horizon goes when its series is cancelled', async (t) => {
    const { url, token, client } = await setUp(t);
    const series = await write(url, token, 'POST', EVENTS, dailySeries());
    const beyond = `${series.id}_20330101T090000Z`;
    await write(url, token, 'PATCH', `${EVENTS}/${beyond}`, { start: { dateTime: '2031-01-01T20:00:00Z' }, end: { dateTime: '2031-01-01T21:00:00Z' } });
    await client.fullSync();
    assert.ok(client.copy.has(beyond));
    await write(url, token, 'PATCH', `${EVENTS}/${series.id}`, { status: 'cancelled' });
    const items = await client.sync(2500);
    assert.equal(items.length, DAILY_COUNT + 1);
    assert.ok(items.every((i) => i.status === 'cancelled'));
    assert.ok(items.some((i) => i.id === beyond));
    await client.assertInStep('after the series was cancelled');
  });

  test('a series of thousands of instances comes in bounded pages, checked over several requests', async (t) => {
    const { url, token, client } = await setUp(t);
    await client.fullSync();
    await write(url, token, 'POST', EVENTS, dailySeries({ recurrence: ['RRULE:FREQ=MINUTELY;COUNT=12000'] }));
    const pages: Item[][] = [];
    let pageToken: string | undefined;
    do {
      const answer = await api(url, token, `${EVENTS}?singleEvents=true&maxResults=2500&syncToken=${encodeURIComponent(client.syncToken)}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.equal(answer.status, 200, answer.text);
      pages.push(answer.json.items);
      pageToken = answer.json.nextPageToken;
    } while (pageToken !== undefined);
    assert.equal(pages.flat().length, 12_000);
    assert.ok(pages.every((page) => page.length <= 2500));
    // After the instances, checking that none of the series' former ones is gone takes requests
    // of their own, which report nothing.
    assert.ok(pages.slice(0, -1).some((page) => page.length === 0));
  });

  test('a token older than what a series remembers of its timing is 410 fullSyncRequired', async (t) => {
    const { url, token, client } = await setUp(t);
    const series = await write(url, token, 'POST', EVENTS, dailySeries({ recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] }));
    await client.fullSync();
    for (let count = 4; count < 4 + 17; count++) {
      await write(url, token, 'PATCH', `${EVENTS}/${series.id}`, { recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`] });
    }
    const answer = await api(url, token, `${EVENTS}?singleEvents=true&syncToken=${encodeURIComponent(client.syncToken)}`);
    assert.equal(answer.status, 410, answer.text);
    assert.equal(reason(answer).reason, 'fullSyncRequired');
  });
});
