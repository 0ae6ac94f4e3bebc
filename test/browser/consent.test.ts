// The consent page in a real browser (headless Chromium over CDP): a person picks the second test
// user and approves; the browser follows the redirect to the client (the CSP's form-action must
// allow it); the code gives a token for that user. A form on another origin that posts to
// /oauth/authorize gets 403 (docs/oauth.md), and so does the consent page itself when opened at an
// origin other than --base-url's.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { BROWSER_SKIP, launchChromiumFor } from '../_helpers/cdp.ts';
import type { Browser } from '../_helpers/cdp.ts';
import { approveConsent, authorizeQuery, DEFAULT_CLIENT, OAUTH_FIXTURE, openConsent } from '../_helpers/oauth.ts';
import { start } from '../../src/index.ts';
import { freePort } from '../_helpers/ports.ts';
import { call } from '../_helpers/service.ts';

describe('the consent page in Chromium', { skip: BROWSER_SKIP, timeout: 90_000 }, () => {
  // One cleanup, browser first: the service's close() waits for the browser's open connections.
  async function setup(t: { after(fn: () => unknown): void }): Promise<{ base: string; browser: Browser }> {
    const service = await start({ port: 0, fixture: OAUTH_FIXTURE });
    const browser = await launchChromiumFor(t, service);
    return { base: service.url, browser };
  }

  it('approve as the second user: the browser reaches the redirect URI with a code for that user', async (t) => {
    const { base, browser } = await setup(t);
    const { cdp, newPage } = browser;
    const page = await newPage();
    // The redirect target has no server: intercept requests to it and answer them ourselves.
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${DEFAULT_CLIENT.redirectUri}*`, requestStage: 'Request' }] }, page);
    await cdp.send('Page.enable', {}, page);

    const loaded = cdp.waitFor('Page.loadEventFired', page);
    await cdp.send('Page.navigate', { url: `${base}/oauth/authorize?${authorizeQuery({ scope: 'openid email', state: 'browser-1' })}` }, page);
    await loaded;

    const options = await cdp.send(
      'Runtime.evaluate',
      { expression: `[...document.querySelectorAll('select[name=user] option')].map(o => o.textContent)`, returnByValue: true },
      page,
    );
    // escaped on the wire, shown as written
    assert.deepEqual(options.result.value, ['Aiko Tanaka · aiko.tanaka@example.com', `Ben "<b>" O'Neil & Co · ben@example.com`]);

    const redirected = cdp.waitFor('Fetch.requestPaused', page);
    const clicked = await cdp.send(
      'Runtime.evaluate',
      {
        expression: `(() => {
          const select = document.querySelector('select[name=user]');
          select.selectedIndex = 1;
          document.querySelector('button[value=approve]').click();
          return select.value;
        })()`,
        returnByValue: true,
      },
      page,
    );
    const secondUser = clicked.result.value as string;
    const paused = await redirected;
    await cdp.send('Fetch.fulfillRequest', { requestId: paused.requestId, responseCode: 200, body: Buffer.from('done').toString('base64') }, page);

    const target = new URL(paused.request.url);
    assert.equal(`${target.origin}${target.pathname}`, DEFAULT_CLIENT.redirectUri);
    assert.equal(target.searchParams.get('state'), 'browser-1');
    const code = target.searchParams.get('code');
    assert.ok(code, paused.request.url);

    const token = await call(`${base}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: DEFAULT_CLIENT.redirectUri, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString(),
    });
    assert.equal(token.status, 200, token.text);
    const me = await call(`${base}/userinfo`, { headers: { Authorization: `Bearer ${token.json.access_token}` } });
    assert.equal(me.status, 200);
    assert.equal(secondUser, 'user-ben');
    assert.equal(me.json.sub, 'user-ben');
  });

  it('a form on another origin that posts to /oauth/authorize gets 403 and does not use up the nonce', async (t) => {
    const { base, browser } = await setup(t);
    const { nonce } = await openConsent({ baseUrl: base, scopes: ['openid'] });
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><form id="f" method="post" action="${base}/oauth/authorize">
        <input type="hidden" name="nonce" value="${nonce}">
        <input type="hidden" name="user" value="user-aiko">
        <input type="hidden" name="decision" value="approve">
      </form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => attacker.close(() => resolve())));
    const port = (attacker.address() as AddressInfo).port;

    const { cdp, newPage } = browser;
    // Same host on another port (same-site) and another host name (cross-site): both refused.
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const page = await newPage();
      await cdp.send('Network.enable', {}, page);
      const answered = cdp.waitFor('Network.responseReceived', page, (p) => p.response.url === `${base}/oauth/authorize`);
      await cdp.send('Page.navigate', { url: `${origin}/` }, page);
      const { response } = await answered;
      assert.equal(response.status, 403, origin);
    }
    // the nonce was never consumed: the real (non-browser) client can still use it
    const code = await approveConsent(base, nonce, 'user-aiko');
    assert.ok(code);
  });

  it('with --base-url http://localhost:P, approving on the page opened as 127.0.0.1:P is 403; as localhost:P it works', async (t) => {
    const port = await freePort();
    const service = await start({ port, fixture: OAUTH_FIXTURE, baseUrl: `http://localhost:${port}` });
    const browser = await launchChromiumFor(t, service);
    const { cdp, newPage } = browser;
    const approve = async (origin: string, page: string) => {
      const loaded = cdp.waitFor('Page.loadEventFired', page);
      await cdp.send('Page.navigate', { url: `${origin}/oauth/authorize?${authorizeQuery({ scope: 'openid' })}` }, page);
      await loaded;
      await cdp.send('Runtime.evaluate', { expression: `document.querySelector('button[value=approve]').click()` }, page);
    };

    // Chromium calls this post same-origin, but its Origin is not the base URL's.
    const direct = await newPage();
    await cdp.send('Network.enable', {}, direct);
    await cdp.send('Page.enable', {}, direct);
    const refused = cdp.waitFor('Network.responseReceived', direct, (p) => p.response.url === `http://127.0.0.1:${port}/oauth/authorize`);
    await approve(`http://127.0.0.1:${port}`, direct);
    assert.equal((await refused).response.status, 403);

    const proper = await newPage();
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${DEFAULT_CLIENT.redirectUri}*`, requestStage: 'Request' }] }, proper);
    await cdp.send('Page.enable', {}, proper);
    const redirected = cdp.waitFor('Fetch.requestPaused', proper);
    await approve(`http://localhost:${port}`, proper);
    const paused = await redirected;
    await cdp.send('Fetch.fulfillRequest', { requestId: paused.requestId, responseCode: 200, body: Buffer.from('done').toString('base64') }, proper);
    assert.ok(new URL(paused.request.url).searchParams.get('code'), paused.request.url);
  });
});
