// The inspector's first minute (docs/inspector.md) in headless Chromium over CDP: the week drawn as a
// calendar draws it, each event box measured against its times in the calendar's zone (a New York
// week with the 2026-11-01 change from EDT to EST), overlapping events side by side, the all-day
// strip on top, free time drawn as outlines; the page opening on the week of the nearest event,
// and an empty week saying where the next one is; an API error next to the form that caused it;
// an opened event in a side panel with room for its JSON; tables that break between words only.
// Each test saves screenshots (test/_helpers/screenshots.ts) for a person to look at.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BROWSER_SKIP, launchChromiumFor } from '../_helpers/cdp.ts';
import type { Browser } from '../_helpers/cdp.ts';
import { api, tokenFor } from '../_helpers/calendar.ts';
import { eventually, openPage } from '../_helpers/page.ts';
import type { Page } from '../_helpers/page.ts';
import { resize, screenshot } from '../_helpers/screenshots.ts';
import { postJson } from '../_helpers/service.ts';
import { startWebhook } from '../_helpers/webhook.ts';
import { start } from '../../src/index.ts';

const CLEO = 'cleo.diaz@example.com';
const at = (date: string, time: string, offset: string) => ({ dateTime: `${date}T${time}:00${offset}` });
const EDT = '-04:00';
const EST = '-05:00';

