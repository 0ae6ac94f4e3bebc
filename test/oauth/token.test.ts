// POST /oauth/token: client authentication, the authorization-code grant with PKCE, the refresh
// grant, and every invalid_grant / invalid_request case of docs/oauth.md.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  advanceClock,
  approveConsent,
  DEFAULT_CLIENT,
  expandScopes,
  OAUTH_FIXTURE,
  obtainToken,
  openConsent,
  OTHER_CLIENT,
} from '../_helpers/oauth.ts';
import { call, startService } from '../_helpers/service.ts';

const CAL = 'https://www.googleapis.com/auth/calendar';
// RFC 7636 appendix B
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

let base: string;
before(async (t) => {
  base = await startService(t as never, { fixture: OAUTH_FIXTURE });
});

interface CodeOptions {
  scope?: string;
  offline?: boolean;
  client?: { id: string; redirectUris: string[] };
  codeVerifier?: string;
  user?: string;
}

async function newCode(opts: CodeOptions = {}): Promise<string> {
  const client = opts.client ?? { id: DEFAULT_CLIENT.id, redirectUris: [DEFAULT_CLIENT.redirectUri] };
  const page = await openConsent({
    baseUrl: base,
    scopes: expandScopes(opts.scope ?? 'calendar openid'),
    offline: opts.offline,
    clientId: client.id,
    redirectUri: client.redirectUris[0],
    codeVerifier: opts.codeVerifier,
  });
  return approveConsent(base, page.nonce, opts.user ?? 'user-aiko');
}

