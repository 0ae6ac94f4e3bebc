// A browser app on its own dev origin calls the calendar API (docs/calendar-api.md#browser-apps), in headless Chromium:
// a page served from another port runs fetch() with a bearer header (the browser sends a real
// preflight first), reads answers, headers and errors, uses the query token, and is refused by the
// browser where the service grants nothing (an unknown request header, /__svc/, /oauth/token).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { BROWSER_SKIP, launchChromiumFor } from '../_helpers/cdp.ts';
import { CALENDAR_FIXTURE, tokenFor } from '../_helpers/calendar.ts';
import { start } from '../../src/index.ts';

/** An app origin: serves one empty page, like a dev server would serve the app. */
async function appServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

describe('a browser app on another origin (docs/calendar-api.md#browser-apps)', { skip: BROWSER_SKIP, timeout: 90_000 }, () => {
  it('preflight, fetch with a bearer token, headers, errors and query tokens; nothing outside the API', async (t) => {
    const service = await start({ port: 0, fixture: CALENDAR_FIXTURE });
    const app = await appServer();
    const browser = await launchChromiumFor(t, service, { close: () => new Promise<void>((resolve) => app.server.close(() => resolve())) });
    const token = await tokenFor(service.url, ['calendar', 'openid', 'email']);
    const { cdp, newPage } = browser;
    const page = await newPage();
    await cdp.send('Network.enable', {}, page);
    const sent: string[] = [];
    const stopRecording = cdp.on('Network.requestWillBeSent', page, (p) => {
      if (p.request.url.startsWith(service.url)) sent.push(`${p.request.method} ${p.type}`);
    });
    t.after(stopRecording);
    const loaded = cdp.waitFor('Page.loadEventFired', page);
    await cdp.send('Page.enable', {}, page);
    await cdp.send('Page.navigate', { url: `${app.origin}/` }, page);
    await loaded;

    const script = `(async () => {
      const api = ${JSON.stringify(`${service.url}/calendar/v3`)};
      const auth = { Authorization: 'Bearer ' + ${JSON.stringify(token)} };
      const refused = (p) => p.then((r) => 'answered ' + r.status, (e) => e.name);
      const out = {};
      const list = await fetch(api + '/users/me/calendarList', { headers: auth });
      out.list = { status: list.status, etag: list.headers.get('ETag'), kind: (await list.json()).kind };
      const created = await fetch(api + '/calendars/primary/events', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ summary: 'from the app', start: { dateTime: '2026-03-02T10:00:00Z' }, end: { dateTime: '2026-03-02T11:00:00Z' } }),
      });
      const event = await created.json();
      out.created = { status: created.status, etag: created.headers.get('ETag') === event.etag };
      const patched = await fetch(api + '/calendars/primary/events/' + event.id, {
        method: 'PATCH',
        headers: { ...auth, 'Content-Type': 'application/json', 'If-Match': event.etag },
        body: JSON.stringify({ summary: 'renamed' }),
      });
      out.patched = { status: patched.status, summary: (await patched.json()).summary };
      const stale = await fetch(api + '/calendars/primary/events/' + event.id, {
        method: 'PATCH',
        headers: { ...auth, 'Content-Type': 'application/json', 'If-Match': event.etag },
        body: '{}',
      });
      out.stale = stale.status;
      const removed = await fetch(api + '/calendars/primary/events/' + event.id, { method: 'DELETE', headers: auth });
      out.removed = removed.status;
      const anonymous = await fetch(api + '/users/me/calendarList');
      out.anonymous = { status: anonymous.status, challenge: anonymous.headers.get('WWW-Authenticate'), reason: (await anonymous.json()).error.errors[0].reason };
      const badToken = await fetch(api + '/users/me/calendarList', { headers: { Authorization: 'Bearer nope' } });
      out.badToken = badToken.status;
      const query = await fetch(api + '/users/me/calendarList?access_token=' + ${JSON.stringify(token)});
      out.query = query.status;
      const me = await fetch(${JSON.stringify(`${service.url}/userinfo`)}, { headers: auth });
      out.me = (await me.json()).email;
      out.unknownHeader = await refused(fetch(api + '/users/me/calendarList', { headers: { ...auth, 'X-Custom': '1' } }));
      out.management = await refused(fetch(${JSON.stringify(`${service.url}/__svc/users`)}));
      out.tokenEndpoint = await refused(fetch(${JSON.stringify(`${service.url}/oauth/token`)}, { method: 'POST', body: new URLSearchParams({ grant_type: 'x' }) }));
      return out;
    })()`;
    const evaluated = await cdp.send('Runtime.evaluate', { expression: script, awaitPromise: true, returnByValue: true }, page, 30_000);
    assert.equal(evaluated.exceptionDetails, undefined, JSON.stringify(evaluated.exceptionDetails));
    const out = evaluated.result.value;
    assert.equal(out.list.status, 200);
    assert.equal(out.list.kind, 'calendar#calendarList');
    assert.match(out.list.etag, /^"/, 'ETag is exposed to the script');
    assert.deepEqual(out.created, { status: 200, etag: true });
    assert.deepEqual(out.patched, { status: 200, summary: 'renamed' });
    assert.equal(out.stale, 412);
    assert.equal(out.removed, 204);
    assert.deepEqual(out.anonymous, { status: 401, challenge: 'Bearer', reason: 'authError' });
    assert.equal(out.badToken, 401);
    assert.equal(out.query, 200);
    assert.equal(out.me, 'aiko.tanaka@example.com');
    // the browser itself refuses what the service does not grant
    assert.equal(out.unknownHeader, 'TypeError');
    assert.equal(out.management, 'TypeError');
    assert.equal(out.tokenEndpoint, 'TypeError');
    // the bearer header made Chromium send real preflights before the calls
    assert.ok(sent.some((m) => m.startsWith('OPTIONS')), `no preflight seen: ${sent.join(', ')}`);
  });
});
