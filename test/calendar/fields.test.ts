// The partial-response selector (`fields`): grammar, application to responses, and its use over HTTP.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { GoogleApiError } from '../../src/api/google-error.ts';
import { applyFieldSelector, fieldsParam, parseFieldSelector } from '../../src/calendar/fields.ts';
import { AIKO, TEAM, api, reason, tokenFor, useService } from '../_helpers/calendar.ts';

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

  it('keeps the response member order and skips names the response lacks', () => {
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

describe('fields over HTTP', () => {
  const service = useService();
  let url: string;
  let token: string;
  before(async () => {
    url = service.url;
    token = await tokenFor(url, 'calendar');
  });

  it('applies to calendarList.list', async () => {
    const res = await api(url, token, 'users/me/calendarList?fields=' + encodeURIComponent('items(id,summary),nextPageToken'));
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {
      items: [
        { id: AIKO, summary: 'Aiko Tanaka' },
        { id: TEAM, summary: 'Team' },
      ],
    });
  });

  it('applies to calendars.get and calendarList.get', async () => {
    const calendar = await api(url, token, 'calendars/primary?fields=id,timeZone');
    assert.deepEqual(calendar.json, { id: AIKO, timeZone: 'Asia/Tokyo' });
    const entry = await api(url, token, 'users/me/calendarList/primary?fields=defaultReminders/minutes,kind');
    assert.deepEqual(entry.json, { kind: 'calendar#calendarListEntry', defaultReminders: [{ minutes: 30 }] });
  });

  it('keeps the ETag header of the full resource', async () => {
    const full = await api(url, token, 'calendars/primary');
    const partial = await api(url, token, 'calendars/primary?fields=id');
    assert.equal(partial.headers.get('etag'), full.json.etag);
  });

  it('refuses a malformed selector with 400, before a write happens', async () => {
    const before = await api(url, token, `users/me/calendarList/${TEAM}`);
    const res = await api(url, token, `users/me/calendarList/${TEAM}?fields=items(`, { method: 'PATCH', body: { summaryOverride: 'changed' } });
    assert.equal(res.status, 400);
    assert.deepEqual(reason(res), {
      domain: 'global',
      reason: 'invalid',
      message: 'Invalid field selection items(',
      locationType: 'parameter',
      location: 'fields',
    });
    const after = await api(url, token, `users/me/calendarList/${TEAM}`);
    assert.equal(after.json.etag, before.json.etag);
    assert.equal(after.json.summaryOverride, undefined);
  });
});
