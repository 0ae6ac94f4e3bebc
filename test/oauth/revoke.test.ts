// POST /oauth/revoke (RFC 7009; docs/oauth.md, "POST /oauth/revoke"; docs/oauth.md) and the other ways a
// connection ends: management revoke, user deletion, reset and fixture load.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { approveConsent, DEFAULT_CLIENT, expandScopes, OAUTH_FIXTURE, obtainToken, openConsent } from '../_helpers/oauth.ts';
import { call, postJson, startService } from '../_helpers/service.ts';

let base: string;
before(async (t) => {
  base = await startService(t as never, { fixture: OAUTH_FIXTURE });
});

const userinfo = (token: string) => call(`${base}/userinfo`, { headers: { Authorization: `Bearer ${token}` } });
const refresh = (token: string) =>
  call(`${base}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString(),
  });
const revoke = (body: string, query = '') =>
  call(`${base}/oauth/revoke${query}`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });

async function connectionIds(): Promise<string[]> {
  return (await call(`${base}/__svc/connections`)).json.connections.map((c: { id: string }) => c.id);
}

/** Asserts that every credential of the connection is dead. */
async function assertRevoked(token: { access_token: string; refresh_token?: string | undefined; connectionId?: string | undefined }) {
  assert.equal((await userinfo(token.access_token)).status, 401);
  if (token.refresh_token) assert.equal((await refresh(token.refresh_token)).json.error, 'invalid_grant');
  assert.ok(!(await connectionIds()).includes(token.connectionId as string));
}

describe('POST /oauth/revoke', () => {
  it('an access token in the form revokes its whole connection: 200, empty body', async () => {
    const token = await obtainToken(base, { scope: 'openid', offline: true });
    const second = await refresh(token.refresh_token as string);
    const other = await obtainToken(base, { scope: 'openid', offline: true });
    const res = await revoke(`token=${encodeURIComponent(token.access_token)}`);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    await assertRevoked(token);
    assert.equal((await userinfo(second.json.access_token)).status, 401, 'every access token of the connection');
    assert.equal((await userinfo(other.access_token)).status, 200, 'other connections stay');
  });

  it('a refresh token in ?token= revokes its connection', async () => {
    const token = await obtainToken(base, { scope: 'openid', offline: true });
    const res = await revoke('', `?token=${encodeURIComponent(token.refresh_token as string)}`);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    await assertRevoked(token);
  });

  it("revocation deletes the connection's unused codes", async () => {
    // a connection with a live code: revoke it through management, then the code is dead
    const before = await connectionIds();
    const page = await openConsent({ baseUrl: base, scopes: expandScopes('openid') });
    const code = await approveConsent(base, page.nonce, 'user-aiko');
    const id = (await connectionIds()).find((c) => !before.includes(c)) as string;
    assert.equal((await call(`${base}/__svc/connections/${id}/revoke`, { method: 'POST' })).status, 204);
    const res = await call(`${base}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString(),
    });
    assert.equal(res.status, 400);
    assert.equal(res.json.error, 'invalid_grant');
  });

  it('an unknown token: 200 with an empty body, nothing revoked', async () => {
    const token = await obtainToken(base, { scope: 'openid' });
    const res = await revoke('token=unknown-token');
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.equal((await userinfo(token.access_token)).status, 200);
  });

  it('an expired access token is no longer valid: 200, nothing revoked', async () => {
    const token = await obtainToken(base, { scope: 'openid', offline: true });
    assert.equal((await postJson(`${base}/__svc/clock`, { advanceSeconds: 3600 })).status, 200);
    const res = await revoke(`token=${encodeURIComponent(token.access_token)}`);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.equal((await refresh(token.refresh_token as string)).status, 200);
  });

  it('missing or blank token: 400 invalidParameter', async () => {
    for (const [body, query] of [['', ''], ['token=', ''], ['token=%20%20', ''], ['', '?token='], ['other=x', '']]) {
      const res = await revoke(body as string, query);
      assert.equal(res.status, 400, `${body} ${query}`);
      assert.equal(res.json.error, 'invalidParameter');
      assert.equal(typeof res.json.error_description, 'string');
    }
  });

  it('needs no client authentication, and ignores a bad one', async () => {
    const token = await obtainToken(base, { scope: 'openid' });
    const res = await call(`${base}/oauth/revoke`, {
      method: 'POST',
      body: `token=${token.access_token}`,
      headers: { Authorization: `Basic ${Buffer.from('x:y').toString('base64')}` },
    });
    assert.equal(res.status, 200);
    await assertRevoked(token);
  });

  it('GET /oauth/revoke is 501', async () => {
    assert.equal((await call(`${base}/oauth/revoke?token=x`)).status, 501);
  });
});

