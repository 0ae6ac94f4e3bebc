// The read path's caches never serve stale answers: authenticated bearer tokens (oauth/bearer.ts)
// die at once on revocation, user deletion, reset and expiry; cached event renderings
// (src/calendar/events/resource.ts) follow every write, the output zone, `fields`, `prettyPrint`, conditional
// reads and workspace replacement; and singleEvents paging over many series (the expansion
// horizon in occurrences.ts) returns exactly the one-page answer, page by page.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AIKO, AUTH_ERROR, BEN, CALENDAR_FIXTURE, api, tokenFor, useService } from '../_helpers/calendar.ts';
import { call, postJson } from '../_helpers/service.ts';

const PRIMARY = `calendars/${encodeURIComponent(AIKO)}/events`;

async function connectionIds(url: string, userId: string): Promise<string[]> {
  const answer = await call(`${url}/__svc/connections`);
  return (answer.json.connections as Array<{ id: string; userId: string }>).filter((c) => c.userId === userId).map((c) => c.id);
}

describe('bearer token cache', () => {
  const service = useService();

  async function authenticated(token: string): Promise<number> {
    return (await api(service.url, token, 'users/me/calendarList')).status;
  }

  test('a revoked connection is refused on the next request', async () => {
    const token = await tokenFor(service.url, 'calendar');
    assert.equal(await authenticated(token), 200);
    assert.equal(await authenticated(token), 200);
    for (const id of await connectionIds(service.url, 'user-aiko')) {
      assert.equal((await call(`${service.url}/__svc/connections/${id}/revoke`, { method: 'POST' })).status, 204);
    }
    const answer = await api(service.url, token, 'users/me/calendarList');
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.json, AUTH_ERROR);
  });

  test('a token revoked at /oauth/revoke is refused on the next request', async () => {
    const token = await tokenFor(service.url, 'calendar');
    assert.equal(await authenticated(token), 200);
    const revoked = await call(`${service.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    assert.equal(revoked.status, 200);
    assert.equal(await authenticated(token), 401);
  });

  test('expiry follows the service clock', async () => {
    const token = await tokenFor(service.url, 'calendar');
    assert.equal(await authenticated(token), 200);
    assert.equal((await postJson(`${service.url}/__svc/clock`, { advanceSeconds: 3599 })).status, 200);
    assert.equal(await authenticated(token), 200);
    assert.equal((await postJson(`${service.url}/__svc/clock`, { advanceSeconds: 2 })).status, 200);
    assert.equal(await authenticated(token), 401);
  });

  test("deleting the user kills the user's tokens, others keep working", async () => {
    const ben = await tokenFor(service.url, 'calendar', 'user-ben');
    const aiko = await tokenFor(service.url, 'calendar');
    assert.equal(await authenticated(ben), 200);
    assert.equal(await authenticated(aiko), 200);
    assert.equal((await call(`${service.url}/__svc/users/user-ben`, { method: 'DELETE' })).status, 204);
    assert.equal(await authenticated(ben), 401);
    assert.equal(await authenticated(aiko), 200);
  });

  test('a reset kills every token', async () => {
    const token = await tokenFor(service.url, 'calendar');
    assert.equal(await authenticated(token), 200);
    assert.equal((await call(`${service.url}/__svc/reset`, { method: 'POST' })).status, 204);
    assert.equal(await authenticated(token), 401);
  });
});

describe('rendered event cache', () => {
  const service = useService();
  let token = '';
  let id = '';

  before(async () => {
    token = await tokenFor(service.url, 'calendar');
    const created = await api(service.url, token, PRIMARY, {
      method: 'POST',
      body: { summary: 'First', start: { dateTime: '2027-03-01T09:00:00Z' }, end: { dateTime: '2027-03-01T10:00:00Z' } },
    });
    assert.equal(created.status, 200, created.text);
    id = created.json.id;
  });

  async function getSummary(): Promise<string> {
    const answer = await api(service.url, token, `${PRIMARY}/${id}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.summary;
  }

  test('get and list follow every write', async () => {
    assert.equal(await getSummary(), 'First');
    const patched = await api(service.url, token, `${PRIMARY}/${id}`, { method: 'PATCH', body: { summary: 'Second' } });
    assert.equal(patched.status, 200);
    assert.equal(await getSummary(), 'Second');
    const listed = await api(service.url, token, `${PRIMARY}?maxResults=2500`);
    const item = listed.json.items.find((e: { id: string }) => e.id === id);
    assert.equal(item.summary, 'Second');
    assert.equal(item.etag, patched.json.etag);
  });

  test('the output zone is part of the rendering', async () => {
    const tokyo = await api(service.url, token, `${PRIMARY}/${id}`);
    const utc = await api(service.url, token, `${PRIMARY}/${id}?timeZone=UTC`);
    assert.equal(tokyo.json.start.dateTime, '2027-03-01T18:00:00+09:00');
    assert.equal(utc.json.start.dateTime, '2027-03-01T09:00:00Z');
    assert.equal((await api(service.url, token, `${PRIMARY}/${id}`)).json.start.dateTime, '2027-03-01T18:00:00+09:00');
  });

  test('fields, prettyPrint and If-None-Match apply to cached renderings', async () => {
    const full = await api(service.url, token, `${PRIMARY}/${id}`);
    const partial = await api(service.url, token, `${PRIMARY}/${id}?fields=id,summary`);
    assert.deepEqual(partial.json, { id, summary: full.json.summary });
    const pretty = await api(service.url, token, `${PRIMARY}/${id}?prettyPrint=true`);
    assert.equal(pretty.text, JSON.stringify(full.json, null, 2));
    const listPartial = await api(service.url, token, `${PRIMARY}?fields=items(id)`);
    assert.ok(listPartial.json.items.every((e: object) => Object.keys(e).join() === 'id'));
    const notModified = await api(service.url, token, `${PRIMARY}/${id}`, { headers: { 'if-none-match': full.json.etag } });
    assert.equal(notModified.status, 304);
    const list = await api(service.url, token, PRIMARY);
    const listNotModified = await api(service.url, token, PRIMARY, { headers: { 'if-none-match': list.json.etag } });
    assert.equal(listNotModified.status, 304);
  });

  test('a fixture load replacing the workspace is never answered from the old renderings', async () => {
    const before = await api(service.url, token, PRIMARY);
    assert.equal(before.status, 200);
    // The same calendar and event id, written at the same change sequence, with other content.
    const fixture = {
      clients: CALENDAR_FIXTURE.clients,
      users: [
        {
          id: 'user-aiko',
          name: 'Aiko Tanaka',
          email: AIKO,
          calendars: [{ primary: true, events: [{ id: 'sameid0001', summary: 'Version A', start: { dateTime: '2027-03-02T09:00:00Z' }, end: { dateTime: '2027-03-02T10:00:00Z' } }] }],
        },
        { id: 'user-ben', name: 'Ben Carter', email: BEN, calendars: [] },
      ],
    };
    for (const summary of ['Version A', 'Version B']) {
      fixture.users[0]!.calendars[0]!.events[0]!.summary = summary;
      const loaded = await postJson(`${service.url}/__svc/fixtures`, fixture);
      assert.equal(loaded.status, 200, loaded.text);
      const fresh = await tokenFor(service.url, 'calendar');
      const got = await api(service.url, fresh, `${PRIMARY}/sameid0001`);
      assert.equal(got.json.summary, summary);
      const listed = await api(service.url, fresh, PRIMARY);
      assert.deepEqual(listed.json.items.map((e: { summary: string }) => e.summary), [summary]);
    }
  });
});

describe('singleEvents paging over many series', () => {
  const service = useService();
  let token = '';

  before(async () => {
    token = await tokenFor(service.url, 'calendar');
    // 12 weekly series on staggered days and hours, some sharing start times, plus singles.
    for (let k = 0; k < 12; k++) {
      const day = String(1 + (k % 5)).padStart(2, '0');
      const hour = String(8 + (k % 3)).padStart(2, '0');
      const answer = await api(service.url, token, PRIMARY, {
        method: 'POST',
        body: {
          summary: `Series ${k}`,
          start: { dateTime: `2027-02-${day}T${hour}:00:00`, timeZone: 'Europe/Berlin' },
          end: { dateTime: `2027-02-${day}T${hour}:30:00`, timeZone: 'Europe/Berlin' },
          recurrence: [k % 4 === 0 ? 'RRULE:FREQ=DAILY;INTERVAL=3' : 'RRULE:FREQ=WEEKLY'],
        },
      });
      assert.equal(answer.status, 200, answer.text);
    }
    for (let k = 0; k < 5; k++) {
      const answer = await api(service.url, token, PRIMARY, {
        method: 'POST',
        body: { summary: `Single ${k}`, start: { dateTime: `2027-02-1${k}T08:00:00+01:00` }, end: { dateTime: `2027-02-1${k}T09:00:00+01:00` } },
      });
      assert.equal(answer.status, 200, answer.text);
    }
  });

  test('pages of any size concatenate to the single-page answer', async () => {
    const query = 'singleEvents=true&orderBy=startTime&timeMin=2027-02-01T00:00:00Z&timeMax=2027-06-01T00:00:00Z';
    const whole = await api(service.url, token, `${PRIMARY}?${query}&maxResults=2500`);
    assert.equal(whole.status, 200, whole.text);
    const expected = whole.json.items.map((e: { id: string }) => e.id);
    assert.ok(expected.length > 150, `${expected.length} instances`);
    const starts = whole.json.items.map((e: { start: { dateTime: string } }) => Date.parse(e.start.dateTime));
    assert.deepEqual(starts, [...starts].sort((a, b) => a - b));
    for (const size of [1, 7, 50]) {
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await api(service.url, token, `${PRIMARY}?${query}&maxResults=${size}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
        assert.equal(page.status, 200, page.text);
        assert.ok(page.json.items.length <= size);
        seen.push(...page.json.items.map((e: { id: string }) => e.id));
        pageToken = page.json.nextPageToken;
      } while (pageToken !== undefined);
      assert.deepEqual(seen, expected, `pages of ${size}`);
    }
  });
});
