// Pure OAuth rules: PKCE S256 with the RFC 7636 appendix B vector, the HTML escape, the scope
// list, and the consent page's headers.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { expandScope, expandScopes, parseConsentPage } from '../../src/handle/consent.ts';
import type { App } from '../../src/app/app.ts';
import type { ApiRequest } from '../../src/http/request.ts';
import { renderConsentPage } from '../../src/oauth/consent-page.ts';
import { OAUTH_ERROR_STATUS, OAuthError } from '../../src/oauth/errors.ts';
import { createOAuthSurface } from '../../src/oauth/routes.ts';
import { escapeHtml } from '../../src/oauth/html.ts';
import { isValidChallenge, s256Challenge, verifierMatches } from '../../src/oauth/pkce.ts';
import { isSupportedScope, parseScopeParameter, SCOPE_PREFIX, SUPPORTED_SCOPES } from '../../src/oauth/scopes.ts';

describe('PKCE S256 (RFC 7636)', () => {
  // Appendix B: the verifier, and BASE64URL(SHA256(verifier)).
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('the appendix B vector', () => {
    assert.equal(s256Challenge(verifier), challenge);
    assert.equal(verifierMatches(verifier, challenge), true);
  });

  it('a different verifier does not match', () => {
    assert.equal(verifierMatches(`${verifier.slice(0, -1)}l`, challenge), false);
    assert.equal(verifierMatches(challenge, challenge), false);
  });

  it('verifiers outside 43..128 unreserved characters never match (RFC 7636 §4.1)', () => {
    const short = 'a'.repeat(42);
    assert.equal(verifierMatches(short, s256Challenge(short)), false);
    const long = 'a'.repeat(129);
    assert.equal(verifierMatches(long, s256Challenge(long)), false);
    const spaced = `${'a'.repeat(42)} `;
    assert.equal(verifierMatches(spaced, s256Challenge(spaced)), false);
    const max = `${'a'.repeat(125)}._~`;
    assert.equal(verifierMatches(max, s256Challenge(max)), true);
  });

  it('a challenge is 43 base64url characters', () => {
    assert.equal(isValidChallenge(challenge), true);
    assert.equal(isValidChallenge(challenge.slice(1)), false);
    assert.equal(isValidChallenge(`${challenge}A`), false);
    assert.equal(isValidChallenge(`${challenge.slice(1)}=`), false);
    assert.equal(isValidChallenge(`${challenge.slice(1)}/`), false);
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    assert.equal(escapeHtml('plain · text'), 'plain · text');
  });
});

describe('scopes', () => {
  it('the prefix and the supported list of docs/oauth.md', () => {
    assert.equal(SCOPE_PREFIX, 'https://www.googleapis.com/auth/');
    assert.equal(SUPPORTED_SCOPES.size, 14);
    for (const scope of ['openid', 'email', 'profile', `${SCOPE_PREFIX}userinfo.email`, `${SCOPE_PREFIX}calendar.events.freebusy`]) {
      assert.equal(isSupportedScope(scope), true, scope);
    }
    for (const scope of [`${SCOPE_PREFIX}calendar.calendars`, `${SCOPE_PREFIX}calendar.acls`, 'calendar', `${SCOPE_PREFIX}userinfo.openid`, 'OPENID']) {
      assert.equal(isSupportedScope(scope), false, scope);
    }
  });

  it('the scope parameter splits on spaces, de-duplicates and keeps request order', () => {
    assert.deepEqual(parseScopeParameter('b a  b c a'), ['b', 'a', 'c']);
    assert.deepEqual(parseScopeParameter(' '), []);
  });

  it('the token command expands short names', () => {
    assert.equal(expandScope('calendar.readonly'), `${SCOPE_PREFIX}calendar.readonly`);
    assert.equal(expandScope('openid'), 'openid');
    assert.equal(expandScope(`${SCOPE_PREFIX}calendar`), `${SCOPE_PREFIX}calendar`);
    assert.deepEqual(expandScopes('calendar,email profile'), [`${SCOPE_PREFIX}calendar`, 'email', 'profile']);
  });
});

describe('the OAuth surface error renderer', () => {
  const logged: unknown[] = [];
  const app = {
    log: { info() {}, error: (_message: string, error: unknown) => logged.push(error) },
    onWorkspaceReplaced() {},
    onConnectionRevoked() {},
  } as unknown as App;
  const surface = createOAuthSurface(app, { entries: new Map(), othersCommitted: 0 });
  const req = {} as ApiRequest;

  it('an OAuthError: its status and {error, error_description}, not cacheable', () => {
    const result = surface.renderError(new OAuthError('rateLimitExceeded', 'Too many.'), req);
    assert.equal(result.status, 429);
    assert.deepEqual(JSON.parse(result.body as string), { error: 'rateLimitExceeded', error_description: 'Too many.' });
    assert.equal(result.headers['Cache-Control'], 'no-store');
  });

  it('an unexpected fault: 500 that leaks nothing, logged', () => {
    const fault = new Error('SQLITE_CORRUPT at /secret/path');
    const result = surface.renderError(fault, req);
    assert.equal(result.status, 500);
    assert.deepEqual(Object.keys(JSON.parse(result.body as string)), ['error', 'error_description']);
    assert.doesNotMatch(result.body as string, /SQLITE|secret|at /);
    assert.deepEqual(logged, [fault]);
  });

  it('the OAuth error codes have the statuses of docs/oauth.md', () => {
    assert.deepEqual(
      Object.entries(OAUTH_ERROR_STATUS).filter(([, status]) => status !== 400),
      [['forbidden', 403], ['rateLimitExceeded', 429]],
    );
  });
});

describe('the consent page', () => {
  const page = renderConsentPage({
    action: '/oauth/authorize',
    nonce: 'n"1',
    clientId: '<client>',
    redirectUri: 'http://127.0.0.1:3000/cb',
    scopes: ['openid', '<scope>'],
    users: [
      { id: 'u"1', name: '<Ann>', email: 'a@example.com', timeZone: 'UTC', position: 0 },
      { id: 'u2', name: 'Bo', email: 'b@example.com', timeZone: 'UTC', position: 1 },
    ],
  });

  it('escapes every reflected value and parses back', () => {
    const text = page.body as string;
    assert.doesNotMatch(text, /<client>|<scope>|<Ann>/);
    assert.match(text, /&lt;client&gt;/);
    assert.match(text, /&lt;scope&gt;/);
    assert.deepEqual(parseConsentPage(text), { nonce: 'n"1', users: ['u"1', 'u2'] });
  });

  it('allows only its own style block by hash', () => {
    const csp = page.headers['Content-Security-Policy'] ?? '';
    const style = /<style>([^<]*)<\/style>/.exec(page.body as string)?.[1] as string;
    assert.ok(csp.includes(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`), csp);
  });
});
