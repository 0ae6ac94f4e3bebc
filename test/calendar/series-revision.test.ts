// Shortening or replacing a series' recurrence (src/calendar/events/series-revision.ts):
// exceptions the new rule no longer produces are cancelled, sync reports them cancelled, and
// Google's "this and following" recipe leaves no occurrence twice.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CALENDAR_FIXTURE, api, tokenFor } from '../_helpers/calendar.ts';
import { postJson, startService } from '../_helpers/service.ts';
import { SyncClient } from './sync-client.ts';
import type { Item } from './sync-client.ts';

const EVENTS = 'calendars/primary/events';
const FIXTURE = { ...CALENDAR_FIXTURE, users: CALENDAR_FIXTURE.users.map((u, i) => (i === 0 ? { ...u, timeZone: 'UTC' } : u)) };

async function setUp(t: { after(fn: () => unknown): void }) {
  const url = await startService(t, { fixture: FIXTURE });
  await postJson(`${url}/__svc/clock`, { now: '2030-03-01T12:00:00Z' });
  const token = await tokenFor(url, 'calendar');
  const write = async (method: string, path: string, body?: unknown): Promise<Item> => {
    const answer = await api(url, token, path, body === undefined ? { method } : { method, body });
    assert.ok(answer.status === 200 || answer.status === 204, `${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.json;
  };
  const list = async (query: string): Promise<Item[]> => {
    const answer = await api(url, token, `${EVENTS}?maxResults=2500&${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.items;
  };
  return { url, token, write, list };
}

const weekly = (rule: string) => ({
  summary: 'Weekly',
  start: { dateTime: '2030-03-04T09:00:00Z', timeZone: 'UTC' },
  end: { dateTime: '2030-03-04T10:00:00Z', timeZone: 'UTC' },
  recurrence: [rule],
});

test('"this and following": the old series ends, its later exceptions are cancelled, nothing shows twice', async (t) => {
  const { url, token, write, list } = await setUp(t);
  const series = await write('POST', EVENTS, weekly('RRULE:FREQ=WEEKLY;BYDAY=MO'));
  await write('PATCH', `${EVENTS}/${series.id}_20300311T090000Z`, { summary: 'Before the split' });
  await write('PATCH', `${EVENTS}/${series.id}_20300325T090000Z`, { summary: 'After the split' });
  await write('PATCH', `${EVENTS}/${series.id}_20300401T090000Z`, { start: { dateTime: '2030-04-02T09:00:00Z' }, end: { dateTime: '2030-04-02T10:00:00Z' } });
  const expanded = new SyncClient(url, token, 'primary', true);
  const masters = new SyncClient(url, token, 'primary', false);
  await expanded.fullSync();
  await masters.fullSync();

  // https://developers.google.com/workspace/calendar/api/guides/recurringevents: end the series just before the split, then insert the following series.
  await write('PATCH', `${EVENTS}/${series.id}`, { recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20300317T235959Z'] });
  const following = await write('POST', EVENTS, { ...weekly('RRULE:FREQ=WEEKLY;BYDAY=MO'), summary: 'Following', start: { dateTime: '2030-03-18T09:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2030-03-18T10:00:00Z', timeZone: 'UTC' } });

  // Without singleEvents, the exceptions past the split are cancelled; the one before stays.
  const records = await list('singleEvents=false');
  const exceptions = new Map(records.filter((e) => e.recurringEventId === series.id).map((e) => [e.id, e.status]));
  assert.deepEqual(Object.fromEntries(exceptions), {
    [`${series.id}_20300311T090000Z`]: 'confirmed',
    [`${series.id}_20300325T090000Z`]: 'cancelled',
    [`${series.id}_20300401T090000Z`]: 'cancelled',
  });

  // Expanded, every Monday from the split on is the following series' alone, and the moved
  // exception of 1 April is gone.
  const instances = await list('singleEvents=true&orderBy=startTime&timeMin=2030-03-01T00:00:00Z&timeMax=2030-04-15T00:00:00Z');
  assert.deepEqual(
    instances.map((e) => [e.start.dateTime, e.recurringEventId === series.id ? 'old' : e.recurringEventId === following.id ? 'new' : '?']),
    [
      ['2030-03-04T09:00:00Z', 'old'],
      ['2030-03-11T09:00:00Z', 'old'],
      ['2030-03-18T09:00:00Z', 'new'],
      ['2030-03-25T09:00:00Z', 'new'],
      ['2030-04-01T09:00:00Z', 'new'],
      ['2030-04-08T09:00:00Z', 'new'],
    ],
  );

  // Both kinds of sync report the dropped exceptions cancelled, and stay in step.
  const fromMasters = await masters.sync();
  for (const id of [`${series.id}_20300325T090000Z`, `${series.id}_20300401T090000Z`]) {
    const tombstone = fromMasters.find((e) => e.id === id);
    assert.equal(tombstone?.status, 'cancelled', id);
    assert.equal(tombstone?.recurringEventId, series.id);
  }
  await masters.assertInStep('without singleEvents');
  const fromExpanded = await expanded.sync();
  assert.ok(fromExpanded.some((e) => e.id === `${series.id}_20300401T090000Z` && e.status === 'cancelled'));
  await expanded.assertInStep('with singleEvents');
});

test('a replaced rule keeps the exceptions it still produces and cancels the others', async (t) => {
  const { write, list } = await setUp(t);
  const series = await write('POST', EVENTS, weekly('RRULE:FREQ=WEEKLY;BYDAY=MO,WE'));
  await write('PATCH', `${EVENTS}/${series.id}_20300311T090000Z`, { summary: 'Monday' });
  await write('PATCH', `${EVENTS}/${series.id}_20300313T090000Z`, { summary: 'Wednesday' });
  await write('PATCH', `${EVENTS}/${series.id}`, { summary: 'Renamed' });
  const statuses = async (): Promise<Record<string, string>> =>
    Object.fromEntries((await list('singleEvents=false')).filter((e) => e.recurringEventId === series.id).map((e) => [e.summary ?? e.id, e.status]));
  assert.deepEqual(await statuses(), { Monday: 'confirmed', Wednesday: 'confirmed' }, 'a rename keeps every exception');
  await write('PATCH', `${EVENTS}/${series.id}`, { recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE,FR'] });
  const after = await list('singleEvents=false&showDeleted=true');
  const byId = new Map(after.map((e) => [e.id, e.status]));
  assert.equal(byId.get(`${series.id}_20300311T090000Z`), 'cancelled');
  assert.equal(byId.get(`${series.id}_20300313T090000Z`), 'confirmed');
});
