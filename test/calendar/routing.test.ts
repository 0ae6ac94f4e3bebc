// The calendar surface's routing and the steps every route runs first: 501 for what is not
// routed, bearer authentication (401), system parameters, encoded ids, the `primary` alias, and
// the HTTP-layer features Google's clients rely on (X-HTTP-Method-Override, gzip bodies).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALENDAR_ROUTES } from '../../src/calendar/routes.ts';
import { AIKO, AUTH_ERROR, TEAM, UNSUPPORTED, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';
import { call, postJson } from '../_helpers/service.ts';

describe('calendar routing', () => {
  const service = useSignedIn();

  it('routes exactly the eighteen supported operations, each under its Google method id', () => {
    assert.deepEqual(
      CALENDAR_ROUTES.map((r) => `${r.method} ${r.path} ${r.operation}`),
      [
        'GET users/me/calendarList calendar.calendarList.list',
        'POST users/me/calendarList calendar.calendarList.insert',
        'POST users/me/calendarList/watch calendar.calendarList.watch',
        'GET users/me/calendarList/:calendarId calendar.calendarList.get',
        'PUT users/me/calendarList/:calendarId calendar.calendarList.update',
        'PATCH users/me/calendarList/:calendarId calendar.calendarList.patch',
        'DELETE users/me/calendarList/:calendarId calendar.calendarList.delete',
        'GET calendars/:calendarId calendar.calendars.get',
        'GET calendars/:calendarId/events calendar.events.list',
        'POST calendars/:calendarId/events calendar.events.insert',
        'POST calendars/:calendarId/events/watch calendar.events.watch',
        'GET calendars/:calendarId/events/:eventId calendar.events.get',
        'PUT calendars/:calendarId/events/:eventId calendar.events.update',
        'PATCH calendars/:calendarId/events/:eventId calendar.events.patch',
        'DELETE calendars/:calendarId/events/:eventId calendar.events.delete',
        'GET calendars/:calendarId/events/:eventId/instances calendar.events.instances',
        'POST channels/stop calendar.channels.stop',
        'POST freeBusy calendar.freebusy.query',
      ],
    );
  });

  const UNROUTED: Array<[string, string]> = [
    ['POST', '/calendar/v3/calendars/primary/events/import'],
    ['POST', '/calendar/v3/calendars/primary/events/nosuchevent1/move'],
    ['POST', '/calendar/v3/calendars/primary/events/quickAdd'],
    ['POST', '/calendar/v3/calendars'],
    ['PUT', '/calendar/v3/calendars/primary'],
    ['PATCH', '/calendar/v3/calendars/primary'],
    ['DELETE', '/calendar/v3/calendars/primary'],
    ['POST', '/calendar/v3/calendars/primary/clear'],
    ['GET', '/calendar/v3/calendars/primary/acl'],
    ['POST', '/calendar/v3/calendars/primary/acl'],
    ['GET', '/calendar/v3/calendars/primary/acl/rule1'],
    ['GET', '/calendar/v3/colors'],
    ['GET', '/calendar/v3/users/me/settings'],
    ['GET', '/calendar/v3/users/me/settings/timezone'],
    ['POST', '/batch/calendar/v3'],
    ['GET', '/calendar/v3'],
    ['GET', '/calendar/v3/'],
    ['GET', '/calendar/v3/users/me/calendarList/'],
    ['GET', '/calendar/v3/users/other/calendarList'],
    ['GET', '/calendar/v3/freeBusy'],
    ['POST', '/calendar/v3/freebusy'],
  ];

  for (const [method, path] of UNROUTED) {
    it(`${method} ${path} is 501 unsupportedFeature, with or without a token`, async () => {
      for (const headers of [{}, { authorization: `Bearer ${service.token}` }]) {
        const res = await call(service.url + path, { method, headers });
        assert.equal(res.status, 501);
        assert.deepEqual(res.json, UNSUPPORTED);
      }
    });
  }

  it('decodes percent-encoded ids once and answers with the real id, never `primary`', async () => {
    for (const id of ['aiko.tanaka%40example.com', AIKO, 'primary']) {
      const entry = await service.api(`users/me/calendarList/${id}`);
      assert.equal(entry.status, 200, id);
      assert.equal(entry.json.id, AIKO);
      const calendar = await service.api(`calendars/${id}`);
      assert.equal(calendar.status, 200, id);
      assert.equal(calendar.json.id, AIKO);
    }
    const team = await service.api(`calendars/${encodeURIComponent(TEAM)}`);
    assert.equal(team.json.id, TEAM);
    // Decoded exactly once: %2540 is the literal id "aiko.tanaka%40example.com", which does not exist.
    assert.equal((await service.api('calendars/aiko.tanaka%2540example.com')).status, 404);
    assert.equal((await service.api('calendars/a%2Fb')).status, 404);
    assert.equal((await service.api('calendars/PRIMARY')).status, 404);
  });

  describe('bearer authentication (docs/calendar-api.md)', () => {
    async function assert401(init: Parameters<typeof call>[1], path = 'users/me/calendarList'): Promise<void> {
      const res = await call(`${service.url}/calendar/v3/${path}`, init);
      assert.equal(res.status, 401);
      assert.deepEqual(res.json, AUTH_ERROR);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      assert.equal(res.headers.get('content-type'), 'application/json; charset=UTF-8');
    }

    it('a missing, malformed or unknown token is 401 authError on every route', async () => {
      for (const route of CALENDAR_ROUTES) {
        const path = route.path.replace(':calendarId', 'primary').replace(':eventId', 'nosuchevent1');
        await assert401({ method: route.method }, path);
      }
      await assert401({ headers: { authorization: 'Basic bG9jYWw6c2VjcmV0' } });
      await assert401({ headers: { authorization: 'Bearer' } });
      await assert401({ headers: { authorization: `Bearer ${service.token}x` } });
      await assert401({ headers: { authorization: `Bearer ${service.token} extra` } });
    });

    it('key= never stands in for the bearer token (the query forms that do: test/foundation/cors.test.ts)', async () => {
      await assert401({}, `users/me/calendarList?key=AIzaSyD-local`);
      await assert401({}, `users/me/calendarList?key=${service.token}`);
    });

    it('an expired token is 401 (service clock moved past the hour)', async () => {
      const short = await tokenFor(service.url, 'calendar');
      assert.equal((await api(service.url, short, 'users/me/calendarList')).status, 200);
      await postJson(`${service.url}/__svc/clock`, { advanceSeconds: 3601 });
      try {
        await assert401({ headers: { authorization: `Bearer ${short}` } });
      } finally {
        await postJson(`${service.url}/__svc/clock`, { advanceSeconds: -3601 });
      }
    });

    it('a revoked token is 401', async () => {
      const revoked = await tokenFor(service.url, 'calendar');
      await call(`${service.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: revoked }).toString(),
      });
      await assert401({ headers: { authorization: `Bearer ${revoked}` } });
    });

    it('authentication runs before parameter checks', async () => {
      await assert401({}, 'users/me/calendarList?alt=media&maxResults=0');
    });
  });

  describe('system parameters', () => {
    it('alt=json, prettyPrint, quotaUser, key, userIp and a stray oauth_token are accepted', async () => {
      const query = 'alt=json&prettyPrint=false&quotaUser=someone&key=AIzaSyD-local&userIp=10.0.0.1&oauth_token=garbage';
      const res = await service.api(`users/me/calendarList?${query}`);
      assert.equal(res.status, 200);
      assert.equal(res.json.kind, 'calendar#calendarList');
      const odd = await service.api(`calendars/primary?prettyPrint=maybe&quotaUser=${'q'.repeat(100)}`);
      assert.equal(odd.status, 200);
    });

    it('answers compact JSON unless prettyPrint=true', async () => {
      const compact = await service.api('calendars/primary');
      assert.equal(compact.text, JSON.stringify(compact.json));
      const pretty = await service.api('calendars/primary?prettyPrint=true');
      assert.equal(pretty.text, JSON.stringify(pretty.json, null, 2));
      assert.deepEqual(pretty.json, compact.json);
    });

    it('alt other than json is 400 invalid at location alt', async () => {
      for (const alt of ['media', 'proto', 'sse']) {
        const res = await service.api(`calendars/primary?alt=${alt}`);
        assert.equal(res.status, 400);
        assert.deepEqual(reason(res), { domain: 'global', reason: 'invalid', message: 'alt must be json', locationType: 'parameter', location: 'alt' });
      }
    });

    it('a repeated single-valued parameter is 400 naming it', async () => {
      const res = await service.api('users/me/calendarList?maxResults=1&maxResults=2');
      assert.equal(res.status, 400);
      assert.equal(reason(res).location, 'maxResults');
      assert.equal(reason(res).message, 'maxResults must be given at most once');
    });
  });

  describe('what Google clients send', () => {
    it('POST with X-HTTP-Method-Override: PATCH runs calendarList.patch', async () => {
      const res = await service.api(`users/me/calendarList/${encodeURIComponent(TEAM)}`, {
        method: 'POST',
        headers: { 'x-http-method-override': 'PATCH' },
        body: { summaryOverride: 'Overridden' },
      });
      assert.equal(res.status, 200);
      assert.equal(res.json.summaryOverride, 'Overridden');
      assert.equal((await service.api(`users/me/calendarList/${TEAM}`)).json.summaryOverride, 'Overridden');
    });

    it('reads a gzip-compressed JSON body (Content-Encoding: gzip)', async () => {
      const res = await service.api(`users/me/calendarList/${TEAM}`, { method: 'PATCH', body: { summaryOverride: 'Zipped' }, gzip: true });
      assert.equal(res.status, 200);
      assert.equal(res.json.summaryOverride, 'Zipped');
    });

    it('malformed JSON and corrupt gzip are 400 in Google\'s envelope', async () => {
      const bad = await call(`${service.url}/calendar/v3/users/me/calendarList/primary`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
        body: '{"selected":',
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.error.code, 400);
      assert.equal(bad.headers.get('content-type'), 'application/json; charset=UTF-8');
      const corrupt = await call(`${service.url}/calendar/v3/users/me/calendarList/primary`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: 'not gzip',
      });
      assert.equal(corrupt.status, 400);
      assert.equal(corrupt.json.error.code, 400);
    });
  });
});
