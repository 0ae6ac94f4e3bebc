// GET /oauth/authorize: every parameter rule and error row of docs/oauth.md, in the order docs/oauth.md gives,
// the consent page of docs/oauth.md, and the pending-consent limits.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { call, startService } from '../_helpers/service.ts';
import { advanceClock, approveConsent, authorizeQuery, OAUTH_FIXTURE, OTHER_CLIENT, parseConsentPage } from '../_helpers/oauth.ts';

const CAL = 'https://www.googleapis.com/auth/calendar';

let base: string;
before(async (t) => {
  base = await startService(t as never, { fixture: OAUTH_FIXTURE });
});

async function authorize(query: string) {
  return call(`${base}/oauth/authorize?${query}`);
}

async function expectError(query: string, error: string, description?: RegExp) {
  const res = await authorize(query);
  assert.equal(res.status, 400, `${query} -> ${res.status} ${res.text}`);
  assert.equal(res.json.error, error, `${query} -> ${res.text}`);
  assert.equal(typeof res.json.error_description, 'string');
  assert.deepEqual(Object.keys(res.json).sort(), ['error', 'error_description']);
  assert.equal(res.headers.get('location'), null, 'errors never redirect');
  if (description) assert.match(res.json.error_description, description);
  return res;
}

describe('GET /oauth/authorize: parameter rules', () => {
  it('a valid request renders the consent page', async () => {
    const res = await authorize(authorizeQuery());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  it('client_id: unknown is invalid_client "Unknown client."; missing is invalid_request', async () => {
    await expectError(authorizeQuery({ client_id: 'nobody' }), 'invalid_client', /^Unknown client\.$/);
    await expectError(authorizeQuery({ client_id: null }), 'invalid_request', /client_id/);
  });

  it('redirect_uri: exact string match only; missing is invalid_request', async () => {
    for (const uri of [
      'http://127.0.0.1:3000/oauth2callback/', // trailing slash
      'http://127.0.0.1:3001/oauth2callback', // other port
      'http://localhost:3000/oauth2callback', // other host spelling
      'HTTP://127.0.0.1:3000/oauth2callback', // case
      'http://127.0.0.1:3000/oauth2callback?x=1',
      'http://127.0.0.1:3000/OAuth2callback',
    ]) {
      await expectError(authorizeQuery({ redirect_uri: uri }), 'invalid_request', /^Unregistered redirect URI\.$/);
    }
    await expectError(authorizeQuery({ redirect_uri: null }), 'invalid_request', /redirect_uri/);
    // a URI registered for another client is not registered for this one
    await expectError(authorizeQuery({ redirect_uri: OTHER_CLIENT.redirectUris[1] as string }), 'invalid_request', /Unregistered/);
  });

  it('any other parameter is unsupported_feature', async () => {
    for (const name of ['nonce', 'login_hint', 'hd', 'request', 'request_uri', 'enable_granular_consent', 'display', 'foo']) {
      await expectError(`${authorizeQuery()}&${name}=x`, 'unsupported_feature', new RegExp(name));
    }
  });

  it('a repeated parameter is invalid_request, even with equal values', async () => {
    for (const name of ['scope', 'state', 'response_type', 'access_type', 'prompt']) {
      const value = name === 'scope' ? CAL : name === 'response_type' ? 'code' : name === 'access_type' ? 'online' : name === 'prompt' ? 'consent' : 'x';
      await expectError(`${authorizeQuery({ [name]: value })}&${name}=${encodeURIComponent(value)}`, 'invalid_request', /repeated/);
    }
    await expectError(`${authorizeQuery()}&client_id=local-calendar-client`, 'invalid_request', /client_id is repeated/);
  });

  it('response_type must be code', async () => {
    for (const value of ['token', 'id_token', 'code token', 'CODE']) {
      await expectError(authorizeQuery({ response_type: value }), 'unsupported_response_type');
    }
    await expectError(authorizeQuery({ response_type: null }), 'invalid_request', /response_type/);
  });

  it('scope: every scope must be supported, at least one', async () => {
    for (const suffix of ['calendar.events.owned', 'calendar.app.created', 'calendar.settings.readonly', 'calendar.acls', 'calendar.calendars']) {
      await expectError(authorizeQuery({ scope: `https://www.googleapis.com/auth/${suffix}` }), 'invalid_scope', new RegExp(suffix.replace(/\./g, '\\.')));
    }
    await expectError(authorizeQuery({ scope: `${CAL} https://www.googleapis.com/auth/drive` }), 'invalid_scope');
    await expectError(authorizeQuery({ scope: 'calendar' }), 'invalid_scope', /calendar/); // the prefix is required
    await expectError(authorizeQuery({ scope: 'https://www.example.com/auth/calendar' }), 'invalid_scope');
    await expectError(authorizeQuery({ scope: null }), 'invalid_request', /scope/);
    await expectError(authorizeQuery({ scope: '' }), 'invalid_request', /scope/);
    await expectError(authorizeQuery({ scope: '   ' }), 'invalid_request', /scope/);
  });

  it('every supported scope is accepted', async () => {
    const scopes = [
      'calendar',
      'calendar.readonly',
      'calendar.events',
      'calendar.events.readonly',
      'calendar.calendarlist',
      'calendar.calendarlist.readonly',
      'calendar.calendars.readonly',
      'calendar.freebusy',
      'calendar.events.freebusy',
      'userinfo.email',
      'userinfo.profile',
    ].map((s) => `https://www.googleapis.com/auth/${s}`);
    for (const scope of [...scopes, 'openid', 'email', 'profile']) {
      const res = await authorize(authorizeQuery({ scope }));
      assert.equal(res.status, 200, `${scope}: ${res.text}`);
    }
  });

  it('access_type: online or offline, anything else invalid_request', async () => {
    assert.equal((await authorize(authorizeQuery({ access_type: 'online' }))).status, 200);
    assert.equal((await authorize(authorizeQuery({ access_type: 'offline' }))).status, 200);
    await expectError(authorizeQuery({ access_type: 'OFFLINE' }), 'invalid_request', /access_type/);
    await expectError(authorizeQuery({ access_type: '' }), 'invalid_request', /access_type/);
  });

  it('PKCE: S256 with a 43-character base64url challenge; plain and every other shape invalid_request', async () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    assert.equal((await authorize(authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256' }))).status, 200);
    await expectError(authorizeQuery({ code_challenge: challenge, code_challenge_method: 'plain' }), 'invalid_request', /plain/);
    await expectError(authorizeQuery({ code_challenge: challenge, code_challenge_method: 's256' }), 'invalid_request', /S256/);
    await expectError(authorizeQuery({ code_challenge: challenge }), 'invalid_request', /code_challenge_method/);
    await expectError(authorizeQuery({ code_challenge_method: 'S256' }), 'invalid_request', /without code_challenge/);
    await expectError(authorizeQuery({ code_challenge: challenge.slice(1), code_challenge_method: 'S256' }), 'invalid_request', /43/);
    await expectError(authorizeQuery({ code_challenge: `${challenge}A`, code_challenge_method: 'S256' }), 'invalid_request', /43/);
    await expectError(authorizeQuery({ code_challenge: `${challenge.slice(1)}=`, code_challenge_method: 'S256' }), 'invalid_request', /43/);
    await expectError(authorizeQuery({ code_challenge: `${challenge.slice(1)}+`, code_challenge_method: 'S256' }), 'invalid_request', /43/);
  });

  it('prompt: consent and select_account in either order; anything else unsupported_feature', async () => {
    for (const prompt of ['consent', 'select_account', 'consent select_account', 'select_account consent']) {
      assert.equal((await authorize(authorizeQuery({ prompt }))).status, 200, prompt);
    }
    for (const prompt of ['none', 'login', '', 'consent none', 'consent  select_account']) {
      await expectError(authorizeQuery({ prompt }), 'unsupported_feature', /prompt/);
    }
  });

  it('include_granted_scopes: only false', async () => {
    assert.equal((await authorize(authorizeQuery({ include_granted_scopes: 'false' }))).status, 200);
    await expectError(authorizeQuery({ include_granted_scopes: 'true' }), 'unsupported_feature', /include_granted_scopes/);
    await expectError(authorizeQuery({ include_granted_scopes: 'yes' }), 'unsupported_feature', /include_granted_scopes/);
  });

  it('state is optional and free text', async () => {
    assert.equal((await authorize(authorizeQuery({ state: null }))).status, 200);
    assert.equal((await authorize(authorizeQuery({ state: 'a b&c=<d>' }))).status, 200);
  });
});

describe('GET /oauth/authorize: validation order (docs/oauth.md)', () => {
  // Each case breaks every rule from one point on; the first broken rule must decide.
  const broken = {
    client_id: 'nobody',
    redirect_uri: 'http://evil.example/cb',
    extra: 'login_hint=x',
    repeated: 'state=1&state=2',
    response_type: 'token',
    scope: 'https://www.googleapis.com/auth/drive',
    access_type: 'sometimes',
    code_challenge: 'short',
    prompt: 'none',
    include_granted_scopes: 'true',
  };
  const order: Array<[keyof typeof broken, string]> = [
    ['client_id', 'invalid_client'],
    ['redirect_uri', 'invalid_request'],
    ['extra', 'unsupported_feature'],
    ['repeated', 'invalid_request'],
    ['response_type', 'unsupported_response_type'],
    ['scope', 'invalid_scope'],
    ['access_type', 'invalid_request'],
    ['code_challenge', 'invalid_request'],
    ['prompt', 'unsupported_feature'],
    ['include_granted_scopes', 'unsupported_feature'],
  ];
  for (let i = 0; i < order.length; i++) {
    const [rule, error] = order[i] as [keyof typeof broken, string];
    it(`${rule} is judged before everything after it`, async () => {
      const overrides: Record<string, string | null> = {};
      let extra = '';
      for (const [name] of order.slice(i)) {
        if (name === 'extra' || name === 'repeated') extra += `&${broken[name]}`;
        else if (name === 'code_challenge') Object.assign(overrides, { code_challenge: broken.code_challenge, code_challenge_method: 'S256' });
        else overrides[name] = broken[name];
      }
      const res = await expectError(`${authorizeQuery(overrides)}${extra}`, error);
      const expected: Record<string, RegExp> = {
        client_id: /Unknown client/,
        redirect_uri: /Unregistered redirect URI/,
        extra: /login_hint/,
        repeated: /state is repeated/,
        response_type: /response_type/,
        scope: /drive/,
        access_type: /access_type/,
        code_challenge: /code_challenge/,
        prompt: /prompt/,
        include_granted_scopes: /include_granted_scopes/,
      };
      assert.match(res.json.error_description, expected[rule] as RegExp);
    });
  }

  it('an unknown parameter is judged before a repeated one', async () => {
    await expectError(`${authorizeQuery()}&state=1&state=2&hd=x`, 'unsupported_feature', /hd/);
  });
});

describe('the consent page (docs/oauth.md)', () => {
  it('lists every test user as "Name · email", the first selected, and posts nonce, user and decision', async () => {
    const res = await authorize(authorizeQuery());
    const page = parseConsentPage(res.text);
    assert.deepEqual(page.users, ['user-aiko', 'user-ben']);
    assert.match(page.nonce, /^[A-Za-z0-9_-]{43,}$/);
    assert.match(res.text, /<form method="post" action="\/oauth\/authorize">/);
    assert.match(res.text, /<option value="user-aiko" selected>Aiko Tanaka · aiko\.tanaka@example\.com<\/option>/);
    assert.match(res.text, /<option value="user-ben">Ben &quot;&lt;b&gt;&quot; O&#39;Neil &amp; Co · ben@example\.com<\/option>/);
    assert.match(res.text, /<input type="hidden" name="nonce" value="[A-Za-z0-9_-]+">/);
    assert.match(res.text, /<select[^>]*name="user"/);
    assert.match(res.text, /<button type="submit" name="decision" value="approve">Approve<\/button>/);
    assert.match(res.text, /<button type="submit" name="decision" value="deny">Deny<\/button>/);
    assert.doesNotMatch(res.text, /<script/i);
  });

  it('shows the client id and each requested scope string, escaped', async () => {
    const res = await authorize(
      authorizeQuery({
        client_id: OTHER_CLIENT.id,
        redirect_uri: OTHER_CLIENT.redirectUris[0] as string,
        scope: 'https://www.googleapis.com/auth/calendar.readonly email',
      }),
    );
    assert.equal(res.status, 200, res.text);
    assert.ok(res.text.includes('other client:1'));
    assert.ok(res.text.includes('https://www.googleapis.com/auth/calendar.readonly'));
    assert.match(res.text, /<code>email<\/code>/);
    assert.doesNotMatch(res.text, /Ben "<b>"/, 'user names are escaped');
  });

  it('the state is not reflected into the page', async () => {
    const res = await authorize(authorizeQuery({ state: '"><script>alert(1)</script>' }));
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.text, /<script>alert/);
  });

  it('sends the security headers', async () => {
    const res = await authorize(authorizeQuery({ client_id: OTHER_CLIENT.id, redirect_uri: OTHER_CLIENT.redirectUris[1] as string }));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('referrer-policy'), 'same-origin');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /form-action 'self' https:\/\/app\.example\.test(;|$)/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    // the default client's redirect origin, port included
    const other = await authorize(authorizeQuery());
    assert.match(other.headers.get('content-security-policy') ?? '', /form-action 'self' http:\/\/127\.0\.0\.1:3000(;|$)/);
  });

  it('errors are JSON with no-store, never HTML', async () => {
    const res = await authorize(authorizeQuery({ scope: 'x' }));
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });
});

describe('pending consents', () => {
  it('each page has its own nonce; a nonce is single use', async () => {
    const a = parseConsentPage((await authorize(authorizeQuery())).text);
    const b = parseConsentPage((await authorize(authorizeQuery())).text);
    assert.notEqual(a.nonce, b.nonce);
    await approveConsent(base, a.nonce, 'user-aiko');
    await assert.rejects(approveConsent(base, a.nonce, 'user-aiko'), /invalid_request/);
    await approveConsent(base, b.nonce, 'user-aiko');
  });

  it('a nonce lives 5 minutes by the service clock', async () => {
    const early = parseConsentPage((await authorize(authorizeQuery())).text);
    const late = parseConsentPage((await authorize(authorizeQuery())).text);
    await advanceClock(base, 299);
    await approveConsent(base, early.nonce, 'user-aiko');
    await advanceClock(base, 1);
    await assert.rejects(approveConsent(base, late.nonce, 'user-aiko'), /invalid_request/);
  });
});
