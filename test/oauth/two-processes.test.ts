// Two service processes on one SQLite file: what one process kills, the
// other refuses on its next request, though it had just authenticated the token and kept it in
// its bearer cache (src/oauth/bearer.ts) and its store's read cache. Revocation through
// /oauth/revoke and through the management API, a user's deletion, and a reset; and an
// authorization code the other process holds in memory dies with its connection, and so does a
// consent pending there when the workspace is reset.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCli, tempDbPath } from '../_helpers/cli-process.ts';
import type { ServiceProcess } from '../_helpers/cli-process.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { approveConsent, DEFAULT_CLIENT, expandScopes, obtainToken, openConsent } from '../_helpers/oauth.ts';
import type { ObtainedToken } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
const userinfo = (base: string, token: string) => call(`${base}/userinfo`, bearer(token));
const calendarList = (base: string, token: string) => call(`${base}/calendar/v3/users/me/calendarList`, bearer(token));
const tokenCall = (base: string, fields: Record<string, string>) =>
  call(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString(),
  });
const refresh = (base: string, token: ObtainedToken) => tokenCall(base, { grant_type: 'refresh_token', refresh_token: token.refresh_token as string });

/** The token works in `b`, so `b` has it cached (both the bearer cache and the read cache). */
async function inUse(b: ServiceProcess, token: ObtainedToken): Promise<void> {
  assert.equal((await userinfo(b.url, token.access_token)).status, 200);
  assert.equal((await calendarList(b.url, token.access_token)).status, 200);
  assert.equal((await userinfo(b.url, token.access_token)).status, 200);
}

async function refusedIn(b: ServiceProcess, token: ObtainedToken): Promise<void> {
  assert.equal((await userinfo(b.url, token.access_token)).status, 401);
  assert.equal((await calendarList(b.url, token.access_token)).status, 401);
  if (token.refresh_token !== undefined) assert.equal((await refresh(b.url, token)).json.error, 'invalid_grant');
}

describe('two processes on one database file', { skip: SQLITE_SKIP, timeout: 60_000 }, () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  before(async () => {
    const db = tempDbPath();
    a = await startCli(db);
    b = await startCli(db);
  });
  after(() => {
    a?.child.kill('SIGKILL');
    b?.child.kill('SIGKILL');
  });
  const revokeByToken = (base: string, token: string) =>
    call(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}` });

  it('POST /oauth/revoke in one: the other refuses the token and its refresh token', async () => {
    const token = await obtainToken(a.url, { user: 'user-aiko', scope: ['calendar', 'openid', 'email'], offline: true });
    await inUse(b, token);
    assert.equal((await refresh(b.url, token)).status, 200);
    assert.equal((await revokeByToken(a.url, token.access_token)).status, 200);
    await refusedIn(b, token);
  });

  it('the management API\'s revoke in one: the other refuses the token', async () => {
    const token = await obtainToken(a.url, { user: 'user-aiko', scope: ['calendar', 'openid'], offline: true });
    await inUse(b, token);
    assert.equal((await postJson(`${a.url}/__svc/connections/${token.connectionId}/revoke`, {})).status, 204);
    await refusedIn(b, token);
  });

  it('either way round: revoked in the second, refused by the first', async () => {
    const token = await obtainToken(a.url, { user: 'user-aiko', scope: ['calendar', 'openid'] });
    await inUse(a, token);
    assert.equal((await revokeByToken(b.url, token.access_token)).status, 200);
    await refusedIn(a, token);
  });

  it('a user deleted in one: the other refuses their token, and the code it holds for them', async () => {
    const token = await obtainToken(b.url, { user: 'user-ben', scope: ['calendar', 'openid'], offline: true });
    await inUse(b, token);
    const page = await openConsent({ baseUrl: b.url, scopes: expandScopes(['calendar', 'openid']) });
    const code = await approveConsent(b.url, page.nonce, 'user-ben');
    assert.equal((await call(`${a.url}/__svc/users/user-ben`, { method: 'DELETE' })).status, 204);
    await refusedIn(b, token);
    const exchanged = await tokenCall(b.url, { grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri });
    assert.equal(exchanged.status, 400, exchanged.text);
    assert.equal(exchanged.json.error, 'invalid_grant');
  });

  it('a reset in one: the other refuses every earlier token, and issues new ones', async () => {
    const token = await obtainToken(b.url, { user: 'user-carmen', scope: ['calendar', 'openid'], offline: true });
    await inUse(b, token);
    assert.equal((await call(`${a.url}/__svc/reset`, { method: 'POST' })).status, 204);
    await refusedIn(b, token);
    const fresh = await obtainToken(b.url, { user: 'user-ben', scope: ['calendar', 'openid'] });
    await inUse(b, fresh);
    await inUse(a, fresh);
  });

  it('a reset in one ends the consents pending in the other: approving one then makes no connection', async () => {
    const page = await openConsent({ baseUrl: b.url, scopes: expandScopes(['calendar', 'openid']) });
    assert.equal((await call(`${a.url}/__svc/reset`, { method: 'POST' })).status, 204);
    const approved = await call(`${b.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ nonce: page.nonce, user: 'user-aiko', decision: 'approve' }).toString(),
      redirect: 'manual',
    });
    assert.equal(approved.status, 400, approved.text);
    assert.equal(approved.json.error, 'invalid_request');
    assert.deepEqual((await call(`${b.url}/__svc/connections`)).json.connections, []);
    // A consent opened after the reset is approved as usual.
    const after = await openConsent({ baseUrl: b.url, scopes: expandScopes(['calendar', 'openid']) });
    assert.equal(typeof (await approveConsent(b.url, after.nonce, 'user-aiko')), 'string');
  });
});
