// The partial-response selector (`fields`): grammar, application to responses, and its use over HTTP.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoogleApiError } from '../../src/api/google-error.ts';
import { applyFieldSelector, checkFieldNames, fieldsParam, parseFieldSelector } from '../../src/calendar/fields.ts';
import type { SchemaName } from '../../src/domain/schema-fields.ts';
import { AIKO, TEAM, reason } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const LIST = {
  kind: 'calendar#calendarList',
  etag: '"1"',
  nextPageToken: 'p',
  items: [
    { id: 'a', summary: 'A', colorId: '1', defaultReminders: [{ method: 'popup', minutes: 10 }], notificationSettings: { notifications: [{ type: 't', method: 'email' }] } },
    { id: 'b', summary: 'B', colorId: '2', defaultReminders: [] },
  ],
};

function select(fields: string, value: unknown = LIST): unknown {
  return applyFieldSelector(value, parseFieldSelector(fields));
}

describe('fields selector', () => {
  it('selects top-level members and members of array elements', () => {
    assert.deepEqual(select('items(id,summary),nextPageToken'), {
      nextPageToken: 'p',
      items: [
        { id: 'a', summary: 'A' },
        { id: 'b', summary: 'B' },
      ],
    });
    assert.deepEqual(select('kind'), { kind: 'calendar#calendarList' });
  });

  it('reads a/b as b inside a, the same as a(b)', () => {
    assert.deepEqual(select('items/id'), { items: [{ id: 'a' }, { id: 'b' }] });
    assert.deepEqual(select('items/defaultReminders/minutes'), select('items(defaultReminders(minutes))'));
    assert.deepEqual(select('items/defaultReminders/minutes'), { items: [{ defaultReminders: [{ minutes: 10 }] }, { defaultReminders: [] }] });
  });

  it('nests parentheses', () => {
    assert.deepEqual(select('items(id,notificationSettings(notifications(type)))'), {
      items: [{ id: 'a', notificationSettings: { notifications: [{ type: 't' }] } }, { id: 'b' }],
    });
  });

  it('treats * as every member at its level', () => {
    assert.deepEqual(select('*'), LIST);
    assert.deepEqual(select('items/*'), { items: LIST.items });
    assert.deepEqual(select('items(*/minutes)', { items: [{ r: { minutes: 1, method: 'x' }, s: 'keep?' }] }), { items: [{ r: { minutes: 1 }, s: 'keep?' }] });
  });

  it('is a union: a member selected whole stays whole', () => {
    assert.deepEqual(select('items,items/id'), { items: LIST.items });
    assert.deepEqual(select('items(id),items(summary)'), select('items(id,summary)'));
  });

  it('keeps the response member order and skips names this response lacks', () => {
    assert.deepEqual(Object.keys(select('items,kind') as object), ['kind', 'items']);
    assert.deepEqual(select('nope,items(nope)'), { items: [{}, {}] });
  });

  it('tolerates white space around names', () => {
    assert.deepEqual(select(' items( id , summary ) '), select('items(id,summary)'));
  });

  for (const bad of ['a,', ',a', 'a,,b', 'a(', 'a()', 'a)', 'a(b))', 'a//b', '/a', 'a/', 'a*', '*a', 'a b', '(a)']) {
    it(`refuses ${JSON.stringify(bad)} with 400 invalid at location fields`, () => {
      assert.throws(
        () => parseFieldSelector(bad),
        (error: unknown) => {
          assert.ok(error instanceof GoogleApiError);
          assert.equal(error.detail.status, 400);
          assert.equal(error.detail.reason, 'invalid');
          assert.equal(error.detail.message, `Invalid field selection ${bad}`);
          assert.equal(error.detail.location, 'fields');
          return true;
        },
      );
    });
  }

  it('fieldsParam: absent or empty means the full response', () => {
    assert.equal(fieldsParam(new URLSearchParams('')), undefined);
    assert.equal(fieldsParam(new URLSearchParams('fields=')), undefined);
    assert.notEqual(fieldsParam(new URLSearchParams('fields=id')), undefined);
  });
});

describe('fields names against the schema', () => {
  function refusal(fields: string, schema: SchemaName): string | undefined {
    try {
      checkFieldNames(parseFieldSelector(fields), schema);
      return undefined;
    } catch (error) {
      assert.ok(error instanceof GoogleApiError);
      assert.deepEqual(
        [error.detail.status, error.detail.reason, error.detail.location, error.detail.locationType],
        [400, 'invalidParameter', 'fields', 'parameter'],
      );
      return error.detail.message;
    }
  }

  const accepted: Array<[string, SchemaName]> = [
    ['id,summary,start(dateTime,timeZone),attendees/email', 'Event'],
    ['items(id,summary,reminders/overrides/minutes),nextSyncToken,accessRole,defaultReminders', 'Events'],
    ['kind,etag,summary,items,nextPageToken,nextSyncToken,timeZone,accessRole,defaultReminders,updated,description', 'Events'],
    ['extendedProperties/private/anyKeyAtAll,conferenceData/entryPoints/uri,hangoutLink', 'Event'],
    ['calendars/aiko@example.com/busy/start,kind', 'FreeBusyResponse'],
    ['items(notificationSettings/notifications/type,conferenceProperties)', 'CalendarList'],
    ['id,conferenceProperties/allowedConferenceSolutionTypes,dataOwner', 'Calendar'],
    ['id,resourceId,params/ttl', 'Channel'],
    ['*', 'Event'],
    ['items/*', 'Events'],
    ['items(*/dateTime)', 'Events'],
  ];
  for (const [fields, schema] of accepted) {
    it(`accepts ${fields} on ${schema}`, () => assert.equal(refusal(fields, schema), undefined));
  }

  const refused: Array<[string, SchemaName, string]> = [
    ['id,nope', 'Event', 'nope'],
    ['items(id,nope)', 'Events', 'nope'],
    ['items/start/nope', 'Events', 'nope'],
    ['summary/x', 'Event', 'x'],
    ['summary(x)', 'Event', 'x'],
    ['items', 'Event', 'items'],
    ['calendars/x/nope', 'FreeBusyResponse', 'nope'],
    ['items(*/nope)', 'Events', 'nope'],
    ['constructor', 'Calendar', 'constructor'],
    ['Id', 'CalendarListEntry', 'Id'],
  ];
  for (const [fields, schema, name] of refused) {
    it(`refuses ${fields} on ${schema}, naming ${name}`, () => assert.equal(refusal(fields, schema), `Invalid field selection ${name}`));
  }
});

