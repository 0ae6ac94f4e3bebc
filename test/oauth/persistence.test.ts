// Spec "Access token", "Refresh token", "Connection": on a database file, connections, access
// tokens (with their original expiry) and refresh tokens survive a restart; codes and pending
// consents do not; :memory: keeps nothing. Only SHA-256 digests reach the database (docs/oauth.md).

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { approveConsent, DEFAULT_CLIENT, expandScopes, OAUTH_FIXTURE, obtainToken, openConsent } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';

const userinfo = (base: string, token: string) => call(`${base}/userinfo`, { headers: { Authorization: `Bearer ${token}` } });
const tokenCall = (base: string, fields: Record<string, string>) =>
  call(`${base}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ ...fields, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString(),
  });

describe('OAuth state on a database file', { skip: SQLITE_SKIP }, () => {
  it('connections and tokens survive a restart with their original expiry; codes and consents do not', async (t) => {
    const db = join(mkdtempSync(join(tmpdir(), 'oauth-persist-')), 'calendar.db');
    const first = await start({ port: 0, db, fixture: OAUTH_FIXTURE });
    let second: Awaited<ReturnType<typeof start>> | undefined;
    t.after(async () => {
      await first.close();
      await second?.close();
    });
    // Issue the token half an hour in the past, so it has 30 minutes left at the restart: a
    // restart that re-stamped the expiry would give it a whole hour.
    const halfHourAgo = new Date(Date.now() - 30 * 60 * 1000).toISOString();
    assert.equal((await postJson(`${first.url}/__svc/clock`, { now: halfHourAgo })).status, 200);
    const token = await obtainToken(first.url, { scope: ['openid', 'email'], offline: true, user: 'user-ben' });
    const codePage = await openConsent({ baseUrl: first.url, scopes: expandScopes('openid') });
    const code = await approveConsent(first.url, codePage.nonce, 'user-aiko');
    const pending = await openConsent({ baseUrl: first.url, scopes: expandScopes('openid') });
    const connectionsBefore = (await call(`${first.url}/__svc/connections`)).json.connections;
    await first.close();

    // Only digests on disk: no token, code or nonce, nor the client secret, in clear.
    for (const file of [db, `${db}-wal`].filter((f) => existsSync(f))) {
      const bytes = readFileSync(file).toString('latin1');
      for (const secret of [token.access_token, token.refresh_token as string, code, codePage.nonce, pending.nonce, DEFAULT_CLIENT.secret]) {
        assert.equal(bytes.includes(secret), false, `${file} holds a secret in clear`);
      }
    }

    second = await start({ port: 0, db, fixture: OAUTH_FIXTURE });
    const base = second.url;
    assert.deepEqual((await call(`${base}/__svc/connections`)).json.connections, connectionsBefore);
    const profile = await userinfo(base, token.access_token);
    assert.equal(profile.status, 200);
    assert.equal(profile.json.email, 'ben@example.com');
    const refreshed = await tokenCall(base, { grant_type: 'refresh_token', refresh_token: token.refresh_token as string });
    assert.equal(refreshed.status, 200, refreshed.text);

    // codes and pending consents lived in memory only
    const exchanged = await tokenCall(base, { grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri });
    assert.equal(exchanged.json.error, 'invalid_grant');
    await assert.rejects(approveConsent(base, pending.nonce, 'user-aiko'), /invalid_request/);

    // the original expiry: about 30 minutes left, not an hour
    assert.equal((await postJson(`${base}/__svc/clock`, { advanceSeconds: 25 * 60 })).status, 200);
    assert.equal((await userinfo(base, token.access_token)).status, 200);
    assert.equal((await postJson(`${base}/__svc/clock`, { advanceSeconds: 10 * 60 })).status, 200);
    assert.equal((await userinfo(base, token.access_token)).status, 401);
    assert.equal((await userinfo(base, refreshed.json.access_token)).status, 200, 'the token refreshed after the restart is fresh');
  });
});

it(':memory: keeps no OAuth state across a restart', async (t) => {
  const first = await start({ port: 0, db: ':memory:', fixture: OAUTH_FIXTURE });
  const token = await obtainToken(first.url, { scope: 'openid', offline: true });
  await first.close();
  const second = await start({ port: 0, db: ':memory:', fixture: OAUTH_FIXTURE });
  t.after(() => second.close());
  assert.deepEqual((await call(`${second.url}/__svc/connections`)).json.connections, []);
  assert.equal((await userinfo(second.url, token.access_token)).status, 401);
  assert.equal((await tokenCall(second.url, { grant_type: 'refresh_token', refresh_token: token.refresh_token as string })).json.error, 'invalid_grant');
});
