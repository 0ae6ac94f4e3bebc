// docs/journal.md: redaction does not trust Content-Type. Live secrets obtained through the
// real flow (the client secret, an unused authorization code and consent nonce, a PKCE verifier,
// access and refresh tokens, a channel token, an OpenID nonce) are sent under their docs/journal.md names to
// every OAuth endpoint and every route of the Calendar API, in every encoding a client can get
// wrong: JSON as text/plain or as a form, multipart parts, a form as JSON or text, a form field
// holding JSON, a JSON string holding a form or JSON, and the query. No secret may appear in the
// journal's JSON, raw, percent-encoded or form-encoded.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { approveConsent, expandScopes, openConsent, requestToken } from '../../src/handle/consent.ts';
import { CALENDAR_ROUTES } from '../../src/calendar/routes.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { CALENDAR_FIXTURE } from '../_helpers/calendar.ts';
import { readJournal } from '../_helpers/journal.ts';
import { DEFAULT_CLIENT } from '../_helpers/oauth.ts';
import { call, postJson, startService } from '../_helpers/service.ts';

type Fields = Record<string, string>;

/** Live secrets of one connection, under the names a client would send them by. */
async function liveSecrets(url: string): Promise<{ fields: Fields; values: string[] }> {
  const scopes = expandScopes(['calendar', 'openid']);
  // 64 characters: not the shape of the service's own tokens, so only its name can redact it.
  const codeVerifier = randomBytes(48).toString('base64url');
  const granted = await requestToken({ baseUrl: url, scopes, offline: true, codeVerifier });
  // A second approval's code and a third consent page's nonce, both left unused, so still live.
  const code = await approveConsent(url, (await openConsent({ baseUrl: url, scopes, codeVerifier })).nonce, 'user-aiko');
  const consentNonce = (await openConsent({ baseUrl: url, scopes })).nonce;
  const channelToken = `channel-${randomBytes(12).toString('hex')}`;
  const watch = { id: `watch-${randomBytes(4).toString('hex')}`, type: 'web_hook', address: 'https://hooks.example.test/cal', token: channelToken };
  const watched = await postJson(`${url}/calendar/v3/calendars/primary/events/watch`, watch, { authorization: `Bearer ${granted.access_token}` });
  assert.equal(watched.status, 200, watched.text);
  const fields: Fields = {
    client_id: DEFAULT_CLIENT.id,
    client_secret: DEFAULT_CLIENT.secret,
    code,
    code_verifier: codeVerifier,
    access_token: granted.access_token,
    refresh_token: granted.refresh_token as string,
    token: channelToken,
    nonce: consentNonce,
    Nonce: `n-${randomBytes(12).toString('hex')}`,
    oauth_token: granted.access_token,
  };
  const values = Object.entries(fields).filter(([name]) => name !== 'client_id').map(([, value]) => value);
  return { fields, values };
}

const form = (fields: Fields) => new URLSearchParams(fields).toString();

function multipart(fields: Fields, boundary: string): string {
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return `${parts.join('')}--${boundary}--\r\n`;
}

/** Each body a client can send the fields in, with the Content-Type it claims. */
function encodings(fields: Fields): Array<[string, string]> {
  const json = JSON.stringify(fields);
  return [
    ['text/plain;charset=UTF-8', json],
    ['application/x-www-form-urlencoded', json],
    ['application/json', json],
    ['multipart/form-data; boundary=part-1', multipart(fields, 'part-1')],
    ['text/plain', multipart(fields, 'part-2')],
    ['application/json', multipart({ payload: json }, 'part-3')],
    ['application/json', form(fields)],
    ['text/plain', form(fields)],
    ['application/x-www-form-urlencoded', form({ grant_type: 'refresh_token', payload: json })],
    ['application/json', JSON.stringify({ summary: 'x', description: form(fields) })],
    ['text/plain', JSON.stringify({ description: json, notes: [encodeURIComponent(json)] })],
    ['application/x-www-form-urlencoded', form({ payload: form(fields) })],
  ];
}

/** Each query a client can send the fields in. */
function queries(fields: Fields): string[] {
  const json = JSON.stringify(fields);
  return [form(fields), form({ payload: json }), form({ q: form(fields) }), form({ state: form({ payload: json }) })];
}

/** Every Calendar API route, its path parameters filled in. */
const calendarPaths = CALENDAR_ROUTES.map((route) => ({
  method: route.method,
  path: `/calendar/v3/${route.path.replace(':calendarId', 'primary').replace(':eventId', 'missing-event')}`,
}));

const oauthPaths = [
  { method: 'POST', path: '/oauth/token', extra: { grant_type: 'authorization_code', redirect_uri: DEFAULT_CLIENT.redirectUri } },
  { method: 'POST', path: '/oauth/token', extra: { grant_type: 'refresh_token' } },
  { method: 'POST', path: '/oauth/revoke', extra: {} },
  { method: 'POST', path: '/oauth/authorize', extra: { user: 'user-aiko', decision: 'approve' } },
  { method: 'GET', path: '/oauth/authorize', extra: { response_type: 'code', redirect_uri: DEFAULT_CLIENT.redirectUri } },
  { method: 'GET', path: '/userinfo', extra: {} },
];

for (const backend of BACKENDS) {
  describe(`the journal redacts whatever Content-Type claims (${backend} store)`, { skip: skipUnless(backend), timeout: 120_000 }, () => {
    it('no live secret sent to any endpoint in any encoding appears in the journal', async (t) => {
      const url = await startService(t, { fixture: CALENDAR_FIXTURE, db: databaseFor(t, backend) });
      const { fields, values } = await liveSecrets(url);
      const bearer = { authorization: `Bearer ${fields.access_token}` };
      const mark = (await readJournal(url)).last;
      let sent = 0;
      // The calendar calls first: a code exchanged below revokes the tokens they present.
      const targets = [...calendarPaths.map((target) => ({ ...target, extra: {} })), ...oauthPaths];
      for (const { method, path, extra } of targets) {
        const withExtra = { ...extra, ...fields };
        for (const query of queries(withExtra)) {
          await call(`${url}${path}?${query}`, { method, headers: bearer });
          sent++;
        }
        if (method === 'GET') continue;
        for (const [type, body] of encodings(withExtra)) {
          await call(`${url}${path}`, { method, headers: { ...bearer, 'content-type': type }, body });
          sent++;
        }
      }
      const page = await call(`${url}/__svc/requests?since=${mark}&limit=1000`);
      assert.equal(page.status, 200);
      assert.equal(page.json.requests.length, sent, 'every request was journaled');
      for (const value of values) {
        for (const encoded of new Set([value, encodeURIComponent(value), form({ v: value }).slice(2)])) {
          assert.ok(!page.text.includes(encoded), `the journal holds ${encoded}`);
        }
      }
      // Each body is shown as what it parses as, its secrets redacted in place.
      const tokenCalls = (page.json.requests as Array<Record<string, any>>).filter((entry) => entry.operation === 'oauth.token');
      assert.equal(tokenCalls[queries(fields).length]?.body.client_secret, '[redacted]', 'JSON sent as text/plain is read as JSON');
      assert.equal(tokenCalls[queries(fields).length]?.body.client_id, DEFAULT_CLIENT.id);
      assert.equal(tokenCalls[queries(fields).length + 3]?.body.code_verifier, '[redacted]', 'multipart parts are read');
      assert.equal(tokenCalls[queries(fields).length + 3]?.body.grant_type, 'authorization_code');
    });
  });
}
