// Fuzzing the OAuth surface: seeded, bounded cases of
// /oauth/authorize parameters, consent posts with hostile headers, /oauth/token bodies and
// headers, and /oauth/revoke. Every answer is the consent page of a fully valid request, a
// redirect to the registered URI of a verified consent, a success, or an RFC 6749 error that must
// not be cached; never a 500, never a redirect anywhere else. Refused requests change no
// connection, and the baseline client's tokens keep working.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import type { Logger } from '../../src/http/log.ts';
import { assertWellFormedError, hostileString, Rng, runCases, SEED, within } from '../_helpers/fuzz.ts';
import { OAUTH_FIXTURE, obtainToken, parseConsentPage } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const [DEFAULT, OTHER] = OAUTH_FIXTURE.clients as [typeof OAUTH_FIXTURE.clients[0], typeof OAUTH_FIXTURE.clients[0]];
const REGISTERED = new Map(OAUTH_FIXTURE.clients.map((c) => [c.id, c.redirectUris]));
const SCOPE = 'https://www.googleapis.com/auth/calendar';

/** Near misses of the registered redirect URIs: none may ever be redirected to. */
const REDIRECT_URIS = [
  ...DEFAULT.redirectUris,
  ...OTHER.redirectUris,
  'http://127.0.0.1:3000/oauth2callback/',
  'http://127.0.0.1:3000/oauth2callback?x=1',
  'http://127.0.0.1:3000/oauth2callback#f',
  'HTTP://127.0.0.1:3000/oauth2callback',
  'http://127.0.0.1:3001/oauth2callback',
  'http://localhost:3000/oauth2callback',
  'http://user@127.0.0.1:3000/oauth2callback',
  'https://evil.example/callback',
  'javascript:alert(1)',
  '//evil.example/cb',
  'http://localhost:4000/cb',
  'http://localhost:4000/cb?from=test&x=1',
];

const OAUTH_ERRORS = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'invalid_scope', 'unsupported_response_type', 'unsupported_grant_type', 'unsupported_feature', 'invalidParameter', 'forbidden', 'rateLimitExceeded']);

function assertOAuthError(answer: Answer, label: string): void {
  assertWellFormedError(answer, 'oauth', label);
  assert.ok(OAUTH_ERRORS.has(answer.json.error), `${label}: unknown error code ${answer.json.error}`);
  assert.equal(answer.headers.get('cache-control'), 'no-store', label);
  assert.equal(answer.headers.get('location'), null, `${label}: an error was redirected`);
}

/** Markup no consent page may carry: hostile values are escaped, never reflected raw. */
const INJECTED = /<script|<img|<svg|onerror=|onload=/i;

