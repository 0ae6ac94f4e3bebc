// Recurrence cannot take the service down. A rule whose one period
// multiplies out to millions of candidates (a year of every second is 31.6 million) is refused
// when it is written, through events.insert and fixtures alike, naming the limit
// (src/domain/recurrence/cost.ts); rules under the limit are stored, and every later read of them
// stays within the per-request step budget. Ten hostile series, then the owner's reads of them
// and another user's ordinary requests interleaved: every answer comes promptly and the process
// grows by less than 50 MB.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_PERIOD_CANDIDATES } from '../../src/domain/recurrence/cost.ts';
import { AIKO, BEN, CALENDAR_FIXTURE, TEAM, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { startCli } from '../_helpers/cli-process.ts';
import type { ServiceProcess } from '../_helpers/cli-process.ts';
import { assertWellFormedError, within } from '../_helpers/fuzz.ts';
import { postJson } from '../_helpers/service.ts';

const all = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
const EVERY_SECOND = `BYHOUR=${all(0, 23)};BYMINUTE=${all(0, 59)};BYSECOND=${all(0, 59)}`;
const YEAR_OF_SECONDS = `FREQ=YEARLY;BYYEARDAY=${all(1, 366)};${EVERY_SECOND}`;
const LIMIT = new RegExp(`the limit is ${MAX_PERIOD_CANDIDATES} per period`);
const BUDGET = /steps to expand/;

/** [what it is, recurrence lines, how the insert must be answered: stored, or refused saying why]. */
const HOSTILE: readonly (readonly [string, readonly string[], 'stored' | RegExp])[] = [
  ['a year of every second, 31.6 million candidates', [`RRULE:${YEAR_OF_SECONDS}`], LIMIT],
  ['four such rule lines', Array.from({ length: 4 }, (_, i) => `RRULE:${YEAR_OF_SECONDS};INTERVAL=${i + 1}`), LIMIT],
  ['the same as an EXRULE', ['RRULE:FREQ=DAILY', `EXRULE:${YEAR_OF_SECONDS}`], LIMIT],
  ['a month of every minute', [`RRULE:FREQ=MONTHLY;BYMONTHDAY=${all(1, 31)};BYHOUR=${all(0, 23)};BYMINUTE=${all(0, 59)}`], LIMIT],
  ['a day of every second, the last one picked', [`RRULE:FREQ=DAILY;${EVERY_SECOND};BYSETPOS=-1`], LIMIT],
  ['a second that never comes twice, until 9999', ['RRULE:FREQ=SECONDLY;BYSECOND=0;BYSETPOS=2;UNTIL=99991231T000000Z'], BUDGET],
  ['every hour of every day, counted for ever (COUNT=999999999)', [`RRULE:FREQ=YEARLY;COUNT=999999999;BYYEARDAY=${all(1, 366)};BYHOUR=${all(0, 23)}`], 'stored'],
  ['every weekday hour of the year, the last one picked', [`RRULE:FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=${all(0, 23)};BYSETPOS=-1,1`], 'stored'],
  ['every second, COUNT=999999999', ['RRULE:FREQ=SECONDLY;COUNT=999999999'], 'stored'],
  ['every minute until 9999, every other one excluded', ['RRULE:FREQ=MINUTELY;UNTIL=99991231T235959Z', 'EXRULE:FREQ=MINUTELY;INTERVAL=2;UNTIL=99991231T235959Z'], 'stored'],
];

function event(summary: string, recurrence: readonly string[]): object {
  return {
    summary,
    start: { dateTime: '2026-01-05T09:00:00', timeZone: 'America/New_York' },
    end: { dateTime: '2026-01-05T09:30:00', timeZone: 'America/New_York' },
    recurrence,
  };
}

/** Resident memory of a process (Linux /proc). */
function residentMB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(match, 'no VmRSS in /proc/<pid>/status');
  return Number(match[1]) / 1024;
}