// Cleo's week of Monday 2026-10-26 in New York; on Sunday 2026-11-01 the clocks go back at 02:00.
const EVENTS = [
  { id: 'standup1026', summary: 'Standup', start: at('2026-10-26', '09:00', EDT), end: at('2026-10-26', '10:30', EDT) },
  { id: 'designa1027', summary: 'Design A', start: at('2026-10-27', '13:00', EDT), end: at('2026-10-27', '15:00', EDT) },
  { id: 'designb1027', summary: 'Design B', start: at('2026-10-27', '14:00', EDT), end: at('2026-10-27', '16:00', EDT) },
  { id: 'after1027', summary: 'After the designs', start: at('2026-10-27', '16:00', EDT), end: at('2026-10-27', '17:00', EDT) },
  { id: 'vacation1028', summary: 'Vacation', start: { date: '2026-10-28' }, end: { date: '2026-10-29' } },
  { id: 'declined1028', summary: 'Declined sync', start: at('2026-10-28', '10:00', EDT), end: at('2026-10-28', '11:00', EDT), attendees: [{ email: CLEO, responseStatus: 'declined' }, { email: 'guest@elsewhere.example.org' }] },
  { id: 'focus1028', summary: 'Focus time', transparency: 'transparent', start: at('2026-10-28', '14:00', EDT), end: at('2026-10-28', '16:00', EDT) },
  { id: 'cancelled1029', summary: 'Called off', status: 'cancelled', start: at('2026-10-29', '10:00', EDT), end: at('2026-10-29', '11:00', EDT) },
  { id: 'overnight1029', summary: 'Overnight deploy', start: at('2026-10-29', '22:00', EDT), end: at('2026-10-30', '02:00', EDT) },
  { id: 'trip1030', summary: 'Trip', start: { date: '2026-10-30' }, end: { date: '2026-11-01' } },
  // 07:00 every day in New York, on both sides of the change, for ten days.
  { id: 'morningrun', summary: 'Morning run', start: { dateTime: '2026-10-30T07:00:00', timeZone: 'America/New_York' }, end: { dateTime: '2026-10-30T08:00:00', timeZone: 'America/New_York' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=10'] },
  // Four hours from 00:30 EDT to 03:30 EST: three hour rows on the wall clock.
  { id: 'dstnight1101', summary: 'Night of the change', start: at('2026-11-01', '00:30', EDT), end: at('2026-11-01', '03:30', EST) },
  { id: 'brunch1101', summary: 'Brunch', start: at('2026-11-01', '11:00', EST), end: at('2026-11-01', '12:00', EST) },
];

const FIXTURE = {
  clients: [{ id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUris: ['http://127.0.0.1:3000/oauth2callback'] }],
  users: [
    { id: 'user-cleo', name: 'Cleo Diaz', email: CLEO, timeZone: 'America/New_York', calendars: [{ primary: true, events: EVENTS }] },
    { id: 'user-empty', name: 'Emma Empty', email: 'emma@example.com', timeZone: 'Europe/London' },
    // More past events than the view lists at once (2,500): the latest is past the first page.
    {
      id: 'user-past', name: 'Pat Past', email: 'pat@example.com', timeZone: 'UTC',
      calendars: [{ primary: true, events: [{ id: 'standingnote', summary: 'Daily log', start: { dateTime: '2010-01-01T06:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2010-01-01T06:15:00Z', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=3000'] }] }],
    },
  ],
};

// Where each timed box must be: its day, and its first and last minute on that day's wall clock.
const BOXES: [id: string, date: string, from: string, to: string][] = [
  ['standup1026', '2026-10-26', '09:00', '10:30'],
  ['designa1027', '2026-10-27', '13:00', '15:00'],
  ['designb1027', '2026-10-27', '14:00', '16:00'],
  ['after1027', '2026-10-27', '16:00', '17:00'],
  ['declined1028', '2026-10-28', '10:00', '11:00'],
  ['focus1028', '2026-10-28', '14:00', '16:00'],
  ['cancelled1029', '2026-10-29', '10:00', '11:00'],
  ['overnight1029', '2026-10-29', '22:00', '24:00'],
  ['overnight1029', '2026-10-30', '00:00', '02:00'],
  ['morningrun_20261030T110000Z', '2026-10-30', '07:00', '08:00'],
  ['morningrun_20261031T110000Z', '2026-10-31', '07:00', '08:00'],
  ['morningrun_20261101T120000Z', '2026-11-01', '07:00', '08:00'],
  ['dstnight1101', '2026-11-01', '00:30', '03:30'],
  ['brunch1101', '2026-11-01', '11:00', '12:00'],
];

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

describe("the inspector's week, errors and side panel in Chromium (docs/inspector.md)", { skip: BROWSER_SKIP, timeout: 180_000 }, () => {
  /** A service with `fixture`, its clock at `now`, and the inspector open at `path`, 1280 × 900. */
  async function setup(t: { after(fn: () => unknown): void }, path: string, now = '2026-10-20T12:00:00Z', fixture: object = FIXTURE): Promise<{ url: string; browser: Browser; page: Page }> {
    const service = await start({ port: 0, fixture });
    const browser = await launchChromiumFor(t, service);
    assert.equal((await postJson(`${service.url}/__svc/clock`, { now })).status, 200);
    const page = await openPage(browser, 'about:blank');
    await resize(browser, page, 1280, 900);
    await page.evaluate(`location.href = ${JSON.stringify(`${service.url}${path}`)}`);
    await eventually(() => page.evaluate(`document.readyState === 'complete' && document.body?.dataset.ready === 'true'`).catch(() => false), 'the inspector loaded');
    return { url: service.url, browser, page };
  }

  const rect = (page: Page, selector: string) => page.evaluate<Rect | null>(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); return el && el.getBoundingClientRect().toJSON(); })()`);
  const box = (id: string, date: string) => `.day[data-date="${date}"] [data-event-id="${id}"]`;

  it('places and sizes each event by its wall-clock times in the calendar zone, across the DST change, overlapping ones side by side', async (t) => {
    const { browser, page } = await setup(t, '/__svc/ui?user=user-cleo&date=2026-10-28');
    await page.waitUntil(`document.querySelector('${box('brunch1101', '2026-11-01')}')`, 'the brunch');
    for (const [id, date, from, to] of BOXES) {
      const column = await rect(page, `.day[data-date="${date}"]`);
      const event = await rect(page, box(id, date));
      assert.ok(column && event, `${id} on ${date}`);
      const minute = (y: number) => ((y - column.top) / column.height) * 1440;
      // A minute is 0.7 px: two minutes leave room for rounding and the 1 px gap under each box.
      assert.ok(Math.abs(minute(event.top) - minutesOf(from)) < 2, `${id} on ${date} starts at ${from}: drawn at minute ${minute(event.top)}`);
      assert.ok(Math.abs(minute(event.bottom) - minutesOf(to)) < 2, `${id} on ${date} ends at ${to}: drawn until minute ${minute(event.bottom)}`);
      assert.ok(event.left >= column.left - 1 && event.right <= column.right + 1, `${id} inside its day's column`);
    }
    // Overlapping: side by side, each half the column; the one after them: the whole width.
    const tuesday = (await rect(page, '.day[data-date="2026-10-27"]')) as Rect;
    const [a, b, after] = await Promise.all(['designa1027', 'designb1027', 'after1027'].map((id) => rect(page, box(id, '2026-10-27')))) as Rect[] as [Rect, Rect, Rect];
    assert.ok(a.right <= b.left + 1, `Design A left of Design B (${a.right} ≤ ${b.left})`);
    for (const half of [a, b]) assert.ok(Math.abs(half.width - tuesday.width / 2) < 4, `half the column: ${half.width} of ${tuesday.width}`);
    assert.ok(after.width > tuesday.width - 6, `the whole column: ${after.width} of ${tuesday.width}`);
    // Every day is 24 hour rows, the 25-hour Sunday too, with the hours down the side.
    const heights = await page.evaluate<number[]>(`[...document.querySelectorAll('.day')].map((d) => d.getBoundingClientRect().height)`);
    assert.equal(new Set(heights).size, 1, heights.join(', '));
    assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('.hours span')].map((s) => s.textContent)`), Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`));

    // All-day events in the strip on top of their days, none among the hours.
    const strip = (date: string) => page.evaluate<string[]>(`[...document.querySelectorAll('.day-head[data-date="${date}"] [data-event-id]')].map((e) => e.dataset.eventId)`);
    assert.deepEqual(await strip('2026-10-28'), ['vacation1028']);
    assert.deepEqual(await strip('2026-10-30'), ['trip1030']);
    assert.deepEqual(await strip('2026-10-31'), ['trip1030']);
    assert.deepEqual(await strip('2026-11-01'), [], 'the end date is exclusive');
    assert.equal(await page.evaluate(`document.querySelectorAll('.day .all-day').length`), 0);
    const head = (await rect(page, '.day-head[data-date="2026-10-28"]')) as Rect;
    const holiday = (await rect(page, '[data-event-id="vacation1028"]')) as Rect;
    assert.ok(holiday.top >= head.top && holiday.bottom <= head.bottom, 'inside the day head');
    await page.evaluate(`document.getElementById('week-grid').scrollTop = 0`);
    assert.ok(head.bottom <= ((await rect(page, '.day[data-date="2026-10-28"]')) as Rect).top + 1, 'above the hours');

    // Busy boxes filled; transparent, declined and cancelled ones outlined, and marked in words.
    const look = (id: string) =>
      page.evaluate<{ classes: string; text: string; background: string }>(
        `(() => { const el = document.querySelector('[data-event-id="${id}"]'); return { classes: el.className, text: el.textContent, background: getComputedStyle(el).backgroundColor }; })()`,
      );
    const busy = await look('standup1026');
    assert.match(busy.classes, /\bbusy\b/);
    for (const [id, mark] of [['focus1028', 'free'], ['declined1028', 'declined'], ['cancelled1029', 'cancelled']]) {
      const free = await look(id as string);
      assert.match(free.classes, /\bleaves-free\b/, id);
      assert.match(free.text, new RegExp(mark as string), id);
      assert.notEqual(free.background, busy.background, `${id} not filled as a busy event`);
    }
    assert.match((await look('cancelled1029')).classes, /\bcancelled\b/);
    assert.match((await look('declined1028')).classes, /\bdeclined\b/);
    assert.match((await look('focus1028')).classes, /\btransparent\b/);
    assert.match((await look('morningrun_20261101T120000Z')).text, /^07:00–08:00 Morning run.*recurring/);

    await page.evaluate(`document.getElementById('week').scrollIntoView()`);
    await screenshot(t, browser, page, 'inspector-week-1280');
    assert.deepEqual(page.problems, []);
  });

  it('opens on the week of the next event, else the latest; an empty week says where the next one is, with a button to go there', async (t) => {
    const { url, browser, page } = await setup(t, '/__svc/ui?user=user-cleo');
    await page.waitUntil(`document.querySelector('.day')?.dataset.date === '2026-10-26'`, 'the week of the standup, the next event');
    assert.equal(await page.evaluate(`document.getElementById('week-date').value`), '2026-10-26');
    assert.match(await page.evaluate<string>(`document.getElementById('week-notice').textContent`), /next event: “Standup”, Mon 26 Oct 2026, 09:00/);
    assert.equal(await page.evaluate(`location.search`), '?user=user-cleo&date=2026-10-26');

    // Nothing after the clock: the latest event, the last morning run (Sunday 2026-11-08).
    assert.equal((await postJson(`${url}/__svc/clock`, { now: '2027-06-01T12:00:00Z' })).status, 200);
    const later = await openPage(browser, `${url}/__svc/ui?user=user-cleo`);
    await later.waitUntil(`document.querySelector('.day')?.dataset.date === '2026-11-02'`, 'the week of the last morning run');
    assert.match(await later.evaluate<string>(`document.getElementById('week-notice').textContent`), /latest event \(none is coming\): “Morning run”, Sun 8 Nov 2026, 07:00/);

    // An empty week of the address: where the next event is, and a button that goes there.
    const empty = await openPage(browser, `${url}/__svc/ui?user=user-cleo&date=2026-10-14`);
    await resize(browser, empty, 1280, 900);
    const notice = `document.getElementById('week-notice').textContent`;
    await empty.waitUntil(`${notice}.includes('No events this week.')`, 'the empty week said');
    assert.match(await empty.evaluate<string>(notice), /^No events this week\. The next one: “Standup”, Mon 26 Oct 2026, 09:00\. Go to that week$/);
    await screenshot(t, browser, empty, 'inspector-empty-week');
    await empty.click('Go to that week', '#week-notice');
    await empty.waitUntil(`document.querySelector('.day')?.dataset.date === '2026-10-26'`, 'the week of the standup');
    assert.equal(await empty.evaluate(`location.search`), '?user=user-cleo&date=2026-10-26');
    await empty.waitUntil(`${notice} === ''`, 'nothing more to say');

    // After the last event: the latest one; a calendar with none says so.
    await empty.click('Next week');
    await empty.click('Next week');
    await empty.waitUntil(`${notice}.includes('The latest one: “Morning run”, Sun 8 Nov 2026, 07:00.')`, 'the latest event named');
    const none = await openPage(browser, `${url}/__svc/ui?user=user-empty`);
    await none.waitUntil(`document.getElementById('week-notice').textContent.includes('this calendar has none')`, 'no events anywhere');
    // The 3,000th day of the log, 2018-03-19, found past the view's first 2,500.
    const past = await openPage(browser, `${url}/__svc/ui?user=user-past`);
    await past.waitUntil(`document.querySelector('.day')?.dataset.date === '2018-03-19'`, 'the week of the last daily log');
    assert.match(await past.evaluate<string>(`document.getElementById('week-notice').textContent`), /latest event \(none is coming\): “Daily log”, Mon 19 Mar 2018, 06:00/);
    for (const p of [page, later, empty, none, past]) assert.deepEqual(p.problems, []);
  });

  it("shows an API error right after the form that caused it, not at the top of the page, and a later success clears it", async (t) => {
    const { browser, page } = await setup(t, '/__svc/ui?user=user-cleo&date=2026-10-26');
    const errorAfter = (form: string) =>
      page.evaluate<{ text: string; gap: number } | null>(`(() => {
        const form = document.getElementById(${JSON.stringify(form)});
        const slot = form.nextElementSibling;
        const error = slot?.classList.contains('error-slot') ? slot.querySelector('.error') : null;
        return error && { text: error.textContent, gap: error.getBoundingClientRect().top - form.getBoundingClientRect().bottom };
      })()`);
    await page.fill('Method', 'calendar.events.list', '#fault-form');
    await page.fill('Error', 'invalid_grant', '#fault-form');
    await page.click('Add fault');
    await eventually(() => errorAfter('fault-form'), 'the 400 after the fault form');
    const fault = (await errorAfter('fault-form'))!;
    assert.match(fault.text, /^POST \/__svc\/faults answered 400\. invalid_fault/);
    assert.ok(fault.gap >= 0 && fault.gap < 20, `right under the form (${fault.gap} px)`);

    await page.fill('New time (RFC 3339)', 'next Tuesday');
    await page.click('Set clock');
    await eventually(() => errorAfter('clock-set'), 'the 400 after the clock form');
    assert.match((await errorAfter('clock-set'))!.text, /^POST \/__svc\/clock answered 400\./);

    await page.fill('Fixture JSON', '{"users": [{"id": 1}]}');
    await page.click('Load pasted fixture');
    await eventually(() => errorAfter('fixture-text'), 'the 400 after the fixture form');
    assert.match((await errorAfter('fixture-text'))!.text, /^POST \/__svc\/fixtures answered 400\. invalid_fixture/);
    assert.equal(await page.evaluate(`document.getElementById('errors').childElementCount`), 0, 'nothing at the top of the page');
    await page.evaluate(`document.getElementById('clock-set').scrollIntoView({ block: 'center' })`);
    await screenshot(t, browser, page, 'inspector-errors-by-their-forms');

    await page.fill('New time (RFC 3339)', '2026-10-27T09:00:00Z');
    await page.click('Set clock');
    await page.waitUntil(`document.getElementById('clock-now').textContent.includes('2026-10-27T09:00')`, 'the set clock');
    assert.equal(await errorAfter('clock-set'), null, 'cleared by the success');
    assert.ok(await errorAfter('fault-form'), 'the other forms keep theirs');
  });

  it('opens an event in a side panel with room for its JSON, from the mouse or the keyboard, and gives the focus back on Escape', async (t) => {
    const { browser, page } = await setup(t, '/__svc/ui?user=user-cleo&date=2026-10-26');
    const standup = `document.querySelector('${box('standup1026', '2026-10-26')}')`;
    await page.waitUntil(standup, 'the standup');
    await page.evaluate(`${standup}.click()`);
    await page.waitUntil(`!document.getElementById('event-panel').hidden`, 'the panel open');
    assert.equal(await page.evaluate(`document.activeElement.id`), 'event-panel-title', 'the focus in the panel');
    assert.equal(await page.evaluate(`document.getElementById('event-panel-title').textContent`), 'Standup');
    const panel = (await rect(page, '#event-panel')) as Rect;
    const grid = (await rect(page, '#week-grid')) as Rect;
    const day = (await rect(page, '.day[data-date="2026-10-26"]')) as Rect;
    assert.ok(panel.width >= 0.4 * 1280, `the panel is ${panel.width} px wide of 1280`);
    assert.ok(panel.width >= 3 * day.width, `not a day's width (${panel.width} against ${day.width})`);
    assert.ok(grid.right <= panel.left, 'beside the week, not over it');
    const json = await page.evaluate<{ text: string; fits: boolean }>(`(() => { const pre = document.querySelector('#event-panel pre.json'); return { text: pre.textContent, fits: pre.scrollWidth <= pre.clientWidth }; })()`);
    assert.equal(JSON.parse(json.text).id, 'standup1026');
    assert.ok(json.fits, 'the JSON needs no sideways scrolling');
    assert.equal(await page.evaluate(`${standup}.getAttribute('aria-expanded')`), 'true');
    await page.evaluate(`document.getElementById('week').scrollIntoView()`);
    await screenshot(t, browser, page, 'inspector-event-panel-1280');

    const key = async (key: string, code: string, keyCode: number) => {
      await browser.cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key, code, windowsVirtualKeyCode: keyCode }, page.session);
      await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode }, page.session);
    };
    await key('Escape', 'Escape', 27);
    await page.waitUntil(`document.getElementById('event-panel').hidden`, 'the panel closed');
    assert.equal(await page.evaluate(`document.activeElement.dataset.eventId`), 'standup1026', 'the focus back on the event');

    // A narrow window: the panel covers it, the page does not scroll sideways, Close closes it.
    await resize(browser, page, 360, 740);
    const brunch = box('brunch1101', '2026-11-01');
    await page.evaluate(`document.querySelector('${brunch}').focus()`);
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }, page.session);
    await browser.cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 }, page.session);
    await page.waitUntil(`document.getElementById('event-panel-title').textContent === 'Brunch' && !document.getElementById('event-panel').hidden`, 'the brunch opened with Enter');
    const narrow = (await rect(page, '#event-panel')) as Rect;
    assert.equal(narrow.width, await page.evaluate(`document.documentElement.clientWidth`), 'the whole window');
    assert.ok(await page.evaluate(`document.documentElement.scrollWidth <= innerWidth`), 'nothing wider than the window');
    await screenshot(t, browser, page, 'inspector-event-panel-360');
    await page.click('Close', '#event-panel');
    await page.waitUntil(`document.getElementById('event-panel').hidden && document.activeElement.dataset.eventId === 'brunch1101'`, 'closed, the focus back');
    await page.evaluate(`document.getElementById('week').scrollIntoView()`);
    await screenshot(t, browser, page, 'inspector-week-360');
    assert.deepEqual(page.problems, []);
  });

  it('breaks table cells between words only at 1280 px', async (t) => {
    const hook = await startWebhook(t);
    const { url, browser, page } = await setup(t, '/__svc/ui?user=user-cleo&date=2026-10-26');
    const token = await tokenFor(url, 'calendar', 'user-cleo');
    const watch = await api(url, token, 'calendars/primary/events/watch', { method: 'POST', body: { id: 'inspected-channel-with-a-long-name', type: 'web_hook', address: `${hook.url}/notifications/calendar` } });
    assert.equal(watch.status, 200, watch.text);
    const write = await api(url, token, 'calendars/primary/events?sendUpdates=all', {
      method: 'POST',
      body: { summary: 'Quarterly planning with the partners', start: at('2026-10-28', '09:00', EDT), end: at('2026-10-28', '10:00', EDT), attendees: [{ email: 'partner.relations@elsewhere.example.org' }] },
    });
    assert.equal(write.status, 200, write.text);
    const rule = { match: { method: 'calendar.events.list', calendarId: CLEO, userId: 'user-cleo', clientId: 'local-calendar-client', syncToken: true }, error: 'tooManyRequests', retryAfterSeconds: 30, delayMs: 250, afterMatches: 2, times: 3 };
    assert.equal((await postJson(`${url}/__svc/faults`, rule)).status, 201);
    await hook.waitFor('/notifications/calendar', 1);
    const tables = ['#connections', '#channels', '#fault-list', '#outbox-messages'];
    await page.waitUntil(tables.map((scope) => `document.querySelector('${scope} tbody tr')`).join(' && '), 'every table filled');

    // Every word (a run without white space) of every cell on one line.
    const split = await page.evaluate<string[]>(`(() => {
      const split = [];
      for (const cell of document.querySelectorAll(${JSON.stringify(tables.map((scope) => `${scope} :is(th, td)`).join(', '))})) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const word of node.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) split.push(word[0]);
          }
        }
      }
      return split;
    })()`);
    assert.deepEqual(split, [], 'words broken across lines');
    const scrolled = await page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(tables.map((scope) => `${scope} table`).join(', '))})].filter((table) => table.scrollWidth > table.clientWidth).map((table) => table.caption.textContent)`);
    assert.deepEqual(scrolled, [], 'tables that do not fit the window');
    assert.ok(await page.evaluate(`document.documentElement.scrollWidth <= innerWidth`), 'nothing wider than the window');
    await page.evaluate(`document.getElementById('access').scrollIntoView()`);
    await screenshot(t, browser, page, 'inspector-tables-1280');
    assert.deepEqual(page.problems, []);
  });
});
