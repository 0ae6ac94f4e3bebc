// events.list parameters (https://developers.google.com/workspace/calendar/api/v3/reference/events/list, https://developers.google.com/workspace/calendar/api/guides/sync): the time window's overlap rule,
// orderBy, q, iCalUID, extended-property filters, showDeleted, updatedMin, paging, the envelope.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TEAM, reason } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const EVENTS = `calendars/${encodeURIComponent(TEAM)}/events`;

describe('events.list', () => {
  const service = useSignedIn();
  const ids: Record<string, string> = {};

  async function list(query: string) {
    return service.api(`${EVENTS}?${query}`);
  }
  async function listIds(query: string): Promise<string[]> {
    const answer = await list(query);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.items.map((e: { id: string }) => e.id);
  }

  before(async () => {
    const bodies: Record<string, object> = {
      morning: { summary: 'Morning sync', start: { dateTime: '2027-01-10T09:00:00Z' }, end: { dateTime: '2027-01-10T10:00:00Z' }, extendedProperties: { private: { team: 'a' }, shared: { room: '1' } } },
      noon: { summary: 'Lunch', location: 'Cafeteria', start: { dateTime: '2027-01-10T12:00:00Z' }, end: { dateTime: '2027-01-10T13:00:00Z' }, attendees: [{ email: 'chef@example.com', displayName: 'Chef Remy' }] },
      evening: { summary: 'Dinner', description: 'with the board', start: { dateTime: '2027-01-10T18:00:00Z' }, end: { dateTime: '2027-01-10T20:00:00Z' }, extendedProperties: { private: { team: 'b' } } },
      allday: { summary: 'Holiday', start: { date: '2027-01-11' }, end: { date: '2027-01-12' }, iCalUID: 'holiday@example.com' },
      gone: { summary: 'Gone', start: { dateTime: '2027-01-10T15:00:00Z' }, end: { dateTime: '2027-01-10T16:00:00Z' } },
    };
    for (const [name, body] of Object.entries(bodies)) {
      const answer = await service.api(EVENTS, { method: 'POST', body });
      assert.equal(answer.status, 200, answer.text);
      ids[name] = answer.json.id;
    }
    assert.equal((await service.api(`${EVENTS}/${ids.gone}`, { method: 'DELETE' })).status, 204);
  });

  test('the envelope', async () => {
    const answer = await list('');
    const body = answer.json;
    assert.equal(body.kind, 'calendar#events');
    assert.match(body.etag, /^"\d{16}"$/);
    assert.equal(body.summary, 'Team');
    assert.equal(body.description, 'Team calendar');
    assert.equal(body.timeZone, 'Asia/Tokyo');
    assert.equal(body.accessRole, 'owner');
    assert.deepEqual(body.defaultReminders, []);
    assert.equal(typeof body.nextSyncToken, 'string');
    assert.equal(body.nextPageToken, undefined);
    assert.equal(body.items.length, 4, 'the deleted event is not listed');
  });

  test('timeMin/timeMax: end > timeMin and start < timeMax', async () => {
    // 10:00 is morning's end (excluded), 12:00 is noon's start (excluded).
    assert.deepEqual(await listIds('timeMin=2027-01-10T10:00:00Z&timeMax=2027-01-10T12:00:00Z'), []);
    assert.deepEqual((await listIds('timeMin=2027-01-10T09:59:59Z&timeMax=2027-01-10T12:00:01Z')).sort(), [ids.morning, ids.noon].sort());
    // The all-day event lies on 2027-01-11 in the calendar's zone (Asia/Tokyo, +09:00).
    assert.deepEqual(await listIds('timeMin=2027-01-10T15:00:00Z&timeMax=2027-01-10T15:00:01Z'), [ids.allday]);
    assert.deepEqual(await listIds('timeMin=2027-01-11T15:00:00Z&timeMax=2027-01-12T00:00:00Z'), [], 'the all-day event ends at midnight Tokyo');
  });

  test('timeMax <= timeMin is 400 timeRangeEmpty; timestamps need an offset', async () => {
    const empty = await list('timeMin=2027-01-10T10:00:00Z&timeMax=2027-01-10T10:00:00Z');
    assert.equal(empty.status, 400);
    assert.equal(reason(empty).reason, 'timeRangeEmpty');
    assert.equal(reason(empty).location, 'timeMax');
    const local = await list('timeMin=2027-01-10T10:00:00');
    assert.equal(local.status, 400);
    assert.equal(reason(local).location, 'timeMin');
  });

  test('orderBy=startTime needs singleEvents=true', async () => {
    const answer = await list('orderBy=startTime');
    assert.equal(answer.status, 400);
    assert.deepEqual(reason(answer), {
      domain: 'global',
      reason: 'invalid',
      message: 'The requested ordering is not available for the particular query.',
      locationType: 'parameter',
      location: 'orderBy',
    });
    // The all-day event starts at midnight Tokyo, 2027-01-10T15:00Z, before the evening event.
    assert.deepEqual(await listIds('orderBy=startTime&singleEvents=true'), [ids.morning, ids.noon, ids.allday, ids.evening]);
    assert.equal((await list('orderBy=bogus')).status, 400);
  });

  test('orderBy=updated follows the last change', async () => {
    assert.equal((await service.api(`${EVENTS}/${ids.morning}`, { method: 'PATCH', body: { summary: 'Morning sync!' } })).status, 200);
    const order = await listIds('orderBy=updated');
    assert.equal(order[order.length - 1], ids.morning);
    const windowed = await listIds('orderBy=updated&timeMin=2027-01-01T00:00:00Z');
    assert.equal(windowed[windowed.length - 1], ids.morning);
  });

  test('q matches summary, description, location and attendees, every term', async () => {
    assert.deepEqual(await listIds('q=lunch'), [ids.noon]);
    assert.deepEqual(await listIds('q=cafeteria'), [ids.noon]);
    assert.deepEqual(await listIds('q=remy'), [ids.noon]);
    assert.deepEqual(await listIds('q=chef%40example.com'), [ids.noon]);
    assert.deepEqual(await listIds('q=board'), [ids.evening]);
    assert.deepEqual(await listIds('q=board+lunch'), []);
    // On this secondary calendar the organizer is the calendar itself, "Team".
    assert.deepEqual(await listIds('q=team').then((l) => l.length), 4, 'the organizer matches');
    assert.deepEqual(await listIds('q=tanaka'), [], 'the creator is not searched');
  });

  test('iCalUID and extended-property filters', async () => {
    assert.deepEqual(await listIds('iCalUID=holiday%40example.com'), [ids.allday]);
    assert.deepEqual(await listIds('privateExtendedProperty=team%3Da'), [ids.morning]);
    assert.deepEqual(await listIds('privateExtendedProperty=team%3Da&sharedExtendedProperty=room%3D1'), [ids.morning]);
    assert.deepEqual(await listIds('privateExtendedProperty=team%3Da&privateExtendedProperty=team%3Db'), []);
    assert.deepEqual(await listIds('sharedExtendedProperty=team%3Da'), [], 'private properties do not match shared filters');
    const bad = await list('privateExtendedProperty=novalue');
    assert.equal(bad.status, 400);
    assert.equal(reason(bad).location, 'privateExtendedProperty');
  });

  test('showDeleted includes the cancelled event with its details', async () => {
    const answer = await list('showDeleted=true');
    const gone = answer.json.items.find((e: { id: string }) => e.id === ids.gone);
    assert.equal(gone.status, 'cancelled');
    assert.equal(gone.summary, 'Gone');
  });

  test('updatedMin always includes deletions', async () => {
    const items = (await list('updatedMin=2000-01-01T00:00:00Z')).json.items;
    const gone = items.find((e: { id: string }) => e.id === ids.gone);
    assert.deepEqual(Object.keys(gone).sort(), ['etag', 'id', 'kind', 'status']);
    const future = await list('updatedMin=2999-01-01T00:00:00Z');
    assert.deepEqual(future.json.items, []);
  });

  test('maxResults pages with nextPageToken; the last page carries nextSyncToken', async () => {
    for (const query of ['', 'timeMin=2027-01-01T00:00:00Z', 'singleEvents=true', 'singleEvents=true&orderBy=updated']) {
      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const answer = await list(`${query}&maxResults=1${pageToken ? `&pageToken=${pageToken}` : ''}`);
        assert.equal(answer.status, 200, answer.text);
        assert.ok(answer.json.items.length <= 1);
        seen.push(...answer.json.items.map((e: { id: string }) => e.id));
        pageToken = answer.json.nextPageToken;
        if (pageToken === undefined) assert.equal(typeof answer.json.nextSyncToken, 'string');
        else assert.equal(answer.json.nextSyncToken, undefined);
        pages++;
      } while (pageToken !== undefined && pages < 20);
      assert.deepEqual(seen.sort(), Object.entries(ids).filter(([n]) => n !== 'gone').map(([, id]) => id).sort(), query);
    }
  });

  test('a page token replayed with other parameters, or garbage, is 400', async () => {
    const first = await list('maxResults=1');
    const other = await list(`maxResults=2&pageToken=${first.json.nextPageToken}`);
    assert.equal(other.status, 400);
    assert.equal(reason(other).location, 'pageToken');
    assert.equal((await list('pageToken=garbage')).status, 400);
  });

  test('maxResults must be at least 1; larger than 2500 is capped', async () => {
    assert.equal((await list('maxResults=0')).status, 400);
    assert.equal((await list('maxResults=abc')).status, 400);
    assert.equal((await list('maxResults=100000')).status, 200);
  });

  test('timeZone renders times in that zone', async () => {
    const items = (await list('timeZone=America/New_York&orderBy=startTime&singleEvents=true')).json.items;
    assert.equal(items[0].start.dateTime, '2027-01-10T04:00:00-05:00');
  });
});
