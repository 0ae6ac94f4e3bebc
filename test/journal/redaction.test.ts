// docs/journal.md: secrets never enter the journal. A whole OAuth flow (authorize with PKCE and an
// OpenID nonce, consent, code exchange, a replayed code, refresh with client_secret_basic,
// userinfo, revoke) and calendar calls with the token in the header and in the query, plus JSON
// bodies carrying secret-named members, leave no secret value anywhere in the journal's text.

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { CALENDAR_FIXTURE } from '../_helpers/calendar.ts';
import { readJournal } from '../_helpers/journal.ts';
import { DEFAULT_CLIENT, parseConsentPage } from '../_helpers/oauth.ts';
import { call, postJson, startService } from '../_helpers/service.ts';
import { REDACTED, scrubTokens } from '../../src/journal/redact.ts';

const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

it('an OAuth flow, a refresh, a revoke and calendar calls leave no secret in the journal', async (t) => {
  const url = await startService(t, { fixture: CALENDAR_FIXTURE });
  const secrets: Record<string, string> = { clientSecret: DEFAULT_CLIENT.secret };
  secrets.verifier = randomBytes(32).toString('base64url');
  secrets.openIdNonce = `n-${randomBytes(12).toString('hex')}`;

  const authorize = new URLSearchParams({
    client_id: DEFAULT_CLIENT.id,
    redirect_uri: DEFAULT_CLIENT.redirectUri,
    response_type: 'code',
    scope: 'openid email https://www.googleapis.com/auth/calendar',
    access_type: 'offline',
    state: 'state-1',
    code_challenge: createHash('sha256').update(secrets.verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  // The service issues no ID tokens and refuses OpenID's nonce, but the refused request is journaled.
  const withNonce = await call(`${url}/oauth/authorize?${authorize}&nonce=${secrets.openIdNonce}`);
  assert.equal(withNonce.json.error, 'unsupported_feature');
  const page = await call(`${url}/oauth/authorize?${authorize}`);
  assert.equal(page.status, 200, page.text);
  secrets.consentNonce = parseConsentPage(page.text).nonce;
  const approved = await call(`${url}/oauth/authorize`, form({ nonce: secrets.consentNonce, user: 'user-aiko', decision: 'approve' }));
  assert.equal(approved.status, 302);
  secrets.code = new URL(approved.headers.get('location') as string).searchParams.get('code') as string;

  const exchange = { grant_type: 'authorization_code', code: secrets.code, redirect_uri: DEFAULT_CLIENT.redirectUri, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret, code_verifier: secrets.verifier };
  const granted = await call(`${url}/oauth/token`, form(exchange));
  assert.equal(granted.status, 200, granted.text);
  secrets.accessToken = granted.json.access_token;
  const refreshToken: string = granted.json.refresh_token;
  secrets.refreshToken = refreshToken;

  // client_secret_basic (RFC 6749 §2.3.1): the secret travels in the Authorization header.
  secrets.basic = Buffer.from(`${DEFAULT_CLIENT.id}:${DEFAULT_CLIENT.secret}`).toString('base64');
  const refreshed = await call(`${url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: refreshToken }, { authorization: `Basic ${secrets.basic}` }));
  assert.equal(refreshed.status, 200, refreshed.text);
  secrets.refreshedToken = refreshed.json.access_token;

  const bearer = { authorization: `Bearer ${secrets.refreshedToken}` };
  assert.equal((await call(`${url}/userinfo`, { headers: bearer })).status, 200);
  assert.equal((await call(`${url}/calendar/v3/users/me/calendarList`, { headers: bearer })).status, 200);
  assert.equal((await call(`${url}/calendar/v3/users/me/calendarList?access_token=${secrets.refreshedToken}`)).status, 200);
  assert.equal((await call(`${url}/calendar/v3/calendars/primary/events?oauth_token=${secrets.accessToken}&maxResults=1`)).status, 200);
  assert.equal((await call(`${url}/calendar/v3/users/me/calendarList?Access_Token=${secrets.accessToken}`)).status, 401);
  // Secret-named members of JSON bodies, at the top and deep inside.
  secrets.channelToken = `channel-${randomBytes(8).toString('hex')}`;
  secrets.nested = `nested-${randomBytes(8).toString('hex')}`;
  await postJson(`${url}/calendar/v3/calendars/primary/events/watch`, { id: 'channel-1', type: 'web_hook', address: 'https://hooks.example.test/cal', token: secrets.channelToken }, bearer);
  const event = {
    summary: 'Secret-named members',
    start: { dateTime: '2026-10-19T10:00:00Z' },
    end: { dateTime: '2026-10-19T11:00:00Z' },
    extendedProperties: { private: { refresh_token: secrets.nested, list: [{ client_secret: secrets.nested, Nonce: secrets.nested }] } },
  };
  // Refused (private properties are strings), but journaled with its body all the same.
  assert.equal((await postJson(`${url}/calendar/v3/calendars/primary/events`, event, bearer)).status, 400);

  // A replayed code (which also revokes what it granted, RFC 6749 §4.1.2), then the revocation.
  assert.equal((await call(`${url}/oauth/token`, form(exchange))).json.error, 'invalid_grant');
  assert.equal((await call(`${url}/oauth/revoke`, form({ token: refreshToken }))).status, 200);

  const text = JSON.stringify(await readJournal(url, 'limit=1000'));
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(value.length >= 8, name);
    for (const form of new Set([value, encodeURIComponent(value)])) assert.ok(!text.includes(form), `the journal holds the ${name}`);
  }
  // Every step was recorded, each secret in its place read "[redacted]".
  const { requests } = await readJournal(url, 'limit=1000');
  assert.deepEqual(
    requests.map((e) => e.operation),
    ['oauth.authorize', 'oauth.authorize', 'oauth.consent', 'oauth.token', 'oauth.token', 'oauth.userinfo', 'calendar.calendarList.list', 'calendar.calendarList.list', 'calendar.events.list', 'calendar.calendarList.list', 'calendar.events.watch', 'calendar.events.insert', 'oauth.token', 'oauth.revoke'],
  );
  const [refused, authorized, consent, code] = requests;
  assert.equal(refused?.query.nonce, '[redacted]');
  assert.equal(refused?.error, 'unsupported_feature');
  assert.equal(authorized?.query.state, 'state-1');
  assert.equal(consent?.body.nonce, '[redacted]');
  assert.deepEqual(code?.body, { ...exchange, code: '[redacted]', client_secret: '[redacted]', code_verifier: '[redacted]' });
  // A grant that succeeded names the user and connection it issued for; a refused one does not.
  const calendarCall = requests[6];
  for (const grant of [code, requests[4]]) {
    assert.equal(grant?.userId, calendarCall?.userId);
    assert.equal(grant?.connectionId, calendarCall?.connectionId);
    assert.equal(grant?.clientId, 'local-calendar-client');
  }
  assert.equal(requests[12]?.error, 'invalid_grant');
  assert.equal(requests[12]?.userId, null);
  assert.deepEqual(requests[13]?.body, { token: '[redacted]' });
  assert.deepEqual(requests[11]?.body.extendedProperties, { private: { refresh_token: '[redacted]', list: [{ client_secret: '[redacted]', Nonce: '[redacted]' }] } });
});

it('scrubs a token-shaped run wherever it stands, and only a run of exactly 43 or 51 characters with a capital in it', () => {
  const token = `${'a'.repeat(42)}B`;
  for (const [before, after] of [['', ''], ['/', '/'], ['%', '.json'], ['é', 'é'], ['x=', '&y'], ['"', '"']]) {
    assert.equal(scrubTokens(`${before}${token}${after}`), `${before}${REDACTED}${after}`, `${before}…${after}`);
  }
  assert.equal(scrubTokens(`/p/${'a'.repeat(50)}B/q`), `/p/${REDACTED}/q`);
  // Too short, too long, no capital, or joined to a neighbouring [\w-] character: not a token.
  for (const text of [`${'a'.repeat(41)}B`, `${'a'.repeat(43)}B`, 'a'.repeat(43), `-${token}`, `${token}_`, `/calendar/v3/calendars/${'a'.repeat(40)}%40example.com/events`]) {
    assert.equal(scrubTokens(text), text);
  }
});

it('scrubs exactly what the regular expression it replaces would (random texts)', () => {
  const TOKEN_SHAPE = /(?<![\w-])(?=[\w-]*[A-Z])(?:[\w-]{51}|[\w-]{43})(?![\w-])/g;
  const alphabet = ['a', 'z', 'Q', '0', '_', '-', '/', '%', '.', 'é', ' ', '='];
  let seed = 7;
  const next = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  for (let round = 0; round < 3_000; round++) {
    let text = '';
    for (let piece = next(4); piece >= 0; piece--) {
      // Runs of the lengths that matter and around them, joined by other characters.
      const length = [42, 43, 44, 50, 51, 52, next(60)][next(7)] as number;
      const capitalAt = next(2) === 0 ? next(length + 1) : -1;
      for (let i = 0; i < length; i++) text += i === capitalAt ? 'K' : (['a', 'b', '0', '_', '-'][next(5)] as string);
      text += alphabet[next(alphabet.length)] as string;
    }
    assert.equal(scrubTokens(text), text.replace(TOKEN_SHAPE, REDACTED), text);
  }
});
