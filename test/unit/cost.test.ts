// The per-period candidate cap (src/domain/recurrence/cost.ts): hostile rules are refused at
// parse time with the limit named, real rules pass, the bound really bounds what a period holds,
// and an expansion charges candidates, not only periods, to its budget. The per-event caps: an
// event's lines together, its rule lines, its lines and its dates, each refused one past its cap
// and accepted at it, and the heaviest event they allow is cheap to expand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ExpansionBudgetError,
  MAX_PERIOD_CANDIDATES,
  MAX_RECURRENCE_DATES,
  MAX_RECURRENCE_LINES,
  MAX_RULE_LINES,
  MAX_SERIES_CANDIDATES,
  expansionBudget,
  periodCandidateBound,
} from '../../src/domain/recurrence/cost.ts';
import { expandInWindow } from '../../src/domain/recurrence/window.ts';
import { RecurrenceError, parseRecurrence } from '../../src/domain/recurrence/rrule.ts';
import { naiveExpand } from '../_helpers/naive-rrule.ts';
import { Rng } from '../_helpers/fuzz.ts';
import { parseRule, timedSeries } from '../_helpers/series.ts';

const DAY = 86_400_000;
const all = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
const bound = (text: string, allDay = false): number => periodCandidateBound(parseRule(text, allDay));

test('a year of every second is 31,622,400 candidates in one period, refused naming the limit', () => {
  const hostile = `FREQ=YEARLY;BYYEARDAY=${all(1, 366)};BYHOUR=${all(0, 23)};BYMINUTE=${all(0, 59)};BYSECOND=${all(0, 59)}`;
  assert.throws(
    () => parseRecurrence([`RRULE:${hostile}`], { allDay: false }),
    (e: unknown) =>
      e instanceof RecurrenceError &&
      e.part === 'RRULE' &&
      e.message === `Invalid recurrence rule: one YEARLY period of this rule can hold 31622400 candidate occurrences (its days times BYHOUR x BYMINUTE x BYSECOND); the limit is ${MAX_PERIOD_CANDIDATES} per period`,
  );
  // EXRULE lines are expanded the same way and capped the same way.
  assert.throws(() => parseRecurrence(['RRULE:FREQ=DAILY', `EXRULE:${hostile}`], { allDay: false }), RecurrenceError);
  // Just over and just at the cap.
  assert.throws(() => parseRule(`FREQ=DAILY;BYHOUR=${all(0, 23)};BYMINUTE=${all(0, 59)};BYSECOND=0,1,2,3,4,5,6`), /can hold 10080 candidate/);
  assert.equal(bound(`FREQ=MONTHLY;BYMONTHDAY=1,2,3,4,5,6,7,8,9,10;BYHOUR=${all(0, 19)};BYMINUTE=${all(0, 49)}`), 10_000);
});

test('real rules stay far below the cap, and the bound follows the parts that narrow a period', () => {
  const cases: [string, number][] = [
    ['FREQ=DAILY', 1],
    ['FREQ=WEEKLY', 1],
    ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 5],
    ['FREQ=MONTHLY', 1],
    ['FREQ=MONTHLY;BYDAY=2MO', 1],
    ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', 25],
    ['FREQ=MONTHLY;BYMONTHDAY=1,15', 2],
    ['FREQ=YEARLY', 1],
    ['FREQ=YEARLY;BYMONTH=1,7', 2],
    ['FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', 1],
    ['FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR', 265],
    ['FREQ=YEARLY;BYDAY=20MO', 1],
    ['FREQ=YEARLY;BYWEEKNO=1', 13],
    ['FREQ=YEARLY;BYYEARDAY=1,100,200', 3],
    [`FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=${all(9, 17)};BYMINUTE=0,30`, 4_770],
    ['FREQ=DAILY;BYHOUR=9,12,15;BYMINUTE=0,15,30,45', 12],
    // Sub-daily: the period fixes the hour or minute; only finer parts multiply.
    [`FREQ=HOURLY;BYHOUR=${all(0, 23)};BYMINUTE=0,30`, 2],
    [`FREQ=MINUTELY;BYHOUR=${all(0, 23)};BYMINUTE=${all(0, 59)};BYSECOND=0,30`, 2],
    [`FREQ=SECONDLY;BYHOUR=${all(0, 23)};BYMINUTE=${all(0, 59)};BYSECOND=${all(0, 59)}`, 1],
  ];
  for (const [text, expected] of cases) assert.equal(bound(text), expected, text);
  assert.equal(bound('FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU', true), 366);
});

