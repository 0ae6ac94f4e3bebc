// Plays the browser for a quickstart's consent step: opens the authorization URL the program
// printed, picks the test user and approves the form (docs/oauth.md), then follows the service's
// 302 to the program's loopback redirect URI, as the browser would, so the program receives
// its code.

import { get } from 'node:http';
import { parseConsentPage } from '../../src/handle/consent.ts';

const TIMEOUT_MS = 10_000;

/** Completes the consent for `user`; resolves once the program's loopback server answered. */
export async function approveInBrowser(authorizationUrl: string, user: string): Promise<void> {
  const authorize = new URL(authorizationUrl);
  const page = await fetch(authorize, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`GET ${authorize.pathname} answered ${page.status}: ${html.slice(0, 300)}`);
  const consent = parseConsentPage(html);
  if (!consent.users.includes(user)) throw new Error(`the consent page does not list ${user} (it lists ${consent.users.join(', ')})`);

  // The headers a browser sends on a same-origin form post.
  // The form posts to the page's own path: under a workspace's prefix, that is the workspace's.
  const approval = await fetch(new URL(authorize.pathname, authorize), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: authorize.origin,
      'Sec-Fetch-Site': 'same-origin',
    },
    body: new URLSearchParams({ nonce: consent.nonce, user, decision: 'approve' }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const location = approval.headers.get('location');
  if (approval.status !== 302 || location === null) {
    throw new Error(`POST /oauth/authorize answered ${approval.status}: ${(await approval.text()).slice(0, 300)}`);
  }

  const status = await getAndHangUp(location);
  if (status !== 200) throw new Error(`the program's redirect URI ${location} answered ${status}`);
}

/** GET on a connection of its own that this side closes first, so that the TIME_WAIT lands on
 *  the client's port, never on the program's loopback port: the next quickstart binds that port
 *  again, and Python's run_local_server binds without SO_REUSEADDR. */
function getAndHangUp(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, timeout: TIMEOUT_MS }, (response) => {
      response.resume().on('end', () => {
        response.socket.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
  });
}
