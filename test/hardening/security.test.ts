// Security properties not already proven elsewhere: no raw token, code,
// nonce, verifier or secret in the database file, its WAL or the logs; secrets compared in
// constant time; the consent page safe against markup in user names, client ids and state; a
// deleted user's tokens dead. (Elsewhere: reused code revokes, test/oauth/token.test.ts; a
// refresh token bound to its client, token.test.ts; CSP and frame headers,
// test/oauth/authorize.test.ts; the Host check, test/foundation/management.test.ts and
// fuzz-management.test.ts; no redirect to an unverified redirect_uri, fuzz-oauth.test.ts.)

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { DEFAULT_CLIENT } from '../../src/handle/consent.ts';
import type { Logger } from '../../src/http/log.ts';
import { safeEqual, sha256 } from '../../src/crypto/crypto.ts';
import { databaseBytes, tempDbPath } from '../_helpers/cli-process.ts';
import { sqliteAvailable } from '../_helpers/node.ts';
import { obtainToken, parseConsentPage } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('no raw secret at rest or in the logs', () => {
  let service: RunningService;
  let url = '';
  const db = sqliteAvailable ? tempDbPath() : ':memory:';
  const logged: string[] = [];
  const log: Logger = {
    info: (message) => logged.push(message),
    error: (message, error) => logged.push(message, error instanceof Error ? `${error.stack}` : String(error)),
  };
  const secrets = new Map<string, string>();

  before(async () => {
    service = await start({ port: 0, db, log });
    url = service.url;
  });
  after(() => service.close());

  /** One authorization, by hand, so that nonce, code and verifier are all known to the test. */
  async function authorize(verifier: string): Promise<{ nonce: string; code: string }> {
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({ client_id: DEFAULT_CLIENT.id, redirect_uri: DEFAULT_CLIENT.redirectUri, response_type: 'code', scope: 'https://www.googleapis.com/auth/calendar', access_type: 'offline', code_challenge: challenge, code_challenge_method: 'S256' });
    const page = await call(`${url}/oauth/authorize?${query}`);
    const { nonce } = parseConsentPage(page.text);
    const approved = await call(`${url}/oauth/authorize`, { method: 'POST', headers: FORM, body: new URLSearchParams({ nonce, user: 'user-aiko', decision: 'approve' }).toString() });
    return { nonce, code: new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '' };
  }

  const token = (fields: Record<string, string>) => call(`${url}/oauth/token`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() });

  it('a full flow, refreshes, failures and a reused code leave only digests behind', async () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-kept-secret-verifier';
    const { nonce, code } = await authorize(verifier);
    const granted = await token({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, code_verifier: verifier, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret });
    assert.equal(granted.status, 200, granted.text);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: granted.json.refresh_token, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret });
    assert.equal(refreshed.status, 200);
    // Failures that carry secrets in the request: a wrong client secret, a wrong verifier, a bad bearer.
    const wrongSecret = 'guessed-client-secret-0123456789';
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: granted.json.refresh_token, client_id: DEFAULT_CLIENT.id, client_secret: wrongSecret })).status, 400);
    const second = await authorize(`${verifier}-two`);
    const wrongVerifier = `${verifier}-wrong`;
    assert.equal((await token({ grant_type: 'authorization_code', code: second.code, redirect_uri: DEFAULT_CLIENT.redirectUri, code_verifier: wrongVerifier, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret })).status, 400);
    // A second connection whose code is used twice: revoked, as RFC 6749 §4.1.2 asks.
    const other = await token({ grant_type: 'authorization_code', code: second.code, redirect_uri: DEFAULT_CLIENT.redirectUri, code_verifier: `${verifier}-two`, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret });
    assert.equal(other.status, 200);
    assert.equal((await token({ grant_type: 'authorization_code', code: second.code, redirect_uri: DEFAULT_CLIENT.redirectUri, code_verifier: `${verifier}-two`, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret })).status, 400);
    assert.equal((await call(`${url}/calendar/v3/users/me/calendarList`, { headers: { authorization: `Bearer ${other.json.access_token}` } })).status, 401);
    assert.equal((await call(`${url}/calendar/v3/users/me/calendarList`, { headers: { authorization: 'Bearer not-a-token-but-secret-looking-0123456789' } })).status, 401);

    for (const [name, value] of Object.entries({
      nonce, code, verifier, 'second code': second.code, 'wrong verifier': wrongVerifier, 'wrong secret': wrongSecret,
      'client secret': DEFAULT_CLIENT.secret, 'access token': granted.json.access_token, 'refresh token': granted.json.refresh_token,
      'refreshed access token': refreshed.json.access_token, 'revoked access token': other.json.access_token, 'revoked refresh token': other.json.refresh_token,
    })) secrets.set(name, value as string);

    if (db !== ':memory:') {
      // While running: the database file and its WAL. The digest of the live token is there,
      // which shows the search looks where the data is.
      const running = databaseBytes(db);
      assert.ok(running.includes(sha256(granted.json.access_token)), 'the access token digest is not in the database: wrong file?');
      for (const [name, value] of secrets) assert.ok(!running.includes(value), `the raw ${name} is in the database file`);
    }
    for (const [name, value] of secrets) assert.ok(!logged.some((line) => line.includes(value)), `the raw ${name} was logged`);
  });

  it('after a clean close too (the WAL folded into the file)', { skip: sqliteAvailable ? false : 'node:sqlite is missing: no database file' }, async () => {
    await service.close();
    const closed = databaseBytes(db);
    assert.ok(secrets.size > 0);
    for (const [name, value] of secrets) assert.ok(!closed.includes(value), `the raw ${name} is in the closed database file`);
  });
});

