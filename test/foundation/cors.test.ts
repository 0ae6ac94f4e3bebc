// Browser apps (docs/calendar-api.md#browser-apps): CORS on /calendar/v3/ and /userinfo, errors included; preflights;
// no CORS anywhere else; and the bearer token in the query (`access_token`, `oauth_token`). The
// same from a real browser on another origin is in test/browser/cross-origin.test.ts.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { advanceClock } from '../_helpers/oauth.ts';
import { AIKO, api, BEN_PRIVATE, tokenFor, useService } from '../_helpers/calendar.ts';
import { call, postJson } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const APP = 'http://localhost:5173';
const EXPOSED = ['etag', 'content-type', 'location', 'retry-after', 'www-authenticate'];

describe('browser apps (docs/calendar-api.md#browser-apps)', () => {
  const service = useService();
  let token: string;
  let readonlyProfile: string;
  before(async () => {
    token = await tokenFor(service.url, ['calendar', 'openid', 'email']);
    readonlyProfile = await tokenFor(service.url, 'openid');
  });

  function assertCors(answer: Answer, origin = APP): void {
    assert.equal(answer.headers.get('access-control-allow-origin'), origin);
    assert.ok((answer.headers.get('vary') ?? '').split(/, */).includes('Origin'), `Vary: ${answer.headers.get('vary')}`);
    const exposed = (answer.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/, */);
    for (const name of EXPOSED) assert.ok(exposed.includes(name), `Access-Control-Expose-Headers lacks ${name}`);
    assert.equal(answer.headers.get('access-control-allow-credentials'), null);
  }

  function assertNoCors(answer: Answer): void {
    for (const [name] of answer.headers) assert.ok(!name.startsWith('access-control-'), `unexpected ${name}`);
  }

  function preflight(path: string, method: string, requestHeaders?: string, origin = APP): Promise<Answer> {
    const headers: Record<string, string> = { Origin: origin, 'Access-Control-Request-Method': method };
    if (requestHeaders !== undefined) headers['Access-Control-Request-Headers'] = requestHeaders;
    return call(`${service.url}${path}`, { method: 'OPTIONS', headers });
  }

  describe('CORS on the calendar API and /userinfo (docs/calendar-api.md#browser-apps)', () => {
    it('a request with Origin gets the origin echoed, Vary: Origin, the exposed headers, no credentials', async () => {
      const list = await api(service.url, token, 'users/me/calendarList', { headers: { Origin: APP } });
      assert.equal(list.status, 200);
      assertCors(list);
      const other = await api(service.url, token, `calendars/${encodeURIComponent(AIKO)}`, { headers: { Origin: 'https://app.example.test' } });
      assert.equal(other.status, 200);
      assertCors(other, 'https://app.example.test');
      const me = await call(`${service.url}/userinfo`, { headers: { Authorization: `Bearer ${token}`, Origin: APP } });
      assert.equal(me.status, 200);
      assertCors(me);
    });

    it('writes and conditional reads carry them too', async () => {
      const created = await api(service.url, token, 'calendars/primary/events', {
        method: 'POST',
        headers: { Origin: APP },
        body: { summary: 'from a browser', start: { dateTime: '2026-03-02T10:00:00Z' }, end: { dateTime: '2026-03-02T11:00:00Z' } },
      });
      assert.equal(created.status, 200, created.text);
      assertCors(created);
      const again = await api(service.url, token, `calendars/primary/events/${created.json.id}`, { headers: { Origin: APP, 'If-None-Match': created.json.etag } });
      assert.equal(again.status, 304);
      assertCors(again);
      const removed = await api(service.url, token, `calendars/primary/events/${created.json.id}`, { method: 'DELETE', headers: { Origin: APP } });
      assert.equal(removed.status, 204);
      assertCors(removed);
    });

    it('error answers carry them: 401, 403, 404, 501, on both surfaces', async () => {
      const cases: Array<[string, Promise<Answer>, number]> = [
        ['no token', api(service.url, undefined, 'users/me/calendarList', { headers: { Origin: APP } }), 401],
        ['scope', api(service.url, readonlyProfile, 'users/me/calendarList', { headers: { Origin: APP } }), 403],
        ["another user's calendar", api(service.url, token, `calendars/${encodeURIComponent(BEN_PRIVATE)}`, { headers: { Origin: APP } }), 404],
        ['unrouted', api(service.url, token, 'colors', { headers: { Origin: APP } }), 501],
        ['/userinfo without token', call(`${service.url}/userinfo`, { headers: { Origin: APP } }), 401],
      ];
      for (const [name, pending, status] of cases) {
        const answer = await pending;
        assert.equal(answer.status, status, name);
        assertCors(answer);
      }
    });

    it('without Origin there are no CORS headers', async () => {
      assertNoCors(await api(service.url, token, 'users/me/calendarList'));
      assertNoCors(await api(service.url, undefined, 'users/me/calendarList'));
    });

    it('/oauth/* and /__svc/ never send CORS headers, not even to their own origin', async () => {
      const origin = { Origin: APP };
      assertNoCors(await call(`${service.url}/oauth/token`, { method: 'POST', headers: { ...origin, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=nope' }));
      assertNoCors(await call(`${service.url}/oauth/authorize`, { headers: origin }));
      assertNoCors(await call(`${service.url}/__svc/users`, { headers: { Origin: service.url } }));
      assertNoCors(await call(`${service.url}/calendar/v2/users/me/calendarList`, { headers: origin }));
    });
  });

  describe('preflight (docs/calendar-api.md#browser-apps)', () => {
    it('204 with the origin, the methods, the requested headers that are allowed, Max-Age 3600', async () => {
      const answer = await preflight('/calendar/v3/calendars/primary/events/abc', 'PATCH', 'authorization,content-type,if-match,x-unknown-header');
      assert.equal(answer.status, 204);
      assert.equal(answer.text, '');
      assert.equal(answer.headers.get('access-control-allow-origin'), APP);
      assert.equal(answer.headers.get('access-control-allow-methods'), 'GET, POST, PUT, PATCH, DELETE');
      assert.equal(answer.headers.get('access-control-allow-headers'), 'authorization, content-type, if-match');
      assert.equal(answer.headers.get('access-control-max-age'), '3600');
      assert.equal(answer.headers.get('access-control-allow-credentials'), null);
      assert.ok((answer.headers.get('vary') ?? '').includes('Origin'));
    });

    it('each allowed header is granted when asked, in any letter case; nothing asked, nothing granted', async () => {
      for (const name of ['authorization', 'content-type', 'if-match', 'if-none-match', 'x-goog-api-client', 'x-goog-api-key', 'x-http-method-override', 'x-requested-with']) {
        const answer = await preflight('/calendar/v3/users/me/calendarList', 'GET', name.toUpperCase());
        assert.equal(answer.headers.get('access-control-allow-headers'), name, name);
      }
      const bare = await preflight('/calendar/v3/freeBusy', 'POST');
      assert.equal(bare.status, 204);
      assert.equal(bare.headers.get('access-control-allow-headers'), null);
      const unknown = await preflight('/calendar/v3/freeBusy', 'POST', 'x-custom, cookie');
      assert.equal(unknown.headers.get('access-control-allow-headers'), null);
    });

    it('/userinfo answers preflights too', async () => {
      const answer = await preflight('/userinfo', 'GET', 'authorization');
      assert.equal(answer.status, 204);
      assert.equal(answer.headers.get('access-control-allow-origin'), APP);
      assert.equal(answer.headers.get('access-control-allow-headers'), 'authorization');
    });

    it('OPTIONS without Origin or without Access-Control-Request-Method stays 501', async () => {
      const noOrigin = await call(`${service.url}/calendar/v3/users/me/calendarList`, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'GET' } });
      assert.equal(noOrigin.status, 501);
      assertNoCors(noOrigin);
      const noMethod = await call(`${service.url}/calendar/v3/users/me/calendarList`, { method: 'OPTIONS', headers: { Origin: APP } });
      assert.equal(noMethod.status, 501);
      assert.equal(noMethod.json.error, 'unsupportedFeature');
    });

    it('a preflight to /oauth/* is 501 without CORS headers', async () => {
      for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/authorize']) {
        const answer = await preflight(path, 'POST', 'content-type');
        assert.equal(answer.status, 501, path);
        assertNoCors(answer);
      }
    });
  });

  describe('the bearer token in the query (docs/calendar-api.md#browser-apps)', () => {
    const list = (query: string, headers: Record<string, string> = {}) => call(`${service.url}/calendar/v3/users/me/calendarList?${query}`, { headers });

    it('access_token and oauth_token authenticate when no Authorization header is sent', async () => {
      assert.equal((await list(`access_token=${token}`)).status, 200);
      assert.equal((await list(`oauth_token=${token}`)).status, 200);
      assert.equal((await list(`access_token=${token}&oauth_token=${token}`)).status, 200);
      const me = await call(`${service.url}/userinfo?access_token=${token}`);
      assert.equal(me.status, 200);
      assert.equal(me.json.email, AIKO);
    });

    it('the query token obeys the same rules: unknown 401, scopes 403', async () => {
      assert.equal((await list('access_token=nope')).status, 401);
      assert.equal((await list(`access_token=${readonlyProfile}`)).status, 403);
      assert.equal((await list(`access_token=${encodeURIComponent(`${token} `)}`)).status, 401);
    });

    it('with an Authorization header, the header alone counts', async () => {
      assert.equal((await list(`access_token=${token}`, { Authorization: 'Bearer wrong' })).status, 401);
      assert.equal((await list(`access_token=${token}`, { Authorization: 'Basic abc' })).status, 401);
      assert.equal((await list(`access_token=${token}`, { Authorization: '' })).status, 401);
      assert.equal((await list('access_token=wrong', { Authorization: `Bearer ${token}` })).status, 200);
    });

    it('two different query tokens present none; key= never authenticates', async () => {
      assert.equal((await list(`access_token=${token}&access_token=${readonlyProfile}`)).status, 401);
      assert.equal((await list(`access_token=${token}&oauth_token=other`)).status, 401);
      assert.equal((await list(`key=${token}`)).status, 401);
    });

    it('a query token dies with its expiry like any other', async () => {
      const shortLived = await tokenFor(service.url, 'calendar');
      assert.equal((await list(`access_token=${shortLived}`)).status, 200);
      await advanceClock(service.url, 3601);
      try {
        assert.equal((await list(`access_token=${shortLived}`)).status, 401);
      } finally {
        assert.equal((await postJson(`${service.url}/__svc/clock`, { advanceSeconds: -3601 })).status, 200);
      }
    });
  });
});
