// GET /userinfo (docs/oauth.md, "Profile response") and bearer authentication (docs/oauth.md, "Authentication",
// docs/calendar-api.md): claims by scope, the 401 and 403 envelopes, expiry by the service clock.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { advanceClock, OAUTH_FIXTURE, obtainToken } from '../_helpers/oauth.ts';
import { call, startService } from '../_helpers/service.ts';

let base: string;
before(async (t) => {
  base = await startService(t as never, { fixture: OAUTH_FIXTURE });
});

const get = (headers: Record<string, string> = {}) => call(`${base}/userinfo`, { headers });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function assertAuthError(res: Awaited<ReturnType<typeof call>>) {
  assert.equal(res.status, 401, res.text);
  assert.equal(res.headers.get('www-authenticate'), 'Bearer');
  assert.equal(res.headers.get('content-type'), 'application/json; charset=UTF-8');
  assert.deepEqual(res.json, {
    error: {
      code: 401,
      message: 'Invalid Credentials',
      errors: [{ domain: 'global', reason: 'authError', message: 'Invalid Credentials', locationType: 'header', location: 'Authorization' }],
      status: 'UNAUTHENTICATED',
    },
  });
}

describe('claims by scope', () => {
  const cases: Array<[string[], Record<string, unknown>]> = [
    [['openid'], { sub: 'user-ben', id: 'user-ben' }],
    [['email'], { sub: 'user-ben', id: 'user-ben', email: 'ben@example.com', verified_email: true, email_verified: true }],
    [['userinfo.email'], { sub: 'user-ben', id: 'user-ben', email: 'ben@example.com', verified_email: true, email_verified: true }],
    [['profile'], { sub: 'user-ben', id: 'user-ben', name: `Ben "<b>" O'Neil & Co` }],
    [['userinfo.profile'], { sub: 'user-ben', id: 'user-ben', name: `Ben "<b>" O'Neil & Co` }],
    [
      ['openid', 'email', 'profile', 'calendar'],
      { sub: 'user-ben', id: 'user-ben', email: 'ben@example.com', verified_email: true, email_verified: true, name: `Ben "<b>" O'Neil & Co` },
    ],
  ];
  for (const [scope, expected] of cases) {
    it(`${scope.join(' ')} -> ${Object.keys(expected).join(', ')}`, async () => {
      const token = await obtainToken(base, { scope, user: 'user-ben' });
      const res = await get(bearer(token.access_token));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, expected);
      for (const never of ['picture', 'given_name', 'family_name', 'locale', 'id_token']) assert.equal(never in res.json, false);
    });
  }

  it('a token without a profile scope: 403 insufficientPermissions', async () => {
    const token = await obtainToken(base, { scope: ['calendar', 'calendar.readonly'] });
    const res = await get(bearer(token.access_token));
    assert.equal(res.status, 403);
    assert.deepEqual(res.json, {
      error: {
        code: 403,
        message: 'Request had insufficient authentication scopes.',
        errors: [{ domain: 'global', reason: 'insufficientPermissions', message: 'Insufficient Permission' }],
        status: 'PERMISSION_DENIED',
      },
    });
  });
});

describe('bearer authentication', () => {
  it('missing, malformed or unknown token: 401 authError with WWW-Authenticate: Bearer', async () => {
    const token = await obtainToken(base, { scope: 'openid' });
    assertAuthError(await get());
    assertAuthError(await get({ Authorization: 'Bearer' }));
    assertAuthError(await get({ Authorization: `Basic ${token.access_token}` }));
    assertAuthError(await get({ Authorization: `Bearer ${token.access_token}x` }));
    assertAuthError(await get({ Authorization: `Bearer ${token.access_token} extra` }));
    assertAuthError(await get({ Authorization: 'Bearer unknown' }));
    // the scheme is case-insensitive (RFC 7235 §2.1)
    assert.equal((await get({ Authorization: `bearer ${token.access_token}` })).status, 200);
  });

  it('the query token counts only without an Authorization header (docs/calendar-api.md#browser-apps)', async () => {
    const token = await obtainToken(base, { scope: 'openid' });
    assert.equal((await call(`${base}/userinfo?access_token=${token.access_token}`)).status, 200);
    assertAuthError(await call(`${base}/userinfo?access_token=${token.access_token}`, { headers: { Authorization: 'Bearer unknown' } }));
  });

  it('an access token expires after one hour of the service clock', async () => {
    const token = await obtainToken(base, { scope: 'openid' });
    await advanceClock(base, 3599);
    assert.equal((await get(bearer(token.access_token))).status, 200);
    await advanceClock(base, 1);
    assertAuthError(await get(bearer(token.access_token)));
  });

  it('a refresh token is not an access token', async () => {
    const token = await obtainToken(base, { scope: 'openid', offline: true });
    assertAuthError(await get(bearer(token.refresh_token as string)));
  });

  it('a revoked token: 401', async () => {
    const token = await obtainToken(base, { scope: 'openid' });
    await call(`${base}/oauth/revoke`, { method: 'POST', body: `token=${token.access_token}` });
    assertAuthError(await get(bearer(token.access_token)));
  });

  it('POST /userinfo is 501', async () => {
    const token = await obtainToken(base, { scope: 'openid' });
    const res = await call(`${base}/userinfo`, { method: 'POST', headers: bearer(token.access_token) });
    assert.equal(res.status, 501);
  });
});
