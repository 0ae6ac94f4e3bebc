// Status and birthday events as Google keeps them, on both stores, through raw HTTP:
// - focusTime and outOfOffice are opaque and timed, never all-day; workingLocation is public and
//   transparent, timed or one all-day day; all three live on primary calendars only
//   (https://developers.google.com/calendar/api/guides/calendar-status);
// - birthday events are one all-day day, private, transparent, `RRULE:FREQ=YEARLY`, created with
//   `birthdayProperties.type: birthday` only, and change only in summary, reminders and dates
//   (https://developers.google.com/calendar/api/guides/event-types); a refused birthday write is
//   400 `eventTypeRestriction` in the `calendar` domain, "Attempt made to modify 'birthday' event
//   in a way that is not valid for this event type." (https://github.com/kellylford/QuickMail/issues/294);
// - `eventType` cannot change after insert (https://developers.google.com/workspace/calendar/api/v3/reference/events/insert); events.list's `eventTypes` filters;
//   free/busy counts the opaque types and not the transparent ones;
// - the default fixture holds one of each (apps' parsers broke on workingLocation in the wild:
//   https://github.com/home-assistant/core/issues/114072), and a workspace export loads back with them.
// The wording of the other refusals is the emulator's own (Google publishes none): only the
// reason and status are Google's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AIKO, api, CALENDAR_FIXTURE, reason, TEAM, tokenFor } from '../_helpers/calendar.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { call, postJson, startService } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const PRIMARY = `calendars/${encodeURIComponent(AIKO)}/events`;
const SECONDARY = `calendars/${encodeURIComponent(TEAM)}/events`;
const TIMED = { start: { dateTime: '2027-03-01T09:00:00+09:00' }, end: { dateTime: '2027-03-01T11:00:00+09:00' } };
const ALL_DAY = { start: { date: '2027-03-01' }, end: { date: '2027-03-02' } };

const FOCUS = { ...TIMED, summary: 'Focus', eventType: 'focusTime', focusTimeProperties: { chatStatus: 'doNotDisturb', autoDeclineMode: 'declineNone', declineMessage: 'Busy' } };
const AWAY = { ...TIMED, summary: 'Away', eventType: 'outOfOffice', outOfOfficeProperties: { autoDeclineMode: 'declineAllConflictingInvitations', declineMessage: 'Away' } };
const OFFICE = { ...ALL_DAY, eventType: 'workingLocation', workingLocationProperties: { type: 'officeLocation', officeLocation: { label: 'HQ', deskId: 'D1' } } };
const BIRTHDAY = { ...ALL_DAY, summary: 'Mika', eventType: 'birthday', recurrence: ['RRULE:FREQ=YEARLY'] };

/** A 400 eventTypeRestriction whose message matches `message` (Google's body errors name no location). */
function assertRestricted(answer: Answer, message: RegExp): void {
  assert.equal(answer.status, 400, answer.text);
  const error = reason(answer);
  assert.equal(error.reason, 'eventTypeRestriction', answer.text);
  assert.equal(error.domain, 'calendar');
  assert.match(error.message ?? '', message);
}

const MODIFY = /^Attempt made to modify 'birthday' event in a way that is not valid for this event type\.$/;

