// Fault rules (docs/faults.md) through the management API and the requests they act on: the stored
// rule and its live counts (times, afterMatches, hits, remaining), each narrowing member, delayMs,
// a faulted write changing nothing, reset and fixture load deleting every rule, and what faults
// never touch (/__svc/, the consent page and form, the 501 of docs/calendar-api.md).

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { AIKO, api, CALENDAR_FIXTURE, TEAM, tokenFor, useService } from '../_helpers/calendar.ts';
import { authorizeQuery, obtainToken } from '../_helpers/oauth.ts';
import { rawRequest } from '../_helpers/raw-http.ts';
import { call, postJson } from '../_helpers/service.ts';
import { start } from '../../src/index.ts';
import { addFault, clearFaults, listFaults, postFault } from './fault-api.ts';

const LIST = { match: { method: 'calendar.events.list' }, error: 'backendError' };

describe('fault rules', () => {
  const service = useService();
  let aiko = '';
  let ben = '';
  beforeEach(async () => {
    await clearFaults(service.url);
    aiko ||= await tokenFor(service.url, 'calendar');
    ben ||= await tokenFor(service.url, 'calendar', 'user-ben');
  });
  const list = (token = aiko, calendar = 'primary', query = '') => api(service.url, token, `calendars/${encodeURIComponent(calendar)}/events${query}`);
  const statuses = async (n: number, request: () => Promise<{ status: number }>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await request()).status);
    return out;
  };

  describe('the management API', () => {
    it('POST answers 201 with the stored rule: defaults, id, remaining and hits 0', async () => {
      const answer = await postFault(service.url, { match: { method: 'calendar.events.list', calendarId: 'primary', syncToken: true }, error: 'tooManyRequests', retryAfterSeconds: 30 });
      assert.equal(answer.status, 201);
      assert.match(answer.json.id, /^fault-\d+$/);
      assert.deepEqual(answer.json, {
        id: answer.json.id,
        match: { method: 'calendar.events.list', calendarId: 'primary', syncToken: true },
        error: 'tooManyRequests',
        times: 1,
        afterMatches: 0,
        delayMs: 0,
        retryAfterSeconds: 30,
        remaining: 1,
        hits: 0,
      });
      assert.deepEqual(await listFaults(service.url), [answer.json]);
    });

    it('times 0 is unlimited: remaining null, hits counting', async () => {
      const rule = await addFault(service.url, { ...LIST, times: 0 });
      assert.equal(rule.remaining, null);
      assert.deepEqual(await statuses(3, () => list()), [500, 500, 500]);
      assert.deepEqual((await listFaults(service.url)).map((r) => [r.remaining, r.hits]), [[null, 3]]);
    });

    it('times: the rule acts that many times, then stays listed with remaining 0', async () => {
      await addFault(service.url, { ...LIST, times: 2 });
      assert.deepEqual(await statuses(3, () => list()), [500, 500, 200]);
      assert.deepEqual((await listFaults(service.url)).map((r) => [r.remaining, r.hits]), [[0, 2]]);
    });

    it('afterMatches lets that many matching requests through first, not counted as hits', async () => {
      await addFault(service.url, { ...LIST, afterMatches: 2 });
      assert.deepEqual(await statuses(4, () => list()), [200, 200, 500, 200]);
      assert.deepEqual((await listFaults(service.url)).map((r) => [r.remaining, r.hits]), [[0, 1]]);
    });

    it('DELETE /__svc/faults/{id} removes one rule (unknown: 404 not_found); DELETE /__svc/faults removes all', async () => {
      const first = await addFault(service.url, { ...LIST, times: 0 });
      const second = await addFault(service.url, { match: { method: 'calendar.events.get' }, error: 'notFound' });
      const removed = await call(`${service.url}/__svc/faults/${first.id}`, { method: 'DELETE' });
      assert.equal(removed.status, 204);
      assert.equal(removed.text, '');
      assert.deepEqual((await listFaults(service.url)).map((r) => r.id), [second.id]);
      assert.equal((await list()).status, 200);
      const unknown = await call(`${service.url}/__svc/faults/${first.id}`, { method: 'DELETE' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json.error, 'not_found');
      assert.equal((await call(`${service.url}/__svc/faults`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await listFaults(service.url), []);
    });

    it('the management API rules hold: a foreign Host or a cross-site request is 403, a body that is not JSON 415', async () => {
      const foreign = await rawRequest(service.url, '/__svc/faults', { headers: { host: 'evil.example' } });
      assert.equal(foreign.status, 403);
      const crossSite = await call(`${service.url}/__svc/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
        body: JSON.stringify(LIST),
      });
      assert.equal(crossSite.status, 403);
      const form = await call(`${service.url}/__svc/faults`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(LIST) });
      assert.equal(form.status, 415);
      assert.equal(form.json.error, 'unsupported_media_type');
      assert.deepEqual(await listFaults(service.url), []);
    });
  });

  describe('validation: 400 invalid_fault naming the member', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['not an object', [LIST], /JSON object/],
      ['no match', { error: 'backendError' }, /^match is required/],
      ['match not an object', { match: 'calendar.events.list', error: 'backendError' }, /^match must be a JSON object/],
      ['no method', { match: {}, error: 'backendError' }, /^match\.method is required/],
      ['unknown method', { match: { method: 'calendar.events.import' }, error: 'backendError' }, /^match\.method must be a Google method id.*calendar\.events\.list/],
      ['the consent page', { match: { method: 'oauth.authorize' }, error: 'backendError' }, /^match\.method must be/],
      ['unknown rule member', { ...LIST, repeat: 2 }, /^repeat is not a member of a fault rule/],
      ['unknown match member', { match: { method: 'calendar.events.list', user: 'user-aiko' }, error: 'backendError' }, /^match\.user is not a member/],
      ['unknown error', { match: { method: 'calendar.events.list' }, error: 'teapot' }, /^error must be one of rateLimitExceeded, tooManyRequests/],
      ['invalid_grant off oauth.token', { match: { method: 'calendar.events.list' }, error: 'invalid_grant' }, /^error invalid_grant does not fit match\.method calendar\.events\.list/],
      ['invalid_grant on *', { match: { method: '*' }, error: 'invalid_grant' }, /^error invalid_grant does not fit match\.method \*/],
      ['drop off push.delivery', { match: { method: 'calendar.events.list' }, error: 'drop' }, /^error drop does not fit/],
      ['an HTTP answer on push.delivery', { match: { method: 'push.delivery' }, error: 'backendError' }, /^error backendError does not fit match\.method push\.delivery/],
      ['neither error nor delayMs', { match: { method: 'calendar.events.list' } }, /needs error, delayMs/],
      ['delayMs 0 alone', { match: { method: 'calendar.events.list' }, delayMs: 0 }, /needs error, delayMs/],
      ['delayMs too long', { ...LIST, delayMs: 30_001 }, /^delayMs must be an integer from 0 to 30000/],
      ['times negative', { ...LIST, times: -1 }, /^times must be an integer/],
      ['times fractional', { ...LIST, times: 1.5 }, /^times must be an integer/],
      ['afterMatches a string', { ...LIST, afterMatches: '2' }, /^afterMatches must be an integer/],
      ['retryAfterSeconds off tooManyRequests', { ...LIST, retryAfterSeconds: 5 }, /^retryAfterSeconds applies to error tooManyRequests only/],
      ['retryAfterSeconds negative', { match: { method: 'calendar.events.list' }, error: 'tooManyRequests', retryAfterSeconds: -1 }, /^retryAfterSeconds must be an integer/],
      ['webhookStatus without status', { match: { method: 'push.delivery' }, error: 'webhookStatus' }, /^status is required with error webhookStatus/],
      ['webhookStatus status out of range', { match: { method: 'push.delivery' }, error: 'webhookStatus', status: 600 }, /^status must be an integer from 100 to 599/],
      ['status without webhookStatus', { ...LIST, status: 500 }, /^status applies to error webhookStatus only/],
      ['grantType off oauth.token', { match: { method: 'calendar.events.list', grantType: 'refresh_token' }, error: 'backendError' }, /^match\.grantType cannot narrow calendar\.events\.list/],
      ['unknown grantType', { match: { method: 'oauth.token', grantType: 'password' }, error: 'invalid_grant' }, /^match\.grantType must be "authorization_code" or "refresh_token"/],
      ['channelId off push.delivery', { match: { method: '*', channelId: 'ch' }, error: 'backendError' }, /^match\.channelId cannot narrow \*/],
      ['userId on oauth.token', { match: { method: 'oauth.token', userId: 'user-aiko' }, error: 'invalid_grant' }, /^match\.userId cannot narrow oauth\.token: it takes match\.clientId, match\.grantType/],
      ['clientId on oauth.revoke', { match: { method: 'oauth.revoke', clientId: 'c' }, error: 'backendError' }, /^match\.clientId cannot narrow oauth\.revoke: it takes no narrowing member/],
      ['syncToken not a boolean', { match: { method: 'calendar.events.list', syncToken: 'yes' }, error: 'fullSyncRequired' }, /^match\.syncToken must be true or false/],
      ['calendarId empty', { match: { method: 'calendar.events.list', calendarId: '' }, error: 'notFound' }, /^match\.calendarId must not be empty/],
      ['userId a number', { match: { method: 'calendar.events.list', userId: 7 }, error: 'notFound' }, /^match\.userId must be a string/],
    ];
    for (const [name, body, message] of cases) {
      it(name, async () => {
        const answer = await postFault(service.url, body);
        assert.equal(answer.status, 400, answer.text);
        assert.equal(answer.json.error, 'invalid_fault');
        assert.match(answer.json.error_description, message);
        assert.deepEqual(await listFaults(service.url), []);
      });
    }

    it('a body that is not JSON is 400 invalid_request', async () => {
      const answer = await call(`${service.url}/__svc/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
      assert.equal(answer.status, 400);
      assert.equal(answer.json.error, 'invalid_request');
    });
  });

  describe('bounds: 1,000 rules at once, 16 KiB a rule; the rules held stay and still act', () => {
    /** A rule that matches no request here: its calendar does not exist. */
    const idle = (n: number) => ({ match: { method: 'calendar.events.list', calendarId: `idle-${n}@example.com` }, error: 'notFound', times: 0 });

    it('a rule body over 16 KiB is 400 invalid_fault; one of 16 KiB is taken', async () => {
      await addFault(service.url, { ...LIST, times: 0 });
      const sized = (bytes: number) => {
        const rule = { match: { method: 'calendar.events.list', calendarId: '' }, error: 'notFound' };
        rule.match.calendarId = 'c'.repeat(bytes - JSON.stringify(rule).length);
        return rule;
      };
      const tooLarge = await postFault(service.url, sized(16 * 1024 + 1));
      assert.equal(tooLarge.status, 400, tooLarge.text);
      assert.equal(tooLarge.json.error, 'invalid_fault');
      assert.match(tooLarge.json.error_description, /at most 16384 bytes/);
      assert.equal((await listFaults(service.url)).length, 1);
      assert.equal((await list()).status, 500, 'the rule held still acts');
      assert.equal((await postFault(service.url, sized(16 * 1024))).status, 201);
    });

    it('the 1,001st rule is 429 too_many_faults; deleting one makes room', async () => {
      const first = await addFault(service.url, { ...LIST, times: 0 });
      for (let n = 1; n < 1000; n += 50) {
        await Promise.all(Array.from({ length: Math.min(50, 1000 - n) }, (_, i) => addFault(service.url, idle(n + i))));
      }
      assert.equal((await listFaults(service.url)).length, 1000);
      const refused = await postFault(service.url, idle(1000));
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.json.error, 'too_many_faults');
      const held = await listFaults(service.url);
      assert.equal(held.length, 1000);
      assert.equal(held[0]?.id, first.id);
      assert.deepEqual(await statuses(2, () => list()), [500, 500], 'the rules held still act');
      assert.equal((await call(`${service.url}/__svc/faults/${first.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await list()).status, 200);
      assert.equal((await postFault(service.url, idle(1000))).status, 201);
      assert.equal((await postFault(service.url, idle(1001))).status, 429);
    });
  });

  describe('narrowing', () => {
    it('method: only that method; * every calendar and OAuth request', async () => {
      const profileToken = await tokenFor(service.url, ['openid', 'email']);
      await addFault(service.url, { match: { method: 'calendar.events.get' }, error: 'notFound', times: 0 });
      assert.equal((await list()).status, 200);
      assert.equal((await api(service.url, aiko, 'calendars/primary/events/abc')).status, 404);
      await clearFaults(service.url);
      await addFault(service.url, { match: { method: '*' }, error: 'backendError', times: 0 });
      assert.equal((await list()).status, 500);
      assert.equal((await api(service.url, aiko, 'users/me/calendarList')).status, 500);
      assert.equal((await call(`${service.url}/userinfo`, { headers: { authorization: `Bearer ${profileToken}` } })).status, 500);
    });

    it('calendarId: primary resolves per user, on either side', async () => {
      await addFault(service.url, { match: { method: 'calendar.events.list', calendarId: 'primary' }, error: 'notFound', times: 0 });
      assert.equal((await list(aiko, 'primary')).status, 404);
      assert.equal((await list(aiko, AIKO)).status, 404, 'Aiko naming her primary calendar by its id');
      assert.equal((await list(ben, 'primary')).status, 404, "Ben's primary is primary too");
      assert.equal((await list(aiko, TEAM)).status, 200);
      await clearFaults(service.url);
      await addFault(service.url, { match: { method: 'calendar.events.list', calendarId: AIKO }, error: 'notFound', times: 0 });
      assert.equal((await list(aiko, 'primary')).status, 404, "primary is Aiko's calendar for Aiko");
      assert.equal((await list(ben, 'primary')).status, 200, "but not for Ben");
      assert.equal((await list(aiko, TEAM)).status, 200);
    });

    it('userId and clientId', async () => {
      await addFault(service.url, { match: { method: 'calendar.events.list', userId: 'user-ben' }, error: 'notFound', times: 0 });
      assert.equal((await list(aiko)).status, 200);
      assert.equal((await list(ben)).status, 404);
      await clearFaults(service.url);
      await addFault(service.url, { match: { method: 'calendar.events.list', clientId: 'another-client' }, error: 'notFound', times: 0 });
      assert.equal((await list(aiko)).status, 200);
      await addFault(service.url, { match: { method: 'calendar.events.list', clientId: 'local-calendar-client' }, error: 'notFound', times: 0 });
      assert.equal((await list(aiko)).status, 404);
    });

    it('syncToken: true only requests carrying one, false only those without', async () => {
      const syncToken = (await list()).json.nextSyncToken as string;
      await addFault(service.url, { match: { method: 'calendar.events.list', syncToken: true }, error: 'fullSyncRequired', times: 0 });
      assert.equal((await list()).status, 200);
      assert.equal((await list(aiko, 'primary', `?syncToken=${encodeURIComponent(syncToken)}`)).status, 410);
      await clearFaults(service.url);
      await addFault(service.url, { match: { method: 'calendar.events.list', syncToken: false }, error: 'backendError', times: 0 });
      assert.equal((await list()).status, 500);
      assert.equal((await list(aiko, 'primary', `?syncToken=${encodeURIComponent(syncToken)}`)).status, 200);
    });

    it('grantType on oauth.token', async () => {
      const { refresh_token: refreshToken } = await obtainToken(service.url, { scope: 'calendar', offline: true });
      await addFault(service.url, { match: { method: 'oauth.token', grantType: 'authorization_code' }, error: 'invalid_grant', times: 0 });
      const refreshed = await call(`${service.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken ?? '', client_id: 'local-calendar-client', client_secret: 'local-calendar-secret' }).toString(),
      });
      assert.equal(refreshed.status, 200);
      await assert.rejects(obtainToken(service.url, { scope: 'calendar' }), /invalid_grant/);
    });
  });

  describe('delayMs', () => {
    it('a delay-only rule slows the answer without failing it; a delay with an error waits, then fails', async () => {
      const rule = await addFault(service.url, { match: { method: 'calendar.events.list' }, delayMs: 300 });
      let startedAt = performance.now();
      const slowed = await list();
      assert.ok(performance.now() - startedAt >= 300 - 1, 'the answer waited the delay');
      assert.equal(slowed.status, 200);
      assert.deepEqual((await listFaults(service.url)).map((r) => [r.id, r.hits]), [[rule.id, 1]]);
      await addFault(service.url, { ...LIST, delayMs: 200 });
      startedAt = performance.now();
      const failed = await list();
      assert.ok(performance.now() - startedAt >= 200 - 1, 'the answer waited the delay');
      assert.equal(failed.status, 500);
    });
  });

  describe('a faulted request changes nothing', () => {
    it('insert, patch and delete answered by a fault leave the store as it was', async () => {
      const created = await api(service.url, aiko, 'calendars/primary/events', { method: 'POST', body: { summary: 'Kept', start: { dateTime: '2026-12-01T09:00:00Z' }, end: { dateTime: '2026-12-01T10:00:00Z' } } });
      assert.equal(created.status, 200);
      const before = (await list()).json;
      await addFault(service.url, { match: { method: '*' }, error: 'backendError', times: 3 });
      assert.equal((await api(service.url, aiko, 'calendars/primary/events', { method: 'POST', body: { summary: 'Never', start: { dateTime: '2026-12-02T09:00:00Z' }, end: { dateTime: '2026-12-02T10:00:00Z' } } })).status, 500);
      assert.equal((await api(service.url, aiko, `calendars/primary/events/${created.json.id}`, { method: 'PATCH', body: { summary: 'Changed' } })).status, 500);
      assert.equal((await api(service.url, aiko, `calendars/primary/events/${created.json.id}`, { method: 'DELETE' })).status, 500);
      const after = (await list()).json;
      assert.deepEqual(after, before);
    });
  });

  describe('the request journal', () => {
    it("names the rule that answered or delayed a request in the entry's fault", async () => {
      const failing = await addFault(service.url, LIST);
      const slowing = await addFault(service.url, { match: { method: 'calendar.events.get' }, delayMs: 1 });
      await call(`${service.url}/__svc/requests`, { method: 'DELETE' });
      assert.equal((await list()).status, 500);
      assert.equal((await list()).status, 200);
      assert.equal((await api(service.url, aiko, 'calendars/primary/events/unknown1')).status, 404);
      const entries = (await call(`${service.url}/__svc/requests`)).json.requests;
      assert.deepEqual(
        entries.map((e: { operation: string; status: number; error: string | null; fault: string | null }) => [e.operation, e.status, e.error, e.fault]),
        [
          ['calendar.events.list', 500, 'backendError', failing.id],
          ['calendar.events.list', 200, null, null],
          ['calendar.events.get', 404, 'notFound', slowing.id],
        ],
      );
    });
  });

  describe('what faults never touch', () => {
    it('the management API, the consent page and form, and unrouted answers', async () => {
      await addFault(service.url, { match: { method: '*' }, error: 'backendError', times: 0 });
      assert.equal((await call(`${service.url}/__svc/users`)).status, 200);
      assert.equal((await call(`${service.url}/__svc/clock`)).status, 200);
      const page = await call(`${service.url}/oauth/authorize?${authorizeQuery()}`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      // The consent form: the token flow drives it; only the token exchange after it is faulted.
      await assert.rejects(obtainToken(service.url, { scope: 'calendar' }), /500|backendError/);
      assert.equal((await call(`${service.url}/calendar/v3/calendars/primary/acl`)).status, 501);
      assert.equal((await call(`${service.url}/nowhere`)).status, 501);
      assert.equal((await listFaults(service.url))[0]?.hits, 1, 'only the token exchange was acted on');
    });
  });

  describe('reset and fixture load', () => {
    it('delete every rule', async () => {
      await addFault(service.url, LIST);
      assert.equal((await call(`${service.url}/__svc/reset`, { method: 'POST' })).status, 204);
      assert.deepEqual(await listFaults(service.url), []);
      await addFault(service.url, LIST);
      assert.equal((await postJson(`${service.url}/__svc/fixtures`, CALENDAR_FIXTURE)).status, 200);
      assert.deepEqual(await listFaults(service.url), []);
      aiko = await tokenFor(service.url, 'calendar');
      ben = await tokenFor(service.url, 'calendar', 'user-ben');
      assert.equal((await list()).status, 200);
    });
  });
});

describe('stopping the service', () => {
  it('answers a request held by a 30 s delay at once instead of waiting it out', async () => {
    const service = await start({ port: 0, fixture: CALENDAR_FIXTURE });
    const token = await tokenFor(service.url, 'calendar');
    await addFault(service.url, { match: { method: 'calendar.events.list' }, delayMs: 30_000 });
    const held = api(service.url, token, 'calendars/primary/events');
    while ((await listFaults(service.url))[0]?.hits !== 1) await new Promise((resolve) => setTimeout(resolve, 10));
    // Without endDelays, close() would wait for the held answer: 30 s, past this bound.
    const bound = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000).unref());
    assert.equal(await Promise.race([service.close().then(() => 'closed' as const), bound]), 'closed');
    assert.equal((await held).status, 200);
  });
});
