// The inspector page (docs/inspector.md) in headless Chromium over CDP, against a service
// started with the default fixture: it loads under its CSP with nothing reported wrong, shows
// Aiko's week of 2026-10-19 in Tokyo time from the deep link, follows calls an app makes in its
// journal, and its forms and buttons add faults, revoke connections, move the clock, load a
// fixture and reset the workspace. A page on another port can neither frame it nor use the API
// and assets behind it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { BROWSER_SKIP, launchChromiumFor } from '../_helpers/cdp.ts';
import type { Browser } from '../_helpers/cdp.ts';
import { api, tokenFor } from '../_helpers/calendar.ts';
import { eventually, openPage } from '../_helpers/page.ts';
import type { Page } from '../_helpers/page.ts';
import { call, postJson } from '../_helpers/service.ts';
import { startWebhook } from '../_helpers/webhook.ts';
import { start } from '../../src/index.ts';

const AIKO_WEEK = '/__svc/ui?user=user-aiko&date=2026-10-19';

describe('the inspector page in Chromium (docs/inspector.md)', { skip: BROWSER_SKIP, timeout: 180_000 }, () => {
  // One cleanup, browser first: the service's close() waits for the browser's open connections.
  async function launch(t: { after(fn: () => unknown): void }): Promise<{ url: string; browser: Browser }> {
    const service = await start({ port: 0 });
    const browser = await launchChromiumFor(t, service);
    return { url: service.url, browser };
  }

  /** A service with the default fixture, and the inspector open at `path` with its panels loaded. */
  async function setup(t: { after(fn: () => unknown): void }, path = AIKO_WEEK): Promise<{ url: string; browser: Browser; page: Page }> {
    const { url, browser } = await launch(t);
    const page = await openPage(browser, `${url}${path}`);
    await page.waitUntil(`document.body.dataset.ready === 'true'`, 'its panels loaded');
    return { url, browser, page };
  }

  /** The text of the event with that id on that date, or null when not there. */
  const eventText = (page: Page, date: string, id: string) =>
    page.evaluate<string | null>(`document.querySelector('[data-date="${date}"] [data-event-id="${id}"]')?.textContent ?? null`);

  it("loads under its CSP with no problem reported, and shows Aiko's week of the deep link in Tokyo time", async (t) => {
    const { page } = await setup(t);
    await page.waitUntil(`document.querySelector('[data-event-id="designrev1019"]')`, 'the design review');
    assert.match((await eventText(page, '2026-10-19', 'designrev1019')) ?? '', /^10:00–11:00 Design review/);
    const lunch = await page.evaluate<{ classes: string; text: string }>(
      `(() => { const el = document.querySelector('[data-date="2026-10-19"] [data-event-id="lunchcanc1019"]'); return { classes: el.className, text: el.textContent } })()`,
    );
    assert.match(lunch.classes, /\bcancelled\b/);
    assert.match(lunch.text, /12:00–13:00 Team lunch \(cancelled\)cancelled/, 'marked with a visible tag');
    assert.match((await eventText(page, '2026-10-19', 'focusblock1019')) ?? '', /14:00–16:00 .*free/, 'transparent: marked free');
    // Monday to Sunday, and the heading names the calendar's time zone
    assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('.day')].map((d) => d.dataset.date)`), [
      '2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23', '2026-10-24', '2026-10-25',
    ]);
    assert.match(await page.evaluate<string>(`document.getElementById('week-heading').textContent`), /Asia\/Tokyo/);
    // every panel filled from the API
    assert.equal(await page.evaluate(`document.querySelectorAll('#users li').length`), 3);
    assert.match(await page.evaluate<string>(`document.getElementById('clock-now').textContent`), /real time/);
    assert.match(await page.evaluate<string>(`document.getElementById('health').textContent`), /store memory/);

    await page.click('Next week');
    await page.waitUntil(`document.querySelector('.day')?.dataset.date === '2026-10-26'`, 'the next week');
    assert.equal(await page.evaluate(`location.search`), '?user=user-aiko&date=2026-10-26', 'the address follows the week');
    await page.click('Previous week');
    await page.click('Previous week');
    await page.waitUntil(`document.querySelector('.day')?.dataset.date === '2026-10-12'`, 'the week before');
    assert.equal(await eventText(page, '2026-10-19', 'designrev1019'), null);
    assert.deepEqual(page.problems, []);
  });

  it("shows Ben's recurring series expanded in London time across the DST change, and his all-day offsite on top", async (t) => {
    const { page } = await setup(t, '/__svc/ui?user=user-ben&date=2026-10-30');
    await page.waitUntil(`document.querySelector('[data-date="2026-10-30"] [data-event-id="offsite1030"]')`, 'the offsite');
    // 09:30 London on both sides of 2026-10-25 (BST, then GMT): expanded in the calendar's zone
    assert.match((await eventText(page, '2026-10-26', 'planning0930_20261026T093000Z')) ?? '', /^09:30–10:00 Weekly planning.*recurring/);
    const friday = await page.evaluate<string[]>(`[...document.querySelectorAll('[data-date="2026-10-30"] .event')].map((e) => e.className)`);
    assert.match(friday[0] ?? '', /all-day/);
    assert.deepEqual(page.problems, []);
  });

  it('a deep link to an unknown user or a bad date says so on the page', async (t) => {
    const { url, browser, page } = await setup(t, '/__svc/ui?user=nobody&date=2026-10-19');
    await page.waitUntil(`document.querySelector('#errors .error')?.textContent.includes('user "nobody"')`, 'the unknown user named');
    assert.equal(await page.evaluate(`document.getElementById('week-heading').textContent`), 'No test user with id "nobody".');
    const other = await openPage(browser, `${url}/__svc/ui?user=user-aiko&date=2026-02-30`);
    await other.waitUntil(`document.querySelector('#errors .error')?.textContent.includes('"2026-02-30" is not a YYYY-MM-DD date')`, 'the bad date named');
    await other.waitUntil(`document.querySelectorAll('.day').length === 7`, "this week instead");
  });

  it('works with the keyboard alone and in a narrow window', async (t) => {
    const { url, browser } = await launch(t);
    const page = await openPage(browser, `${url}${AIKO_WEEK}`);
    await browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 360, height: 740, deviceScaleFactor: 1, mobile: false }, page.session);
    await page.waitUntil(`document.querySelector('[data-event-id="designrev1019"]')`, 'the design review');
    assert.ok(await page.evaluate(`document.documentElement.scrollWidth <= innerWidth`), 'nothing wider than a 360 px window');
    const key = async (key: string, code: string, keyCode: number) => {
      for (const type of ['rawKeyDown', 'keyUp']) await browser.cdp.send('Input.dispatchKeyEvent', { type, key, code, windowsVirtualKeyCode: keyCode }, page.session);
    };
    // Tab from the top of the page to the Next week button, then press Enter on it.
    await page.evaluate(`document.activeElement.blur()`);
    let focused = '';
    for (let presses = 0; presses < 40 && focused !== 'Next week'; presses++) {
      await key('Tab', 'Tab', 9);
      focused = await page.evaluate<string>(`document.activeElement.textContent.trim()`);
    }
    assert.equal(focused, 'Next week', 'reachable with Tab');
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }, page.session);
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 }, page.session);
    await page.waitUntil(`document.querySelector('.day')?.dataset.date === '2026-10-26'`, 'the next week, by keyboard');
    assert.deepEqual(page.problems, []);
  });

  it('lists a calendar call the test makes in the journal, expandable to its whole record and filterable', async (t) => {
    const { url, page } = await setup(t);
    const token = await tokenFor(url, 'calendar');
    assert.equal((await api(url, token, 'users/me/calendarList')).status, 200);
    const entry = `[...document.querySelectorAll('#journal-entries li')].find((li) => li.textContent.includes('calendar.calendarList.list'))`;
    await page.waitUntil(entry, 'the calendarList.list entry');
    assert.match(await page.evaluate<string>(`${entry}.querySelector('summary').textContent`), /^200 GET \/calendar\/v3\/users\/me\/calendarList calendar\.calendarList\.list user-aiko/);
    // The record is laid out when the entry is opened, not before.
    assert.equal(await page.evaluate(`${entry}.querySelector('pre') === null`), true);
    await page.evaluate(`${entry}.querySelector('summary').click()`);
    await page.waitUntil(`${entry}.querySelector('details[open] pre')`, 'the opened record');
    const record = JSON.parse(await page.evaluate<string>(`${entry}.querySelector('details[open] pre').textContent`));
    assert.equal(record.operation, 'calendar.calendarList.list');
    assert.equal(record.clientId, 'local-calendar-client');
    assert.equal(typeof record.connectionId, 'string');
    // newest first: the call came after the token exchange
    assert.match(await page.evaluate<string>(`document.querySelector('#journal-entries li:not([hidden])').textContent`), /calendarList/);

    const visible = `[...document.querySelectorAll('#journal-entries li')].filter((li) => !li.hidden).map((li) => li.querySelector('.operation').textContent)`;
    await page.fill('Operation', 'oauth.token', '#journal');
    assert.deepEqual(await page.evaluate(visible), ['oauth.token']);
    await page.fill('Operation', '', '#journal');
    await page.fill('Status', '4xx', '#journal');
    assert.deepEqual(await page.evaluate(visible), []);
    await page.fill('Status', '200', '#journal');
    assert.ok((await page.evaluate<string[]>(visible)).includes('calendar.calendarList.list'));
  });

  it('opens on the newest fifty entries of a long journal, not the oldest thousand', async (t) => {
    const { url, browser } = await launch(t);
    for (let i = 0; i < 120; i++) await call(`${url}/nope-${i}`);
    const page = await openPage(browser, `${url}${AIKO_WEEK}`);
    await page.waitUntil(`document.querySelectorAll('#journal-entries li').length >= 50`, 'the first page');
    const ids = await page.evaluate<string[]>(`[...document.querySelectorAll('#journal-entries li')].map((li) => li.dataset.id)`);
    assert.equal(ids.length, 50);
    assert.equal(ids[0], '120');
    assert.equal(ids.at(-1), '71');
  });

  it('a fault added from the form makes the next API call fail with it; an invalid one shows the API error', async (t) => {
    const { url, page } = await setup(t);
    const token = await tokenFor(url, 'calendar');
    await page.fill('Method', 'calendar.events.list', '#fault-form');
    await page.fill('Error', 'serviceUnavailable', '#fault-form');
    await page.click('Add fault');
    await page.waitUntil(`document.querySelector('#fault-list td')?.parentElement.textContent.includes('serviceUnavailable')`, 'the new rule');
    const faulted = await api(url, token, 'calendars/primary/events');
    assert.equal(faulted.status, 503);
    assert.equal(faulted.json.error.message, 'The service is currently unavailable.');
    assert.equal((await api(url, token, 'calendars/primary/events')).status, 200, 'times 1: used up');
    await page.waitUntil(`document.querySelector('#fault-list tbody tr')?.textContent.match(/serviceUnavailable0\\s*1/)`, 'remaining 0 and 1 hit');

    await page.fill('Error', 'invalid_grant', '#fault-form');
    await page.click('Add fault');
    await page.waitUntil(`document.querySelector('#fault-form + .error-slot .error')?.textContent.includes('POST /__svc/faults answered 400. invalid_fault')`, 'the 400');
    await page.click('Delete', '#fault-list');
    await page.waitUntil(`document.querySelector('#fault-list').textContent.includes('No fault rules')`, 'the rule gone');
    assert.deepEqual((await call(`${url}/__svc/faults`)).json.faults, []);
  });

  it("Revoke kills the connection's token", async (t) => {
    const { url, page } = await setup(t);
    const token = await tokenFor(url, 'calendar');
    assert.equal((await api(url, token, 'users/me/calendarList')).status, 200);
    const [connection] = (await call(`${url}/__svc/connections`)).json.connections;
    // the token exchange in the journal makes the page reload its connections
    await page.waitUntil(`document.querySelector('#connections').textContent.includes(${JSON.stringify(connection.id)})`, 'the connection');
    await page.click('Revoke', '#connections');
    await page.waitUntil(`document.querySelector('#connections').textContent.includes('No connections')`, 'no connections');
    const answer = await api(url, token, 'users/me/calendarList');
    assert.equal(answer.status, 401);
    assert.equal(answer.json.error.errors[0].reason, 'authError');
  });

  it('shows a push channel with its delivery log', async (t) => {
    const hook = await startWebhook(t);
    const { url, page } = await setup(t);
    const token = await tokenFor(url, 'calendar');
    const watch = await api(url, token, 'calendars/primary/events/watch', { method: 'POST', body: { id: 'inspected-channel', type: 'web_hook', address: `${hook.url}/h` } });
    assert.equal(watch.status, 200, watch.text);
    await hook.waitFor('/h', 1);
    const channel = `[...document.querySelectorAll('#channels article')].find((a) => a.querySelector('h3').textContent === 'Channel inspected-channel')`;
    await page.waitUntil(`${channel}?.querySelector('tbody tr')`, 'the sync message in the delivery log');
    assert.deepEqual(await page.evaluate(`[...${channel}.querySelectorAll('tbody td')].slice(0, 5).map((td) => td.textContent)`), ['1', 'sync', '1', 'delivered', '200']);
    assert.match(await page.evaluate<string>(`${channel}.querySelector('dl').textContent`), new RegExp(`Address${hook.url}/h`));
  });

  it('moves the clock, loads a fixture pasted or from a file, and Reset brings back the startup workspace', async (t) => {
    const { url, browser, page } = await setup(t);
    const token = await tokenFor(url, 'calendar');
    await page.fill('Seconds to advance', '86400');
    await page.click('Advance clock');
    await page.waitUntil(`document.getElementById('clock-now').textContent.includes('+86400 s')`, 'the advanced clock');
    assert.equal((await call(`${url}/__svc/clock`)).json.offsetSeconds, 86400);
    await page.fill('New time (RFC 3339)', '2030-01-02T03:04:05Z');
    await page.click('Set clock');
    await page.waitUntil(`document.getElementById('clock-now').textContent.includes('2030-01-02T03:04')`, 'the set clock');

    const fixture = { clients: [], users: [{ id: 'user-solo', name: 'Solo Tester', email: 'solo@example.com' }] };
    await page.fill('Fixture JSON', JSON.stringify(fixture));
    await page.click('Load pasted fixture');
    await page.waitUntil(`document.getElementById('fixture-result').textContent.includes('1 users')`, 'the load result');
    await page.waitUntil(`document.querySelectorAll('#users li').length === 1`, 'one user');
    assert.deepEqual((await call(`${url}/__svc/users`)).json.users.map((u: { id: string }) => u.id), ['user-solo']);
    // the same through a file chosen in the file input
    const file = join(mkdtempSync(join(tmpdir(), 'inspector-')), 'fixture.json');
    writeFileSync(file, JSON.stringify({ clients: [], users: [{ id: 'user-file', name: 'File Tester', email: 'file@example.com' }] }));
    t.after(() => rmSync(dirname(file), { recursive: true, force: true }));
    const { root } = await browser.cdp.send('DOM.getDocument', {}, page.session);
    const { nodeId } = await browser.cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#fixture-file input[type=file]' }, page.session);
    await browser.cdp.send('DOM.setFileInputFiles', { nodeId, files: [file] }, page.session);
    await page.click('Load fixture file');
    await page.waitUntil(`document.querySelector('#users li')?.textContent.includes('user-file')`, 'the user of the file');

    await page.fill('Fixture JSON', '{"users": [');
    await page.click('Load pasted fixture');
    await page.waitUntil(`document.querySelector('#fixture-text + .error-slot .error')?.textContent.includes('is not JSON')`, 'the parse error');

    await page.click('Reset workspace');
    await page.waitUntil(`document.querySelectorAll('#users li').length === 3`, 'the three users of the default fixture');
    await page.waitUntil(`document.getElementById('clock-now').textContent.includes('real time')`, 'the clock back to real time');
    assert.equal((await call(`${url}/__svc/clock`)).json.offsetSeconds, 0);
    assert.equal((await api(url, token, 'users/me/calendarList')).status, 401, 'reset deleted every token');
    assert.equal(await page.evaluate(`document.querySelector('a[download]').getAttribute('href')`), '/__svc/fixtures');
  });

  it('its destructive buttons ask first: dismissed, nothing is sent; accepted, they act', async (t) => {
    const { url, browser, page } = await setup(t);
    const token = await tokenFor(url, 'calendar');
    const guests = [{ email: 'guest@elsewhere.example.org' }];
    const write = await api(url, token, 'calendars/primary/events?sendUpdates=all', { method: 'POST', body: { summary: 'Mailed', start: { dateTime: '2026-10-20T09:00:00Z' }, end: { dateTime: '2026-10-20T10:00:00Z' }, attendees: guests } });
    assert.equal(write.status, 200, write.text);
    for (const calendarId of ['one@example.com', 'two@example.com']) {
      assert.equal((await postJson(`${url}/__svc/faults`, { match: { method: 'calendar.events.get', calendarId }, error: 'notFound' })).status, 201);
    }
    await page.click('Advance clock');
    await page.waitUntil(`document.querySelectorAll('#fault-list tbody tr').length === 2 && document.querySelector('#connections tbody tr') && document.querySelector('#outbox-messages tbody tr') && document.querySelector('#journal-entries li')`, 'a connection, two rules, a message and journal entries');
    const state = async () => ({
      users: (await call(`${url}/__svc/users`)).json.users.length,
      connections: (await call(`${url}/__svc/connections`)).json.connections.length,
      faults: (await call(`${url}/__svc/faults`)).json.faults.length,
      outbox: (await call(`${url}/__svc/outbox`)).json.messages.length,
      journal: (await call(`${url}/__svc/requests`)).json.requests.length > 0,
      clockMoved: (await call(`${url}/__svc/clock`)).json.offsetSeconds !== 0,
    });
    const before = await state();
    const connectionId: string = (await call(`${url}/__svc/connections`)).json.connections[0].id;
    assert.deepEqual(before, { users: 3, connections: 1, faults: 2, outbox: 1, journal: true, clockMoved: true });

    // Every request the page sends that is not a read; a marker read after the clicks shows that
    // any a click would have sent has been seen.
    await browser.cdp.send('Network.enable', {}, page.session);
    const writes: string[] = [];
    browser.cdp.on('Network.requestWillBeSent', page.session, (p) => {
      if (p.request.method !== 'GET') writes.push(`${p.request.method} ${new URL(p.request.url).pathname}`);
    });
    const settled = async () => {
      const marker = browser.cdp.waitFor('Network.requestWillBeSent', page.session, (p) => p.request.url.endsWith('/__svc/health?marker'));
      await page.evaluate(`fetch('/__svc/health?marker').then((r) => r.status)`);
      await marker;
    };
    await page.fill('Fixture JSON', JSON.stringify({ clients: [], users: [{ id: 'user-solo', name: 'Solo Tester', email: 'solo@example.com' }] }));
    const destructive: [string, string][] = [
      ['Revoke', '#connections'],
      ['Delete', '#fault-list'],
      ['Delete all faults', '#faults'],
      ['Clear outbox', '#outbox'],
      ['Clear journal', '#journal'],
      ['Load pasted fixture', '#workspace'],
      ['Reset workspace', '#workspace'],
    ];
    page.acceptDialogs = false;
    for (const [button, scope] of destructive) await page.click(button, scope);
    await settled();
    assert.deepEqual(writes, [], 'dismissed: nothing sent');
    assert.deepEqual(await state(), before, 'dismissed: nothing changed');
    assert.equal(page.dialogs.length, destructive.length, page.dialogs.join('\n'));
    assert.match(page.dialogs[0] ?? '', /^Revoke connection \S+ \(local-calendar-client for user-aiko\)\? Its tokens stop working at once\.$/);
    assert.match(page.dialogs[1] ?? '', /^Delete fault rule fault-\d+\?$/);
    assert.match(page.dialogs[6] ?? '', /^Reset the workspace to the startup fixture\?/);
    // The keyboard's Enter on a focused button asks too.
    await page.evaluate(`document.getElementById('reset').focus()`);
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }, page.session);
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 }, page.session);
    await eventually(() => page.dialogs.length === destructive.length + 1, 'the question asked on Enter');
    await settled();
    assert.deepEqual(writes.length, 0);

    page.acceptDialogs = true;
    await page.click('Delete', '#fault-list');
    await page.waitUntil(`document.querySelectorAll('#fault-list tbody tr').length === 1`, 'one rule deleted');
    await page.click('Revoke', '#connections');
    await page.waitUntil(`document.querySelector('#connections').textContent.includes('No connections')`, 'the connection revoked');
    await page.click('Clear outbox', '#outbox');
    await page.waitUntil(`document.getElementById('outbox-messages').textContent.includes('The outbox is empty.')`, 'the outbox emptied');
    await page.click('Delete all faults', '#faults');
    await page.waitUntil(`document.querySelector('#fault-list').textContent.includes('No fault rules')`, 'every rule deleted');
    await page.click('Clear journal', '#journal');
    await page.click('Load pasted fixture', '#workspace');
    await page.waitUntil(`document.querySelectorAll('#users li').length === 1`, 'the pasted fixture loaded');
    await page.click('Reset workspace', '#workspace');
    await page.waitUntil(`document.querySelectorAll('#users li').length === 3`, 'the workspace reset');
    await settled();
    assert.deepEqual(writes, [
      'DELETE /__svc/faults/fault-1',
      `POST /__svc/connections/${encodeURIComponent(connectionId)}/revoke`,
      'DELETE /__svc/outbox',
      'DELETE /__svc/faults',
      'DELETE /__svc/requests',
      'POST /__svc/fixtures',
      'POST /__svc/reset',
    ]);
    assert.deepEqual(await state(), { users: 3, connections: 0, faults: 0, outbox: 0, journal: false, clockMoved: false });
    assert.deepEqual(page.problems, []);
  });

  it('a page on another port can neither frame the inspector nor use its assets and API', async (t) => {
    const { url: base, browser } = await launch(t);
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><iframe src="${base}/__svc/ui"></iframe>
        <link rel="stylesheet" href="${base}/__svc/ui/inspector.css"><script src="${base}/__svc/ui/main.js"></script>
        <script>
          const json = { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' } };
          fetch('${base}/__svc/reset', json);
          fetch('${base}/__svc/faults', { ...json, body: '{"match":{"method":"*"},"error":"backendError","times":0}' });
          fetch('${base}/__svc/requests', { mode: 'no-cors' });
        </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    // after the browser's cleanup (hooks run in order): its close() waits for the browser's connections
    t.after(() => new Promise<void>((resolve) => attacker.close(() => resolve())));
    const token = await tokenFor(base, 'calendar');
    const { cdp } = browser;
    const port = (attacker.address() as AddressInfo).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      const session = await browser.newPage();
      await cdp.send('Network.enable', {}, session);
      await cdp.send('Log.enable', {}, session);
      // The status as the network saw it: Chromium withholds a blocked no-cors answer (a JSON 403
      // for a <script>) from responseReceived, but not from responseReceivedExtraInfo.
      const urls = new Map<string, string>();
      const statuses = new Map<string, number>();
      cdp.on('Network.requestWillBeSent', session, (p) => urls.set(p.requestId, p.request.url));
      cdp.on('Network.responseReceivedExtraInfo', session, (p) => statuses.set(p.requestId, p.statusCode));
      const statusOf = (url: string) => [...urls].filter(([, u]) => u === url).map(([id]) => statuses.get(id)).find((status) => status !== undefined);
      const framing = cdp.waitFor('Log.entryAdded', session, (p) => /frame-ancestors/.test(p.entry.text));
      const paths = ['/__svc/reset', '/__svc/faults', '/__svc/requests', '/__svc/ui/main.js', '/__svc/ui/inspector.css'];
      await cdp.send('Page.navigate', { url: `${origin}/` }, session);
      await eventually(() => paths.every((path) => statusOf(`${base}${path}`) !== undefined), `answers to ${paths.join(', ')} from ${origin}`, 15_000);
      for (const path of paths) assert.equal(statusOf(`${base}${path}`), 403, `${path} from ${origin}`);
      // The document itself may be opened from anywhere, but never inside another site's frame.
      assert.match((await framing).entry.text, /frame-ancestors 'none'/);
    }
    assert.deepEqual((await call(`${base}/__svc/faults`)).json.faults, []);
    assert.equal((await api(base, token, 'users/me/calendarList')).status, 200, 'not reset');
  });
});