function tokenCall(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const defaultCredentials = { client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret };

function exchange(code: string, extra: Record<string, string> = {}) {
  return tokenCall({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, ...defaultCredentials, ...extra });
}

function basic(id: string, secret: string): string {
  const encode = (s: string) => encodeURIComponent(s);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

async function expectOAuthError(res: Awaited<ReturnType<typeof call>>, status: number, error: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.json.error, error, res.text);
  assert.equal(typeof res.json.error_description, 'string');
  assert.equal(res.headers.get('cache-control'), 'no-store');
}

async function userinfoStatus(accessToken: string): Promise<number> {
  return (await call(`${base}/userinfo`, { headers: { Authorization: `Bearer ${accessToken}` } })).status;
}

describe('authorization_code grant', () => {
  it('answers the token response of docs/oauth.md, exactly, with no-store and no-cache', async () => {
    const res = await exchange(await newCode({ scope: 'calendar openid calendar email', offline: true }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(Object.keys(res.json).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    assert.equal(res.json.token_type, 'Bearer');
    assert.equal(res.json.expires_in, 3600);
    assert.equal(res.json.scope, `${CAL} openid email`, 'de-duplicated, in request order');
    assert.match(res.json.access_token, /^[A-Za-z0-9_-]{43,}$/);
    assert.match(res.json.refresh_token, /^[A-Za-z0-9_-]{43,}$/);
    assert.notEqual(res.json.access_token, res.json.refresh_token);
    assert.equal(res.json.id_token, undefined);
  });

  it('online access: no refresh_token', async () => {
    const res = await exchange(await newCode());
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
  });

  it('a code is single use; its second use revokes what it issued', async () => {
    const code = await newCode({ offline: true });
    const first = await exchange(code);
    assert.equal(first.status, 200);
    assert.equal(await userinfoStatus(first.json.access_token), 200);
    await expectOAuthError(await exchange(code), 400, 'invalid_grant');
    assert.equal(await userinfoStatus(first.json.access_token), 401);
    const refresh = await tokenCall({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token, ...defaultCredentials });
    await expectOAuthError(refresh, 400, 'invalid_grant');
  });

  it('a code reused after expiry still revokes', async () => {
    const code = await newCode();
    const first = await exchange(code);
    await advanceClock(base, 120);
    await expectOAuthError(await exchange(code), 400, 'invalid_grant');
    assert.equal(await userinfoStatus(first.json.access_token), 401);
  });

  it('a code lives 60 seconds by the service clock', async () => {
    const early = await newCode();
    const late = await newCode();
    await advanceClock(base, 59);
    assert.equal((await exchange(early)).status, 200);
    await advanceClock(base, 1);
    await expectOAuthError(await exchange(late), 400, 'invalid_grant');
  });

  it('unknown code: invalid_grant', async () => {
    await expectOAuthError(await exchange('not-a-code'), 400, 'invalid_grant');
  });

  it('redirect_uri must be identical to the authorization request; a mismatch does not use up the code', async () => {
    const code = await newCode();
    await expectOAuthError(await exchange(code, { redirect_uri: `${DEFAULT_CLIENT.redirectUri}/` }), 400, 'invalid_grant');
    assert.equal((await exchange(code)).status, 200);
  });

  it('the code is bound to its client', async () => {
    const code = await newCode();
    const res = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, client_id: OTHER_CLIENT.id, client_secret: OTHER_CLIENT.secret });
    await expectOAuthError(res, 400, 'invalid_grant');
    assert.equal((await exchange(code)).status, 200);
  });

  it('missing code or redirect_uri: invalid_request', async () => {
    await expectOAuthError(await tokenCall({ grant_type: 'authorization_code', redirect_uri: DEFAULT_CLIENT.redirectUri, ...defaultCredentials }), 400, 'invalid_request');
    const code = await newCode();
    await expectOAuthError(await tokenCall({ grant_type: 'authorization_code', code, ...defaultCredentials }), 400, 'invalid_request');
    await expectOAuthError(await tokenCall({ grant_type: 'authorization_code', code: '', redirect_uri: DEFAULT_CLIENT.redirectUri, ...defaultCredentials }), 400, 'invalid_request');
  });

  it('repeated fields: invalid_request', async () => {
    const code = await newCode();
    const body = `${new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, ...defaultCredentials })}&code=${code}`;
    const res = await call(`${base}/oauth/token`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    await expectOAuthError(res, 400, 'invalid_request');
  });
});

describe('PKCE S256 (RFC 7636)', () => {
  it('the appendix B verifier redeems a code issued for its challenge', async () => {
    const res = await exchange(await newCode({ codeVerifier: VERIFIER }), { code_verifier: VERIFIER });
    assert.equal(res.status, 200, res.text);
  });

  it('a missing or wrong verifier is invalid_grant and leaves the code usable', async () => {
    const code = await newCode({ codeVerifier: VERIFIER });
    await expectOAuthError(await exchange(code), 400, 'invalid_grant');
    await expectOAuthError(await exchange(code, { code_verifier: `${VERIFIER.slice(0, -1)}l` }), 400, 'invalid_grant');
    await expectOAuthError(await exchange(code, { code_verifier: 'short' }), 400, 'invalid_grant');
    assert.equal((await exchange(code, { code_verifier: VERIFIER })).status, 200);
  });

  it('a verifier sent when no challenge was given: invalid_grant', async () => {
    await expectOAuthError(await exchange(await newCode(), { code_verifier: VERIFIER }), 400, 'invalid_grant');
  });

  it('PKCE does not replace client authentication', async () => {
    const code = await newCode({ codeVerifier: VERIFIER });
    const res = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, client_id: DEFAULT_CLIENT.id, code_verifier: VERIFIER });
    await expectOAuthError(res, 400, 'invalid_client');
  });
});

describe('client authentication', () => {
  it('no credentials, unknown client, wrong or empty secret: 400 invalid_client', async () => {
    const code = await newCode();
    const fields = { grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri };
    await expectOAuthError(await tokenCall(fields), 400, 'invalid_client');
    await expectOAuthError(await tokenCall({ ...fields, client_id: DEFAULT_CLIENT.id }), 400, 'invalid_client');
    await expectOAuthError(await tokenCall({ ...fields, client_id: DEFAULT_CLIENT.id, client_secret: '' }), 400, 'invalid_client');
    await expectOAuthError(await tokenCall({ ...fields, client_id: DEFAULT_CLIENT.id, client_secret: 'wrong' }), 400, 'invalid_client');
    await expectOAuthError(await tokenCall({ ...fields, client_id: 'nobody', client_secret: DEFAULT_CLIENT.secret }), 400, 'invalid_client');
    await expectOAuthError(await tokenCall({ ...fields, client_secret: DEFAULT_CLIENT.secret }), 400, 'invalid_client');
    // failed authentication never spends the code
    assert.equal((await exchange(code)).status, 200);
  });

  it('HTTP Basic with URL-encoded id and secret', async () => {
    const code = await newCode({ client: OTHER_CLIENT });
    const res = await tokenCall(
      { grant_type: 'authorization_code', code, redirect_uri: OTHER_CLIENT.redirectUris[0] as string },
      { Authorization: basic(OTHER_CLIENT.id, OTHER_CLIENT.secret) },
    );
    assert.equal(res.status, 200, res.text);
  });

  it('HTTP Basic: a wrong secret or malformed header is invalid_client', async () => {
    const code = await newCode();
    const fields = { grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri };
    await expectOAuthError(await tokenCall(fields, { Authorization: basic(DEFAULT_CLIENT.id, 'wrong') }), 400, 'invalid_client');
    await expectOAuthError(await tokenCall(fields, { Authorization: 'Basic !!!' }), 400, 'invalid_client');
    await expectOAuthError(await tokenCall(fields, { Authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }), 400, 'invalid_client');
    await expectOAuthError(await tokenCall(fields, { Authorization: `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}` }), 400, 'invalid_client');
  });

  it('the Authorization header wins over form credentials', async () => {
    const code = await newCode();
    const fields = { grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, ...defaultCredentials };
    // right form credentials, wrong header: refused
    await expectOAuthError(await tokenCall(fields, { Authorization: basic(DEFAULT_CLIENT.id, 'wrong') }), 400, 'invalid_client');
    // wrong form credentials, right header: accepted
    const res = await tokenCall({ ...fields, client_secret: 'wrong' }, { Authorization: basic(DEFAULT_CLIENT.id, DEFAULT_CLIENT.secret) });
    assert.equal(res.status, 200, res.text);
  });

  it('the body is read as a form whatever the Content-Type says', async () => {
    const code = await newCode();
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, ...defaultCredentials }).toString();
    const res = await call(`${base}/oauth/token`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    assert.equal(res.status, 200, res.text);
  });

  it('a JSON body: invalid_client, or unsupported_grant_type with Basic credentials', async () => {
    const code = await newCode();
    const json = JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, ...defaultCredentials });
    const headers = { 'Content-Type': 'application/json' };
    await expectOAuthError(await call(`${base}/oauth/token`, { method: 'POST', body: json, headers }), 400, 'invalid_client');
    const withBasic = await call(`${base}/oauth/token`, {
      method: 'POST',
      body: json,
      headers: { ...headers, Authorization: basic(DEFAULT_CLIENT.id, DEFAULT_CLIENT.secret) },
    });
    await expectOAuthError(withBasic, 400, 'unsupported_grant_type');
  });

  it('another grant type: unsupported_grant_type, but only after client authentication', async () => {
    for (const grant of ['password', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code', '']) {
      await expectOAuthError(await tokenCall({ grant_type: grant, ...defaultCredentials }), 400, 'unsupported_grant_type');
      await expectOAuthError(await tokenCall({ grant_type: grant, client_id: DEFAULT_CLIENT.id, client_secret: 'wrong' }), 400, 'invalid_client');
    }
    await expectOAuthError(await tokenCall({ ...defaultCredentials }), 400, 'unsupported_grant_type');
  });
});

