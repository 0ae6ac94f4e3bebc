import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expansionBudget } from '../../src/domain/recurrence/cost.ts';
import { instancesInWindow } from '../../src/domain/recurrence/exceptions.ts';
import type { ExceptionTiming } from '../../src/domain/recurrence/exceptions.ts';
import { formatInstanceId, parseInstanceId } from '../../src/domain/recurrence/instance-id.ts';
import { firstOccurrence, lastOccurrence, occurrences } from '../../src/domain/recurrence/recurrence-set.ts';
import { parseRecurrence } from '../../src/domain/recurrence/rrule.ts';
import { dateKey, keyToDate } from '../../src/domain/recurrence/series.ts';
import type { Series } from '../../src/domain/recurrence/series.ts';
import { expandInWindow, isOccurrence, seriesBounds } from '../../src/domain/recurrence/window.ts';
import { formatDate } from '../../src/domain/time/datetime.ts';
import { formatRfc3339InZone, instantToWallMs, wallMsToInstant } from '../../src/domain/time/zones.ts';
import { allDaySeries, firstN, localInstant, localString, parseRule, timedSeries } from '../_helpers/series.ts';
import { naiveExpand } from '../_helpers/naive-rrule.ts';
import { Rng } from '../_helpers/fuzz.ts';

const NY = 'America/New_York';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const iso = (t: number): string => new Date(t).toISOString().replace('.000', '');
const at = (s: string): number => Date.parse(s);

test('weekly 09:00 New York stays 09:00 local across 2026-11-01 and 2026-03-08', () => {
  const s = timedSeries('20261026T0900', NY, ['RRULE:FREQ=WEEKLY;BYDAY=MO']);
  assert.deepEqual(firstN(s, 3), ['20261026T0900', '20261102T0900', '20261109T0900']);
  assert.deepEqual(expandInWindow(s, at('2026-10-26T00:00:00Z'), at('2026-11-03T00:00:00Z')).map((o) => iso(o.start)), ['2026-10-26T13:00:00Z', '2026-11-02T14:00:00Z']);
  const spring = timedSeries('20260301T0230', NY, ['RRULE:FREQ=DAILY']);
  // 02:30 does not exist on 2026-03-08: moved forward by the gap (RFC 5545 §3.3.5).
  assert.deepEqual(expandInWindow(spring, at('2026-03-07T00:00:00Z'), at('2026-03-10T00:00:00Z')).map((o) => localString(o.start, NY)), ['20260307T0230', '20260308T0330', '20260309T0230']);
  const fall = timedSeries('20261030T0130', NY, ['RRULE:FREQ=DAILY;COUNT=4']);
  // 01:30 happens twice on 2026-11-01: the first (EDT) is meant.
  assert.deepEqual(expandInWindow(fall, at('2026-10-01T00:00:00Z'), at('2026-12-01T00:00:00Z')).map((o) => iso(o.start)), [
    '2026-10-30T05:30:00Z',
    '2026-10-31T05:30:00Z',
    '2026-11-01T05:30:00Z',
    '2026-11-02T06:30:00Z',
  ]);
});

