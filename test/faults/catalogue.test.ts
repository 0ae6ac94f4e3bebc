// Every HTTP answer of the fault catalogue (docs/faults.md), byte for byte as Google sends it: the
// status, the envelope of docs/calendar-api.md with the domain, reason and message of
// https://developers.google.com/workspace/calendar/api/guides/errors, and the
// headers (Retry-After, WWW-Authenticate). invalid_grant is the token endpoint's OAuth body.

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { api, tokenFor, useService } from '../_helpers/calendar.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';
import { addFault, clearFaults } from './fault-api.ts';

function envelope(code: number, domain: string, reason: string, message: string, status: string, extra: object = {}) {
  return { error: { code, message, errors: [{ domain, reason, message, ...extra }], status } };
}

const CATALOGUE = [
  { error: 'rateLimitExceeded', status: 403, body: envelope(403, 'usageLimits', 'rateLimitExceeded', 'Rate Limit Exceeded', 'PERMISSION_DENIED') },
  { error: 'tooManyRequests', status: 429, body: envelope(429, 'usageLimits', 'rateLimitExceeded', 'Rate Limit Exceeded', 'RESOURCE_EXHAUSTED') },
  { error: 'userRateLimitExceeded', status: 403, body: envelope(403, 'usageLimits', 'userRateLimitExceeded', 'User Rate Limit Exceeded', 'PERMISSION_DENIED') },
  { error: 'quotaExceeded', status: 403, body: envelope(403, 'usageLimits', 'quotaExceeded', 'Calendar usage limits exceeded.', 'PERMISSION_DENIED') },
  { error: 'backendError', status: 500, body: envelope(500, 'global', 'backendError', 'Backend Error', 'INTERNAL') },
  { error: 'serviceUnavailable', status: 503, body: envelope(503, 'global', 'backendError', 'The service is currently unavailable.', 'UNAVAILABLE') },
  {
    error: 'authError',
    status: 401,
    body: envelope(401, 'global', 'authError', 'Invalid Credentials', 'UNAUTHENTICATED', { locationType: 'header', location: 'Authorization' }),
  },
  {
    error: 'fullSyncRequired',
    status: 410,
    body: envelope(410, 'calendar', 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.', 'FAILED_PRECONDITION', {
      locationType: 'parameter',
      location: 'syncToken',
    }),
  },
  { error: 'notFound', status: 404, body: envelope(404, 'global', 'notFound', 'Not Found', 'NOT_FOUND') },
  // https://developers.google.com/workspace/calendar/api/guides/errors: 410 updatedMinTooLongAgo.
  {
    error: 'updatedMinTooLongAgo',
    status: 410,
    body: envelope(410, 'calendar', 'updatedMinTooLongAgo', 'The requested minimum modification time lies too far in the past.', 'FAILED_PRECONDITION', {
      locationType: 'parameter',
      location: 'updatedMin',
    }),
  },
];

describe('the fault catalogue on the calendar API', () => {
  const service = useService();
  let token = '';
  beforeEach(async () => {
    await clearFaults(service.url);
    token ||= await tokenFor(service.url, 'calendar');
  });

  for (const entry of CATALOGUE) {
    it(`${entry.error}: ${entry.status} with Google's exact body`, async () => {
      await addFault(service.url, { match: { method: 'calendar.events.list' }, error: entry.error });
      const faulted = await api(service.url, token, 'calendars/primary/events');
      assert.equal(faulted.status, entry.status);
      assert.deepEqual(faulted.json, entry.body);
      assert.equal(faulted.headers.get('content-type'), 'application/json; charset=UTF-8');
      assert.equal(faulted.headers.get('www-authenticate'), entry.error === 'authError' ? 'Bearer' : null);
      assert.equal(faulted.headers.get('retry-after'), null);
      // times defaults to 1: the next request is answered as usual, with the same token.
      assert.equal((await api(service.url, token, 'calendars/primary/events')).status, 200);
    });
  }

  it('tooManyRequests with retryAfterSeconds sends Retry-After', async () => {
    await addFault(service.url, { match: { method: 'calendar.events.list' }, error: 'tooManyRequests', retryAfterSeconds: 30 });
    const faulted = await api(service.url, token, 'calendars/primary/events');
    assert.equal(faulted.status, 429);
    assert.equal(faulted.headers.get('retry-after'), '30');
  });
});

describe('the fault catalogue on the OAuth endpoints', () => {
  const service = useService();
  beforeEach(() => clearFaults(service.url));

  const refresh = (refreshToken: string) =>
    call(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'local-calendar-client', client_secret: 'local-calendar-secret' }).toString(),
    });

  it('invalid_grant on oauth.token answers the OAuth body Google sends for a revoked refresh token; the token stays valid', async () => {
    const { refresh_token: refreshToken } = await obtainToken(service.url, { scope: 'calendar', offline: true });
    assert.ok(refreshToken);
    await addFault(service.url, { match: { method: 'oauth.token', grantType: 'refresh_token' }, error: 'invalid_grant' });
    const faulted = await refresh(refreshToken);
    assert.equal(faulted.status, 400);
    assert.deepEqual(faulted.json, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    assert.equal(faulted.headers.get('cache-control'), 'no-store');
    const after = await refresh(refreshToken);
    assert.equal(after.status, 200);
    assert.ok(after.json.access_token);
  });

  it('a Google envelope answer on oauth.userinfo and oauth.revoke', async () => {
    const token = await tokenFor(service.url, ['openid', 'email']);
    await addFault(service.url, { match: { method: 'oauth.userinfo' }, error: 'serviceUnavailable' });
    const userinfo = await call(`${service.url}/userinfo`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(userinfo.status, 503);
    assert.deepEqual(userinfo.json, CATALOGUE.find((e) => e.error === 'serviceUnavailable')?.body);

    await addFault(service.url, { match: { method: 'oauth.revoke' }, error: 'backendError' });
    const revoke = await call(`${service.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
    });
    assert.equal(revoke.status, 500);
    assert.deepEqual(revoke.json, CATALOGUE.find((e) => e.error === 'backendError')?.body);
    // The faulted revoke revoked nothing.
    assert.equal((await call(`${service.url}/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
  });
});
