// events.insert / get / update / patch / delete over HTTP: validation, server fields, etags and
// conditional requests (https://developers.google.com/workspace/calendar/api/v3/reference/events, https://developers.google.com/workspace/calendar/api/v3/reference/events/delete, https://developers.google.com/workspace/calendar/api/guides/version-resources).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AIKO, NOT_FOUND, TEAM, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const EVENTS = `calendars/${encodeURIComponent(AIKO)}/events`;

function timed(start: string, end: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { start: { dateTime: start }, end: { dateTime: end }, ...extra };
}

describe('events writes and reads', () => {
const service = useSignedIn();

async function insert(body: unknown, path = EVENTS) {
  return service.api(path, { method: 'POST', body });
}

describe('events.insert', () => {
  test('answers 200 with the full Event and its server fields', async () => {
    const answer = await insert(timed('2027-01-05T10:00:00+09:00', '2027-01-05T11:00:00+09:00', { summary: 'Kick-off' }));
    assert.equal(answer.status, 200);
    const event = answer.json;
    assert.equal(event.kind, 'calendar#event');
    assert.match(event.id, /^[a-v0-9]{26}$/);
    assert.match(event.etag, /^"\d{16}"$/);
    assert.equal(answer.headers.get('etag'), event.etag);
    assert.equal(event.status, 'confirmed');
    assert.equal(event.iCalUID, `${event.id}@google.com`);
    assert.equal(event.sequence, 0);
    assert.equal(event.eventType, 'default');
    assert.deepEqual(event.reminders, { useDefault: true });
    assert.match(event.created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    assert.match(event.updated, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual(event.creator, { email: AIKO, displayName: 'Aiko Tanaka', self: true });
    assert.deepEqual(event.organizer, { email: AIKO, displayName: 'Aiko Tanaka', self: true });
    const eid = new URL(event.htmlLink).searchParams.get('eid') as string;
    assert.equal(Buffer.from(eid, 'base64url').toString('utf8'), `${event.id} ${AIKO}`);
    assert.deepEqual(event.start, { dateTime: '2027-01-05T10:00:00+09:00' });
    assert.equal(event.transparency, undefined, 'opaque is the default and omitted');
    assert.equal(event.visibility, undefined, 'default visibility is omitted');
  });

  test('uses the service clock for created and updated', async () => {
    const clock = async (body: object) =>
      (await fetch(`${service.url}/__svc/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<{ now: string }>;
    // Half an hour ahead (the token stays valid), at .100 of a second so the second does not roll over.
    const ahead = Math.floor(Date.parse((await clock({ advanceSeconds: 0 })).now) / 1000) * 1000 + 1_800_100;
    await clock({ now: new Date(ahead).toISOString() });
    const event = (await insert(timed('2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z'))).json;
    assert.equal(event.created, new Date(ahead - 100).toISOString());
    assert.ok(Date.parse(event.updated) >= ahead && Date.parse(event.updated) < ahead + 900, event.updated);
  });

  test('keeps the writable fields it validated and ignores read-only and unknown ones', async () => {
    const answer = await insert({
      ...timed('2027-01-06T10:00:00+09:00', '2027-01-06T11:00:00+09:00'),
      id: 'clientchosen01',
      summary: 'Planning',
      description: 'desc',
      location: 'Room 1',
      colorId: '5',
      transparency: 'transparent',
      visibility: 'private',
      status: 'tentative',
      attendees: [{ email: 'guest@example.com', displayName: 'Guest' }, { email: AIKO }],
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 10 }] },
      extendedProperties: { private: { a: '1' }, shared: { b: '2' } },
      htmlLink: 'https://evil.example/',
      etag: '"1"',
      creator: { email: 'someone@else' },
      unknownField: 42,
    });
    assert.equal(answer.status, 200, answer.text);
    const e = answer.json;
    assert.equal(e.id, 'clientchosen01');
    assert.equal(e.colorId, '5');
    assert.equal(e.transparency, 'transparent');
    assert.equal(e.visibility, 'private');
    assert.equal(e.status, 'tentative');
    assert.deepEqual(e.attendees, [
      { email: 'guest@example.com', displayName: 'Guest', responseStatus: 'needsAction' },
      { email: AIKO, responseStatus: 'needsAction', organizer: true, self: true },
    ]);
    assert.deepEqual(e.reminders, { useDefault: false, overrides: [{ method: 'popup', minutes: 10 }] });
    assert.deepEqual(e.extendedProperties, { private: { a: '1' }, shared: { b: '2' } });
    assert.notEqual(e.htmlLink, 'https://evil.example/');
    assert.equal(e.creator.email, AIKO);
    assert.equal(e.unknownField, undefined);
  });

  test('all-day events take dates and the iCalUID given', async () => {
    const e = (await insert({ start: { date: '2027-02-01' }, end: { date: '2027-02-02' }, iCalUID: 'abc@example.com' })).json;
    assert.deepEqual(e.start, { date: '2027-02-01' });
    assert.deepEqual(e.end, { date: '2027-02-02' });
    assert.equal(e.iCalUID, 'abc@example.com');
  });

  test('a local dateTime is read in its timeZone and rendered in the calendar zone', async () => {
    const e = (await insert({
      start: { dateTime: '2027-03-01T09:00:00', timeZone: 'Europe/Paris' },
      end: { dateTime: '2027-03-01T10:00:00', timeZone: 'Europe/Paris' },
    })).json;
    assert.deepEqual(e.start, { dateTime: '2027-03-01T17:00:00+09:00', timeZone: 'Europe/Paris' });
    const utc = await service.api(`${EVENTS}/${e.id}?timeZone=UTC`);
    assert.deepEqual(utc.json.start, { dateTime: '2027-03-01T08:00:00Z', timeZone: 'Europe/Paris' });
  });

  const rejections: Array<[string, unknown, number, string, string]> = [
    ['missing end', { start: { dateTime: '2027-01-01T10:00:00Z' } }, 400, 'required', 'Missing end time.'],
    ['missing start', { end: { dateTime: '2027-01-01T10:00:00Z' } }, 400, 'required', 'Missing start time.'],
    ['mixed date and dateTime', { start: { date: '2027-01-01' }, end: { dateTime: '2027-01-01T10:00:00Z' } }, 400, 'invalid', 'Start and end times must either both be date or both be dateTime.'],
    ['end before start', timed('2027-01-01T10:00:00Z', '2027-01-01T09:00:00Z'), 400, 'timeRangeEmpty', 'The specified time range is empty.'],
    ['local time without zone', { start: { dateTime: '2027-01-01T10:00:00' }, end: { dateTime: '2027-01-01T11:00:00Z' } }, 400, 'invalid', 'Missing time zone definition for start time.'],
    ['unknown time zone', { start: { dateTime: '2027-01-01T10:00:00', timeZone: 'Mars/Base' }, end: { dateTime: '2027-01-01T11:00:00Z' } }, 400, 'invalid', 'Invalid time zone definition for start time.'],
    ['malformed dateTime', timed('2027-13-01T10:00:00Z', '2027-01-01T11:00:00Z'), 400, 'invalid', 'Invalid start time.'],
    ['malformed date', { start: { date: '2027-02-30' }, end: { date: '2027-03-01' } }, 400, 'invalid', 'Invalid start time.'],
    ['upper-case id', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { id: 'ABCDEF' }), 400, 'invalid', 'Invalid resource id value.'],
    ['id with w', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { id: 'abcdw1' }), 400, 'invalid', 'Invalid resource id value.'],
    ['short id', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { id: 'abcd' }), 400, 'invalid', 'Invalid resource id value.'],
    ['long id', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { id: 'a'.repeat(1025) }), 400, 'invalid', 'Invalid resource id value.'],
    ['recurring without timeZone', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { recurrence: ['RRULE:FREQ=DAILY'] }), 400, 'invalid', 'Missing time zone definition for start time.'],
    ['attendee without email', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { attendees: [{ displayName: 'x' }] }), 400, 'required', 'Missing attendee email.'],
    ['attendee bad email', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { attendees: [{ email: 'nope' }] }), 400, 'invalid', 'Invalid attendee email.'],
    ['six reminders', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { reminders: { useDefault: false, overrides: Array.from({ length: 6 }, () => ({ method: 'popup', minutes: 5 })) } }), 400, 'eventRemindersCountExceedsLimit', 'The number of reminder overrides exceeds the limit of 5.'],
    ['reminder minutes out of range', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 40321 }] } }), 400, 'invalid', 'Reminder minutes must be an integer from 0 to 40320.'],
    ['reminder bad method', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { reminders: { useDefault: false, overrides: [{ method: 'sms', minutes: 5 }] } }), 400, 'invalid', 'Invalid value for reminders.overrides[0].method.'],
    ['default and overrides', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { reminders: { useDefault: true, overrides: [{ method: 'popup', minutes: 5 }] } }), 400, 'cannotUseDefaultRemindersAndSpecifyOverride', 'Cannot specify both default reminders and overrides at the same time.'],
    ['extended property not a string', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { extendedProperties: { private: { a: 1 } } }), 400, 'invalid', 'Invalid value for extendedProperties.private.a.'],
    ['transparency', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { transparency: 'clear' }), 400, 'invalid', 'Invalid value for transparency.'],
    ['visibility', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { visibility: 'secret' }), 400, 'invalid', 'Invalid value for visibility.'],
    ['colorId', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { colorId: '12' }), 400, 'invalid', 'Invalid value for colorId.'],
    ['status', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { status: 'done' }), 400, 'invalid', 'Invalid value for status.'],
    ['eventType fromGmail', timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { eventType: 'fromGmail' }), 400, 'invalid', 'Invalid value for eventType.'],
  ];
  for (const [name, body, status, why, message] of rejections) {
    test(`refuses ${name}`, async () => {
      const answer = await insert(body);
      assert.equal(answer.status, status, answer.text);
      assert.equal(reason(answer).reason, why);
      assert.equal(reason(answer).message, message);
    });
  }

  test('refuses an invalid recurrence line with the engine message', async () => {
    const answer = await insert({
      start: { dateTime: '2027-01-01T10:00:00', timeZone: 'UTC' },
      end: { dateTime: '2027-01-01T11:00:00', timeZone: 'UTC' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=XX'],
    });
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).reason, 'invalid');
    assert.match(reason(answer).message as string, /^Invalid recurrence rule: BYDAY value "XX"/);
  });

  test('a duplicate id is 409 duplicate, also against a deleted event', async () => {
    const body = timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { id: 'duplicate01' });
    assert.equal((await insert(body)).status, 200);
    const again = await insert(body);
    assert.equal(again.status, 409);
    assert.equal(reason(again).reason, 'duplicate');
    assert.equal(reason(again).message, 'The requested identifier already exists.');
    assert.equal((await service.api(`${EVENTS}/duplicate01`, { method: 'DELETE' })).status, 204);
    assert.equal((await insert(body)).status, 409);
  });

  test('the same id may exist in two calendars', async () => {
    const body = timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z', { id: 'bothcalendars' });
    assert.equal((await insert(body)).status, 200);
    assert.equal((await insert(body, `calendars/${encodeURIComponent(TEAM)}/events`)).status, 200);
  });

  test('a calendar the user does not own is 404', async () => {
    const answer = await insert(timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z'), 'calendars/ben-private%40group.calendar.example.com/events');
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.json, NOT_FOUND);
  });

  test('a body that is not an object is 400', async () => {
    const answer = await insert([1, 2]);
    assert.equal(answer.status, 400);
  });
});

describe('events.get', () => {
  test('returns the event, 404 for an unknown id, and honours If-None-Match', async () => {
    const created = (await insert(timed('2027-04-01T10:00:00Z', '2027-04-01T11:00:00Z', { summary: 'Get me' }))).json;
    const got = await service.api(`${EVENTS}/${created.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, created);
    assert.equal((await service.api(`${EVENTS}/unknown000`)).status, 404);
    const cached = await service.api(`${EVENTS}/${created.id}`, { headers: { 'if-none-match': created.etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.text, '');
    const stale = await service.api(`${EVENTS}/${created.id}`, { headers: { 'if-none-match': '"0000000000000001"' } });
    assert.equal(stale.status, 200);
  });

  test('the primary alias reaches the same event', async () => {
    const created = (await insert(timed('2027-04-01T10:00:00Z', '2027-04-01T11:00:00Z'))).json;
    assert.equal((await service.api(`calendars/primary/events/${created.id}`)).json.id, created.id);
  });

  test('refuses an unknown timeZone parameter', async () => {
    const created = (await insert(timed('2027-04-01T10:00:00Z', '2027-04-01T11:00:00Z'))).json;
    const answer = await service.api(`${EVENTS}/${created.id}?timeZone=Nowhere/City`);
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).location, 'timeZone');
  });
});

describe('events.update and events.patch', () => {
  test('update replaces: omitted fields are cleared, etag and updated move, sequence counts time changes', async () => {
    const created = (await insert(timed('2027-05-01T10:00:00Z', '2027-05-01T11:00:00Z', { summary: 'Old', location: 'Here', colorId: '3' }))).json;
    await fetch(`${service.url}/__svc/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advanceSeconds":5}' });
    const updated = await service.api(`${EVENTS}/${created.id}`, {
      method: 'PUT',
      body: timed('2027-05-01T12:00:00Z', '2027-05-01T13:00:00Z', { summary: 'New' }),
    });
    assert.equal(updated.status, 200, updated.text);
    const e = updated.json;
    assert.equal(e.summary, 'New');
    assert.equal(e.location, undefined);
    assert.equal(e.colorId, undefined);
    assert.notEqual(e.etag, created.etag);
    assert.ok(e.updated > created.updated);
    assert.equal(e.created, created.created);
    assert.equal(e.sequence, 1);
    assert.equal(e.id, created.id);
    assert.equal(e.iCalUID, created.iCalUID);
    const same = await service.api(`${EVENTS}/${created.id}`, { method: 'PUT', body: timed('2027-05-01T12:00:00Z', '2027-05-01T13:00:00Z', { summary: 'Newer' }) });
    assert.equal(same.json.sequence, 1, 'a summary change is not a time change');
  });

  test('update requires start and end', async () => {
    const created = (await insert(timed('2027-05-01T10:00:00Z', '2027-05-01T11:00:00Z'))).json;
    const answer = await service.api(`${EVENTS}/${created.id}`, { method: 'PUT', body: { summary: 'x', start: { dateTime: '2027-05-01T10:00:00Z' } } });
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).message, 'Missing end time.');
  });

  test('patch merges: absent fields stay, arrays and start/end are replaced, null clears', async () => {
    const created = (await insert(timed('2027-05-02T10:00:00Z', '2027-05-02T11:00:00Z', {
      summary: 'Keep',
      location: 'Somewhere',
      attendees: [{ email: 'a@example.com' }, { email: 'b@example.com' }],
      extendedProperties: { private: { a: '1', b: '2' } },
    }))).json;
    const patched = await service.api(`${EVENTS}/${created.id}`, {
      method: 'PATCH',
      body: {
        attendees: [{ email: 'c@example.com' }],
        location: null,
        extendedProperties: { private: { b: '3' } },
        start: { date: '2027-05-02' },
        end: { date: '2027-05-03' },
      },
    });
    assert.equal(patched.status, 200, patched.text);
    const e = patched.json;
    assert.equal(e.summary, 'Keep');
    assert.equal(e.location, undefined);
    assert.deepEqual(e.attendees, [{ email: 'c@example.com', responseStatus: 'needsAction' }]);
    assert.deepEqual(e.extendedProperties, { private: { a: '1', b: '3' } });
    assert.deepEqual(e.start, { date: '2027-05-02' });
    assert.equal(e.sequence, 1);
    assert.notEqual(e.etag, created.etag);
  });

  test('patch validates the merged event', async () => {
    const created = (await insert(timed('2027-05-02T10:00:00Z', '2027-05-02T11:00:00Z'))).json;
    const answer = await service.api(`${EVENTS}/${created.id}`, { method: 'PATCH', body: { end: { dateTime: '2027-05-02T09:00:00Z' } } });
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).reason, 'timeRangeEmpty');
    assert.equal((await service.api(`${EVENTS}/${created.id}`)).json.etag, created.etag, 'a refused write changes nothing');
  });

  test('If-Match: a stale etag is 412 conditionNotMet, the current one passes', async () => {
    const created = (await insert(timed('2027-05-03T10:00:00Z', '2027-05-03T11:00:00Z'))).json;
    const stale = await service.api(`${EVENTS}/${created.id}`, { method: 'PATCH', body: { summary: 'x' }, headers: { 'if-match': '"0000000000000001"' } });
    assert.equal(stale.status, 412);
    assert.equal(reason(stale).reason, 'conditionNotMet');
    assert.equal(reason(stale).location, 'If-Match');
    const ok = await service.api(`${EVENTS}/${created.id}`, { method: 'PATCH', body: { summary: 'x' }, headers: { 'if-match': created.etag } });
    assert.equal(ok.status, 200);
    const put = await service.api(`${EVENTS}/${created.id}`, { method: 'PUT', body: timed('2027-05-03T10:00:00Z', '2027-05-03T11:00:00Z'), headers: { 'if-match': created.etag } });
    assert.equal(put.status, 412);
    const del = await service.api(`${EVENTS}/${created.id}`, { method: 'DELETE', headers: { 'if-match': created.etag } });
    assert.equal(del.status, 412);
  });

  test('eventType cannot change; unknown ids are 404', async () => {
    const created = (await insert(timed('2027-05-03T10:00:00Z', '2027-05-03T11:00:00Z'))).json;
    const answer = await service.api(`${EVENTS}/${created.id}`, { method: 'PATCH', body: { eventType: 'focusTime' } });
    assert.equal(answer.status, 400);
    assert.equal((await service.api(`${EVENTS}/nosuchevent`, { method: 'PATCH', body: {} })).status, 404);
  });
});

describe('events.delete', () => {
  test('204, then get returns the cancelled event, and a second delete is 410 deleted', async () => {
    const created = (await insert(timed('2027-06-01T10:00:00Z', '2027-06-01T11:00:00Z', { summary: 'Doomed' }))).json;
    const del = await service.api(`${EVENTS}/${created.id}`, { method: 'DELETE' });
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    const got = await service.api(`${EVENTS}/${created.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.json.status, 'cancelled');
    assert.equal(got.json.summary, 'Doomed', 'the organizer keeps the details');
    assert.notEqual(got.json.etag, created.etag);
    const again = await service.api(`${EVENTS}/${created.id}`, { method: 'DELETE' });
    assert.equal(again.status, 410);
    assert.equal(reason(again).reason, 'deleted');
    assert.equal(reason(again).message, 'Resource has been deleted');
    assert.equal((await service.api(`${EVENTS}/neverexisted`, { method: 'DELETE' })).status, 404);
  });
});

describe('scopes', () => {
  test('a read-only token cannot write', async () => {
    const readonly = await tokenFor(service.url, 'calendar.events.readonly');
    const answer = await api(service.url, readonly, EVENTS, { method: 'POST', body: timed('2027-01-01T10:00:00Z', '2027-01-01T11:00:00Z') });
    assert.equal(answer.status, 403);
    assert.equal((await api(service.url, readonly, EVENTS)).status, 200);
  });
});
});
