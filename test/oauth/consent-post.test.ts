// POST /oauth/authorize (docs/oauth.md): approve, deny, the cross-site check (with and without
// --base-url) and the nonce rules.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authorizeQuery, OAUTH_FIXTURE, OTHER_CLIENT, parseConsentPage } from '../_helpers/oauth.ts';
import { freePort } from '../_helpers/ports.ts';
import { call, startService } from '../_helpers/service.ts';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';

let base: string;
before(async (t) => {
  base = await startService(t as never, { fixture: OAUTH_FIXTURE });
});

async function pendingNonce(overrides: Record<string, string | null> = {}): Promise<string> {
  const res = await call(`${base}/oauth/authorize?${authorizeQuery(overrides)}`);
  assert.equal(res.status, 200, res.text);
  return parseConsentPage(res.text).nonce;
}

function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(`${base}/oauth/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function connections(): Promise<Array<{ id: string; clientId: string; userId: string; scopes: string[]; offline: boolean; createdAt: string }>> {
  return (await call(`${base}/__svc/connections`)).json.connections;
}

describe('approve and deny', () => {
  it('approve: 302 to <redirect_uri>?state=<state>&code=<code> and a new connection', async () => {
    const before = await connections();
    const nonce = await pendingNonce({ state: 'xyz 1&2', access_type: 'offline', scope: 'https://www.googleapis.com/auth/calendar email email' });
    const res = await post({ nonce, user: 'user-ben', decision: 'approve' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const location = res.headers.get('location') ?? '';
    assert.match(location, /^http:\/\/127\.0\.0\.1:3000\/oauth2callback\?state=xyz\+1%262&code=[A-Za-z0-9_-]{43,}$/);
    const after = await connections();
    assert.equal(after.length, before.length + 1);
    const created = after.find((c) => !before.some((b) => b.id === c.id));
    assert.ok(created);
    assert.match(created.id, /^[A-Za-z0-9_-]{20,}$/, 'connection ids are random and URL-safe');
    assert.equal(created.clientId, 'local-calendar-client');
    assert.equal(created.userId, 'user-ben');
    assert.deepEqual(created.scopes, ['https://www.googleapis.com/auth/calendar', 'email']);
    assert.equal(created.offline, true);
  });

  it('approve without state: no state parameter; & when the redirect URI has a query', async () => {
    const nonce = await pendingNonce({ client_id: OTHER_CLIENT.id, redirect_uri: OTHER_CLIENT.redirectUris[0] as string });
    const res = await post({ nonce, user: 'user-aiko', decision: 'approve' });
    assert.match(res.headers.get('location') ?? '', /^http:\/\/localhost:4000\/cb\?from=test&code=[A-Za-z0-9_-]+$/);
  });

  it('deny: 302 with error=access_denied and the state; no connection', async () => {
    const before = await connections();
    const nonce = await pendingNonce({ state: 's1' });
    const res = await post({ nonce, user: 'user-aiko', decision: 'deny' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), 'http://127.0.0.1:3000/oauth2callback?state=s1&error=access_denied');
    assert.equal((await connections()).length, before.length);
    // the nonce is used up by a denial too
    assert.equal((await post({ nonce, user: 'user-aiko', decision: 'approve' })).json.error, 'invalid_request');
  });

  it('deny without state', async () => {
    const nonce = await pendingNonce();
    const res = await post({ nonce, decision: 'deny', user: 'user-aiko' });
    assert.equal(res.headers.get('location'), 'http://127.0.0.1:3000/oauth2callback?error=access_denied');
  });
});

describe('bad submissions: 400 invalid_request', () => {
  for (const [name, fields] of [
    ['unknown nonce', { nonce: 'not-a-nonce', user: 'user-aiko', decision: 'approve' }],
    ['missing nonce', { user: 'user-aiko', decision: 'approve' }],
  ] as const) {
    it(name, async () => {
      const res = await post(fields);
      assert.equal(res.status, 400);
      assert.equal(res.json.error, 'invalid_request');
    });
  }

  it('unknown user, missing user, bad decision, repeated field: refused, and the nonce still works after', async () => {
    const nonce = await pendingNonce();
    for (const fields of [
      { nonce, user: 'user-nobody', decision: 'approve' },
      { nonce, decision: 'approve' },
      { nonce, user: 'user-aiko', decision: 'maybe' },
      { nonce, user: 'user-aiko' },
    ]) {
      const res = await post(fields as Record<string, string>);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(res.json.error, 'invalid_request');
    }
    const repeated = await call(`${base}/oauth/authorize`, {
      method: 'POST',
      body: `nonce=${nonce}&user=user-aiko&user=user-ben&decision=approve`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(repeated.status, 400);
    assert.match(repeated.json.error_description, /user is repeated/);
    assert.equal((await post({ nonce, user: 'user-aiko', decision: 'approve' })).status, 302);
  });

  it('a used nonce', async () => {
    const nonce = await pendingNonce();
    assert.equal((await post({ nonce, user: 'user-aiko', decision: 'approve' })).status, 302);
    const again = await post({ nonce, user: 'user-aiko', decision: 'approve' });
    assert.equal(again.status, 400);
    assert.equal(again.json.error, 'invalid_request');
  });
});

describe('the cross-site check', () => {
  const forbidden = async (headers: Record<string, string>) => {
    const nonce = await pendingNonce();
    const res = await post({ nonce, user: 'user-aiko', decision: 'approve' }, headers);
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.equal(res.json.error, 'forbidden');
    assert.equal(typeof res.json.error_description, 'string');
    // a refused post does not use up the nonce
    assert.equal((await post({ nonce, user: 'user-aiko', decision: 'approve' })).status, 302);
  };

  it('Sec-Fetch-Site other than same-origin: 403, whatever Origin says', async () => {
    await forbidden({ 'Sec-Fetch-Site': 'cross-site' });
    await forbidden({ 'Sec-Fetch-Site': 'same-site' });
    await forbidden({ 'Sec-Fetch-Site': 'none' });
    await forbidden({ 'Sec-Fetch-Site': 'cross-site', Origin: base });
  });

  it('Sec-Fetch-Site same-origin passes alone or beside the own Origin, never beside a foreign one', async () => {
    const nonce = await pendingNonce();
    assert.equal((await post({ nonce, user: 'user-aiko', decision: 'approve' }, { 'Sec-Fetch-Site': 'same-origin' })).status, 302);
    const again = await pendingNonce();
    assert.equal((await post({ nonce: again, user: 'user-aiko', decision: 'approve' }, { 'Sec-Fetch-Site': 'same-origin', Origin: base })).status, 302);
    await forbidden({ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://evil.example' });
    await forbidden({ 'Sec-Fetch-Site': 'same-origin', Origin: 'null' });
  });

  it('without Sec-Fetch-Site: a foreign or null Origin is 403; the own origin passes', async () => {
    await forbidden({ Origin: 'http://evil.example' });
    await forbidden({ Origin: 'null' });
    await forbidden({ Origin: base.replace('127.0.0.1', 'localhost') });
    await forbidden({ Origin: `${base}0` });
    const nonce = await pendingNonce();
    assert.equal((await post({ nonce, user: 'user-aiko', decision: 'approve' }, { Origin: base })).status, 302);
  });

  it('the check comes before the nonce check', async () => {
    const res = await post({ nonce: 'bogus', user: 'user-aiko', decision: 'approve' }, { Origin: 'http://evil.example' });
    assert.equal(res.status, 403);
  });
});

describe('the cross-site check with --base-url', () => {
  // The service listens on 127.0.0.1:P but its base URL says localhost:P: the page opened as
  // 127.0.0.1 is another origin, and its post is refused even though the browser calls it
  // same-origin (docs/oauth.md).
  let direct: string;
  let publicOrigin: string;
  let service: RunningService | undefined;
  before(async () => {
    const port = await freePort();
    publicOrigin = `http://localhost:${port}`;
    service = await start({ fixture: OAUTH_FIXTURE, port, baseUrl: publicOrigin });
    direct = `http://127.0.0.1:${port}`;
  });
  after(() => service?.close());

  async function postFromOrigin(origin: string) {
    const page = await call(`${direct}/oauth/authorize?${authorizeQuery()}`);
    const { nonce } = parseConsentPage(page.text);
    return call(`${direct}/oauth/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: origin },
      body: new URLSearchParams({ nonce, user: 'user-aiko', decision: 'approve' }).toString(),
    });
  }

  it('Origin http://127.0.0.1:P beside Sec-Fetch-Site same-origin: 403', async () => {
    const res = await postFromOrigin(direct);
    assert.equal(res.status, 403);
    assert.equal(res.json.error, 'forbidden');
  });

  it('Origin of the base URL: 302', async () => {
    assert.equal((await postFromOrigin(publicOrigin)).status, 302);
  });
});
