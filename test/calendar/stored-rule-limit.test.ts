// A database written before a recurrence cap (the per-period candidate cap; the per-event caps of
// SECURITY.md) may hold a series whose rule the cap now refuses. Reading it must be the caller's
// 400, as a rule too costly to expand is, never a 500: the rule is refused when it is compiled,
// on every read that meets it. An incremental sync that meets it answers 410 fullSyncRequired,
// and the inspector's view of docs/management-api.md lists the rest of the window with the series marked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_RULE_LINES } from '../../src/domain/recurrence/cost.ts';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { AIKO, CALENDAR_FIXTURE, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { assertWellFormedError } from '../_helpers/fuzz.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { call } from '../_helpers/service.ts';
import { storeRecurrence } from '../_helpers/stored-rule.ts';

const range = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
/** 366 days x 24 hours x 60 minutes candidates in one period: far over the cap. */
const HOSTILE = `RRULE:FREQ=YEARLY;BYYEARDAY=${range(1, 366)};BYHOUR=${range(0, 23)};BYMINUTE=${range(0, 59)}`;
/** 120 rule lines, each under the per-line cap: what the per-event caps now refuse. */
const MANY_LINES = Array.from({ length: 120 }, (_, i) => `RRULE:FREQ=MONTHLY;BYMONTHDAY=${range(1, 10)};BYHOUR=${range(0, 19)};BYMINUTE=${range(0, 49)};INTERVAL=${i + 1}`);
const EVENTS = `calendars/${encodeURIComponent(AIKO)}/events`;
const WEEK = 'timeMin=2026-01-01T00:00:00Z&timeMax=2026-01-08T00:00:00Z';

function dbFile(t: { after(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'stored-rule-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'calendar.db');
}

function event(summary: string, recurrence?: string[]): object {
  return {
    summary,
    start: { dateTime: '2026-01-01T00:00:00', timeZone: 'UTC' },
    end: { dateTime: '2026-01-01T00:01:00', timeZone: 'UTC' },
    ...(recurrence && { recurrence }),
  };
}

async function created(url: string, token: string, body: object): Promise<string> {
  const answer = await api(url, token, EVENTS, { method: 'POST', body });
  assert.equal(answer.status, 200, answer.text);
  return answer.json.id;
}

test('a stored series whose rule is now over the cap reads as 400 invalid, not 500', { skip: SQLITE_SKIP }, async (t) => {
  const db = dbFile(t);
  // Written today (a rule well under the cap), then rewritten in the file as an older build could have.
  let service = await start({ port: 0, db, fixture: CALENDAR_FIXTURE });
  const id = await created(service.url, await tokenFor(service.url, 'calendar'), event('Old rule', ['RRULE:FREQ=DAILY']));
  await service.close();
  await storeRecurrence(db, AIKO, id, [HOSTILE]);

  service = await start({ port: 0, db });
  t.after(() => service.close());
  const listed = await api(service.url, await tokenFor(service.url, 'calendar'), `${EVENTS}?singleEvents=true&${WEEK}`);
  assert.equal(listed.status, 400, listed.text.slice(0, 300));
  assert.equal(reason(listed).reason, 'invalid');
  assert.match(reason(listed).message ?? '', /10000/);
});

test('a stored series over the per-event caps: its list is 400, an incremental sync 410, the inspector view lists the rest and marks it', { skip: SQLITE_SKIP }, async (t) => {
  const db = dbFile(t);
  let service: RunningService = await start({ port: 0, db, fixture: CALENDAR_FIXTURE });
  let token = await tokenFor(service.url, 'calendar');
  const id = await created(service.url, token, event('Old rule', ['RRULE:FREQ=DAILY']));
  await created(service.url, token, event('Lunch'));
  // A full sync, then a change to the series after it: the next incremental sync reads the series.
  const full = await api(service.url, token, `${EVENTS}?singleEvents=true&${WEEK}`);
  assert.equal(full.status, 200, full.text);
  assert.equal((await api(service.url, token, `${EVENTS}/${id}`, { method: 'PATCH', body: { summary: 'Old rule, renamed' } })).status, 200);
  await service.close();
  await storeRecurrence(db, AIKO, id, MANY_LINES);

  service = await start({ port: 0, db });
  t.after(() => service.close());
  const { url } = service;
  token = await tokenFor(url, 'calendar');
  const capNamed = new RegExp(`the limit is ${MAX_RULE_LINES} rule lines per event`);

  const listed = await api(url, token, `${EVENTS}?singleEvents=true&${WEEK}`);
  assert.equal(listed.status, 400, listed.text.slice(0, 300));
  assert.equal(reason(listed).reason, 'invalid');
  assert.match(reason(listed).message ?? '', capNamed);

  const sync = await api(url, token, `${EVENTS}?singleEvents=true&syncToken=${encodeURIComponent(full.json.nextSyncToken)}`);
  assert.equal(sync.status, 410, sync.text.slice(0, 300));
  assertWellFormedError(sync, 'google', 'incremental sync');
  assert.equal(reason(sync).reason, 'fullSyncRequired');

  // The view answers for the series on its own (window-view.ts): Lunch is listed, the series is
  // left out of the items and named with its 400 and why.
  const view = await call(`${url}/__svc/calendars/${encodeURIComponent(AIKO)}/events?${WEEK}`);
  assert.equal(view.status, 200, view.text.slice(0, 300));
  assert.deepEqual(view.json.items.map((e: { summary: string }) => e.summary), ['Lunch']);
  assert.equal(view.json.unexpandable.length, 1);
  const [left] = view.json.unexpandable;
  assert.equal(left.status, 400);
  assert.equal(left.error, 'invalid_request');
  assert.match(left.error_description, capNamed);
  assert.equal(left.event.id, id);
  assert.equal(left.event.summary, 'Old rule, renamed');
  assert.deepEqual(left.event.recurrence, MANY_LINES);
  // Asked again (from the view's cache), the same answer.
  assert.deepEqual((await call(`${url}/__svc/calendars/${encodeURIComponent(AIKO)}/events?${WEEK}`)).json, view.json);
});
