// Invitees' entries in a fixture (README "Fixtures", src/fixtures/fixture.ts FixtureInvitation): on an
// invitee's primary calendar, an event entry whose `organizer` names another calendar holds only
// what is theirs in their copy of that calendar's event. A hand-written one loads as such; every
// misuse is refused with the JSON path of the entry's member, and the refused load changes nothing.

import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { FixtureError, parseFixture } from '../../src/fixtures/fixture.ts';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { call, postJson } from '../_helpers/service.ts';
import { AIKO, BEN, CLEO, startWorld } from './world.ts';

const client = { id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUris: ['http://127.0.0.1:3000/oauth2callback'] };
const PLANNING = {
  id: 'planning01',
  summary: 'Planning',
  start: { dateTime: '2030-03-10T09:00:00Z' },
  end: { dateTime: '2030-03-10T10:00:00Z' },
  attendees: [{ email: BEN, responseStatus: 'accepted' }, { email: CLEO, responseStatus: 'declined' }],
};
const STANDUP = {
  id: 'standup01',
  summary: 'Standup',
  start: { dateTime: '2030-03-11T09:00:00', timeZone: 'Europe/London' },
  end: { dateTime: '2030-03-11T09:15:00', timeZone: 'Europe/London' },
  recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
  attendees: [{ email: BEN }],
};
const MOVED = {
  recurringEventId: 'standup01',
  originalStartTime: { dateTime: '2030-03-12T09:00:00Z' },
  start: { dateTime: '2030-03-12T10:00:00Z' },
  end: { dateTime: '2030-03-12T10:15:00Z' },
  summary: 'Standup, moved',
};
const INSTANCE = 'standup01_20300312T090000Z';
const OWN = { reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] }, colorId: '3', transparency: 'transparent', extendedProperties: { private: { k: 'v' } } };
const BEN_ENTRY = { id: 'planning01', organizer: { email: AIKO }, ...OWN };
const CLEO_ENTRY = { id: 'planning01', organizer: { email: AIKO }, status: 'cancelled' };
const INSTANCE_ENTRY = { id: INSTANCE, organizer: { email: AIKO }, recurringEventId: 'standup01', originalStartTime: { dateTime: '2030-03-12T09:00:00Z' }, colorId: '5' };

/** Aiko organizes; Ben's and Cleo's primary calendars hold `ben` and `cleo`, at users[1|2].calendars[0].events[i]. */
function fixture(ben: object[] = [BEN_ENTRY, INSTANCE_ENTRY], cleo: object[] = [CLEO_ENTRY], aiko: object[] = [PLANNING, STANDUP, MOVED]): object {
  return {
    clients: [client],
    users: [
      { id: 'user-aiko', name: 'Aiko Tanaka', email: AIKO, timeZone: 'Asia/Tokyo', calendars: [{ primary: true, events: aiko }] },
      { id: 'user-ben', name: 'Ben Carter', email: BEN, timeZone: 'Europe/London', calendars: [{ primary: true, events: ben }] },
      { id: 'user-cleo', name: 'Cleo Diaz', email: CLEO, timeZone: 'America/New_York', calendars: [{ primary: true, events: cleo }] },
    ],
  };
}

const BEN0 = 'users[1].calendars[0].events[0]';

function rejects(value: unknown, path: string, message: RegExp): void {
  assert.throws(
    () => parseFixture(value),
    (error: unknown) => error instanceof FixtureError && error.path === path && message.test(error.message),
    `${path} ${message}`,
  );
}

