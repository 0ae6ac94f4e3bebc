// The inspector page's view of invitations (docs/inspector.md, docs/invitations.md) in headless
// Chromium over CDP: an event on Aiko's calendar opens, from the keyboard, on its attendees and
// their answers, and the Outbox panel shows the e-mails a Calendar API write with sendUpdates
// would have sent, newest first, until Clear outbox empties it. The panel reads the outbox in
// pages: the newest 100 of however many it holds, and then only what came after them.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BROWSER_SKIP, launchChromiumFor } from '../_helpers/cdp.ts';
import { api, tokenFor } from '../_helpers/calendar.ts';
import { openPage } from '../_helpers/page.ts';
import { call } from '../_helpers/service.ts';
import { AIKO, BEN, EXTERNAL, worldFixture } from '../invitations/world.ts';
import { start } from '../../src/index.ts';

// Sunday 2030-03-10, 18:00 in Tokyo.
const KICKOFF = {
  id: 'kickoff0310',
  summary: 'Kickoff',
  start: { dateTime: '2030-03-10T09:00:00Z' },
  end: { dateTime: '2030-03-10T10:00:00Z' },
  attendees: [
    { email: AIKO, organizer: true, responseStatus: 'accepted' },
    { email: BEN, responseStatus: 'accepted', comment: 'Bringing the slides' },
    { email: EXTERNAL, optional: true },
  ],
};