// A period's key: the year, month, WKST-aligned week or day of a wall time.
function periodOf(freq: string, wall: number, wkst: number): number {
  const d = new Date(wall);
  const day = Math.floor(wall / DAY);
  if (freq === 'YEARLY') return d.getUTCFullYear();
  if (freq === 'MONTHLY') return d.getUTCFullYear() * 12 + d.getUTCMonth();
  if (freq === 'WEEKLY') return Math.floor((day - ((((day + 3) % 7) - wkst + 7) % 7)) / 7);
  return day;
}

test('property: no period of a random rule holds more occurrences than its bound (naive evaluator, seeded)', () => {
  const rng = new Rng(15_03);
  const some = (list: readonly (number | string)[], max: number): string => [...new Set(Array.from({ length: rng.int(1, max) }, () => rng.pick(list)))].join(',');
  for (let i = 0; i < 300; i++) {
    const freq = rng.pick(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const);
    const parts = [`FREQ=${freq}`];
    if (rng.chance(0.4)) parts.push(`BYMONTH=${some([1, 2, 3, 6, 9, 12], 4)}`);
    if (freq === 'YEARLY' && rng.chance(0.3)) parts.push(`BYWEEKNO=${some([1, 2, 10, 26, 52, 53, -1], 3)}`);
    if (freq === 'YEARLY' && rng.chance(0.3)) parts.push(`BYYEARDAY=${some([1, 32, 60, 61, 200, 365, 366, -1], 4)}`);
    if (freq !== 'WEEKLY' && rng.chance(0.4)) parts.push(`BYMONTHDAY=${some([1, 5, 28, 29, 30, 31, -1, -7], 4)}`);
    if (rng.chance(0.6)) {
      const ordinals = (freq === 'MONTHLY' || freq === 'YEARLY') && !parts.some((p) => p.startsWith('BYWEEKNO')) && rng.chance(0.5);
      parts.push(`BYDAY=${some(ordinals ? ['1MO', '-1FR', '2SU', '5TH', '20WE', 'SA', 'TU'] : ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], 5)}`);
    }
    if (rng.chance(0.4)) parts.push(`BYHOUR=${some([0, 6, 9, 12, 18, 23], 4)}`);
    if (rng.chance(0.3)) parts.push(`BYMINUTE=${some([0, 15, 30, 45], 3)}`);
    if (rng.chance(0.2)) parts.push(`WKST=${rng.pick(['MO', 'SU', 'WE'])}`);
    const text = parts.join(';');
    const rule = parseRule(text);
    const start = Date.UTC(2023, 0, 1) + rng.int(0, 700) * DAY;
    const perPeriod = new Map<number, number>();
    // The start itself is always an occurrence (RFC 5545 §3.8.5.3), whether or not the rule builds it.
    for (const w of naiveExpand(rule, start, start + 4 * 366 * DAY, false).filter((x) => x !== start)) {
      const p = periodOf(rule.freq, w, rule.wkst);
      perPeriod.set(p, (perPeriod.get(p) ?? 0) + 1);
    }
    const most = Math.max(0, ...perPeriod.values());
    assert.ok(most <= periodCandidateBound(rule), `${text}: a period holds ${most}, bound ${periodCandidateBound(rule)}`);
  }
});