describe('an invitee\'s entry: what it may hold (validation)', () => {
  it('a valid fixture with entries parses, and they are told from the calendar\'s own events', () => {
    const parsed = parseFixture(fixture());
    const ben = parsed.users[1]?.calendars[0];
    assert.deepEqual(ben?.invitations.map((i) => [i.index, i.id, i.organizer, i.cancelled]), [[0, 'planning01', AIKO, false], [1, INSTANCE, AIKO, false]]);
    assert.equal(parsed.users[0]?.calendars[0]?.invitations.length, 0);
  });

  it('an organizer naming the calendar itself means nothing, as before (an ordinary event)', () => {
    const parsed = parseFixture(fixture([{ ...PLANNING, id: 'mine00001', attendees: [], organizer: { email: BEN.toUpperCase(), displayName: 'Ben' } }], []));
    assert.equal(parsed.users[1]?.calendars[0]?.invitations.length, 0);
  });

  const cases: Array<[string, object, string, RegExp]> = [
    ['a member the Event schema does not know', { ...BEN_ENTRY, reminder: {} }, `${BEN0}.reminder`, /unknown key \(names are case-sensitive: did you mean reminders\?\)|unknown key/],
    ['a shared property (summary)', { ...BEN_ENTRY, summary: 'Mine' }, `${BEN0}.summary`, /is the organizer's/],
    ['a shared property (start)', { ...BEN_ENTRY, start: { dateTime: '2030-03-10T09:00:00Z' } }, `${BEN0}.start`, /is the organizer's/],
    ['the attendees', { ...BEN_ENTRY, attendees: [{ email: BEN, responseStatus: 'declined' }] }, `${BEN0}.attendees`, /is the organizer's/],
    ['shared extended properties', { ...BEN_ENTRY, extendedProperties: { private: {}, shared: { a: 'b' } } }, `${BEN0}.extendedProperties.shared`, /is the organizer's/],
    ['a status other than cancelled', { ...BEN_ENTRY, status: 'confirmed' }, `${BEN0}.status`, /must be "cancelled"/],
    ['an organizer with more than its e-mail', { ...BEN_ENTRY, organizer: { email: AIKO, displayName: 'Aiko' } }, `${BEN0}.organizer.displayName`, /unknown key/],
    ['no id', { organizer: { email: AIKO }, colorId: '3' }, `${BEN0}.id`, /is required/],
    ['recurringEventId without originalStartTime', { ...INSTANCE_ENTRY, originalStartTime: undefined }, `${BEN0}.originalStartTime`, /is required with recurringEventId/],
    ['originalStartTime without recurringEventId', { ...INSTANCE_ENTRY, recurringEventId: undefined }, `${BEN0}.recurringEventId`, /is required with originalStartTime/],
  ];
  for (const [name, entry, path, message] of cases) it(`refuses ${name}`, () => rejects(fixture([JSON.parse(JSON.stringify(entry))]), path, message));

  it('refuses two entries for one event on one calendar', () => {
    rejects(fixture([BEN_ENTRY, { ...BEN_ENTRY, colorId: '4' }]), 'users[1].calendars[0].events[1].id', /duplicate invitee's entry for this event, also at users\[1\]\.calendars\[0\]\.events\[0\]/);
  });

  it('refuses an entry on a calendar that is not primary', () => {
    const value = fixture() as { users: Array<{ calendars: object[] }> };
    value.users[1]?.calendars.push({ id: 'team@example.com', summary: 'Team', events: [BEN_ENTRY] });
    rejects(value, 'users[1].calendars[1].events[0].organizer.email', /belongs on their primary calendar/);
  });
});

for (const backend of BACKENDS) {
  describe(`an invitee's entry against the organizer's event (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('a hand-written fixture gives the copies their private properties and cancels a deleted one, and sends nothing', async (t) => {
      const w = await startWorld(t, backend, fixture());
      const ben = await w.as('ben', 'GET', w.events('ben', '/planning01'));
      assert.equal(ben.status, 200, ben.text);
      assert.deepEqual(
        { reminders: ben.json.reminders, colorId: ben.json.colorId, transparency: ben.json.transparency, private: ben.json.extendedProperties.private, summary: ben.json.summary },
        { reminders: OWN.reminders, colorId: '3', transparency: 'transparent', private: { k: 'v' }, summary: 'Planning' },
      );
      const instance = await w.as('ben', 'GET', w.events('ben', `/${INSTANCE}`));
      assert.equal(instance.json.colorId, '5');
      assert.equal(instance.json.summary, 'Standup, moved');
      const series = await w.as('ben', 'GET', w.events('ben', '/standup01'));
      assert.equal(series.json.colorId, undefined, 'the series\' copy keeps the defaults');
      const cleo = await w.as('cleo', 'GET', w.events('cleo', '/planning01'));
      assert.equal(cleo.json.status, 'cancelled');
      const listed = await w.as('cleo', 'GET', w.events('cleo'));
      assert.deepEqual(listed.json.items, [], 'Cleo\'s deleted copy is not listed');
      const organizer = await w.as('aiko', 'GET', w.events('aiko', '/planning01'));
      assert.equal(organizer.json.status, 'confirmed');
      assert.deepEqual(await w.outbox(), []);
    });

    const at = (who: 1 | 2, i = 0): string => `users[${who}].calendars[0].events[${i}]`;
    const bad: Array<[string, object, string, RegExp]> = [
      ['an organizer that is no calendar of the fixture', fixture([{ ...BEN_ENTRY, organizer: { email: 'nobody@example.com' } }]), `${at(1)}.organizer.email`, /names no calendar of this fixture/],
      ['an id the organizer\'s calendar does not hold', fixture([{ ...BEN_ENTRY, id: 'elsewhere01' }]), `${at(1)}.id`, /names no event of the organizer's calendar/],
      ['an organizer\'s event that invites nobody by that address', fixture([], [{ ...CLEO_ENTRY, status: undefined, colorId: '2' }], [{ ...PLANNING, attendees: [{ email: BEN }] }]), `${at(2)}.organizer`, /does not invite this calendar's user/],
      ['an organizer\'s event that is cancelled', fixture([BEN_ENTRY], [], [{ ...PLANNING, status: 'cancelled' }]), `${at(1)}.organizer`, /is cancelled: the copies of a cancelled event are made cancelled from it/],
      ['an instance whose series does not invite them', fixture([], [{ ...INSTANCE_ENTRY, colorId: '2' }], [PLANNING, STANDUP, { ...MOVED, attendees: [{ email: CLEO }] }]), `${at(2)}.organizer`, /does not invite/],
      ['a deleted copy whose invitee has not declined', fixture([{ ...BEN_ENTRY, status: 'cancelled' }]), `${at(1)}.status`, /must list them as declined/],
      ['an instance\'s entry without its series', fixture([{ id: INSTANCE, organizer: { email: AIKO }, colorId: '2' }]), `${at(1)}.recurringEventId`, /must name the series/],
      ['an instance\'s entry naming another series', fixture([{ ...INSTANCE_ENTRY, recurringEventId: 'planning01' }]), `${at(1)}.recurringEventId`, /must name the series/],
      ['an instance\'s entry at another original start', fixture([{ ...INSTANCE_ENTRY, originalStartTime: { dateTime: '2030-03-13T09:00:00Z' } }]), `${at(1)}.originalStartTime`, /is not the original start/],
      ['a single event\'s entry naming a series', fixture([{ ...BEN_ENTRY, recurringEventId: 'standup01', originalStartTime: { dateTime: '2030-03-12T09:00:00Z' } }]), `${at(1)}.recurringEventId`, /is not an instance of a series/],
      ['a colour outside the palette', fixture([{ ...BEN_ENTRY, colorId: '99' }]), `${at(1)}.colorId`, /./],
      ['a reminder out of range', fixture([{ ...BEN_ENTRY, reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: -1 }] } }]), `${at(1)}.reminders.overrides[0].minutes`, /./],
      ['an id the invitee holds an event of their own under', fixture([{ ...PLANNING, attendees: [] }, BEN_ENTRY]), `${at(1, 1)}.id`, /has an event of its own under this id/],
    ];
    test('refusals name the entry\'s member, and a refused load changes nothing', async (t) => {
      const w = await startWorld(t, backend, fixture());
      const before = (await call(`${w.url}/__svc/fixtures`)).json;
      for (const [name, value, path, message] of bad) {
        const answer = await postJson(`${w.url}/__svc/fixtures`, value);
        assert.equal(answer.status, 400, `${name}: ${answer.text}`);
        assert.equal(answer.json.error, 'invalid_fixture', name);
        const description = String(answer.json.error_description);
        assert.ok(description.startsWith(`${path}: `) && message.test(description.slice(path.length + 2)), `${name}: ${description}`);
      }
      assert.deepEqual((await call(`${w.url}/__svc/fixtures`)).json, before);
    });
  });
}