describe('hostile recurrence', { skip: process.platform === 'linux' ? false : 'reads resident memory from /proc (Linux)' }, () => {
  // The service in its own process, as it runs for a tester: its memory is then its own.
  let service: ServiceProcess;
  let pid = 0;
  before(async () => {
    const fixture = join(mkdtempSync(join(tmpdir(), 'cal-hostile-')), 'fixture.json');
    writeFileSync(fixture, JSON.stringify(CALENDAR_FIXTURE));
    service = await startCli(':memory:', ['--fixture', fixture]);
    pid = service.child.pid ?? 0;
  });
  after(async () => {
    service.child.kill();
    await service.exited;
  });

  it('ten hostile series: refused at insert or stored, then the owner\'s reads and another user\'s requests are prompt and memory stays flat', async () => {
    const { url } = service;
    const aiko = await tokenFor(url, 'calendar');
    const ben = await tokenFor(url, 'calendar', 'user-ben');
    const quick = <T>(label: string, p: Promise<T>): Promise<T> => within(2000, label, p);
    const benRequests: [string, string, object][] = [
      ['list', 'calendars/primary/events?singleEvents=true&orderBy=startTime', {}],
      ['insert', 'calendars/primary/events', { method: 'POST', body: { summary: 'Lunch', start: { dateTime: '2026-02-02T12:00:00Z' }, end: { dateTime: '2026-02-02T13:00:00Z' } } }],
      ['freeBusy', 'freeBusy', { method: 'POST', body: { timeMin: '2026-02-01T00:00:00Z', timeMax: '2026-03-01T00:00:00Z', items: [{ id: BEN }] } }],
    ];
    // Warm the paths measured below so their first-use allocations are not counted as growth.
    for (const [, path, init] of benRequests) assert.equal((await api(url, ben, path, init)).status, 200);
    const rssBefore = residentMB(pid);

    const stored: { id: string; calendar: string }[] = [];
    for (const [i, [label, lines, expected]] of HOSTILE.entries()) {
      const calendar = i % 2 === 0 ? 'primary' : encodeURIComponent(TEAM);
      const answer = await quick(label, api(url, aiko, `calendars/${calendar}/events`, { method: 'POST', body: event(label, lines) }));
      if (expected === 'stored') {
        assert.equal(answer.status, 200, `${label}: ${answer.text}`);
        stored.push({ id: answer.json.id, calendar });
      } else {
        assert.equal(answer.status, 400, `${label}: ${answer.text}`);
        assertWellFormedError(answer, 'google', label);
        assert.equal(reason(answer).reason, 'invalid', label);
        assert.match(answer.json.error.message, expected, label);
      }
    }
    assert.equal(stored.length, 4);

    // The owner reads the stored series every way there is, over windows as long as allowed;
    // the other user's ordinary requests go in between, and each must be answered promptly.
    const aikoReads = (id: string, calendar: string): [string, string, object][] => [
      ['instances', `calendars/${calendar}/events/${id}/instances`, {}],
      ['instances far ahead', `calendars/${calendar}/events/${id}/instances?timeMin=2090-01-01T00:00:00Z&timeMax=2091-01-01T00:00:00Z`, {}],
      ['list a century', `calendars/${calendar}/events?singleEvents=true&orderBy=startTime&timeMin=2026-01-01T00:00:00Z&timeMax=2126-01-01T00:00:00Z`, {}],
      ['an instance deep in the series', `calendars/${calendar}/events/${id}_20990105T140000Z`, {}],
      ['freeBusy for a year', 'freeBusy', { method: 'POST', body: { timeMin: '2030-01-01T00:00:00Z', timeMax: '2030-12-31T00:00:00Z', items: [{ id: AIKO }, { id: TEAM }] } }],
    ];
    let slowest = 0;
    let round = 0;
    for (const { id, calendar } of stored) {
      for (const [label, path, init] of aikoReads(id, calendar)) {
        // Ben's request arrives together with the hostile one and is queued behind it: it must
        // wait for no more than that one request's bounded work.
        const [benLabel, benPath, benInit] = benRequests[round++ % benRequests.length] as [string, string, object];
        const hostile = quick(label, api(url, aiko, path, init));
        const started = performance.now();
        const mine = await api(url, ben, benPath, benInit);
        slowest = Math.max(slowest, performance.now() - started);
        assert.equal(mine.status, 200, `${benLabel}: ${mine.text}`);
        const answer = await hostile;
        // Within the step budget (200, or 404 for an id that is not an occurrence), or refused
        // by it with the budget's message (400).
        if (answer.status !== 200 && answer.status !== 404) {
          assert.equal(answer.status, 400, `${label} of ${id}: ${answer.text}`);
          assertWellFormedError(answer, 'google', label);
          assert.match(answer.json.error.message, BUDGET, label);
        }
      }
    }
    // One request's expansion work is bounded by the step budget (about half a second at most;
    // typically a tenth of that): the margin is for a machine busy with other tests.
    assert.ok(slowest < 1500, `another user waited ${Math.round(slowest)} ms`);
    const grown = residentMB(pid) - rssBefore;
    assert.ok(grown < 50, `resident memory grew by ${grown.toFixed(1)} MB`);
  });

  it('fixtures refuse the same rules as events.insert, naming the event and the limit, and change nothing', async () => {
    const { url } = service;
    const ben = await tokenFor(url, 'calendar', 'user-ben');
    const fixture = structuredClone(CALENDAR_FIXTURE) as { users: { calendars?: { events?: object[] }[] }[] };
    const calendars = fixture.users[1]?.calendars ?? [];
    (calendars[0] as { events?: object[] }).events = [event('fine', ['RRULE:FREQ=WEEKLY']), event('hostile', [`RRULE:${YEAR_OF_SECONDS}`])];
    const answer = await within(2000, 'fixture', postJson(`${url}/__svc/fixtures`, fixture));
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.json.error, 'invalid_fixture');
    assert.match(answer.json.error_description, /^users\[1\]\.calendars\[0\]\.events\[1\]\.recurrence/);
    assert.match(answer.json.error_description, LIMIT);
    // The workspace is as it was: Ben's token still works and his calendar has no new event.
    const list = await api(url, ben, 'calendars/primary/events');
    assert.equal(list.status, 200, list.text);
    assert.ok(!list.json.items.some((e: { summary?: string }) => e.summary === 'fine' || e.summary === 'hostile'));
  });
});