describe(`OAuth fuzzing (seed ${SEED})`, () => {
  let service: RunningService;
  let url = '';
  const internalErrors: string[] = [];
  const log: Logger = { info() {}, error: (message, error) => internalErrors.push(`${message}: ${String(error)}`) };
  const rng = new Rng(SEED).fork('oauth');
  let baseline = { access: '', refresh: '' };

  before(async () => {
    service = await start({ port: 0, fixture: OAUTH_FIXTURE, log });
    url = service.url;
    const token = await obtainToken(url, { scope: 'calendar', offline: true });
    baseline = { access: token.access_token, refresh: token.refresh_token ?? '' };
  });
  after(async () => {
    await service.close();
    assert.deepEqual(internalErrors, [], 'the service logged internal errors');
  });

  const send = (path: string, init: RequestInit = {}): Promise<Answer> => within(5000, path.slice(0, 200), call(`${url}${path}`, init));
  const connections = async (): Promise<string> => (await send('/__svc/connections')).text;

  async function assertBaselineAlive(label: string): Promise<void> {
    const answer = await send('/calendar/v3/users/me/calendarList', { headers: { authorization: `Bearer ${baseline.access}` } });
    assert.equal(answer.status, 200, `${label}: the baseline access token stopped working`);
  }

  test('GET /oauth/authorize: 600 parameter sets; only fully valid requests get the page, nothing redirects', async () => {
    const r = rng.fork('authorize');
    await runCases(600, 4, async (i) => {
      const label = `authorize case ${i} (seed ${SEED})`;
      const client = r.pick([DEFAULT, OTHER]);
      const params: Array<[string, string]> = [
        ['client_id', client.id],
        ['redirect_uri', r.pick(client.redirectUris)],
        ['response_type', 'code'],
        ['scope', `${SCOPE} openid`],
      ];
      if (r.chance(0.5)) params.push(['state', hostileString(r)]);
      if (r.chance(0.3)) params.push(['access_type', r.pick(['online', 'offline'])]);
      if (r.chance(0.2)) params.push(['code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'], ['code_challenge_method', 'S256']);
      for (let n = r.int(0, 3); n > 0; n--) mutateParam(r, params);
      const query = new URLSearchParams(params).toString();
      const answer = await send(`/oauth/authorize?${query}`);
      if (answer.status === 200) {
        // Rendered only for a registered client and one of its redirect URIs, given once.
        const parsed = new URLSearchParams(query);
        const uris = REGISTERED.get(parsed.get('client_id') ?? '');
        assert.ok(uris?.includes(parsed.get('redirect_uri') ?? '') && parsed.getAll('redirect_uri').length === 1, `${label}: page for an unverified redirect_uri: ${query}`);
        assert.match(answer.headers.get('content-type') ?? '', /^text\/html/, label);
        assert.match(answer.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, label);
        assert.equal(answer.headers.get('x-frame-options'), 'DENY', label);
        assert.doesNotMatch(answer.text, INJECTED, `${label}: unescaped markup in the consent page`);
        parseConsentPage(answer.text);
        return;
      }
      assertOAuthError(answer, `${label}: ${query.slice(0, 300)}`);
    });
  });

  test('POST /oauth/authorize: 300 consent posts; a redirect goes only to the consent\'s own registered URI, with its state', async () => {
    const r = rng.fork('consent');
    const pending: Array<{ nonce: string; redirectUri: string; state: string }> = [];
    for (let i = 0; i < 40; i++) {
      const client = r.pick([DEFAULT, OTHER]);
      const redirectUri = r.pick(client.redirectUris);
      const state = hostileString(r);
      const page = await send(`/oauth/authorize?${new URLSearchParams({ client_id: client.id, redirect_uri: redirectUri, response_type: 'code', scope: SCOPE, state })}`);
      assert.equal(page.status, 200, page.text);
      pending.push({ nonce: parseConsentPage(page.text).nonce, redirectUri, state });
    }
    const before = JSON.parse(await connections()).connections.length as number;
    let approved = 0;
    for (let i = 0; i < 300; i++) {
      const label = `consent case ${i} (seed ${SEED})`;
      const consent = r.pick(pending);
      const fields: Array<[string, string]> = [
        ['nonce', r.chance(0.7) ? consent.nonce : hostileString(r)],
        ['user', r.chance(0.7) ? r.pick(['user-aiko', 'user-ben']) : hostileString(r)],
        ['decision', r.chance(0.8) ? r.pick(['approve', 'deny']) : hostileString(r)],
      ];
      for (let n = r.int(0, 2); n > 0; n--) mutateParam(r, fields);
      const headers: Record<string, string> = { 'content-type': r.pick(['application/x-www-form-urlencoded', 'application/json', 'text/plain', 'multipart/form-data']) };
      if (r.chance(0.5)) headers['sec-fetch-site'] = r.pick(['same-origin', 'same-origin', 'cross-site', 'same-site', 'none', 'SAME-ORIGIN']);
      if (r.chance(0.5)) headers.origin = r.pick([url, url, 'null', 'https://evil.example', `${url}.evil.example`, url.replace('127.0.0.1', 'localhost')]);
      const answer = await send('/oauth/authorize', { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
      if (answer.status === 302) {
        const location = answer.headers.get('location') ?? '';
        const nonce = new URLSearchParams(fields).get('nonce');
        const owner = pending.find((p) => p.nonce === nonce);
        assert.ok(owner, `${label}: redirected for an unknown nonce`);
        const prefix = owner.redirectUri + (owner.redirectUri.includes('?') ? '&' : '?');
        assert.ok(location.startsWith(prefix), `${label}: redirect to ${location}, not to the consent's URI`);
        const result = new URLSearchParams(location.slice(prefix.length));
        // A lone surrogate cannot travel in a URL: the client's encoder already sent U+FFFD.
        assert.equal(result.get('state'), owner.state.toWellFormed(), `${label}: state changed on the way`);
        if (result.has('code')) approved++;
        else assert.equal(result.get('error'), 'access_denied', label);
        pending.splice(pending.indexOf(owner), 1);
        if (pending.length === 0) break;
        continue;
      }
      assertOAuthError(answer, label);
    }
    const after = JSON.parse(await connections()).connections.length as number;
    assert.equal(after - before, approved, 'connections were created without an approval');
    assert.ok(approved > 0, 'no case was approved: the generator never reached the success path');
    await assertBaselineAlive('consent fuzzing');
  });

  test('POST /oauth/token: 600 bodies and headers; refusals are 400 RFC 6749 errors and change no connection', async () => {
    const r = rng.fork('token');
    // A few real codes, so that some cases come close to a valid exchange.
    const codes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const page = await send(`/oauth/authorize?${new URLSearchParams({ client_id: DEFAULT.id, redirect_uri: DEFAULT.redirectUris[0] as string, response_type: 'code', scope: SCOPE })}`);
      const nonce = parseConsentPage(page.text).nonce;
      const answer = await send('/oauth/authorize', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ nonce, user: 'user-aiko', decision: 'approve' }).toString() });
      codes.push(new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '');
    }
    const spent = new Set<string>();
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    let state = await connections();
    let issued = 0;
    for (let i = 0; i < 600; i++) {
      const label = `token case ${i} (seed ${SEED})`;
      const live = codes.filter((c) => !spent.has(c));
      const fields: Array<[string, string]> = r.chance(0.5) && live.length > 0
        ? [['grant_type', 'authorization_code'], ['code', r.pick(live)], ['redirect_uri', r.pick(REDIRECT_URIS)]]
        : [['grant_type', 'refresh_token'], ['refresh_token', r.chance(0.5) ? baseline.refresh : hostileString(r)]];
      if (r.chance(0.5)) fields.push(['client_id', r.pick([DEFAULT.id, OTHER.id, hostileString(r)])], ['client_secret', r.pick([DEFAULT.secret, OTHER.secret, hostileString(r)])]);
      for (let n = r.int(0, 3); n > 0; n--) mutateParam(r, fields, ['grant_type', 'code', 'redirect_uri', 'refresh_token', 'scope', 'code_verifier', 'client_id', 'client_secret']);
      const headers: Record<string, string> = { 'content-type': r.pick(['application/x-www-form-urlencoded', 'application/json', 'text/plain;charset=utf-8']) };
      if (r.chance(0.5)) {
        headers.authorization = r.pick([
          basic(DEFAULT.id, DEFAULT.secret),
          basic(OTHER.id, OTHER.secret),
          basic(DEFAULT.id, OTHER.secret),
          `Basic ${Buffer.from(hostileString(r)).toString('base64')}`,
          'Basic',
          'Basic !!!',
          `Bearer ${baseline.access}`,
          `basic ${Buffer.from(`${DEFAULT.id}:${DEFAULT.secret}`).toString('base64')}`,
        ]);
      }
      const form = new URLSearchParams(fields);
      const answer = await send('/oauth/token', { method: 'POST', headers, body: r.chance(0.05) ? JSON.stringify(Object.fromEntries(fields)) : form.toString() });
      if (answer.status === 200) {
        assert.equal(answer.json.token_type, 'Bearer', label);
        assert.equal(answer.headers.get('cache-control'), 'no-store', label);
        if (form.get('grant_type') === 'authorization_code') spent.add(form.get('code') ?? '');
        issued++;
        state = await connections();
        continue;
      }
      assertOAuthError(answer, `${label}: ${form.toString().slice(0, 300)}`);
      assert.equal(answer.status, 400, label);
      assert.equal(await connections(), state, `${label}: a refused token request changed the connections`);
    }
    assert.ok(issued > 0, 'no case got a token: the generator never reached the success path');
    await assertBaselineAlive('token fuzzing');
    const refreshed = await send('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: baseline.refresh, client_id: DEFAULT.id, client_secret: DEFAULT.secret }).toString() });
    assert.equal(refreshed.status, 200, 'the baseline refresh token stopped working');
  });

  test('POST /oauth/revoke: 300 tokens that are not live credentials revoke nothing', async () => {
    const r = rng.fork('revoke');
    const state = await connections();
    await runCases(300, 4, async (i) => {
      const label = `revoke case ${i} (seed ${SEED})`;
      const token = r.pick([
        hostileString(r),
        `${baseline.access}x`,
        baseline.access.slice(1),
        baseline.refresh.toUpperCase(),
        DEFAULT.secret,
        Buffer.from(hostileString(r)).toString('base64url'),
      ]);
      const fields: Array<[string, string]> = [['token', token]];
      if (r.chance(0.3)) mutateParam(r, fields, ['token', 'token_type_hint']);
      const viaQuery = r.chance(0.2);
      const body = new URLSearchParams(fields).toString();
      const answer = await send(`/oauth/revoke${viaQuery ? `?${body}` : ''}`, { method: 'POST', headers: { 'content-type': r.pick(['application/x-www-form-urlencoded', 'application/json']) }, ...(viaQuery ? {} : { body }) });
      if (answer.status === 200) {
        assert.equal(answer.text, '', label);
        return;
      }
      assertOAuthError(answer, label);
    });
    assert.equal(await connections(), state, 'a revoke of a non-credential changed the connections');
    await assertBaselineAlive('revoke fuzzing');
  });
});

/** One random change to an OAuth parameter list: a hostile value, a repeat, a removal or an unknown parameter. */
function mutateParam(r: Rng, params: Array<[string, string]>, names: readonly string[] = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'access_type', 'code_challenge', 'code_challenge_method', 'prompt', 'include_granted_scopes']): void {
  const action = r.int(0, 4);
  const i = r.int(0, Math.max(0, params.length - 1));
  const entry = params[i];
  if (action === 0 && entry) entry[1] = hostileString(r);
  else if (action === 1 && entry) params.push([entry[0], r.chance(0.5) ? entry[1] : hostileString(r)]);
  else if (action === 2 && entry) params.splice(i, 1);
  else if (action === 3) params.push([r.pick(names), r.pick([...REDIRECT_URIS, 'code', 'token', 'S256', 'plain', 'consent', 'none', 'false', 'true', 'offline', `${SCOPE}.readonly`, 'email profile', hostileString(r)])]);
  else params.push([hostileString(r), hostileString(r)]);
}
