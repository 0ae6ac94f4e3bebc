// Fuzzing the calendar API: seeded, bounded cases of event bodies, RRULE
// strings, list query parameters, freeBusy and calendarList bodies. Every answer is a success or a
// well-formed Google error (never a 500, never a stall); a refused write leaves the calendar
// exactly as it was; an accepted write can be read back, listed, expanded and queried without a
// fault. The service logs nothing as an internal error during the whole run.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import type { Logger } from '../../src/http/log.ts';
import { api } from '../_helpers/calendar.ts';
import type { ApiInit } from '../_helpers/calendar.ts';
import { assertWellFormedError, hostileString, jsonValue, mutate, Rng, runCases, SEED, within } from '../_helpers/fuzz.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import type { Answer } from '../_helpers/service.ts';

const NY = 'carmen@example.com';
const SECOND = 'fuzz-second@group.calendar.example.com';

const FIXTURE = {
  clients: [{ id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUris: ['http://127.0.0.1:3000/oauth2callback'] }],
  users: [
    {
      id: 'user-carmen',
      name: 'Carmen Diaz',
      email: NY,
      timeZone: 'America/New_York',
      calendars: [
        {
          primary: true,
          events: [
            { id: 'evsingle01', summary: 'single', start: { dateTime: '2026-10-30T09:00:00-04:00' }, end: { dateTime: '2026-10-30T10:00:00-04:00' } },
            {
              id: 'evseries01',
              summary: 'series',
              start: { dateTime: '2026-10-26T09:00:00', timeZone: 'America/New_York' },
              end: { dateTime: '2026-10-26T09:30:00', timeZone: 'America/New_York' },
              recurrence: ['RRULE:FREQ=DAILY;COUNT=20;BYDAY=MO,TU,WE,TH,FR', 'EXDATE;TZID=America/New_York:20261028T090000'],
            },
            { id: 'evalldate01', summary: 'all day', start: { date: '2026-11-02' }, end: { date: '2026-11-03' } },
          ],
        },
        {
          id: SECOND,
          summary: 'Second',
          timeZone: 'Europe/London',
          // Not empty: an empty list's `updated` is the current time, which would move between snapshots.
          events: [{ id: 'evsecond01', start: { date: '2026-10-25' }, end: { date: '2026-10-26' } }],
        },
      ],
    },
    { id: 'user-other', name: 'Other', email: 'other@example.com' },
  ],
};

/** Valid event bodies to start mutating from. */
const TEMPLATES: readonly object[] = [
  { summary: 'timed', start: { dateTime: '2026-11-01T01:30:00-04:00' }, end: { dateTime: '2026-11-01T01:30:00-05:00' } },
  { summary: 'local', start: { dateTime: '2026-03-08T02:30:00', timeZone: 'America/New_York' }, end: { dateTime: '2026-03-08T03:30:00', timeZone: 'America/New_York' } },
  { start: { date: '2026-12-24' }, end: { date: '2026-12-26' }, transparency: 'transparent' },
  {
    summary: 'weekly',
    start: { dateTime: '2026-10-05T09:00:00', timeZone: 'Europe/London' },
    end: { dateTime: '2026-10-05T10:00:00', timeZone: 'Europe/London' },
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20261231T000000Z'],
  },
  {
    summary: 'full',
    description: 'd',
    location: 'l',
    colorId: '3',
    visibility: 'private',
    attendees: [{ email: 'a@example.com', displayName: 'A', responseStatus: 'accepted' }],
    reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 10 }] },
    extendedProperties: { private: { k: 'v' }, shared: { s: 't' } },
    source: { url: 'https://example.com', title: 't' },
    start: { dateTime: '2026-10-20T10:00:00Z' },
    end: { dateTime: '2026-10-20T11:00:00Z' },
  },
];

const EVENT_KEYS = [
  'id', 'summary', 'description', 'location', 'colorId', 'status', 'transparency', 'visibility', 'attendees', 'reminders',
  'extendedProperties', 'source', 'start', 'end', 'recurrence', 'eventType', 'sequence', 'recurringEventId', 'originalStartTime',
  'anyoneCanAddSelf', 'endTimeUnspecified', 'iCalUID', 'date', 'dateTime', 'timeZone', 'overrides', 'useDefault', 'email', 'method', 'minutes',
];

const EVENTS = 'calendars/primary/events';
const WIDE = 'timeMin=2026-01-01T00:00:00Z&timeMax=2027-12-31T00:00:00Z';