for (const backend of BACKENDS) {
  describe(`status and birthday events (${backend} store)`, { skip: skipUnless(backend) }, () => {
    async function world(t: { after(fn: () => unknown): void }): Promise<{ url: string; token: string; insert: (body: object, path?: string) => Promise<Answer> }> {
      const url = await startService(t, { fixture: CALENDAR_FIXTURE, db: databaseFor(t, backend) });
      const token = await tokenFor(url, 'calendar');
      return { url, token, insert: (body, path = PRIMARY) => api(url, token, path, { method: 'POST', body }) };
    }

    test('each type reads back with its properties, and the transparency and visibility Google gives it', async (t) => {
      const { url, token, insert } = await world(t);
      const focus = await insert(FOCUS);
      assert.equal(focus.status, 200, focus.text);
      assert.equal(focus.json.eventType, 'focusTime');
      assert.deepEqual(focus.json.focusTimeProperties, FOCUS.focusTimeProperties);
      assert.equal(focus.json.transparency, undefined, 'opaque, the default, is omitted');
      const away = await insert(AWAY);
      assert.deepEqual([away.json.eventType, away.json.outOfOfficeProperties], ['outOfOffice', AWAY.outOfOfficeProperties]);
      const office = await insert(OFFICE);
      assert.equal(office.status, 200, office.text);
      assert.deepEqual([office.json.transparency, office.json.visibility], ['transparent', 'public']);
      assert.deepEqual(office.json.workingLocationProperties, OFFICE.workingLocationProperties);
      // Timed working locations are allowed too; a home office needs no details.
      const home = await insert({ ...TIMED, eventType: 'workingLocation', workingLocationProperties: { type: 'homeOffice', homeOffice: {}, customLocation: { label: 'dropped' } } });
      assert.deepEqual(home.json.workingLocationProperties, { type: 'homeOffice', homeOffice: {} }, 'other types\' sub-objects are disregarded');
      const birthday = await insert(BIRTHDAY);
      assert.equal(birthday.status, 200, birthday.text);
      assert.deepEqual(
        [birthday.json.transparency, birthday.json.visibility, birthday.json.birthdayProperties, birthday.json.recurrence],
        ['transparent', 'private', { type: 'birthday' }, ['RRULE:FREQ=YEARLY']],
      );
      const leap = await insert({ ...BIRTHDAY, start: { date: '2028-02-29' }, end: { date: '2028-03-01' }, recurrence: ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1'] });
      assert.equal(leap.status, 200, leap.text);
      // A properties object of another type is ignored; a status event without its own reads back an empty one.
      const plain = await insert({ ...TIMED, focusTimeProperties: { chatStatus: 'available' } });
      assert.equal(plain.json.focusTimeProperties, undefined);
      const bare = await insert({ ...TIMED, eventType: 'outOfOffice' });
      assert.deepEqual(bare.json.outOfOfficeProperties, {});
      const got = await api(url, token, `${PRIMARY}/${office.json.id}`);
      assert.deepEqual(got.json.workingLocationProperties, OFFICE.workingLocationProperties);
    });

    test('status and birthday events live on primary calendars only', async (t) => {
      const { insert } = await world(t);
      for (const body of [FOCUS, AWAY, OFFICE, BIRTHDAY]) assertRestricted(await insert(body, SECONDARY), /can only be created on primary calendars/);
      assert.equal((await insert(TIMED, SECONDARY)).status, 200);
    });

    test('each type refuses what Google does not allow it', async (t) => {
      const { insert } = await world(t);
      assertRestricted(await insert({ ...FOCUS, ...ALL_DAY }), /^Focus time events cannot be all-day/);
      assertRestricted(await insert({ ...AWAY, ...ALL_DAY }), /^Out of office events cannot be all-day/);
      assertRestricted(await insert({ ...FOCUS, transparency: 'transparent' }), /transparency 'opaque'/);
      assertRestricted(await insert({ ...OFFICE, transparency: 'opaque' }), /transparency 'transparent'/);
      assertRestricted(await insert({ ...OFFICE, visibility: 'private' }), /visibility 'public'/);
      assertRestricted(await insert({ ...OFFICE, end: { date: '2027-03-03' } }), /exactly one day/);
      const zoned = { dateTime: '2027-03-01T09:00:00', timeZone: 'Asia/Tokyo' };
      assertRestricted(await insert({ ...BIRTHDAY, start: zoned, end: { ...zoned, dateTime: '2027-03-01T10:00:00' } }), /exactly one day/);
      assertRestricted(await insert({ ...BIRTHDAY, end: { date: '2027-03-03' } }), /exactly one day/);
      assertRestricted(await insert({ ...BIRTHDAY, recurrence: undefined }), /recur yearly/);
      assertRestricted(await insert({ ...BIRTHDAY, recurrence: ['RRULE:FREQ=MONTHLY'] }), /recur yearly/);
      assertRestricted(await insert({ ...BIRTHDAY, visibility: 'public' }), /visibility 'private'/);
      assertRestricted(await insert({ ...BIRTHDAY, colorId: '3' }), MODIFY);
      assertRestricted(await insert({ ...BIRTHDAY, birthdayProperties: { type: 'anniversary' } }), /only create birthday events of type 'birthday'/);
      const extended = await insert({ ...BIRTHDAY, extendedProperties: { private: { a: 'b' } } });
      assertRestricted(extended, /^'birthday' event type must not have private extended properties\.$/);
      // Required members: the working location's properties and their type; enums are checked.
      const missing = await insert({ ...ALL_DAY, eventType: 'workingLocation' });
      assert.deepEqual([missing.status, reason(missing).reason, reason(missing).message], [400, 'required', 'Missing workingLocationProperties.']);
      const untyped = await insert({ ...OFFICE, workingLocationProperties: { officeLocation: { label: 'HQ' } } });
      assert.deepEqual([untyped.status, reason(untyped).reason, reason(untyped).message], [400, 'required', 'Missing working location type.']);
      const badType = await insert({ ...OFFICE, workingLocationProperties: { type: 'beach' } });
      assert.deepEqual([badType.status, reason(badType).reason, reason(badType).message], [400, 'invalid', 'Invalid value for workingLocationProperties.type.']);
      const badStatus = await insert({ ...FOCUS, focusTimeProperties: { chatStatus: 'away' } });
      assert.deepEqual([badStatus.status, reason(badStatus).message], [400, 'Invalid value for focusTimeProperties.chatStatus.']);
      const badMode = await insert({ ...AWAY, outOfOfficeProperties: { autoDeclineMode: 'declineEverything' } });
      assert.deepEqual([badMode.status, reason(badMode).message], [400, 'Invalid value for outOfOfficeProperties.autoDeclineMode.']);
      const gmail = await insert({ ...TIMED, eventType: 'fromGmail' });
      assert.deepEqual([gmail.status, reason(gmail).reason], [400, 'invalid']);
    });

    test('eventType cannot change; status rules hold on update and patch; a birthday changes only in summary, reminders and dates', async (t) => {
      const { url, token, insert } = await world(t);
      const focus = (await insert(FOCUS)).json;
      const path = `${PRIMARY}/${focus.id}`;
      for (const method of ['PATCH', 'PUT']) {
        const changed = await api(url, token, path, { method, body: { ...TIMED, eventType: 'outOfOffice' } });
        assert.deepEqual([changed.status, reason(changed).message], [400, 'The event type cannot be changed.'], changed.text);
      }
      assert.equal((await api(url, token, path, { method: 'PATCH', body: { eventType: 'focusTime', summary: 'Same type' } })).status, 200);
      assertRestricted(await api(url, token, path, { method: 'PATCH', body: ALL_DAY }), /cannot be all-day/);
      const patched = await api(url, token, path, { method: 'PATCH', body: { focusTimeProperties: { chatStatus: 'available' } } });
      assert.deepEqual(patched.json.focusTimeProperties, { ...FOCUS.focusTimeProperties, chatStatus: 'available' });
      const plain = (await insert(TIMED)).json;
      const typed = await api(url, token, `${PRIMARY}/${plain.id}`, { method: 'PATCH', body: { eventType: 'workingLocation' } });
      assert.deepEqual([typed.status, reason(typed).message], [400, 'The event type cannot be changed.']);

      const birthday = (await insert(BIRTHDAY)).json;
      const at = `${PRIMARY}/${birthday.id}`;
      const renamed = await api(url, token, at, { method: 'PATCH', body: { summary: 'Mika!', reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 60 }] } } });
      assert.equal(renamed.status, 200, renamed.text);
      const moved = await api(url, token, at, { method: 'PATCH', body: { start: { date: '2027-03-05' }, end: { date: '2027-03-06' } } });
      assert.equal(moved.status, 200, moved.text);
      const coloured = await api(url, token, at, { method: 'PATCH', body: { colorId: '3' } });
      assertRestricted(coloured, MODIFY);
      assertRestricted(await api(url, token, at, { method: 'PATCH', body: { description: 'x' } }), MODIFY);
      assertRestricted(await api(url, token, at, { method: 'PATCH', body: { recurrence: ['RRULE:FREQ=YEARLY;COUNT=3'] } }), /recur yearly/);
      const updated = await api(url, token, at, { method: 'PUT', body: { ...BIRTHDAY, summary: 'Mika again', start: { date: '2027-03-05' }, end: { date: '2027-03-06' } } });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual([updated.json.summary, updated.json.birthdayProperties, updated.json.visibility], ['Mika again', { type: 'birthday' }, 'private']);
    });

    test('eventTypes filters events.list; free/busy counts focus time and out of office only', async (t) => {
      const { url, token, insert } = await world(t);
      const ids: Record<string, string> = {};
      for (const [name, body] of Object.entries({ default: TIMED, focusTime: FOCUS, outOfOffice: { ...AWAY, start: { dateTime: '2027-03-01T13:00:00+09:00' }, end: { dateTime: '2027-03-01T14:00:00+09:00' } }, workingLocation: OFFICE, birthday: BIRTHDAY })) {
        const answer = await insert(body);
        assert.equal(answer.status, 200, answer.text);
        ids[name] = answer.json.id;
      }
      const listed = async (query: string) => ((await api(url, token, `${PRIMARY}?${query}`)).json.items as Array<{ id: string }>).map((e) => e.id).sort();
      for (const type of Object.keys(ids)) assert.deepEqual(await listed(`eventTypes=${type}`), [ids[type]], type);
      assert.deepEqual(await listed('eventTypes=focusTime&eventTypes=birthday'), [ids.focusTime, ids.birthday].sort());
      assert.deepEqual(await listed('eventTypes=fromGmail'), []);
      assert.equal((await listed('')).length, 5);
      const birthdays = (await api(url, token, `${PRIMARY}?eventTypes=birthday&singleEvents=true&timeMin=2027-01-01T00:00:00Z&timeMax=2030-01-01T00:00:00Z`)).json.items;
      assert.deepEqual(birthdays.map((e: { start: { date: string } }) => e.start.date), ['2027-03-01', '2028-03-01', '2029-03-01']);

      const busy = await api(url, token, 'freeBusy', {
        method: 'POST',
        body: { timeMin: '2027-02-28T15:00:00Z', timeMax: '2027-03-01T15:00:00Z', timeZone: 'Asia/Tokyo', items: [{ id: AIKO }] },
      });
      assert.equal(busy.status, 200, busy.text);
      // The default event and focus time overlap (09:00-11:00); out of office 13:00-14:00; the
      // all-day working location and birthday are transparent, so free.
      assert.deepEqual(busy.json.calendars[AIKO].busy, [
        { start: '2027-03-01T09:00:00+09:00', end: '2027-03-01T11:00:00+09:00' },
        { start: '2027-03-01T13:00:00+09:00', end: '2027-03-01T14:00:00+09:00' },
      ]);
    });

    test('the default fixture holds one of each type, and an export loads back with them', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend) });
      const list = async (base: string) => (await api(base, await tokenFor(base, 'calendar'), `calendars/primary/events?eventTypes=focusTime&eventTypes=outOfOffice&eventTypes=workingLocation&eventTypes=birthday`)).json.items;
      const items = await list(url);
      assert.deepEqual(
        items.map((e: { id: string; eventType: string }) => [e.id, e.eventType]).sort(),
        [['deepfocus1020', 'focusTime'], ['mikabd1022', 'birthday'], ['office1020', 'workingLocation'], ['ooo1021', 'outOfOffice']],
      );
      const office = items.find((e: { id: string }) => e.id === 'office1020');
      assert.deepEqual(office.workingLocationProperties, { type: 'officeLocation', officeLocation: { buildingId: 'tokyo-hq', floorId: '12', label: 'Tokyo HQ' } });
      const exported = (await call(`${url}/__svc/fixtures`)).json;
      const other = await startService(t, { fixture: { users: [] }, db: databaseFor(t, backend) });
      const loaded = await postJson(`${other}/__svc/fixtures`, exported);
      assert.equal(loaded.status, 200, loaded.text);
      const strip = (events: Array<Record<string, unknown>>) => events.map(({ etag, created, updated, htmlLink, ...rest }) => rest);
      assert.deepEqual(strip(await list(other)), strip(items));
      assert.deepEqual((await call(`${other}/__svc/fixtures`)).json, exported);
    });

    test('a fixture with a status event that breaks a rule is refused with its path', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend) });
      const user = { id: 'u1', name: 'One', email: 'one@example.com' };
      const load = (events: object[], primary = true) => postJson(`${url}/__svc/fixtures`, { users: [{ ...user, calendars: [{ primary: true }, { id: 'side@group.calendar.example.com', summary: 'Side', events: primary ? [] : events }].map((c, i) => (i === 0 && primary ? { ...c, events } : c)) }] });
      const cases: Array<[object[], boolean, RegExp]> = [
        [[{ ...FOCUS, focusTimeProperties: { chatStatus: 'away' } }], true, /^users\[0\]\.calendars\[0\]\.events\[0\]\.focusTimeProperties\.chatStatus/],
        [[{ ...OFFICE, workingLocationProperties: { type: 'officeLocation', officeLocation: { room: '1' } } }], true, /^users\[0\]\.calendars\[0\]\.events\[0\]\.workingLocationProperties\.officeLocation\.room/],
        [[{ ...FOCUS, ...ALL_DAY }], true, /^users\[0\]\.calendars\[0\]\.events\[0\]\.start: Focus time events cannot be all-day/],
        [[OFFICE], false, /^users\[0\]\.calendars\[1\]\.events\[0\]\.eventType: Working location events can only be created on primary calendars/],
      ];
      for (const [events, primary, expected] of cases) {
        const answer = await load(events, primary);
        assert.equal(answer.status, 400, answer.text);
        assert.equal(answer.json.error, 'invalid_fixture');
        assert.match(answer.json.error_description, expected);
      }
      assert.equal((await load([FOCUS, AWAY, OFFICE, BIRTHDAY])).status, 200);
    });
  });
}
