// The inspector's week (docs/inspector.md, SECURITY.md) in headless Chromium over CDP, when a series of the
// calendar cannot be expanded: a database written before the per-event recurrence caps holds Ben's
// weekly planning with 120 rule lines. The week still shows his other events, and lists the
// series above the days, marked, with the service's reason; nothing is reported as failed.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BROWSER_SKIP, launchChromiumFor } from '../_helpers/cdp.ts';
import { api, tokenFor } from '../_helpers/calendar.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { openPage } from '../_helpers/page.ts';
import { storeRecurrence } from '../_helpers/stored-rule.ts';
import { start } from '../../src/index.ts';

const BEN = 'ben.clarke@example.com';
const range = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
const MANY_LINES = Array.from({ length: 120 }, (_, i) => `RRULE:FREQ=MONTHLY;BYMONTHDAY=${range(1, 10)};BYHOUR=${range(0, 19)};BYMINUTE=${range(0, 49)};INTERVAL=${i + 1}`);

describe('the inspector week with a series it cannot expand, in Chromium (docs/inspector.md, SECURITY.md)', { skip: SQLITE_SKIP || BROWSER_SKIP, timeout: 120_000 }, () => {
  it("shows Ben's other events of the week and marks the one series, with the reason", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'inspector-unexpandable-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'calendar.db');
    // The default fixture, a lunch on Tuesday, then the weekly planning rewritten in the file.
    const first = await start({ port: 0, db });
    const token = await tokenFor(first.url, 'calendar', 'user-ben');
    const lunch = await api(first.url, token, 'calendars/primary/events', {
      method: 'POST',
      body: { id: 'lunch1020', summary: 'Lunch', start: { dateTime: '2026-10-20T12:00:00+01:00' }, end: { dateTime: '2026-10-20T13:00:00+01:00' } },
    });
    assert.equal(lunch.status, 200, lunch.text);
    await first.close();
    await storeRecurrence(db, BEN, 'planning0930', MANY_LINES);

    const service = await start({ port: 0, db });
    const browser = await launchChromiumFor(t, service);
    const page = await openPage(browser, `${service.url}/__svc/ui?user=user-ben&date=2026-10-19`);
    await page.waitUntil(`document.body.dataset.ready === 'true'`, 'its panels loaded');
    await page.waitUntil(`document.querySelector('[data-date="2026-10-20"] [data-event-id="lunch1020"]')`, 'the lunch');
    assert.match(await page.evaluate<string>(`document.querySelector('[data-event-id="lunch1020"]').textContent`), /^12:00–13:00 Lunch/);
    const marked = `document.querySelector('#week-unexpandable [data-event-id="planning0930"]')`;
    await page.waitUntil(marked, 'the weekly planning, marked');
    assert.match(await page.evaluate<string>(`${marked}.querySelector('summary').textContent`), /^Weekly planning.*cannot be expanded/);
    assert.match(await page.evaluate<string>(`${marked}.querySelector('.reason').textContent`), /the limit is 10 rule lines per event/);
    assert.equal(await page.evaluate(`document.querySelectorAll('.day [data-event-id^="planning0930"]').length`), 0, 'no instance of it in the days');
    assert.equal(await page.evaluate(`document.getElementById('errors').childElementCount`), 0, 'no failure shown');
    assert.deepEqual(page.problems, []);
  });
});