describe('management', () => {
  it('GET /__svc/connections lists connections with the docs/management-api.md fields', async () => {
    const token = await obtainToken(base, { scope: ['calendar.readonly', 'email'], user: 'user-ben', offline: true });
    const list = (await call(`${base}/__svc/connections`)).json.connections as Array<Record<string, unknown>>;
    const entry = list.find((c) => c.id === token.connectionId);
    assert.ok(entry);
    assert.deepEqual(Object.keys(entry).sort(), ['clientId', 'createdAt', 'id', 'offline', 'scopes', 'userId']);
    assert.equal(entry.clientId, DEFAULT_CLIENT.id);
    assert.equal(entry.userId, 'user-ben');
    assert.deepEqual(entry.scopes, ['https://www.googleapis.com/auth/calendar.readonly', 'email']);
    assert.equal(entry.offline, true);
    assert.match(entry.createdAt as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it('POST /__svc/connections/{grantId}/revoke: 204 and every credential dies; unknown 404', async () => {
    const token = await obtainToken(base, { scope: 'openid', offline: true });
    const res = await call(`${base}/__svc/connections/${token.connectionId}/revoke`, { method: 'POST' });
    assert.equal(res.status, 204);
    await assertRevoked(token);
    const again = await call(`${base}/__svc/connections/${token.connectionId}/revoke`, { method: 'POST' });
    assert.equal(again.status, 404);
    assert.equal(again.json.error, 'not_found');
  });
});

describe('the workspace lifecycle', () => {
  it('DELETE /__svc/users/{id} revokes that user\'s connections only', async (t) => {
    const local = await startService(t, { fixture: OAUTH_FIXTURE });
    const ben = await obtainToken(local, { scope: 'openid', user: 'user-ben', offline: true });
    const aiko = await obtainToken(local, { scope: 'openid', user: 'user-aiko', offline: true });
    assert.equal((await call(`${local}/__svc/users/user-ben`, { method: 'DELETE' })).status, 204);
    assert.equal((await call(`${local}/userinfo`, { headers: { Authorization: `Bearer ${ben.access_token}` } })).status, 401);
    assert.equal((await call(`${local}/userinfo`, { headers: { Authorization: `Bearer ${aiko.access_token}` } })).status, 200);
    const ids = (await call(`${local}/__svc/connections`)).json.connections.map((c: { id: string }) => c.id);
    assert.deepEqual(ids, [aiko.connectionId]);
  });

  for (const [name, act] of [
    ['reset', (url: string) => call(`${url}/__svc/reset`, { method: 'POST' })],
    ['fixture load', (url: string) => postJson(`${url}/__svc/fixtures`, OAUTH_FIXTURE)],
  ] as const) {
    it(`${name} deletes every connection, token, code and pending consent`, async (t) => {
      const local = await startService(t, { fixture: OAUTH_FIXTURE });
      const token = await obtainToken(local, { scope: 'openid', offline: true });
      const page = await openConsent({ baseUrl: local, scopes: ['openid'] });
      const codePage = await openConsent({ baseUrl: local, scopes: ['openid'] });
      const code = await approveConsent(local, codePage.nonce, 'user-aiko');
      const res = await act(local);
      assert.ok(res.status === 204 || res.status === 200, res.text);
      assert.deepEqual((await call(`${local}/__svc/connections`)).json.connections, []);
      assert.equal((await call(`${local}/userinfo`, { headers: { Authorization: `Bearer ${token.access_token}` } })).status, 401);
      const refreshed = await call(`${local}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token.refresh_token as string, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString(),
      });
      assert.equal(refreshed.json.error, 'invalid_grant');
      const exchanged = await call(`${local}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString(),
      });
      assert.equal(exchanged.json.error, 'invalid_grant');
      await assert.rejects(approveConsent(local, page.nonce, 'user-aiko'), /invalid_request/);
    });
  }
});
