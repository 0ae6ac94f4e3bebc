// HTTP core: the router, the unrouted 501 body, and the query parameters Google's clients add.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Router } from '../../src/http/router.ts';
import { call, startService } from '../_helpers/service.ts';

const UNSUPPORTED = { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' };

describe('router', () => {
  const router = new Router<string>()
    .add('GET', '/calendar/v3/calendars/:calendarId/events', 'events.list')
    .add('POST', '/calendar/v3/calendars/:calendarId/events/watch', 'events.watch')
    .add('GET', '/calendar/v3/calendars/:calendarId/events/:eventId', 'events.get');

  it('matches method and segments and percent-decodes parameters once', () => {
    const match = router.match('GET', '/calendar/v3/calendars/aiko.tanaka%40example.com/events');
    assert.deepEqual(match, { kind: 'found', handler: 'events.list', params: { calendarId: 'aiko.tanaka@example.com' } });
    const raw = router.match('GET', '/calendar/v3/calendars/aiko.tanaka@example.com/events');
    assert.equal(raw.kind === 'found' && raw.params.calendarId, 'aiko.tanaka@example.com');
    const twice = router.match('GET', '/calendar/v3/calendars/a%2540b/events');
    assert.equal(twice.kind === 'found' && twice.params.calendarId, 'a%40b');
  });

  it('keeps an encoded slash inside its segment', () => {
    const match = router.match('GET', '/calendar/v3/calendars/a%2Fb/events/e1');
    assert.deepEqual(match, { kind: 'found', handler: 'events.get', params: { calendarId: 'a/b', eventId: 'e1' } });
  });

  it('prefers earlier routes, and a method mismatch is no match', () => {
    assert.equal(router.match('POST', '/calendar/v3/calendars/c/events/watch').kind, 'found');
    const get = router.match('GET', '/calendar/v3/calendars/c/events/watch');
    assert.equal(get.kind === 'found' && get.handler, 'events.get');
    assert.equal(router.match('DELETE', '/calendar/v3/calendars/c/events').kind, 'none');
  });

  it('refuses empty segments, malformed escapes and other lengths', () => {
    assert.equal(router.match('GET', '/calendar/v3/calendars//events').kind, 'none');
    assert.equal(router.match('GET', '/calendar/v3/calendars/%E0%A4%A/events').kind, 'none');
    assert.equal(router.match('GET', '/calendar/v3/calendars/c/events/e/x').kind, 'none');
    assert.equal(router.match('GET', '/calendar/v3/calendars/c/events/').kind, 'none');
  });
});

describe('unrouted requests', () => {
  it('answer 501 with the spec body anywhere', async (t) => {
    const url = await startService(t);
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/favicon.ico'],
      ['POST', '/oauth2/v4/token'],
      ['GET', '/oauth2/v3/userinfo'],
      ['GET', '/calendar/v3/colors'],
      ['POST', '/calendar/v3/calendars'],
      ['POST', '/batch/calendar/v3'],
      ['PUT', '/oauth/token'],
      ['DELETE', '/userinfo'],
    ]) {
      const answer = await call(`${url}${path}`, { method: method as string });
      assert.equal(answer.status, 501, `${method} ${path}`);
      assert.deepEqual(answer.json, UNSUPPORTED);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    }
  });

  it('Google client system parameters never cause an error', async (t) => {
    const url = await startService(t);
    const answer = await call(`${url}/__svc/users?alt=json&prettyPrint=false&fields=users&quotaUser=q&key=abc`);
    assert.equal(answer.status, 200);
  });
});
