// docs/oauth.md's scope table: nine calendar scopes against the operations. The expected matrix is
// written out here again from docs/oauth.md, independently of src/calendar/scopes.ts, so a wrong entry
// in either fails.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CALENDAR_OPERATIONS, CALENDAR_SCOPE_TABLE, scopeAllows } from '../../src/calendar/scopes.ts';
import type { CalendarOperation } from '../../src/calendar/scopes.ts';
import { BEN_PRIVATE, INSUFFICIENT_PERMISSIONS, TEAM, api, tokenFor, useService } from '../_helpers/calendar.ts';
import type { ApiInit } from '../_helpers/calendar.ts';

const P = 'https://www.googleapis.com/auth/';

// Spec, "Supported scopes", calendar table, operation by operation.
const SPEC: Record<string, string[]> = {
  'calendar': [
    'calendarList.list', 'calendarList.get', 'calendarList.insert', 'calendarList.patch', 'calendarList.update', 'calendarList.delete', 'calendarList.watch',
    'calendars.get',
    'events.list', 'events.get', 'events.instances', 'events.insert', 'events.update', 'events.patch', 'events.delete', 'events.watch',
    'channels.stop', 'freebusy.query',
  ],
  'calendar.readonly': [
    'calendarList.list', 'calendarList.get', 'calendarList.watch', 'calendars.get',
    'events.list', 'events.get', 'events.instances', 'events.watch', 'channels.stop', 'freebusy.query',
  ],
  'calendar.events': [
    'events.list', 'events.get', 'events.instances', 'events.insert', 'events.update', 'events.patch', 'events.delete', 'events.watch',
    'channels.stop', 'freebusy.query',
  ],
  'calendar.events.readonly': ['events.list', 'events.get', 'events.instances', 'events.watch', 'channels.stop', 'freebusy.query'],
  'calendar.calendarlist': [
    'calendarList.list', 'calendarList.get', 'calendarList.insert', 'calendarList.patch', 'calendarList.update', 'calendarList.delete', 'calendarList.watch',
    'channels.stop',
  ],
  'calendar.calendarlist.readonly': ['calendarList.list', 'calendarList.get', 'calendarList.watch', 'channels.stop'],
  'calendar.calendars.readonly': ['calendars.get'],
  'calendar.freebusy': ['freebusy.query'],
  'calendar.events.freebusy': ['freebusy.query'],
};

describe('scope table (unit)', () => {
  it('has exactly the nine calendar scopes of docs/oauth.md', () => {
    assert.deepEqual([...CALENDAR_SCOPE_TABLE.keys()].sort(), Object.keys(SPEC).sort());
  });

  for (const [suffix, operations] of Object.entries(SPEC)) {
    it(`${suffix} allows exactly its operations`, () => {
      const allowed = CALENDAR_OPERATIONS.filter((operation) => scopeAllows([P + suffix], operation));
      assert.deepEqual(allowed, operations.map((operation) => `calendar.${operation}`));
    });
  }

  it('needs the full scope URL; bare suffixes, profile scopes and odd names allow nothing', () => {
    for (const scope of ['calendar', 'openid', 'email', `${P}userinfo.email`, `${P}constructor`, `${P}calendar.events.owned`, `${P}calendar.calendars`]) {
      assert.equal(CALENDAR_OPERATIONS.some((operation) => scopeAllows([scope], operation)), false, scope);
    }
  });

  it('any one granted scope is enough', () => {
    assert.equal(scopeAllows([`${P}calendar.freebusy`, `${P}calendar.calendars.readonly`], 'calendar.calendars.get'), true);
    assert.equal(scopeAllows([], 'calendar.calendars.get'), false);
  });
});

// The fifteen routed operations (watch and channels.stop come in a later issue), one request each.
const REQUESTS: Array<[CalendarOperation, string, ApiInit]> = [
  ['calendar.calendarList.list', 'users/me/calendarList', {}],
  ['calendar.calendarList.get', 'users/me/calendarList/primary', {}],
  ['calendar.calendarList.insert', 'users/me/calendarList', { method: 'POST', body: { id: BEN_PRIVATE } }],
  ['calendar.calendarList.patch', `users/me/calendarList/${TEAM}`, { method: 'PATCH', body: { selected: true } }],
  ['calendar.calendarList.update', `users/me/calendarList/${TEAM}`, { method: 'PUT', body: { selected: true } }],
  ['calendar.calendarList.delete', 'users/me/calendarList/unknown%40example.com', { method: 'DELETE' }],
  ['calendar.calendars.get', 'calendars/primary', {}],
  ['calendar.events.list', 'calendars/primary/events', {}],
  ['calendar.events.get', 'calendars/primary/events/nosuchevent1', {}],
  ['calendar.events.instances', 'calendars/primary/events/nosuchevent1/instances', {}],
  ['calendar.events.insert', 'calendars/primary/events', { method: 'POST', body: {} }],
  ['calendar.events.update', 'calendars/primary/events/nosuchevent1', { method: 'PUT', body: {} }],
  ['calendar.events.patch', 'calendars/primary/events/nosuchevent1', { method: 'PATCH', body: {} }],
  ['calendar.events.delete', 'calendars/primary/events/nosuchevent1', { method: 'DELETE' }],
  [
    'calendar.freebusy.query',
    'freeBusy',
    { method: 'POST', body: { timeMin: '2026-10-19T00:00:00+09:00', timeMax: '2026-10-20T00:00:00+09:00', items: [{ id: 'primary' }] } },
  ],
];

describe('scope matrix over HTTP: nine scopes × fifteen operations', () => {
  const service = useService();
  const tokens = new Map<string, string>();
  before(async () => {
    for (const suffix of Object.keys(SPEC)) tokens.set(suffix, await tokenFor(service.url, suffix));
  });

  it('covers fifteen operations', () => assert.equal(REQUESTS.length, 15));

  for (const [suffix, operations] of Object.entries(SPEC)) {
    it(`${suffix}`, async () => {
      for (const [operation, path, init] of REQUESTS) {
        const res = await api(service.url, tokens.get(suffix), path, init);
        const label = `${suffix} ${operation} answered ${res.status} ${res.text}`;
        if (operations.includes(operation.slice('calendar.'.length))) {
          assert.notEqual(res.status, 403, label);
          assert.notEqual(res.status, 401, label);
        } else {
          assert.equal(res.status, 403, label);
          assert.deepEqual(res.json, INSUFFICIENT_PERMISSIONS, label);
          assert.equal(res.headers.get('content-type'), 'application/json; charset=UTF-8');
        }
      }
    });
  }

  it('the calendarList and calendars operations an allowed scope runs succeed or fail on their own rules', async () => {
    const token = tokens.get('calendar.calendarlist.readonly') as string;
    assert.equal((await api(service.url, token, 'users/me/calendarList')).status, 200);
    assert.equal((await api(service.url, token, 'users/me/calendarList/primary')).status, 200);
    assert.equal((await api(service.url, tokens.get('calendar.calendars.readonly'), 'calendars/primary')).status, 200);
  });
});