describe(`calendar API fuzzing (seed ${SEED})`, () => {
  let service: RunningService;
  let url = '';
  let token = '';
  const internalErrors: string[] = [];
  const log: Logger = { info() {}, error: (message, error) => internalErrors.push(`${message}: ${String(error)}`) };
  const rng = new Rng(SEED).fork('calendar');

  before(async () => {
    service = await start({ port: 0, fixture: FIXTURE, log });
    url = service.url;
    token = (await obtainToken(url, { user: 'user-carmen', scope: 'calendar' })).access_token;
  });
  after(async () => {
    await service.close();
    assert.deepEqual(internalErrors, [], 'the service logged internal errors');
  });

  const call = (path: string, init: ApiInit = {}): Promise<Answer> => within(5000, `${init.method ?? 'GET'} ${path.slice(0, 200)}`, api(url, token, path, init));

  /** Everything a write to the primary calendar could change, as the API shows it. */
  async function snapshot(): Promise<string> {
    const [events, list, second] = await Promise.all([
      call(`${EVENTS}?showDeleted=true&maxResults=2500`),
      call('users/me/calendarList?showDeleted=true&showHidden=true'),
      call(`calendars/${encodeURIComponent(SECOND)}/events?showDeleted=true`),
    ]);
    for (const a of [events, list, second]) assert.equal(a.status, 200, a.text);
    return JSON.stringify([events.json, list.json, second.json]);
  }

  /** An accepted write must leave the calendar readable every way a client reads it. */
  async function readBack(label: string, id: string | undefined): Promise<void> {
    const reads = [
      call(`${EVENTS}?singleEvents=true&maxResults=100&${WIDE}`),
      call(`${EVENTS}?${WIDE}&orderBy=updated`),
      call('freeBusy', { method: 'POST', body: { timeMin: '2026-09-01T00:00:00Z', timeMax: '2027-08-31T00:00:00Z', items: [{ id: 'primary' }] } }),
    ];
    if (id !== undefined) {
      reads.push(call(`${EVENTS}/${encodeURIComponent(id)}`));
      reads.push(call(`${EVENTS}/${encodeURIComponent(id)}/instances?maxResults=50`));
    }
    for (const answer of await Promise.all(reads)) {
      if (answer.status !== 200) assertWellFormedError(answer, 'google', `${label}, read back`);
    }
  }

  async function writeCase(label: string, path: string, init: ApiInit, snapshotBefore: string): Promise<string> {
    const answer = await call(path, init);
    if (answer.status === 200 || answer.status === 204) {
      await readBack(label, answer.json?.id);
      return snapshot();
    }
    assertWellFormedError(answer, 'google', label);
    assert.equal(await snapshot(), snapshotBefore, `${label}: a refused write changed the calendar`);
    return snapshotBefore;
  }

  test('event bodies for insert, update and patch: 400 cases', async () => {
    const r = rng.fork('bodies');
    let state = await snapshot();
    let accepted = 0;
    for (let i = 0; i < 400; i++) {
      const label = `event body case ${i} (seed ${SEED})`;
      const body = r.chance(0.1) ? jsonValue(r, 3) : mutate(r, r.pick(TEMPLATES), EVENT_KEYS);
      const kind = r.int(0, 3);
      const target = r.pick(['evsingle01', 'evseries01', 'evseries01_20261027T130000Z', 'evalldate01']);
      const request: [string, ApiInit] =
        kind === 0 || kind === 3
          ? [EVENTS, { method: 'POST', body }]
          : [`${EVENTS}/${target}`, { method: kind === 1 ? 'PUT' : 'PATCH', body }];
      const before = state;
      state = await writeCase(label, ...request, state);
      if (state !== before) accepted++;
    }
    // Both paths were exercised.
    assert.ok(accepted > 20, `only ${accepted} accepted writes`);
  });

  test('RRULE strings: 200 rules, each expanded, listed and queried within bounds', async () => {
    const r = rng.fork('rrule');
    let state = await snapshot();
    let accepted = 0;
    for (let i = 0; i < 200; i++) {
      const label = `rrule case ${i} (seed ${SEED})`;
      const allDay = r.chance(0.3);
      const lines = [randomRule(r, allDay)];
      while (r.chance(0.25)) lines.push(r.chance(0.6) ? randomDateLine(r) : randomRule(r, allDay).replace(/^RRULE/, r.pick(['EXRULE', 'RRULE'])));
      const body = allDay
        ? { start: { date: '2026-10-31' }, end: { date: '2026-11-01' }, recurrence: lines }
        : { start: { dateTime: '2026-10-31T01:30:00', timeZone: 'America/New_York' }, end: { dateTime: '2026-10-31T02:00:00', timeZone: 'America/New_York' }, recurrence: lines };
      const answer = await call(EVENTS, { method: 'POST', body });
      if (answer.status !== 200) {
        assertWellFormedError(answer, 'google', `${label} ${lines.join(' | ')}`);
        assert.equal(await snapshot(), state, `${label}: a refused rule changed the calendar`);
        continue;
      }
      accepted++;
      const id = answer.json.id as string;
      await readBack(`${label} ${lines.join(' | ')}`, id);
      // Over a century and over the whole series: the expansion budget, not the rule, bounds the work.
      for (const path of [`${EVENTS}?singleEvents=true&maxResults=300&timeMin=2026-01-01T00:00:00Z&timeMax=2126-01-01T00:00:00Z`, `${EVENTS}/${id}/instances?maxResults=300`]) {
        const listed = await call(path);
        if (listed.status !== 200) assertWellFormedError(listed, 'google', `${label}: ${path}`);
      }
      assert.equal((await call(`${EVENTS}/${id}`, { method: 'DELETE' })).status, 204);
      state = await snapshot();
    }
    assert.ok(accepted > 70, `only ${accepted} rules accepted`);
  });

  test('list query parameters: 800 queries on events.list, events.instances and calendarList.list', async () => {
    const r = rng.fork('queries');
    const before = await snapshot();
    const paths = [EVENTS, `${EVENTS}/evseries01/instances`, 'users/me/calendarList', `calendars/${encodeURIComponent(SECOND)}/events`];
    await runCases(800, 8, async (i) => {
      const query = new URLSearchParams();
      for (let n = r.int(1, 5); n > 0; n--) {
        const name = r.chance(0.9) ? r.pick(LIST_PARAMS) : hostileString(r);
        query.append(name, listValue(r, name));
      }
      const path = `${r.pick(paths)}?${query}`;
      const answer = await call(path);
      if (answer.status !== 200) assertWellFormedError(answer, 'google', `query case ${i} (seed ${SEED}): ${path.slice(0, 300)}`);
    });
    assert.equal(await snapshot(), before, 'reads changed the calendar');
  });

  test('freeBusy and calendarList bodies: 300 cases', async () => {
    const r = rng.fork('other-bodies');
    let state = await snapshot();
    const freeBusy = { timeMin: '2026-10-01T00:00:00Z', timeMax: '2026-11-30T00:00:00Z', timeZone: 'Asia/Tokyo', items: [{ id: 'primary' }, { id: SECOND }, { id: 'other@example.com' }] };
    const entry = { id: SECOND, colorId: '5', hidden: false, selected: true, summaryOverride: 'x', defaultReminders: [{ method: 'popup', minutes: 5 }], notificationSettings: { notifications: [] } };
    for (let i = 0; i < 300; i++) {
      const label = `body case ${i} (seed ${SEED})`;
      const which = r.int(0, 3);
      if (which === 0) {
        const answer = await call('freeBusy', { method: 'POST', body: mutate(r, freeBusy, ['timeMin', 'timeMax', 'timeZone', 'items', 'id', 'calendarExpansionMax', 'groupExpansionMax']) });
        if (answer.status !== 200) assertWellFormedError(answer, 'google', label);
        continue;
      }
      const body = r.chance(0.1) ? jsonValue(r, 3) : mutate(r, entry, ['id', 'colorId', 'backgroundColor', 'foregroundColor', 'hidden', 'selected', 'summaryOverride', 'defaultReminders', 'method', 'minutes']);
      const path = which === 1 ? `users/me/calendarList/${encodeURIComponent(SECOND)}` : `users/me/calendarList${which === 3 ? '?colorRgbFormat=true' : ''}`;
      const method = which === 1 ? r.pick(['PUT', 'PATCH']) : 'POST';
      state = await writeCase(label, path, { method, body }, state);
    }
  });
});

