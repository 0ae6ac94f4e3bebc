// Another web page open in the tester's browser tries to drive the management API (docs/management-api.md),
// in headless Chromium: pages on other ports auto-submit HTML forms to /__svc/reset,
// /__svc/fixtures (a text/plain form shaped as JSON, the classic trick) and /__svc/clock, and send
// a no-cors fetch() with a JSON text body, which needs no preflight. Every one is refused and
// nothing changes: same users, same clock, and a token issued before still works.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { BROWSER_SKIP, launchChromiumFor } from '../_helpers/cdp.ts';
import { api, CALENDAR_FIXTURE, tokenFor } from '../_helpers/calendar.ts';
import { call } from '../_helpers/service.ts';
import { start } from '../../src/index.ts';

// A fixture that would hand the attacker its own client and redirect URI; its last string value
// takes the `=` that a text/plain form puts between name and value.
const HOSTILE_FIXTURE = JSON.stringify({ clients: [{ id: 'evil', secret: 'evil', redirectUris: ['https://evil.example/cb'] }], users: [{ id: 'evil', email: 'evil@example.com', name: 'Evil' }] });

/** The attacker's pages, one per attack, each acting as soon as it loads. */
function attackPage(attack: string, service: string): string | undefined {
  const form = (path: string, fields: string, enctype = 'application/x-www-form-urlencoded') =>
    `<form id="f" method="post" enctype="${enctype}" action="${service}${path}">${fields}</form><script>document.getElementById('f').submit()</script>`;
  // text/plain sends `name=value`: the JSON up to its last string's closing quote is the name,
  // the rest the value, so the body is the JSON with `=` at the end of that string.
  const jsonForm = (path: string, json: string) => {
    const cut = json.lastIndexOf('"');
    return form(path, `<input type="hidden" name='${json.slice(0, cut)}' value='${json.slice(cut)}'>`, 'text/plain');
  };
  switch (attack) {
    case 'reset':
      return form('/__svc/reset', '');
    case 'fixtures':
      return jsonForm('/__svc/fixtures', HOSTILE_FIXTURE);
    case 'clock':
      return form('/__svc/clock', '<input type="hidden" name="advanceSeconds" value="86400">');
    case 'clock-fetch':
      return `<script>fetch('${service}/__svc/clock', { method: 'POST', mode: 'no-cors', body: '{"advanceSeconds":86400}' })</script>`;
    default:
      return undefined; // favicon.ico and the like
  }
}

describe('cross-site requests to /__svc/ from Chromium (docs/management-api.md)', { skip: BROWSER_SKIP, timeout: 120_000 }, () => {
  it('forms and a no-cors fetch from pages on other ports are refused, and change nothing', async (t) => {
    const service = await start({ port: 0, fixture: CALENDAR_FIXTURE });
    const attacker = createServer((req, res) => {
      const page = attackPage(new URL(req.url ?? '/', 'http://attacker').searchParams.get('attack') ?? '', service.url);
      res.writeHead(page === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html>${page ?? ''}`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromiumFor(t, service, { close: () => new Promise<void>((resolve) => attacker.close(() => resolve())) });
    const port = (attacker.address() as AddressInfo).port;
    const token = await tokenFor(service.url, 'calendar');
    const workspace = async () => `${(await call(`${service.url}/__svc/users`)).text} ${(await call(`${service.url}/__svc/clock`)).json.offsetSeconds}`;
    const before = await workspace();
    const { cdp, newPage } = browser;
    // Another port of the same host is same-site, another host name cross-site: both refused.
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      for (const [attack, path] of [['reset', '/__svc/reset'], ['fixtures', '/__svc/fixtures'], ['clock', '/__svc/clock'], ['clock-fetch', '/__svc/clock']]) {
        const page = await newPage();
        await cdp.send('Network.enable', {}, page);
        const answered = cdp.waitFor('Network.responseReceived', page, (p) => p.response.url === `${service.url}${path}`);
        await cdp.send('Page.navigate', { url: `${origin}/?attack=${attack}` }, page);
        const { response } = await answered;
        assert.equal(response.status, 403, `${attack} from ${origin}`);
      }
    }

    assert.equal(await workspace(), before, 'a cross-site request changed the workspace');
    assert.equal((await api(service.url, token, 'users/me/calendarList')).status, 200, 'the token issued before the attacks died');
  });
});