describe('fields over HTTP', () => {
  const service = useSignedIn();

  it('applies to calendarList.list', async () => {
    const res = await service.api('users/me/calendarList?fields=' + encodeURIComponent('items(id,summary),nextPageToken'));
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {
      items: [
        { id: AIKO, summary: 'Aiko Tanaka' },
        { id: TEAM, summary: 'Team' },
      ],
    });
  });

  it('applies to calendars.get and calendarList.get', async () => {
    const calendar = await service.api('calendars/primary?fields=id,timeZone');
    assert.deepEqual(calendar.json, { id: AIKO, timeZone: 'Asia/Tokyo' });
    const entry = await service.api('users/me/calendarList/primary?fields=defaultReminders/minutes,kind');
    assert.deepEqual(entry.json, { kind: 'calendar#calendarListEntry', defaultReminders: [{ minutes: 30 }] });
  });

  it('keeps the ETag header of the full resource', async () => {
    const full = await service.api('calendars/primary');
    const partial = await service.api('calendars/primary?fields=id');
    assert.equal(partial.headers.get('etag'), full.json.etag);
  });

  it('refuses a malformed selector with 400, before a write happens', async () => {
    const before = await service.api(`users/me/calendarList/${TEAM}`);
    const res = await service.api(`users/me/calendarList/${TEAM}?fields=items(`, { method: 'PATCH', body: { summaryOverride: 'changed' } });
    assert.equal(res.status, 400);
    assert.deepEqual(reason(res), {
      domain: 'global',
      reason: 'invalid',
      message: 'Invalid field selection items(',
      locationType: 'parameter',
      location: 'fields',
    });
    const after = await service.api(`users/me/calendarList/${TEAM}`);
    assert.equal(after.json.etag, before.json.etag);
    assert.equal(after.json.summaryOverride, undefined);
  });

  function assertInvalidSelection(res: { status: number }, name: string): void {
    assert.equal(res.status, 400);
    assert.deepEqual(reason(res as Parameters<typeof reason>[0]), {
      domain: 'global',
      reason: 'invalidParameter',
      message: `Invalid field selection ${name}`,
      locationType: 'parameter',
      location: 'fields',
    });
  }

  it('refuses a name the resource does not have on every resource, never a 200 {}', async () => {
    const events = `calendars/${encodeURIComponent(AIKO)}/events`;
    const event = await service.api(events, { method: 'POST', body: { start: { date: '2027-09-01' }, end: { date: '2027-09-02' } } });
    const cases: Array<[string, string, string, unknown?]> = [
      ['GET', `${events}/${event.json.id}?fields=id,nope`, 'nope'],
      ['GET', `${events}?fields=items(id,nope)`, 'nope'],
      ['GET', `${events}?fields=nextSyncToken,items/nope`, 'nope'],
      ['GET', `${events}/${event.json.id}/instances?fields=bogus`, 'bogus'],
      ['GET', 'users/me/calendarList?fields=items(id,colour)', 'colour'],
      ['GET', 'users/me/calendarList/primary?fields=summary,nope', 'nope'],
      ['GET', 'calendars/primary?fields=id,owner', 'owner'],
      ['POST', 'freeBusy?fields=calendars,busy', 'busy', { timeMin: '2027-09-01T00:00:00Z', timeMax: '2027-09-02T00:00:00Z', items: [{ id: AIKO }] }],
      ['POST', `${events}/watch?fields=id,nope`, 'nope', { id: 'chan-fields', type: 'web_hook', address: 'https://example.com/hook' }],
    ];
    for (const [method, path, name, body] of cases) {
      assertInvalidSelection(await service.api(path, body === undefined ? { method } : { method, body }), name);
    }
  });

  it('refuses before the handler runs: nothing is written', async () => {
    const events = `calendars/${encodeURIComponent(AIKO)}/events`;
    const before = await service.api(`${events}?maxResults=2500`);
    const res = await service.api(`${events}?fields=id,nope`, { method: 'POST', body: { start: { date: '2027-09-03' }, end: { date: '2027-09-04' } } });
    assertInvalidSelection(res, 'nope');
    const after = await service.api(`${events}?maxResults=2500`);
    assert.equal(after.json.items.length, before.json.items.length);
  });

  it('a name the schema has but the response lacks selects nothing', async () => {
    const res = await service.api('calendars/primary?fields=id,location');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { id: AIKO });
  });
});
