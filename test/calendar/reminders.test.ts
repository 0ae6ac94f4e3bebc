// Event reminders as Google answers them: the refusals (reasons in Google's `calendar` domain)
// and the default reminders a fixture calendar starts with, which events with useDefault read.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AIKO, BEN, BEN_PRIVATE, CALENDAR_FIXTURE, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const EVENTS = `calendars/${encodeURIComponent(AIKO)}/events`;
const TIMES = { start: { dateTime: '2027-01-01T10:00:00Z' }, end: { dateTime: '2027-01-01T11:00:00Z' } };
const popups = (n: number) => Array.from({ length: n }, (_, i) => ({ method: 'popup', minutes: 5 + i }));

describe('event reminders', () => {
  const service = useSignedIn();
  const insert = (reminders: unknown) => service.api(EVENTS, { method: 'POST', body: { ...TIMES, reminders } });

  // https://github.com/openclaw/gogcli/issues/97: 400 cannotUseDefaultRemindersAndSpecifyOverride.
  test('useDefault true with overrides is 400 calendar/cannotUseDefaultRemindersAndSpecifyOverride', async () => {
    const answer = await insert({ useDefault: true, overrides: [{ method: 'popup', minutes: 5 }] });
    assert.equal(answer.status, 400);
    assert.deepEqual(
      { domain: reason(answer).domain, reason: reason(answer).reason, message: reason(answer).message },
      { domain: 'calendar', reason: 'cannotUseDefaultRemindersAndSpecifyOverride', message: 'Cannot specify both default reminders and overrides at the same time.' },
    );
  });

  test('useDefault true with an empty overrides list is how a client returns to the defaults', async () => {
    const answer = await insert({ useDefault: true, overrides: [] });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.reminders, { useDefault: true });
  });

  test('five overrides are kept; a sixth is 400 calendar/eventRemindersCountExceedsLimit', async () => {
    assert.equal((await insert({ useDefault: false, overrides: popups(5) })).status, 200);
    const answer = await insert({ useDefault: false, overrides: popups(6) });
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).domain, 'calendar');
    assert.equal(reason(answer).reason, 'eventRemindersCountExceedsLimit');
  });

  for (const minutes of [-1, 40321, 1.5]) {
    test(`minutes ${minutes} (outside 0..40320) is 400 invalid`, async () => {
      const answer = await insert({ useDefault: false, overrides: [{ method: 'popup', minutes }] });
      assert.equal(answer.status, 400);
      assert.equal(reason(answer).reason, 'invalid');
    });
  }

  test('the limits are inclusive: 0 and 40320 minutes are kept', async () => {
    const answer = await insert({ useDefault: false, overrides: [{ method: 'email', minutes: 0 }, { method: 'popup', minutes: 40320 }] });
    assert.equal(answer.status, 200, answer.text);
  });
});

describe('default reminders of fixture calendars', () => {
  const { calendars: _ignored, ...aiko } = CALENDAR_FIXTURE.users[0] as Record<string, unknown>;
  const service = useSignedIn({
    fixture: {
      clients: CALENDAR_FIXTURE.clients,
      users: [{ ...aiko }, { ...CALENDAR_FIXTURE.users[1] }],
    },
  });

  test('a primary calendar the fixture says nothing about starts with a 30-minute popup, as a new Google calendar does', async () => {
    const entry = await service.api(`users/me/calendarList/${encodeURIComponent(AIKO)}`);
    assert.deepEqual(entry.json.defaultReminders, [{ method: 'popup', minutes: 30 }]);
  });

  test('a secondary calendar starts with none', async () => {
    const ben = await tokenFor(service.url, 'calendar', 'user-ben');
    const entry = await api(service.url, ben, `users/me/calendarList/${encodeURIComponent(BEN_PRIVATE)}`);
    assert.deepEqual(entry.json.defaultReminders, []);
    const primary = await api(service.url, ben, `users/me/calendarList/${encodeURIComponent(BEN)}`);
    assert.deepEqual(primary.json.defaultReminders, [{ method: 'popup', minutes: 30 }]);
  });

  test('an event with useDefault reads the calendar defaults in the list envelope, as Google sends them', async () => {
    const created = await service.api(EVENTS, { method: 'POST', body: { ...TIMES, summary: 'defaults' } });
    assert.deepEqual(created.json.reminders, { useDefault: true });
    const list = await service.api(`${EVENTS}?q=defaults`);
    assert.deepEqual(list.json.defaultReminders, [{ method: 'popup', minutes: 30 }]);
    assert.deepEqual(list.json.items[0].reminders, { useDefault: true });
  });
});