describe('constant-time comparison', () => {
  it('safeEqual: equal strings, unequal ones of any length, and the empty string', () => {
    assert.equal(safeEqual('s3cret', 's3cret'), true);
    assert.equal(safeEqual('s3cret', 's3creT'), false);
    assert.equal(safeEqual('s3cret', 's3cret-longer'), false);
    assert.equal(safeEqual('', ''), true);
    assert.equal(safeEqual('', 'x'), false);
    assert.equal(safeEqual('é', 'e\u0301'), false);
    // Code units that share a low byte, and lone surrogates.
    assert.equal(safeEqual('\u0100', '\u0000'), false);
    assert.equal(safeEqual('a\u0161', 'aa'), false);
    assert.equal(safeEqual('\ud800', '\udc00'), false);
    assert.equal(safeEqual('\ud800', '\ud800'), true);
    assert.equal(safeEqual('\ud83d\ude00', '\ud83d\ude00'), true);
  });

  it('the client secret and the PKCE verifier are compared with safeEqual; tokens, codes and nonces are found by digest', () => {
    const source = (name: string) => readFileSync(new URL(`../../src/oauth/${name}`, import.meta.url), 'utf8');
    assert.match(source('clients.ts'), /safeEqual\(sha256\(credentials\.secret\), client\?\.secretHash/);
    assert.match(source('pkce.ts'), /safeEqual\(s256Challenge\(verifier\), challenge\)/);
    assert.match(source('../crypto/crypto.ts'), /timingSafeEqual\(left, right\)/);
    assert.match(source('tokens.ts'), /getAccessToken\(sha256\(token\), expiresAt\)/);
    assert.match(source('pending.ts'), /#map\.get\(sha256\(nonce\)/);
    // No plain === on anything secret-looking anywhere in the OAuth code (comparisons with '',
    // undefined or a fixed keyword are not comparisons of secrets).
    for (const file of [...readdirSync(new URL('../../src/oauth/', import.meta.url)), '../crypto/crypto.ts']) {
      for (const [n, line] of source(file).split('\n').entries()) {
        for (const match of line.matchAll(/([\w.?]+)\s*[!=]==\s*([\w.?'"]+)/g)) {
          const [, left = '', right = ''] = match;
          if (/^(''|""|undefined|null|'[a-z_]+')$/.test(right)) continue;
          assert.doesNotMatch(`${left} ${right}`, /secret|verifier|challenge|hash|nonce|password/i, `${file}:${n + 1}: ${line.trim()}`);
        }
      }
    }
  });
});

describe('the consent page with markup everywhere it reflects', () => {
  const EVIL = '<script>alert(1)</script>';
  const fixture = {
    clients: [{ id: `evil"client'<b>${EVIL}`, secret: 's', redirectUris: ['http://127.0.0.1:3000/cb'] }],
    users: [
      { id: `u"><img src=x onerror=alert(1)>`, name: `${EVIL} Mallory`, email: 'mallory@example.com' },
      { id: 'plain', name: `"onmouseover="alert(1)`, email: 'o@example.com' },
    ],
  };
  let service: RunningService;
  before(async () => {
    service = await start({ port: 0, fixture });
  });
  after(() => service.close());

  it('escapes user names, user ids and the client id; the state is not reflected at all', async () => {
    const query = new URLSearchParams({ client_id: fixture.clients[0]!.id, redirect_uri: 'http://127.0.0.1:3000/cb', response_type: 'code', scope: 'openid', state: `${EVIL}"'` });
    const page = await call(`${service.url}/oauth/authorize?${query}`);
    assert.equal(page.status, 200, page.text);
    assert.doesNotMatch(page.text, /<script>|<img|<b>|"onmouseover=/);
    assert.ok(page.text.includes('&lt;script&gt;alert(1)&lt;/script&gt; Mallory'));
    assert.ok(!page.text.includes('alert(1)</script>'));
    // The escaped values still round-trip: the form posts the real user id back.
    assert.deepEqual(parseConsentPage(page.text).users, fixture.users.map((u) => u.id));
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  it('a scope with markup is refused as JSON, never rendered', async () => {
    const query = new URLSearchParams({ client_id: fixture.clients[0]!.id, redirect_uri: 'http://127.0.0.1:3000/cb', response_type: 'code', scope: EVIL });
    const answer = await call(`${service.url}/oauth/authorize?${query}`);
    assert.equal(answer.status, 400);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(answer.json.error, 'invalid_scope');
  });
});

describe('a deleted user', () => {
  it('takes every token with them: access 401, refresh invalid_grant, even if the same id comes back', async (t) => {
    const service = await start({ port: 0 });
    t.after(() => service.close());
    const grant = await obtainToken(service.url, { user: 'user-ben', scope: 'calendar', offline: true });
    assert.equal((await call(`${service.url}/__svc/users/user-ben`, { method: 'DELETE' })).status, 204);
    const api = await call(`${service.url}/calendar/v3/users/me/calendarList`, { headers: { authorization: `Bearer ${grant.access_token}` } });
    assert.equal(api.status, 401);
    const refresh = await call(`${service.url}/oauth/token`, { method: 'POST', headers: FORM, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: grant.refresh_token ?? '', client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString() });
    assert.equal(refresh.status, 400);
    assert.equal(refresh.json.error, 'invalid_grant');
    // A reset brings user-ben back from the startup fixture; the old tokens stay dead.
    assert.equal((await call(`${service.url}/__svc/reset`, { method: 'POST' })).status, 204);
    assert.equal((await call(`${service.url}/calendar/v3/users/me/calendarList`, { headers: { authorization: `Bearer ${grant.access_token}` } })).status, 401);
  });
});
