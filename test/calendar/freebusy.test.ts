// freebusy.query (docs/calendar-api.md, "FreeBusy request and response", https://developers.google.com/workspace/calendar/api/v3/reference/freebusy/query,
// docs/calendar-api.md): the default-fixture case, merging and clipping, recurring and all-day events,
// transparency and cancellation, unknown ids, limits and errors, and writes showing at once.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { api, reason } from '../_helpers/calendar.ts';
import { obtainToken } from '../_helpers/oauth.ts';

describe('freebusy.query on the default fixture', () => {
  let service: RunningService;
  let token = '';
  before(async () => {
    service = await start({ port: 0 });
    token = (await obtainToken(service.url, { scope: 'calendar' })).access_token;
  });
  after(() => service.close());

  const query = (body: object, tok = token) => api(service.url, tok, 'freeBusy', { method: 'POST', body });
  const DAY = { timeMin: '2026-10-19T00:00:00+09:00', timeMax: '2026-10-20T00:00:00+09:00' };

  test('docs/calendar-api.md case: one interval 10:00-11:00 in Asia/Tokyo (transparent and cancelled events ignored)', async () => {
    const answer = await query({ ...DAY, timeZone: 'Asia/Tokyo', items: [{ id: 'primary' }] });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json, {
      kind: 'calendar#freeBusy',
      timeMin: '2026-10-18T15:00:00.000Z',
      timeMax: '2026-10-19T15:00:00.000Z',
      calendars: { primary: { busy: [{ start: '2026-10-19T10:00:00+09:00', end: '2026-10-19T11:00:00+09:00' }] } },
    });
  });

  test('UTC is the default zone: Z form without milliseconds; ids keep the requested spelling', async () => {
    const answer = await query({ ...DAY, items: [{ id: 'aiko.tanaka@example.com' }, { id: 'nobody@example.com' }] });
    assert.deepEqual(answer.json.calendars, {
      'aiko.tanaka@example.com': { busy: [{ start: '2026-10-19T01:00:00Z', end: '2026-10-19T02:00:00Z' }] },
      'nobody@example.com': { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] },
    });
  });

  test('another user\'s calendar is readable by id (busy times only); the freebusy scope suffices', async () => {
    const fb = (await obtainToken(service.url, { scope: 'calendar.freebusy' })).access_token;
    const answer = await query({ timeMin: '2026-10-30T00:00:00Z', timeMax: '2026-10-31T00:00:00Z', items: [{ id: 'ben.clarke@example.com' }] }, fb);
    assert.equal(answer.status, 200, answer.text);
    // The all-day offsite is busy for its date in Ben's zone (Europe/London, back on GMT after 2026-10-25).
    assert.deepEqual(answer.json.calendars['ben.clarke@example.com'].busy, [{ start: '2026-10-30T00:00:00Z', end: '2026-10-31T00:00:00Z' }]);
  });

  test('recurring instances with exceptions: moved and cancelled instances', async () => {
    const answer = await query({
      timeMin: '2026-10-27T00:00:00-04:00',
      timeMax: '2026-10-31T00:00:00-04:00',
      timeZone: 'America/New_York',
      items: [{ id: 'carmen.diaz@example.com' }],
    });
    assert.deepEqual(answer.json.calendars['carmen.diaz@example.com'].busy, [
      { start: '2026-10-27T09:00:00-04:00', end: '2026-10-27T09:15:00-04:00' },
      { start: '2026-10-28T10:00:00-04:00', end: '2026-10-28T10:15:00-04:00' },
      { start: '2026-10-29T09:00:00-04:00', end: '2026-10-29T09:15:00-04:00' },
    ]);
  });

  test('every write shows in the next freeBusy; overlapping events merge; intervals are clipped', async () => {
    const events = 'calendars/primary/events';
    const add = async (start: string, end: string) =>
      (await api(service.url, token, events, { method: 'POST', body: { start: { dateTime: start }, end: { dateTime: end } } })).json;
    const a = await add('2026-10-19T10:30:00+09:00', '2026-10-19T12:00:00+09:00');
    const b = await add('2026-10-19T23:00:00+09:00', '2026-10-20T02:00:00+09:00');
    let busy = (await query({ ...DAY, timeZone: 'Asia/Tokyo', items: [{ id: 'primary' }] })).json.calendars.primary.busy;
    assert.deepEqual(busy, [
      { start: '2026-10-19T10:00:00+09:00', end: '2026-10-19T12:00:00+09:00' },
      { start: '2026-10-19T23:00:00+09:00', end: '2026-10-20T00:00:00+09:00' },
    ]);
    await api(service.url, token, `${events}/${a.id}`, { method: 'DELETE' });
    await api(service.url, token, `${events}/${b.id}`, { method: 'PATCH', body: { transparency: 'transparent' } });
    busy = (await query({ ...DAY, timeZone: 'Asia/Tokyo', items: [{ id: 'primary' }] })).json.calendars.primary.busy;
    assert.deepEqual(busy, [{ start: '2026-10-19T10:00:00+09:00', end: '2026-10-19T11:00:00+09:00' }]);
  });

  test('errors: empty range, missing or malformed bounds, bad zone, range too long, limits', async () => {
    const empty = await query({ timeMin: DAY.timeMin, timeMax: DAY.timeMin, items: [] });
    assert.equal(empty.status, 400);
    assert.equal(reason(empty).reason, 'timeRangeEmpty');
    assert.equal((await query({ timeMax: DAY.timeMax, items: [] })).status, 400);
    assert.equal(reason(await query({ timeMin: '2026-10-19T00:00:00', timeMax: DAY.timeMax })).location, 'timeMin');
    assert.equal(reason(await query({ ...DAY, timeZone: 'Not/AZone' })).location, 'timeZone');
    const long = await query({ timeMin: '2026-01-01T00:00:00Z', timeMax: '2027-06-01T00:00:00Z', items: [] });
    assert.equal(long.status, 400);
    assert.equal(reason(long).reason, 'timeRangeTooLong');
    assert.equal((await query({ ...DAY, calendarExpansionMax: 51 })).status, 400);
    assert.equal((await query({ ...DAY, groupExpansionMax: 101 })).status, 400);
    assert.equal((await query({ ...DAY, items: [{}] })).status, 400);
    assert.equal((await query({ ...DAY, items: 'primary' })).status, 400);
  });

  test('calendars beyond calendarExpansionMax get tooManyCalendarsRequested', async () => {
    const answer = await query({ ...DAY, calendarExpansionMax: 1, items: [{ id: 'primary' }, { id: 'ben.clarke@example.com' }] });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.calendars.primary.busy.length, 1);
    assert.deepEqual(answer.json.calendars['ben.clarke@example.com'], { errors: [{ domain: 'calendar', reason: 'tooManyCalendarsRequested' }], busy: [] });
  });

  test('a rule that would expand past the instance cap is a clear 400, not a stall', async () => {
    const created = await api(service.url, token, 'calendars/primary/events', {
      method: 'POST',
      body: { start: { dateTime: '2026-01-01T00:00:00', timeZone: 'UTC' }, end: { dateTime: '2026-01-01T00:00:01', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=MINUTELY'] },
    });
    assert.equal(created.status, 200);
    const answer = await query({ timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-04-01T00:00:00Z', items: [{ id: 'primary' }] });
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).reason, 'invalid');
    await api(service.url, token, `calendars/primary/events/${created.json.id}`, { method: 'DELETE' });
  });
});