test('Europe/London, Lord Howe, Kathmandu and Tokyo expansions', () => {
  const london = timedSeries('20260327T0130', 'Europe/London', ['RRULE:FREQ=DAILY;COUNT=4']);
  assert.deepEqual(firstN(london, 9).map((x) => x), ['20260327T0130', '20260328T0130', '20260329T0230', '20260330T0130']);
  const londonFall = timedSeries('20261024T0130', 'Europe/London', ['RRULE:FREQ=DAILY;COUNT=3']);
  assert.deepEqual([...occurrences(londonFall)].map(iso), ['2026-10-24T00:30:00Z', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z']);
  const lh = timedSeries('20261003T0215', 'Australia/Lord_Howe', ['RRULE:FREQ=DAILY;COUNT=3']);
  assert.deepEqual(firstN(lh, 5), ['20261003T0215', '20261004T0245', '20261005T0215']);
  const lhFall = timedSeries('20260404T0145', 'Australia/Lord_Howe', ['RRULE:FREQ=DAILY;COUNT=3']);
  assert.deepEqual([...occurrences(lhFall)].map(iso), ['2026-04-03T14:45:00Z', '2026-04-04T14:45:00Z', '2026-04-05T15:15:00Z']);
  const ktm = timedSeries('20260105T0900', 'Asia/Kathmandu', ['RRULE:FREQ=MONTHLY;BYDAY=1MO;COUNT=3']);
  assert.deepEqual([...occurrences(ktm)].map(iso), ['2026-01-05T03:15:00Z', '2026-02-02T03:15:00Z', '2026-03-02T03:15:00Z']);
  const tokyo = timedSeries('20261019T1000', 'Asia/Tokyo', ['RRULE:FREQ=YEARLY;COUNT=2']);
  assert.deepEqual([...occurrences(tokyo)].map((k) => formatRfc3339InZone(k, tokyo.timeZone)), ['2026-10-19T10:00:00+09:00', '2027-10-19T10:00:00+09:00']);
});

test('hourly steps across a gap drop the duplicate instant', () => {
  const s = timedSeries('20260308T0000', NY, ['RRULE:FREQ=HOURLY']);
  const got = expandInWindow(s, at('2026-03-08T05:00:00Z'), at('2026-03-08T09:00:00Z')).map((o) => localString(o.start, NY));
  assert.deepEqual(got, ['20260308T0000', '20260308T0100', '20260308T0300', '20260308T0400']);
});

test('all-day series: dates, EXDATE/RDATE dates, placement in a zone', () => {
  const s = allDaySeries('20150601', ['RRULE:FREQ=DAILY;UNTIL=20150628;INTERVAL=3', 'EXDATE;VALUE=DATE:20150610', 'RDATE;VALUE=DATE:20150609,20150611']);
  assert.deepEqual(firstN(s, 20), ['20150601', '20150604', '20150607', '20150609', '20150611', '20150613', '20150616', '20150619', '20150622', '20150625', '20150628']);
  const leap = allDaySeries('20240229', ['RRULE:FREQ=YEARLY']);
  assert.deepEqual(firstN(leap, 3), ['20240229', '20280229', '20320229']);
  const weekly = allDaySeries('20261019', ['RRULE:FREQ=WEEKLY'], 2);
  const o = expandInWindow(weekly, at('2026-10-26T00:00:00Z'), at('2026-10-27T00:00:00Z'), { allDayZone: 'Asia/Tokyo' });
  assert.deepEqual(o.map((x) => [iso(x.start), iso(x.end)]), [
    ['2026-10-25T15:00:00Z', '2026-10-27T15:00:00Z'],
  ]);
  assert.equal(o[0]?.originalStart, dateKey({ year: 2026, month: 10, day: 26 }));
  assert.equal(formatDate(keyToDate(dateKey({ year: 2026, month: 10, day: 26 }))), '2026-10-26');
});

test('EXDATE and RDATE in TZID, UTC, floating and DATE forms; EXRULE', () => {
  const s = timedSeries('20261102T0900', NY, [
    'RRULE:FREQ=DAILY;COUNT=10',
    'EXDATE;TZID=America/New_York:20261103T090000,20261104T090000',
    'EXDATE:20261105T140000Z',
    'EXDATE;VALUE=DATE:20261106',
    'EXDATE:20261107T090000',
    'RDATE;TZID=Europe/London:20261120T120000',
    'RDATE;VALUE=DATE:20261125',
    'EXRULE:FREQ=WEEKLY;BYDAY=TU',
  ]);
  assert.deepEqual(firstN(s, 20), ['20261102T0900', '20261108T0900', '20261109T0900', '20261111T0900', '20261120T0700', '20261125T0900']);
});

test('an unsynchronised start is an occurrence and counts towards COUNT (RFC 5545 §3.8.5.3)', () => {
  const s = timedSeries('20261021T0900', NY, ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3']);
  assert.deepEqual(firstN(s, 5), ['20261021T0900', '20261026T0900', '20261102T0900']);
});

test('window overlap, limits, zero-length events', () => {
  const s = timedSeries('20261001T0900', 'UTC', ['RRULE:FREQ=DAILY'], 2 * HOUR);
  // An occurrence that started before the window but is still running overlaps it.
  assert.deepEqual(expandInWindow(s, at('2026-10-05T10:00:00Z'), at('2026-10-07T09:00:00Z')).map((o) => iso(o.start)), ['2026-10-05T09:00:00Z', '2026-10-06T09:00:00Z']);
  // End exactly at the window start does not overlap; start exactly at window end does not.
  assert.deepEqual(expandInWindow(s, at('2026-10-05T11:00:00Z'), at('2026-10-06T09:00:00Z')), []);
  assert.equal(expandInWindow(s, at('2026-10-01T00:00:00Z'), at('2027-10-01T00:00:00Z'), { limit: 7 }).length, 7);
  const point = timedSeries('20261001T0900', 'UTC', ['RRULE:FREQ=DAILY'], 0);
  assert.deepEqual(expandInWindow(point, at('2026-10-02T09:00:00Z'), at('2026-10-03T09:00:00Z')).map((o) => iso(o.start)), ['2026-10-02T09:00:00Z']);
  assert.deepEqual(expandInWindow(s, at('2026-09-01T00:00:00Z'), at('2026-10-01T09:00:00Z')), []);
});

test('cost depends on the window: a daily rule from 1990 with no end jumps ahead', () => {
  // Cost read off the budget, which takes a step per period and one per candidate it builds.
  const STEPS = 1_000_000;
  const windowStart = at('2026-06-01T00:00:00Z');
  const windowEnd = windowStart + 7 * DAY;
  for (const rule of ['FREQ=DAILY', 'FREQ=WEEKLY;BYDAY=MO,WE', 'FREQ=MONTHLY;BYDAY=1FR', 'FREQ=YEARLY;BYMONTH=6', 'FREQ=HOURLY;INTERVAL=5', 'FREQ=DAILY;COUNT=20000', 'FREQ=WEEKLY;COUNT=5000;BYDAY=MO,TU']) {
    const s = timedSeries('19900101T0900', NY, [`RRULE:${rule}`]);
    const budget = expansionBudget(STEPS);
    const got = expandInWindow(s, windowStart, windowEnd, { budget });
    assert.ok(got.length > 0, rule);
    assert.ok(STEPS - budget.remaining < 120, `${rule}: ${STEPS - budget.remaining} steps`);
  }
  // Without the skip a COUNT rule with non-uniform periods counts from its start (bounded).
  const counted = timedSeries('19900101T0900', NY, ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=1000']);
  const budget = expansionBudget(STEPS);
  assert.equal(expandInWindow(counted, windowStart, windowEnd, { budget }).length, 0);
  // One step per month stepped through and one for its one candidate.
  assert.ok(STEPS - budget.remaining <= 2 * (12 * 37 + 2), `${STEPS - budget.remaining} steps`);
});

test('unsatisfiable rules end instead of looping', () => {
  const s = timedSeries('20260101T0900', 'UTC', ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30']);
  assert.deepEqual(firstN(s, 3), ['20260101T0900']);
  assert.equal(lastOccurrence(s), Infinity);
  assert.deepEqual(expandInWindow(s, at('2030-01-01T00:00:00Z'), at('2031-01-01T00:00:00Z')), []);
});

test('first, last, membership and bounds', () => {
  const counted = timedSeries('20261001T0900', NY, ['RRULE:FREQ=WEEKLY;COUNT=5']);
  assert.equal(iso(firstOccurrence(counted) ?? 0), '2026-10-01T13:00:00Z');
  assert.equal(iso(lastOccurrence(counted) ?? 0), '2026-10-29T13:00:00Z');
  const until = timedSeries('20261001T0900', NY, ['RRULE:FREQ=DAILY;UNTIL=20361001T000000Z', 'EXDATE;TZID=America/New_York:20360930T090000']);
  assert.equal(localString(lastOccurrence(until) ?? 0, NY), '20360929T0900');
  const untilDate = timedSeries('20261001T0900', NY, ['RRULE:FREQ=DAILY;UNTIL=20261005']);
  assert.equal(localString(lastOccurrence(untilDate) ?? 0, NY), '20261005T0900');
  assert.equal(lastOccurrence(timedSeries('20261001T0900', NY, ['RRULE:FREQ=DAILY'])), Infinity);
  const gone = timedSeries('20261001T0900', NY, ['EXDATE;TZID=America/New_York:20261001T090000']);
  assert.equal(firstOccurrence(gone), undefined);
  assert.equal(lastOccurrence(gone), undefined);
  assert.equal(seriesBounds(gone), undefined);
  assert.deepEqual(seriesBounds(counted), { start: at('2026-10-01T13:00:00Z'), end: at('2026-10-29T14:00:00Z') });

  assert.equal(isOccurrence(counted, at('2026-10-15T13:00:00Z')), true);
  assert.equal(isOccurrence(counted, at('2026-10-15T13:00:01Z')), false);
  assert.equal(isOccurrence(counted, at('2026-11-05T14:00:00Z')), false); // past COUNT
  assert.equal(isOccurrence(until, localInstant('20360930T0900', NY)), false); // EXDATE
  assert.equal(isOccurrence(until, localInstant('20311111T0900', NY)), true);
});

test('instance ids: format, parse, round trip', () => {
  const key = at('2022-01-31T17:00:00Z');
  assert.equal(formatInstanceId('7sull595rv5apd9mr77a6g0s0h', 'dateTime', key), '7sull595rv5apd9mr77a6g0s0h_20220131T170000Z');
  assert.deepEqual(parseInstanceId('7sull595rv5apd9mr77a6g0s0h_20220131T170000Z'), { eventId: '7sull595rv5apd9mr77a6g0s0h', kind: 'dateTime', originalStart: key });
  const s = timedSeries('20220131T1400', 'America/Sao_Paulo', ['RRULE:FREQ=DAILY']);
  assert.equal(formatRfc3339InZone(key, s.timeZone), '2022-01-31T14:00:00-03:00');
  const dk = dateKey({ year: 2019, month: 1, day: 28 });
  assert.equal(formatInstanceId('abc0', 'date', dk), 'abc0_20190128');
  assert.deepEqual(parseInstanceId('abc0_20190128'), { eventId: 'abc0', kind: 'date', originalStart: dk });
  for (const bad of ['abc', '_20190128', 'abc_2019012', 'abc_20191328', 'abc_20190230', 'abc_20190128T250000Z', 'abc_20190128T120000', 'abc_x']) {
    assert.equal(parseInstanceId(bad), undefined, bad);
  }
  let n = 0;
  for (const k of occurrences(s, { from: at('2030-03-01T00:00:00Z') })) {
    const p = parseInstanceId(formatInstanceId('ev1', s.kind, k));
    assert.equal(p?.originalStart, k);
    assert.equal(p !== undefined && isOccurrence(s, p.originalStart), true);
    if (++n > 40) break;
  }
});

interface Stored extends ExceptionTiming {
  readonly id: string;
}

test('exceptions: cancelled, moved out, moved in, shown when cancelled, stale ones dropped', () => {
  const s = timedSeries('20261005T0900', 'UTC', ['RRULE:FREQ=DAILY'], HOUR);
  const k = (d: string): number => at(`${d}T09:00:00Z`);
  const exceptions: Stored[] = [
    { id: 'cancel', originalStart: k('2026-10-06'), cancelled: true, start: 0, end: 0 },
    { id: 'moved-out', originalStart: k('2026-10-07'), cancelled: false, start: at('2026-12-01T09:00:00Z'), end: at('2026-12-01T10:00:00Z') },
    { id: 'moved-in', originalStart: k('2026-11-20'), cancelled: false, start: at('2026-10-08T15:00:00Z'), end: at('2026-10-08T16:00:00Z') },
    { id: 'retimed', originalStart: k('2026-10-09'), cancelled: false, start: at('2026-10-09T07:00:00Z'), end: at('2026-10-09T08:00:00Z') },
    { id: 'stale', originalStart: at('2026-10-08T12:00:00Z'), cancelled: false, start: at('2026-10-08T12:00:00Z'), end: at('2026-10-08T13:00:00Z') },
  ];
  const ws = at('2026-10-06T00:00:00Z');
  const we = at('2026-10-10T00:00:00Z');
  const got = instancesInWindow(s, exceptions, ws, we);
  assert.deepEqual(got.map((i) => [iso(i.start), i.exception?.id ?? '-', i.cancelled]), [
    ['2026-10-08T09:00:00Z', '-', false],
    ['2026-10-08T15:00:00Z', 'moved-in', false],
    ['2026-10-09T07:00:00Z', 'retimed', false],
  ]);
  assert.equal(got[1]?.originalStart, k('2026-11-20'));
  const withDeleted = instancesInWindow(s, exceptions, ws, we, { showCancelled: true, limit: 2 });
  assert.deepEqual(withDeleted.map((i) => [iso(i.start), i.exception?.id ?? '-', i.cancelled]), [
    ['2026-10-06T09:00:00Z', 'cancel', true],
    ['2026-10-08T09:00:00Z', '-', false],
  ]);
  // The moved-out instance appears in its new window.
  const dec = instancesInWindow(s, exceptions, at('2026-12-01T00:00:00Z'), at('2026-12-01T09:30:00Z'));
  assert.deepEqual(dec.map((i) => [iso(i.start), i.exception?.id ?? '-']), [
    ['2026-12-01T09:00:00Z', 'moved-out'],
    ['2026-12-01T09:00:00Z', '-'],
  ]);
});

// ---------------------------------------------------------------------------------------------
// Property test: the expansion agrees with a naive day-by-day evaluator on random rules.

function randomRule(rnd: () => number, allDay: boolean, startWall: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const some = (xs: readonly number[], max: number): number[] => {
    const n = 1 + Math.floor(rnd() * max);
    return [...new Set(Array.from({ length: n }, () => pick(xs)))];
  };
  const freq = pick(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] as const);
  const parts = [`FREQ=${freq}`];
  if (rnd() < 0.4) parts.push(`INTERVAL=${1 + Math.floor(rnd() * 3)}`);
  const end = rnd();
  if (end < 0.35) parts.push(`COUNT=${1 + Math.floor(rnd() * 40)}`);
  else if (end < 0.6) {
    const u = new Date(startWall + Math.floor(rnd() * 900) * DAY + Math.floor(rnd() * 24) * HOUR);
    const p = (n: number): string => String(n).padStart(2, '0');
    const date = `${u.getUTCFullYear()}${p(u.getUTCMonth() + 1)}${p(u.getUTCDate())}`;
    parts.push(`UNTIL=${rnd() < 0.5 || allDay ? date : `${date}T${p(u.getUTCHours())}0000`}`);
  }
  const months = Array.from({ length: 12 }, (_, i) => i + 1);
  const monthDays = [1, 2, 5, 10, 15, 28, 29, 30, 31, -1, -2, -5];
  const ords = [1, 2, 3, -1, -2];
  let hasBy = false;
  if (rnd() < 0.3) {
    parts.push(`BYMONTH=${some(months, 4).join(',')}`);
    hasBy = true;
  }
  const weekNo = freq === 'YEARLY' && rnd() < 0.15;
  if (weekNo) {
    parts.push(`BYWEEKNO=${some([1, 2, 10, 20, 26, 52, 53, -1, -2], 3).join(',')}`);
    hasBy = true;
  }
  if (freq === 'YEARLY' && rnd() < 0.15) {
    parts.push(`BYYEARDAY=${some([1, 2, 59, 60, 100, 200, 365, 366, -1, -365], 3).join(',')}`);
    hasBy = true;
  }
  if (freq !== 'WEEKLY' && rnd() < 0.3) {
    parts.push(`BYMONTHDAY=${some(monthDays, 3).join(',')}`);
    hasBy = true;
  }
  if (rnd() < 0.5) {
    const days = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
    const withOrd = (freq === 'MONTHLY' || freq === 'YEARLY') && !weekNo && rnd() < 0.5;
    const n = 1 + Math.floor(rnd() * 3);
    const list = new Set<string>();
    for (let i = 0; i < n; i++) list.add(`${withOrd ? pick(ords) : ''}${pick(days)}`);
    parts.push(`BYDAY=${[...list].join(',')}`);
    hasBy = true;
  }
  if (!allDay && rnd() < 0.2) {
    parts.push(`BYHOUR=${some([6, 9, 13, 18, 23], 2).join(',')}`);
    hasBy = true;
  }
  if (!allDay && rnd() < 0.1) {
    parts.push(`BYMINUTE=${some([0, 15, 45], 2).join(',')}`);
    hasBy = true;
  }
  if (hasBy && rnd() < 0.2) parts.push(`BYSETPOS=${some([1, 2, -1, -2, 3], 2).join(',')}`);
  if (rnd() < 0.3) parts.push(`WKST=${pick(['MO', 'SU', 'WE'])}`);
  return parts.join(';');
}

test('property: expansion matches a naive day-by-day evaluator (seeded, 300 rules)', () => {
  const rng = new Rng(20261019);
  const rnd = (): number => rng.next();
  for (let i = 0; i < 300; i++) {
    const allDay = i % 5 === 4;
    const zone = i % 3 === 0 ? NY : 'UTC';
    // Start 2020-2025, at an hour that exists on every day in New York.
    const startDay = Date.UTC(2020, 0, 1) / DAY + Math.floor(rnd() * 6 * 365);
    const startWall = startDay * DAY + (allDay ? 0 : (6 + Math.floor(rnd() * 16)) * HOUR + (rnd() < 0.5 ? 30 * 60_000 : 0));
    const text = randomRule(rnd, allDay, startWall);
    const rule = parseRule(text, allDay);
    const horizonWall = startWall + 3 * 366 * DAY;
    const series: Series = allDay
      ? { kind: 'date', startDate: { year: new Date(startWall).getUTCFullYear(), month: new Date(startWall).getUTCMonth() + 1, day: new Date(startWall).getUTCDate() }, durationDays: 1, recurrence: parseRecurrence([`RRULE:${text}`], { allDay }) }
      : { kind: 'dateTime', start: wallMsToInstant(startWall, zone), startWall, durationMs: HOUR, timeZone: zone, recurrence: parseRecurrence([`RRULE:${text}`], { allDay }) };
    const expected = naiveExpand(rule, startWall, horizonWall, allDay);
    const got: number[] = [];
    const toWall = (k: number): number => (series.kind === 'dateTime' ? instantToWallMs(k, series.timeZone) : k);
    for (const k of occurrences(series)) {
      const w = toWall(k);
      if (w >= horizonWall) break;
      got.push(w);
    }
    assert.deepEqual(got.map((w) => iso(w)), expected.map((w) => iso(w)), `${text} from ${iso(startWall)} ${allDay ? 'all-day' : zone}`);
    // Windowed expansion of a random month agrees with the full list.
    const ws = startWall + Math.floor(rnd() * 900) * DAY;
    const we = ws + 30 * DAY;
    const inWindow = expected.filter((w) => w >= ws && w < we);
    const windowed = expandInWindow(series, series.kind === 'dateTime' ? wallMsToInstant(ws, zone) : ws, series.kind === 'dateTime' ? wallMsToInstant(we, zone) : we)
      .map((o) => toWall(series.kind === 'dateTime' ? o.start : o.originalStart))
      .filter((w) => w >= ws);
    assert.deepEqual(windowed.map((w) => iso(w)), inWindow.map((w) => iso(w)), `window ${iso(ws)} of ${text}`);
  }
});