describe('refresh_token grant', () => {
  async function offline(scope = 'calendar openid email') {
    return obtainToken(base, { scope, offline: true });
  }
  const refresh = (refreshToken: string, extra: Record<string, string> = {}, credentials: Record<string, string> = defaultCredentials) =>
    tokenCall({ grant_type: 'refresh_token', refresh_token: refreshToken, ...credentials, ...extra });

  it('issues a new access token; no refresh_token in the answer; the old refresh token stays valid', async () => {
    const token = await offline();
    const res = await refresh(token.refresh_token as string);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
    assert.deepEqual(Object.keys(res.json).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(res.json.scope, token.scope);
    assert.equal(res.json.expires_in, 3600);
    assert.notEqual(res.json.access_token, token.access_token);
    assert.equal(await userinfoStatus(res.json.access_token), 200);
    assert.equal(await userinfoStatus(token.access_token), 200, 'the earlier access token stays valid');
    assert.equal((await refresh(token.refresh_token as string)).status, 200, 'not single use, not rotated');
  });

  it('with HTTP Basic', async () => {
    const token = await offline();
    const res = await tokenCall({ grant_type: 'refresh_token', refresh_token: token.refresh_token as string }, { Authorization: basic(DEFAULT_CLIENT.id, DEFAULT_CLIENT.secret) });
    assert.equal(res.status, 200, res.text);
  });

  it('a sent scope must equal the original space-joined string exactly', async () => {
    const token = await offline();
    const original = `${CAL} openid email`;
    assert.equal((await refresh(token.refresh_token as string, { scope: original })).status, 200);
    for (const scope of [CAL, `openid ${CAL} email`, `${original} `, `${CAL}  openid email`, '', `${original} profile`]) {
      await expectOAuthError(await refresh(token.refresh_token as string, { scope }), 400, 'invalid_scope');
    }
  });

  it('client authentication is required, and the token is bound to its client', async () => {
    const token = await offline();
    await expectOAuthError(await refresh(token.refresh_token as string, {}, {}), 400, 'invalid_client');
    await expectOAuthError(await refresh(token.refresh_token as string, {}, { client_id: DEFAULT_CLIENT.id, client_secret: 'x' }), 400, 'invalid_client');
    await expectOAuthError(await refresh(token.refresh_token as string, {}, { client_id: OTHER_CLIENT.id, client_secret: OTHER_CLIENT.secret }), 400, 'invalid_grant');
  });

  it('unknown or missing refresh token', async () => {
    await expectOAuthError(await refresh('nope'), 400, 'invalid_grant');
    await expectOAuthError(await tokenCall({ grant_type: 'refresh_token', ...defaultCredentials }), 400, 'invalid_request');
  });

  it('an access token is not a refresh token', async () => {
    const token = await offline();
    await expectOAuthError(await refresh(token.access_token), 400, 'invalid_grant');
  });

  it('a revoked connection\'s refresh token: invalid_grant', async () => {
    const token = await offline();
    assert.ok(token.connectionId);
    assert.equal((await call(`${base}/__svc/connections/${token.connectionId}/revoke`, { method: 'POST' })).status, 204);
    await expectOAuthError(await refresh(token.refresh_token as string), 400, 'invalid_grant');
  });

  it('the refresh token does not expire with the access token', async () => {
    const token = await offline();
    await advanceClock(base, 30 * 24 * 3600);
    assert.equal(await userinfoStatus(token.access_token), 401);
    const res = await refresh(token.refresh_token as string);
    assert.equal(res.status, 200);
    assert.equal(await userinfoStatus(res.json.access_token), 200);
  });
});

describe('the HTTP layer in the OAuth shape', () => {
  it('a body over 1 MiB: 413 with {error, error_description}', async () => {
    const res = await call(`${base}/oauth/token`, { method: 'POST', body: `grant_type=${'x'.repeat(1024 * 1024 + 1)}` });
    assert.equal(res.status, 413);
    assert.equal(res.json.error, 'invalid_request');
    assert.equal(typeof res.json.error_description, 'string');
  });
});

describe('methods', () => {
  it('GET /oauth/token is 501', async () => {
    const res = await call(`${base}/oauth/token`);
    assert.equal(res.status, 501);
    assert.deepEqual(res.json, { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' });
  });
});