const LIST_PARAMS = [
  'timeMin', 'timeMax', 'singleEvents', 'orderBy', 'q', 'iCalUID', 'showDeleted', 'showHidden', 'updatedMin', 'privateExtendedProperty',
  'sharedExtendedProperty', 'maxResults', 'pageToken', 'syncToken', 'timeZone', 'maxAttendees', 'eventTypes', 'originalStart',
  'minAccessRole', 'fields', 'alt', 'prettyPrint', 'key', 'quotaUser',
];

function listValue(r: Rng, name: string): string {
  if (r.chance(0.35)) return hostileString(r);
  switch (name) {
    case 'timeMin':
    case 'timeMax':
    case 'updatedMin':
    case 'originalStart':
      return r.pick(['2026-10-01T00:00:00Z', '2026-10-30T09:00:00-04:00', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2026-11-01T01:30:00.123-05:00', '2026-10-27']);
    case 'singleEvents':
    case 'showDeleted':
    case 'showHidden':
    case 'prettyPrint':
      return r.pick(['true', 'false', 'TRUE', '1']);
    case 'orderBy':
      return r.pick(['startTime', 'updated', 'start']);
    case 'maxResults':
    case 'maxAttendees':
      return r.pick(['1', '2', '250', '2500', '2501', '0', '-5', '1000000000000000', '9'.repeat(30), '1.5']);
    case 'pageToken':
    case 'syncToken':
      return r.pick([Buffer.from(JSON.stringify({ k: 'page', g: '1', q: 'x', c: { s: -1 } })).toString('base64url'), Buffer.from(JSON.stringify({ k: 'sync', g: '1', c: 'events:x', s: 1e300 })).toString('base64url'), Buffer.from('{"k":"page","g":"1","q":1,"c":[]}').toString('base64url'), '!!!', 'e30']);
    case 'timeZone':
      return r.pick(['UTC', 'Asia/Kathmandu', 'America/New_York', 'Mars/Base', '+09:00']);
    case 'fields':
      return r.pick(['items(id,summary)', 'items(', 'nextPageToken,items/start', '*', ')(', 'a'.repeat(2000)]);
    case 'privateExtendedProperty':
    case 'sharedExtendedProperty':
      return r.pick(['k=v', '=v', 'k', 'k==', 's=t']);
    case 'minAccessRole':
      return r.pick(['owner', 'reader', 'freeBusyReader', 'writer', 'god']);
    default:
      return r.pick(['x', 'default', 'focusTime', 'json', 'proto']);
  }
}

const FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'daily', 'FORTNIGHTLY', ''];

/** An RRULE line from mostly valid parts (so that many are accepted and expanded), in any order, sometimes malformed. */
function randomRule(r: Rng, allDay: boolean): string {
  const parts: string[] = [];
  if (r.chance(0.97)) parts.push(`FREQ=${r.chance(0.95) ? r.pick(FREQS.slice(allDay ? 3 : 0, 7)) : r.pick(FREQS)}`);
  const add = (name: string, p: number, valid: readonly string[], invalid: readonly string[]) => {
    if (r.chance(p)) parts.push(`${name}=${r.chance(0.9) ? r.pick(valid) : r.pick(invalid)}`);
  };
  add('INTERVAL', 0.3, ['1', '2', '7', '1000'], ['0', '-1', '99999999999999999999']);
  if (r.chance(0.5)) add('COUNT', 0.5, ['1', '3', '1000', '100000'], ['0', '-2', '1000000000']);
  else add('UNTIL', 0.5, ['20261231', '20261231T235959Z', '20271231T235959', '20251231T000000Z', '99991231T000000Z'], ['2026-12-31', '20261331']);
  add('BYDAY', 0.25, ['MO', 'MO,WE,FR', 'SA,SU', ...(r.chance(0.5) ? ['1MO', '-1FR', '+2TU'] : [])], ['53MO', '0MO', 'XX', 'MO,,TU']);
  add('BYMONTHDAY', 0.15, ['1', '31', '-1', '15', '1,15,-1'], ['0', '32', '-32']);
  add('BYMONTH', 0.15, ['2', '1,7', '12'], ['13', '0']);
  add('BYYEARDAY', 0.08, ['1', '366', '-366', '100,200'], ['0', '367']);
  add('BYWEEKNO', 0.08, ['1', '53', '-53', '20'], ['0', '54']);
  add('BYSETPOS', 0.15, ['1', '-1', '2,-2', '3'], ['0', '367']);
  if (!allDay) {
    add('BYHOUR', 0.2, ['0', '23', '9,17', '2'], ['24']);
    add('BYMINUTE', 0.15, ['0', '59', '30'], ['60']);
    add('BYSECOND', 0.15, ['0', '59', '60'], ['61']);
  }
  add('WKST', 0.1, ['MO', 'SU'], ['XX']);
  if (r.chance(0.05)) parts.push(hostileString(r));
  if (r.chance(0.03) && parts.length > 0) parts.push(parts[0] as string);
  for (let i = parts.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [parts[i], parts[j]] = [parts[j] as string, parts[i] as string];
  }
  return `RRULE:${parts.join(';')}`;
}

function randomDateLine(r: Rng): string {
  const name = r.pick(['EXDATE', 'RDATE']);
  const params = r.chance(0.8) ? r.pick(['', ';TZID=America/New_York', ';VALUE=DATE']) : r.pick([';TZID=Mars/Base', ';VALUE=PERIOD', ';TZID=']);
  const values = r.chance(0.8) ? r.pick(['20261102T013000', '20261102T013000Z', '20261102', '20261102T013000,20261103T013000']) : r.pick(['garbage', '', '20260230T000000']);
  return `${name}${params}:${values}`;
}