describe('the inspector page shows attendees and the outbox, in Chromium (docs/inspector.md, docs/invitations.md)', { skip: BROWSER_SKIP, timeout: 120_000 }, () => {
  it("opens an event on its attendees' answers, lists the mail of a sendUpdates write newest first, and Clear outbox empties it", async (t) => {
    const service = await start({ port: 0, fixture: worldFixture([KICKOFF]) });
    const browser = await launchChromiumFor(t, service);
    const { url } = service;
    const page = await openPage(browser, `${url}/__svc/ui?user=user-aiko&date=2030-03-10`);
    await page.waitUntil(`document.body.dataset.ready === 'true'`, 'its panels loaded');
    const event = `document.querySelector('[data-date="2030-03-10"] [data-event-id="kickoff0310"]')`;
    await page.waitUntil(event, 'the kickoff');
    assert.match(await page.evaluate<string>(`${event}.textContent`), /^18:00–19:00 Kickoff.*3 guests/);
    assert.match(await page.evaluate<string>(`document.getElementById('outbox-messages').textContent`), /The outbox is empty\./, 'loading a fixture sends nothing');

    // Opened with the keyboard in the side panel: focus on the event, Enter.
    await page.evaluate(`${event}.focus()`);
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }, page.session);
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 }, page.session);
    await page.waitUntil(`!document.getElementById('event-panel').hidden`, 'the kickoff opened');
    assert.equal(await page.evaluate(`document.getElementById('event-panel-title').textContent`), 'Kickoff');
    const attendees = await page.evaluate<string[]>(`[...document.querySelectorAll('#event-panel ul.attendees li')].map((li) => li.textContent)`);
    assert.equal(attendees.length, 3);
    assert.match(attendees[0] ?? '', new RegExp(`^${AIKO}: accepted.*organizer.*this calendar`));
    assert.match(attendees[1] ?? '', new RegExp(`^${BEN}: accepted.*Bringing the slides`));
    assert.match(attendees[2] ?? '', new RegExp(`^${EXTERNAL}: needsAction.*optional`));
    assert.ok(await page.evaluate(`document.querySelector('#event-panel ul.attendees').checkVisibility()`), 'shown on the page');

    // Two writes: a new event inviting Ben and the guest, then a change only the guest hears of.
    const token = await tokenFor(url, 'calendar');
    const created = await api(url, token, 'calendars/primary/events?sendUpdates=all', {
      method: 'POST',
      body: { summary: 'Retro', start: { dateTime: '2030-03-20T09:00:00Z' }, end: { dateTime: '2030-03-20T10:00:00Z' }, attendees: [{ email: BEN }, { email: EXTERNAL }] },
    });
    assert.equal(created.status, 200, created.text);
    assert.equal((await api(url, token, 'calendars/primary/events/kickoff0310?sendUpdates=externalOnly', { method: 'PATCH', body: { summary: 'Kickoff, moved' } })).status, 200);
    const rows = `[...document.querySelectorAll('#outbox-messages tbody tr')].map((tr) => [...tr.cells].slice(1).map((td) => td.textContent))`;
    await page.waitUntil(`${rows}.length === 3`, 'three messages in the Outbox panel');
    // Newest first; within one write, one message per attendee in the order the API keeps.
    assert.deepEqual(await page.evaluate(rows), [
      [EXTERNAL, 'update', 'Kickoff, moved', 'user-aiko', 'kickoff0310'],
      [EXTERNAL, 'invitation', 'Retro', 'user-aiko', created.json.id],
      [BEN, 'invitation', 'Retro', 'user-aiko', created.json.id],
    ]);
    const messages = (await call(`${url}/__svc/outbox`)).json.messages;
    assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('#outbox-messages tbody tr')].map((tr) => tr.cells[0].textContent)`), messages.map((m: { at: string }) => m.at).reverse());

    await browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 360, height: 740, deviceScaleFactor: 1, mobile: false }, page.session);
    assert.ok(await page.evaluate(`document.documentElement.scrollWidth <= innerWidth`), 'the outbox and the attendees fit a 360 px window');

    await page.click('Clear outbox');
    await page.waitUntil(`document.getElementById('outbox-messages').textContent.includes('The outbox is empty.')`, 'the outbox emptied');
    assert.deepEqual((await call(`${url}/__svc/outbox`)).json.messages, []);
    assert.deepEqual(page.problems, []);
  });
  it('shows the newest 100 messages of a full outbox, then reads only what comes after them, dropping what the outbox dropped', async (t) => {
    const service = await start({ port: 0, fixture: worldFixture() });
    const browser = await launchChromiumFor(t, service);
    const { url } = service;
    const token = await tokenFor(url, 'calendar');
    const mail = async (guests: number, name: string) => {
      const attendees = Array.from({ length: guests }, (_, i) => ({ email: `${name}-${i}@elsewhere.example.org` }));
      const answer = await api(url, token, 'calendars/primary/events?sendUpdates=all', {
        method: 'POST',
        body: { summary: name, start: { dateTime: '2030-03-20T09:00:00Z' }, end: { dateTime: '2030-03-20T10:00:00Z' }, attendees },
      });
      assert.equal(answer.status, 200, answer.text);
    };
    // 12,000 messages written, 10,000 held.
    for (let write = 0; write < 6; write++) await mail(2000, `w${write}`);
    const page = await openPage(browser, `${url}/__svc/ui`);
    await browser.cdp.send('Network.enable', {}, page.session);
    const reads: string[] = [];
    browser.cdp.on('Network.requestWillBeSent', page.session, (p) => {
      const address = new URL(p.request.url);
      if (address.pathname === '/__svc/outbox') reads.push(address.search);
    });
    const caption = `document.querySelector('#outbox-messages caption')?.textContent`;
    const toColumn = `[...document.querySelectorAll('#outbox-messages tbody tr')].map((tr) => tr.cells[1].textContent)`;
    await page.waitUntil(`${caption} === 'The newest 100 of 10000 messages (newest first)'`, 'the newest 100 of 10,000');
    const shown = await page.evaluate<string[]>(toColumn);
    assert.equal(shown[0], 'w5-1999@elsewhere.example.org');
    assert.equal(shown[99], 'w5-1900@elsewhere.example.org');

    await mail(3, 'late');
    await page.waitUntil(`${toColumn}[0] === 'late-2@elsewhere.example.org'`, 'the three new messages on top');
    assert.equal(await page.evaluate(`${toColumn}[3]`), 'w5-1999@elsewhere.example.org');
    // Every read was the one-message probe, or began at most 100 below the newest.
    const last = (await call(`${url}/__svc/outbox?limit=1`)).json.last;
    for (const query of reads) {
      const params = new URLSearchParams(query);
      const since = Number(params.get('since'));
      assert.ok(params.get('limit') === '1' ? since === 0 : since >= last - 103, query);
    }
    assert.ok(reads.length > 0);

    // Emptied by a reset and written again: the panel shows only what the outbox holds now.
    assert.equal((await call(`${url}/__svc/reset`, { method: 'POST' })).status, 204);
    const again = await tokenFor(url, 'calendar');
    const answer = await api(url, again, 'calendars/primary/events?sendUpdates=all', {
      method: 'POST',
      body: { summary: 'After', start: { dateTime: '2030-03-20T09:00:00Z' }, end: { dateTime: '2030-03-20T10:00:00Z' }, attendees: [{ email: EXTERNAL }] },
    });
    assert.equal(answer.status, 200);
    await page.waitUntil(`${caption} === '1 message (newest first)'`, 'the one message written after the reset');
    assert.deepEqual(await page.evaluate(toColumn), [EXTERNAL]);
    assert.deepEqual(page.problems, []);
  });
});
