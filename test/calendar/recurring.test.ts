// Recurring events through the API (https://developers.google.com/workspace/calendar/api/guides/recurringevents): instance ids, singleEvents expansion,
// events.instances, modified and cancelled exceptions, deleting a series, DST-crossing series.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, reason } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';

const EVENTS = 'calendars/primary/events';

describe('recurring events', () => {
  const service = useSignedIn();
  let series: { id: string; etag: string } = { id: '', etag: '' };

  before(async () => {
    const answer = await service.api(EVENTS, {
      method: 'POST',
      body: {
        summary: 'Daily',
        start: { dateTime: '2027-03-01T09:00:00', timeZone: 'Asia/Tokyo' },
        end: { dateTime: '2027-03-01T09:30:00', timeZone: 'Asia/Tokyo' },
        recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
      },
    });
    assert.equal(answer.status, 200, answer.text);
    series = answer.json;
  });

  const instance = (day: string) => `${series.id}_202703${day}T000000Z`;

  async function singleIds(query = ''): Promise<string[]> {
    const answer = await service.api(`${EVENTS}?singleEvents=true&orderBy=startTime&timeMin=2027-02-01T00:00:00Z&timeMax=2027-04-01T00:00:00Z${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.items.map((e: { id: string }) => e.id);
  }

  test('singleEvents expands the series into instances with Google ids', async () => {
    assert.deepEqual(await singleIds(), ['01', '02', '03', '04', '05'].map(instance));
    const first = (await service.api(`${EVENTS}?singleEvents=true&maxResults=1&timeMin=2027-02-01T00:00:00Z`)).json.items[0];
    assert.equal(first.recurringEventId, series.id);
    assert.deepEqual(first.originalStartTime, { dateTime: '2027-03-01T09:00:00+09:00', timeZone: 'Asia/Tokyo' });
    assert.deepEqual(first.start, { dateTime: '2027-03-01T09:00:00+09:00', timeZone: 'Asia/Tokyo' });
    assert.equal(first.recurrence, undefined);
    assert.equal(first.etag, series.etag, 'untouched instances carry the series etag');
  });

  test('without singleEvents the master is listed once with its recurrence', async () => {
    const items = (await service.api(`${EVENTS}?timeMin=2027-03-03T00:00:00Z&timeMax=2027-03-04T00:00:00Z`)).json.items;
    assert.deepEqual(items.map((e: { id: string }) => e.id), [series.id]);
    assert.deepEqual(items[0].recurrence, ['RRULE:FREQ=DAILY;COUNT=5']);
  });

  test('get of an instance id; a date the rule does not produce is 404', async () => {
    const got = await service.api(`${EVENTS}/${instance('03')}`);
    assert.equal(got.status, 200);
    assert.equal(got.json.start.dateTime, '2027-03-03T09:00:00+09:00');
    assert.equal((await service.api(`${EVENTS}/${instance('09')}`)).status, 404);
    assert.equal((await service.api(`${EVENTS}/${series.id}_20270303T000001Z`)).status, 404);
  });

  test('modifying one instance creates an exception; cancelling another removes it', async () => {
    const moved = await service.api(`${EVENTS}/${instance('02')}`, {
      method: 'PATCH',
      body: { summary: 'Moved', start: { dateTime: '2027-03-02T15:00:00+09:00' }, end: { dateTime: '2027-03-02T16:00:00+09:00' } },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.json.id, instance('02'));
    assert.equal(moved.json.recurringEventId, series.id);
    assert.deepEqual(moved.json.originalStartTime, { dateTime: '2027-03-02T09:00:00+09:00', timeZone: 'Asia/Tokyo' });
    assert.equal(moved.json.summary, 'Moved');

    const cancelled = await service.api(`${EVENTS}/${instance('04')}`, { method: 'DELETE' });
    assert.equal(cancelled.status, 204);
    assert.equal((await service.api(`${EVENTS}/${instance('04')}`)).json.status, 'cancelled');
    assert.equal((await service.api(`${EVENTS}/${instance('04')}`, { method: 'DELETE' })).status, 410);

    const items = (await service.api(`${EVENTS}?singleEvents=true&orderBy=startTime&timeMin=2027-02-01T00:00:00Z`)).json.items;
    assert.deepEqual(items.map((e: { id: string }) => e.id), ['01', '02', '03', '05'].map(instance));
    assert.equal(items[1].summary, 'Moved');
    assert.equal(items[1].start.dateTime, '2027-03-02T15:00:00+09:00');

    // Cancelling through update's status field works too.
    const viaStatus = await service.api(`${EVENTS}/${instance('05')}`, { method: 'PATCH', body: { status: 'cancelled' } });
    assert.equal(viaStatus.status, 200);
    assert.deepEqual(await singleIds(), ['01', '02', '03'].map(instance));
    assert.deepEqual(await singleIds('&showDeleted=true'), ['01', '02', '03', '04', '05'].map(instance));

    // Without singleEvents, the master, the exception, and (showDeleted or not) the cancelled instances.
    const raw = (await service.api(`${EVENTS}?timeMin=2027-02-01T00:00:00Z`)).json.items;
    const byId = new Map(raw.map((e: { id: string }) => [e.id, e]));
    assert.ok(byId.has(series.id));
    assert.equal((byId.get(instance('02')) as { summary: string }).summary, 'Moved');
    assert.deepEqual(byId.get(instance('04')), {
      kind: 'calendar#event',
      etag: (byId.get(instance('04')) as { etag: string }).etag,
      id: instance('04'),
      status: 'cancelled',
      recurringEventId: series.id,
      originalStartTime: { dateTime: '2027-03-04T09:00:00+09:00', timeZone: 'Asia/Tokyo' },
    });
  });

  test('events.instances: window, paging, originalStart, showDeleted', async () => {
    const path = `${EVENTS}/${series.id}/instances`;
    const all = await service.api(path);
    assert.equal(all.status, 200);
    assert.equal(all.json.kind, 'calendar#events');
    assert.deepEqual(all.json.items.map((e: { id: string }) => e.id), ['01', '02', '03'].map(instance));
    const deleted = await service.api(`${path}?showDeleted=true`);
    assert.equal(deleted.json.items.length, 5);
    const page1 = await service.api(`${path}?maxResults=2`);
    assert.equal(page1.json.items.length, 2);
    const page2 = await service.api(`${path}?maxResults=2&pageToken=${page1.json.nextPageToken}`);
    assert.deepEqual(page2.json.items.map((e: { id: string }) => e.id), [instance('03')]);
    assert.equal(page2.json.nextPageToken, undefined);
    // timeMin is inclusive on the instance end here: 09:30 Tokyo is the end of the 3rd instance.
    const windowed = await service.api(`${path}?timeMin=2027-03-03T00:30:00Z&timeMax=2027-03-04T00:00:00Z`);
    assert.deepEqual(windowed.json.items.map((e: { id: string }) => e.id), [instance('03')]);
    const one = await service.api(`${path}?originalStart=2027-03-03T09:00:00%2B09:00`);
    assert.deepEqual(one.json.items.map((e: { id: string }) => e.id), [instance('03')]);
    const none = await service.api(`${path}?originalStart=2027-03-03T10:00:00%2B09:00`);
    assert.deepEqual(none.json.items, []);
    assert.equal((await service.api(`${EVENTS}/nosuchseries/instances`)).status, 404);
    const bad = await service.api(`${path}?originalStart=tomorrow`);
    assert.equal(bad.status, 400);
  });

  test('instances of a single event is that event (documented choice)', async () => {
    const single = (await service.api(EVENTS, { method: 'POST', body: { start: { date: '2027-05-01' }, end: { date: '2027-05-02' } } })).json;
    const answer = await service.api(`${EVENTS}/${single.id}/instances`);
    assert.deepEqual(answer.json.items.map((e: { id: string }) => e.id), [single.id]);
  });

  test('deleting the series removes every instance and exception', async () => {
    assert.equal((await service.api(`${EVENTS}/${series.id}`, { method: 'DELETE' })).status, 204);
    assert.deepEqual(await singleIds(), []);
    assert.equal((await service.api(`${EVENTS}/${instance('02')}`)).json.status, 'cancelled');
    assert.equal((await service.api(`${EVENTS}/${instance('01')}`)).json.status, 'cancelled');
    assert.equal((await service.api(`${EVENTS}/${instance('01')}`, { method: 'DELETE' })).status, 410);
    assert.equal((await service.api(`${EVENTS}/${series.id}/instances`)).json.items.length, 0);
  });

  test('an all-day series has date instance ids and EXDATEs', async () => {
    const answer = await service.api(EVENTS, {
      method: 'POST',
      body: { start: { date: '2027-06-01' }, end: { date: '2027-06-02' }, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE;VALUE=DATE:20270608'] },
    });
    assert.equal(answer.status, 200, answer.text);
    const items = (await service.api(`${EVENTS}/${answer.json.id}/instances`)).json.items;
    assert.deepEqual(items.map((e: { id: string }) => e.id), [`${answer.json.id}_20270601`, `${answer.json.id}_20270615`]);
    assert.deepEqual(items[1].start, { date: '2027-06-15' });
    assert.deepEqual(items[1].originalStartTime, { date: '2027-06-15' });
  });

  test('a huge rule is bounded by the page', async () => {
    const answer = await service.api(EVENTS, {
      method: 'POST',
      body: { start: { dateTime: '2027-01-01T00:00:00', timeZone: 'UTC' }, end: { dateTime: '2027-01-01T00:00:01', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=SECONDLY'] },
    });
    assert.equal(answer.status, 200, answer.text);
    const page = await service.api(`${EVENTS}?singleEvents=true&maxResults=3&timeMin=2027-01-01T00:00:00Z&timeMax=2028-01-01T00:00:00Z&q=nothing-else`);
    assert.equal(page.status, 200);
    const listed = await service.api(`${EVENTS}/${answer.json.id}/instances?maxResults=3`);
    assert.equal(listed.json.items.length, 3);
    assert.ok(listed.json.nextPageToken);
    const updated = await service.api(`${EVENTS}?singleEvents=true&orderBy=updated&timeMin=2027-01-01T00:00:00Z&timeMax=2028-01-01T00:00:00Z`);
    assert.equal(updated.status, 400);
    assert.equal(reason(updated).location, 'orderBy');
  });
});

describe('DST-crossing series through the API (default fixture)', () => {
  const service = { url: '' };
  let running: RunningService | undefined;
  before(async () => {
    running = await start({ port: 0 }); // the default fixture
    service.url = running.url;
  });
  after(() => running?.close());

  async function startsOf(user: string, calendar: string, from: string, to: string, zone: string): Promise<string[]> {
    const token = (await obtainToken(service.url, { user, scope: 'calendar.readonly' })).access_token;
    const answer = await api(
      service.url,
      token,
      `calendars/${encodeURIComponent(calendar)}/events?singleEvents=true&orderBy=startTime&timeMin=${from}&timeMax=${to}&timeZone=${zone}`,
    );
    assert.equal(answer.status, 200, answer.text);
    return answer.json.items.map((e: { start: { dateTime?: string; date?: string } }) => e.start.dateTime ?? e.start.date);
  }

  test('weekly 09:30 Europe/London stays 09:30 across 2026-10-25', async () => {
    const starts = await startsOf('user-ben', 'ben.clarke@example.com', '2026-10-18T00:00:00Z', '2026-11-03T00:00:00Z', 'Europe/London');
    assert.deepEqual(starts, ['2026-10-19T09:30:00+01:00', '2026-10-26T09:30:00Z', '2026-10-30', '2026-11-02T09:30:00Z']);
  });

  test('09:00 America/New_York stays 09:00 across 2026-11-01, with the fixture exceptions', async () => {
    const starts = await startsOf('user-carmen', 'carmen.diaz@example.com', '2026-10-26T00:00:00Z', '2026-11-04T00:00:00Z', 'America/New_York');
    assert.deepEqual(starts, [
      '2026-10-26T09:00:00-04:00',
      '2026-10-27T09:00:00-04:00',
      '2026-10-28T10:00:00-04:00',
      '2026-10-29T09:00:00-04:00',
      '2026-11-02T09:00:00-05:00',
      '2026-11-03T09:00:00-05:00',
    ]);
  });
});