test('an expansion charges the candidates it builds to its budget, before building them', () => {
  // 2,880 candidates a day in an unbounded series: three years of them are 3.2 million steps.
  const s = timedSeries('20260101T0000', 'UTC', [`RRULE:FREQ=DAILY;BYHOUR=${all(0, 23)};BYMINUTE=${all(0, 59)};BYSECOND=0,30`], 1000);
  const week = expansionBudget();
  assert.equal(expandInWindow(s, Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-03-08T00:00:00Z'), { budget: week }).length, 7 * 2880);
  assert.ok(week.remaining <= expansionBudget().remaining - 7 * 2880, `${week.remaining} steps left after a week`);
  assert.throws(() => expandInWindow(s, Date.parse('2026-03-01T00:00:00Z'), Date.parse('2029-01-01T00:00:00Z')), ExpansionBudgetError);
});

test('an event is capped as a whole: each per-event cap refuses one past it, naming it, and accepts it exactly', () => {
  const parse = (lines: readonly string[]) => parseRecurrence(lines, { allDay: false });
  const refuses = (lines: readonly string[], message: RegExp) =>
    assert.throws(() => parse(lines), (e: unknown) => e instanceof RecurrenceError && message.test(e.message), String(message));
  // A month of 10 days x 20 hours x 50 minutes is the per-line cap; n days of it are n x 1,000.
  const monthly = (days: number, extra = '') => `FREQ=MONTHLY;BYMONTHDAY=${all(1, days)};BYHOUR=${all(0, 19)};BYMINUTE=${all(0, 49)}${extra}`;
  assert.equal(MAX_SERIES_CANDIDATES, MAX_PERIOD_CANDIDATES);
  // The reproduction: 120 lines, each at the per-line cap.
  refuses(Array.from({ length: 120 }, (_, i) => `RRULE:${monthly(10, `;INTERVAL=${i + 1}`)}`), new RegExp(`has 120 RRULE and EXRULE lines; the limit is ${MAX_RULE_LINES} rule lines`));
  // Lines together: EXRULEs count, since the expansion builds their periods too.
  refuses([`RRULE:${monthly(6)}`, `EXRULE:${monthly(5)}`], new RegExp(`can hold 11000 candidate occurrences in all; the limit is ${MAX_SERIES_CANDIDATES} per period`));
  assert.equal(parse([`RRULE:${monthly(6)}`, `EXRULE:${monthly(4)}`]).exrules.length, 1);
  const daily = (i: number) => `RRULE:FREQ=DAILY;INTERVAL=${i + 1}`;
  refuses(Array.from({ length: MAX_RULE_LINES + 1 }, (_, i) => daily(i)), new RegExp(`the limit is ${MAX_RULE_LINES} rule lines per event`));
  assert.equal(parse(Array.from({ length: MAX_RULE_LINES }, (_, i) => daily(i))).rrules.length, MAX_RULE_LINES);
  const exdate = (i: number) => `EXDATE:2030${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}0000Z`;
  refuses(['RRULE:FREQ=HOURLY', ...Array.from({ length: MAX_RECURRENCE_LINES }, (_, i) => exdate(i))], new RegExp(`has ${MAX_RECURRENCE_LINES + 1} recurrence lines; the limit is ${MAX_RECURRENCE_LINES} lines per event`));
  assert.equal(parse(['RRULE:FREQ=HOURLY', ...Array.from({ length: MAX_RECURRENCE_LINES - 1 }, (_, i) => exdate(i))]).exdates.length, MAX_RECURRENCE_LINES - 1);
  // Dates count across lines and within one line alike.
  const dates = (count: number) => Array.from({ length: count }, (_, i) => `2030${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}T${String(Math.floor(i / 336) % 24).padStart(2, '0')}0000Z`).join(',');
  refuses(['RRULE:FREQ=HOURLY', `EXDATE:${dates(MAX_RECURRENCE_DATES)}`, `RDATE:${dates(1)}`], new RegExp(`list ${MAX_RECURRENCE_DATES + 1} dates; the limit is ${MAX_RECURRENCE_DATES} dates per event`));
  assert.equal(parse(['RRULE:FREQ=HOURLY', `EXDATE:${dates(MAX_RECURRENCE_DATES - 1)}`, `RDATE:${dates(1)}`]).rdates.length, 1);
});

test('the heaviest event the caps allow finds its first occurrence in a window for about one period of all its lines', () => {
  // Ten yearly rule lines of 1,000 candidates each (10 days x 10 hours x 10 minutes, each line on
  // its own second so none repeats another): the merge builds one period of every line before it
  // knows the first occurrence, 10,000 candidates, a hundredth of a request's step budget.
  const lines = Array.from({ length: MAX_RULE_LINES }, (_, i) => `RRULE:FREQ=YEARLY;BYYEARDAY=${all(1, 10)};BYHOUR=${all(0, 9)};BYMINUTE=${all(0, 9)};BYSECOND=${i}`);
  const s = timedSeries('20260101T0000', 'UTC', lines, 1000);
  const budget = expansionBudget();
  const found = expandInWindow(s, Date.parse('2030-01-05T00:00:00Z'), Date.parse('2030-01-12T00:00:00Z'), { limit: 1, budget });
  assert.deepEqual(found.map((o) => new Date(o.start).toISOString()), ['2030-01-05T00:00:00.000Z']);
  const spent = expansionBudget().remaining - budget.remaining;
  assert.ok(spent <= MAX_SERIES_CANDIDATES + 2 * MAX_RULE_LINES, `${spent} steps for the first occurrence`);
});
