// Expansion of a recurring event into occurrences (RFC 5545 §3.3.10 rule evaluation and
// §3.8.5 recurrence sets), Google's instance identity, and merging of stored exceptions.
//
// How it works. A rule is evaluated one *period* at a time (a year for YEARLY, a month for
// MONTHLY, a WKST-aligned week for WEEKLY, a day, an hour ...), stepping INTERVAL periods. A
// period's candidates are its days that pass every day-level BYxxx part, times every
// BYHOUR/BYMINUTE/BYSECOND combination; BYSETPOS then picks among them (§3.3.10). Candidates are
// computed in *wall-clock* time of the series' zone, from DTSTART's wall time, and only then
// turned into instants, so a weekly 09:00 New York meeting stays at 09:00 across a DST change
// (Event.start.timeZone is "the zone the recurrence is expanded in").
//
// DST (RFC 5545 §3.3.5 and §3.3.10, as python-dateutil and Google do it): only an occurrence
// whose wall time falls in a gap moves, forward by the gap's length; every other occurrence
// keeps the wall time. A series starting 02:30 on New York's spring-forward day has 03:30 EDT
// that day and 02:30 on the days after (TimedSeries.startWall keeps the 02:30). A wall time
// that occurs twice means its first occurrence (the earlier offset). Occurrence keys, and so
// instance ids, are the real UTC instants (zones.ts wallMsToInstant).
//
// Cost depends on the window, not on the series' age: without COUNT the iteration jumps straight
// to the period holding the window start. With COUNT every earlier occurrence must be counted
// (by wall time alone, without reading the zone); DAILY and WEEKLY rules whose periods all hold
// the same number of candidates skip ahead by arithmetic, others count period by period. Every
// period and every candidate it builds is a step of the request's budget (MAX_EXPANSION_STEPS),
// charged before the candidates are built; one period holds at most MAX_PERIOD_CANDIDATES
// (cost.ts, enforced when a rule is parsed).
//
// Choices (unconfirmed for Google, kept simple and documented):
// - The series start is always an occurrence and counts towards COUNT, even when the rule does
//   not produce it (§3.8.5.3: "The DTSTART property value always counts as the first occurrence").
// - HOURLY/MINUTELY/SECONDLY step in wall-clock time too. A gap can give two wall times one
//   instant (02:30 and 03:30 on New York's spring-forward day): the recurrence set is a set, so
//   that is one occurrence, though COUNT counted both candidates, as python-dateutil does.
// - UNTIL as a DATE on a timed series bounds through the end of that day in the series' zone;
//   a floating UNTIL is read in the series' zone; a UTC UNTIL bounds the instant. On an all-day
//   series any UNTIL is compared with the date as a floating midnight.
// - EXDATE;VALUE=DATE on a timed series removes every occurrence on that local date; an RDATE
//   DATE on a timed series adds that date at the series' start time of day.
// - A rule that yields nothing for 400 years (one full Gregorian cycle) is treated as ended.

import type { RRule, RecurrenceSet, DateRef } from './rrule.ts';
import type { CivilDate } from '../time/zones.ts';
import {
  MS_PER_DAY,
  MS_PER_HOUR,
  MS_PER_MINUTE,
  MS_PER_SECOND,
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  instantToWallMs,
  isLeapYear,
  wallMsToInstant,
  wallToMs,
  weekdayOfDays,
  formatRfc3339InZone,
} from '../time/zones.ts';
import { formatBasicDate, formatBasicUtc, formatDate, startOfDateInZone } from '../time/datetime.ts';

// ---------------------------------------------------------------------------------------------
// Public types.

export interface TimedSeries {
  readonly kind: 'dateTime';
  /** Instant of the first instance's start (the event's `start`). */
  readonly start: number;
  /**
   * DTSTART's wall time in `timeZone` (wall ms, zones.ts; datetime.ts parseDateTimeWall), which
   * the rules run from. It differs from the wall time `start` shows only when the start was
   * written as a local time inside a DST gap: 02:30 on a spring-forward day starts at 03:30,
   * and the following days keep 02:30.
   */
  readonly startWall: number;
  readonly durationMs: number;
  /** IANA zone the series is expanded in (the event's `start.timeZone`). */
  readonly timeZone: string;
  readonly recurrence: RecurrenceSet;
}

export interface AllDaySeries {
  readonly kind: 'date';
  readonly startDate: CivilDate;
  /** end.date - start.date (end is exclusive). */
  readonly durationDays: number;
  readonly recurrence: RecurrenceSet;
}

export type Series = TimedSeries | AllDaySeries;

/**
 * An occurrence is identified by its *original start key*: for a timed series the instant (epoch
 * ms) of the start the rules assign; for an all-day series the date's midnight read as UTC
 * (`dateKey`). Keys order occurrences and key exception records.
 */
export type OccurrenceKey = number;

export interface Occurrence {
  readonly originalStart: OccurrenceKey;
  /** Instants; an all-day occurrence is placed at midnight of its dates in `allDayZone`. */
  readonly start: number;
  readonly end: number;
}

/** Iteration counters, for tests and benchmarks that check the cost of an expansion. */
export interface ExpansionStats {
  periods: number;
}

/**
 * Steps one expansion may take before it gives up with ExpansionBudgetError, about half a second
 * of work: one per rule period stepped through (including skipped days) and one per candidate a
 * period builds, counted before the candidates are built. Without it a rule that is valid but
 * never or rarely matches at a fine frequency (`FREQ=SECONDLY;BYSECOND=0;BYSETPOS=2;UNTIL=9999...`)
 * walks billions of periods (issue 8), and a rule whose periods are large (cost.ts, at most
 * MAX_PERIOD_CANDIDATES each) repeats them over a long window (issue 15); either would stall the
 * single-threaded service.
 */
export const MAX_EXPANSION_STEPS = 1_000_000;

/** The steps left to one request's expansions; share one across calls to cap their total. */
export interface ExpansionBudget {
  remaining: number;
}

export function expansionBudget(steps = MAX_EXPANSION_STEPS): ExpansionBudget {
  return { remaining: steps };
}

export class ExpansionBudgetError extends Error {
  constructor() {
    super(`The recurrence needs more than ${MAX_EXPANSION_STEPS} steps to expand; narrow the time range or simplify the rule.`);
    this.name = 'ExpansionBudgetError';
  }
}

export interface ExpandOptions {
  /** At most this many occurrences (earliest first). */
  readonly limit?: number;
  /** Zone all-day dates are placed in to compare with instants (the calendar's); default UTC. */
  readonly allDayZone?: string;
  readonly stats?: ExpansionStats;
  /** Default: a fresh budget of MAX_EXPANSION_STEPS for this call. */
  readonly budget?: ExpansionBudget;
}

// ---------------------------------------------------------------------------------------------
// Compiled rules.

const FREQ_ORDER = { SECONDLY: 0, MINUTELY: 1, HOURLY: 2, DAILY: 3, WEEKLY: 4, MONTHLY: 5, YEARLY: 6 } as const;
const EMPTY_SPAN = 146_097 * MS_PER_DAY; // 400 Gregorian years
const MAX_WALL = daysFromCivil(10_000, 1, 1) * MS_PER_DAY;

interface CompiledRule {
  readonly rule: RRule;
  readonly order: number;
  readonly interval: number;
  readonly dtWall: number;
  readonly dtDays: number;
  readonly byMonth: readonly boolean[] | undefined; // index 1-12
  readonly plainDays: readonly boolean[] | undefined; // index 0-6 (MO-SU)
  readonly ordDays: readonly { readonly weekday: number; readonly ordinal: number }[];
  readonly byMonthDay: readonly number[];
  readonly byYearDay: readonly number[];
  readonly byWeekNo: readonly number[];
  readonly ordinalsInMonth: boolean;
  /** ms-of-day candidates for DAILY and coarser. */
  readonly times: readonly number[];
  readonly byHour: readonly number[] | undefined;
  readonly byMinute: readonly number[] | undefined;
  readonly bySecond: readonly number[] | undefined;
  readonly minutes: readonly number[];
  readonly seconds: readonly number[];
  readonly weekStart0: number; // day number of the WKST-aligned week holding the start
  readonly unit: number; // ms per period for sub-daily frequencies
  readonly untilWall: number | undefined;
  readonly untilInstant: number | undefined;
  /** Count left for the rule's own occurrences once an unsynchronised start took one. */
  readonly count: number | undefined;
  /** Occurrences per period when every period holds the same number (COUNT fast path). */
  readonly uniform: number | undefined;
  /** The day a sub-daily rule last asked about, and whether the day-level parts let it pass. */
  readonly lastDay: { day: number; matches: boolean };
}

function mask(values: readonly number[], size: number): boolean[] | undefined {
  if (values.length === 0) return undefined;
  const m = new Array<boolean>(size).fill(false);
  for (const v of values) m[v] = true;
  return m;
}

function compileRule(rule: RRule, dtWall: number, series: Series, forceStart: boolean): CompiledRule {
  const dtDays = Math.floor(dtWall / MS_PER_DAY);
  const dt = civilFromDays(dtDays);
  const msOfDay = dtWall - dtDays * MS_PER_DAY;
  const dtHour = Math.floor(msOfDay / MS_PER_HOUR);
  const dtMinute = Math.floor((msOfDay % MS_PER_HOUR) / MS_PER_MINUTE);
  const dtSecond = Math.floor((msOfDay % MS_PER_MINUTE) / MS_PER_SECOND);

  let byMonth = [...rule.byMonth];
  let byMonthDay = [...rule.byMonthDay];
  let plain = rule.byDay.filter((d) => d.ordinal === 0).map((d) => d.weekday);
  const ordDays = rule.byDay.filter((d) => d.ordinal !== 0);
  // §3.3.10: parts absent from the rule take the start's values where the frequency needs a
  // day to land on ("information ... not contained in the rule ... is derived from DTSTART").
  const dayParts = rule.byWeekNo.length + rule.byYearDay.length + rule.byMonthDay.length + rule.byDay.length;
  if (dayParts === 0) {
    if (rule.freq === 'YEARLY') {
      if (byMonth.length === 0) byMonth = [dt.month];
      byMonthDay = [dt.day];
    } else if (rule.freq === 'MONTHLY') {
      byMonthDay = [dt.day];
    } else if (rule.freq === 'WEEKLY') {
      plain = [weekdayOfDays(dtDays)];
    }
  }
  const order = FREQ_ORDER[rule.freq];
  const hours = rule.byHour.length > 0 ? rule.byHour : [dtHour];
  const minutes = rule.byMinute.length > 0 ? rule.byMinute : [dtMinute];
  const seconds = rule.bySecond.length > 0 ? rule.bySecond : [dtSecond];
  // Sub-daily periods fix the hour (or minute) themselves and build their times per period.
  const times: number[] = [];
  if (series.kind === 'date') {
    times.push(0);
  } else if (order >= FREQ_ORDER.DAILY) {
    for (const h of hours) for (const m of minutes) for (const s of seconds) times.push(h * MS_PER_HOUR + m * MS_PER_MINUTE + s * MS_PER_SECOND);
  }

  let untilWall: number | undefined;
  let untilInstant: number | undefined;
  const u = rule.until;
  if (u !== undefined) {
    if (u.kind === 'date') {
      const d = daysFromCivil(u.date.year, u.date.month, u.date.day);
      untilWall = series.kind === 'date' ? d * MS_PER_DAY : (d + 1) * MS_PER_DAY - 1;
    } else if (u.utc && series.kind === 'dateTime') {
      untilInstant = wallToMs(u.wall);
    } else {
      untilWall = wallToMs(u.wall);
    }
  }

  const unit = order === 2 ? MS_PER_HOUR : order === 1 ? MS_PER_MINUTE : MS_PER_SECOND;
  const weekStart0 = dtDays - ((weekdayOfDays(dtDays) - rule.wkst + 7) % 7);
  const base = {
    rule,
    order,
    interval: rule.interval,
    dtWall,
    dtDays,
    byMonth: mask(byMonth, 13),
    plainDays: mask(plain, 7),
    ordDays,
    byMonthDay,
    byYearDay: rule.byYearDay,
    byWeekNo: rule.byWeekNo,
    // §3.3.10 note 2 on BYDAY: ordinals count within the month for MONTHLY, and for YEARLY
    // when BYMONTH is present; otherwise within the year.
    ordinalsInMonth: rule.freq === 'MONTHLY' || (rule.freq === 'YEARLY' && byMonth.length > 0),
    times,
    byHour: rule.byHour.length > 0 ? rule.byHour : undefined,
    byMinute: rule.byMinute.length > 0 ? rule.byMinute : undefined,
    bySecond: rule.bySecond.length > 0 ? rule.bySecond : undefined,
    minutes,
    seconds,
    weekStart0,
    unit,
    untilWall,
    untilInstant,
    count: rule.count,
    uniform: undefined,
    lastDay: { day: NaN, matches: false },
  } satisfies CompiledRule;
  let uniform: number | undefined;
  if (rule.bySetPos.length === 0 && rule.byMonth.length === 0) {
    if (rule.freq === 'DAILY' && base.plainDays === undefined && byMonthDay.length === 0) uniform = times.length;
    if (rule.freq === 'WEEKLY' && ordDays.length === 0) uniform = (plain.length === 0 ? 7 : new Set(plain).size) * times.length;
  }
  let count = rule.count;
  if (count !== undefined && forceStart && !periodCandidates(base, 0, undefined, expansionBudget()).includes(dtWall)) count -= 1;
  return { ...base, count, uniform };
}

// Week numbering of §3.3.10 BYWEEKNO: weeks start on WKST; week 1 is the first holding at least
// four days of the year, i.e. the week holding January 4th.
function week1Start(year: number, wkst: number): number {
  const jan4 = daysFromCivil(year, 1, 4);
  return jan4 - ((weekdayOfDays(jan4) - wkst + 7) % 7);
}

function weekNoMatches(c: CompiledRule, days: number): boolean {
  const wkst = c.rule.wkst;
  const ws = days - ((weekdayOfDays(days) - wkst + 7) % 7);
  const weekYear = civilFromDays(ws + 3).year;
  const w1 = week1Start(weekYear, wkst);
  const weekNo = (ws - w1) / 7 + 1;
  const weeks = (week1Start(weekYear + 1, wkst) - w1) / 7;
  return c.byWeekNo.some((n) => (n > 0 ? n === weekNo : weeks + n + 1 === weekNo));
}

function dayMatches(c: CompiledRule, days: number, year: number, month: number, day: number): boolean {
  if (c.byMonth !== undefined && c.byMonth[month] !== true) return false;
  const dim = daysInMonth(year, month);
  if (c.byMonthDay.length > 0 && !c.byMonthDay.some((n) => (n > 0 ? n === day : dim + n + 1 === day))) return false;
  let yearDay = 0;
  let yearLen = 0;
  if (c.byYearDay.length > 0 || (c.ordDays.length > 0 && !c.ordinalsInMonth)) {
    yearDay = days - daysFromCivil(year, 1, 1) + 1;
    yearLen = isLeapYear(year) ? 366 : 365;
  }
  if (c.byYearDay.length > 0 && !c.byYearDay.some((n) => (n > 0 ? n === yearDay : yearLen + n + 1 === yearDay))) return false;
  if (c.plainDays !== undefined || c.ordDays.length > 0) {
    const wd = weekdayOfDays(days);
    let ok = c.plainDays !== undefined && c.plainDays[wd] === true;
    if (!ok && c.ordDays.length > 0) {
      const pos = c.ordinalsInMonth ? day : yearDay;
      const len = c.ordinalsInMonth ? dim : yearLen;
      const fromStart = Math.floor((pos - 1) / 7) + 1;
      const fromEnd = -(Math.floor((len - pos) / 7) + 1);
      ok = c.ordDays.some((o) => o.weekday === wd && (o.ordinal === fromStart || o.ordinal === fromEnd));
    }
    if (!ok) return false;
  }
  if (c.byWeekNo.length > 0 && !weekNoMatches(c, days)) return false;
  return true;
}

function dayMatchesCivil(c: CompiledRule, days: number): boolean {
  const d = civilFromDays(days);
  return dayMatches(c, days, d.year, d.month, d.day);
}

/** Wall ms at which period `idx` begins. */
function periodStart(c: CompiledRule, idx: number): number {
  switch (c.order) {
    case 6: {
      const y = civilFromDays(c.dtDays).year + idx;
      return daysFromCivil(y, 1, 1) * MS_PER_DAY;
    }
    case 5: {
      const d = civilFromDays(c.dtDays);
      const total = d.year * 12 + d.month - 1 + idx;
      return daysFromCivil(Math.floor(total / 12), (total % 12) + 1, 1) * MS_PER_DAY;
    }
    case 4:
      return (c.weekStart0 + 7 * idx) * MS_PER_DAY;
    case 3:
      return (c.dtDays + idx) * MS_PER_DAY;
    default:
      return Math.floor(c.dtWall / c.unit) * c.unit + idx * c.unit;
  }
}

/** Index of the period holding wall ms `wall` (may be negative before the start). */
function periodIndexOf(c: CompiledRule, wall: number): number {
  const days = Math.floor(wall / MS_PER_DAY);
  switch (c.order) {
    case 6:
      return civilFromDays(days).year - civilFromDays(c.dtDays).year;
    case 5: {
      const a = civilFromDays(days);
      const b = civilFromDays(c.dtDays);
      return a.year * 12 + a.month - (b.year * 12 + b.month);
    }
    case 4:
      return Math.floor((days - c.weekStart0) / 7);
    case 3:
      return days - c.dtDays;
    default:
      return Math.floor(wall / c.unit) - Math.floor(c.dtWall / c.unit);
  }
}

/**
 * Candidates of period `idx`, ascending wall ms, after BYSETPOS. Their number is charged to
 * `budget` before the list is built.
 */
function periodCandidates(c: CompiledRule, idx: number, stats: ExpansionStats | undefined, budget: ExpansionBudget): number[] {
  if (stats !== undefined) stats.periods += 1;
  const out = c.order <= 2 ? subDailyCandidates(c, idx, budget) : dayCandidates(c, idx, budget);
  const setPos = c.rule.bySetPos;
  if (setPos.length === 0 || out.length === 0) return out;
  const picked = new Set<number>();
  for (const n of setPos) {
    const v = out[n > 0 ? n - 1 : out.length + n];
    if (v !== undefined) picked.add(v);
  }
  return [...picked].sort((a, b) => a - b);
}

function charge(budget: ExpansionBudget, steps: number): void {
  budget.remaining -= steps;
  if (budget.remaining < 0) throw new ExpansionBudgetError();
}

/** DAILY and coarser: the period's matching days, each at every time of `c.times`. */
function dayCandidates(c: CompiledRule, idx: number, budget: ExpansionBudget): number[] {
  const days: number[] = [];
  switch (c.order) {
    case 6:
    case 5: {
      let year: number;
      let months: number[];
      if (c.order === 6) {
        year = civilFromDays(c.dtDays).year + idx;
        months = [];
        for (let m = 1; m <= 12; m++) if (c.byMonth === undefined || c.byMonth[m] === true) months.push(m);
      } else {
        const d = civilFromDays(c.dtDays);
        const total = d.year * 12 + d.month - 1 + idx;
        year = Math.floor(total / 12);
        months = [(total % 12) + 1];
      }
      for (const month of months) {
        const first = daysFromCivil(year, month, 1);
        const dim = daysInMonth(year, month);
        for (let day = 1; day <= dim; day++) if (dayMatches(c, first + day - 1, year, month, day)) days.push(first + day - 1);
      }
      break;
    }
    case 4: {
      const ws = c.weekStart0 + 7 * idx;
      for (let k = 0; k < 7; k++) if (dayMatchesCivil(c, ws + k)) days.push(ws + k);
      break;
    }
    default:
      if (dayMatchesCivil(c, c.dtDays + idx)) days.push(c.dtDays + idx);
      break;
  }
  charge(budget, days.length * c.times.length);
  const out: number[] = [];
  for (const d of days) for (const t of c.times) out.push(d * MS_PER_DAY + t);
  return out;
}

/**
 * HOURLY, MINUTELY, SECONDLY: the period fixes the hour (and minute, second); BYxxx parts at or
 * above the period's unit filter, finer ones expand (§3.3.10 table). Periods are aligned to
 * their unit (periodStart), so the finer values add to the period's start.
 */
function subDailyCandidates(c: CompiledRule, idx: number, budget: ExpansionBudget): number[] {
  const start = periodStart(c, idx);
  const day = Math.floor(start / MS_PER_DAY);
  if (!subDailyDayMatches(c, day)) return [];
  const ms = start - day * MS_PER_DAY;
  if (c.byHour !== undefined && !c.byHour.includes(Math.floor(ms / MS_PER_HOUR))) return [];
  if (c.order <= 1 && c.byMinute !== undefined && !c.byMinute.includes(Math.floor((ms % MS_PER_HOUR) / MS_PER_MINUTE))) return [];
  if (c.order === 0 && c.bySecond !== undefined && !c.bySecond.includes(Math.floor((ms % MS_PER_MINUTE) / MS_PER_SECOND))) return [];
  if (c.order === 0) {
    charge(budget, 1);
    return [start];
  }
  const minutes = c.order === 1 ? [0] : c.minutes;
  charge(budget, minutes.length * c.seconds.length);
  const out: number[] = [];
  for (const m of minutes) for (const sec of c.seconds) out.push(start + m * MS_PER_MINUTE + sec * MS_PER_SECOND);
  return out;
}

/** dayMatchesCivil for the periods of a sub-daily rule, which ask about the same day thousands of times. */
function subDailyDayMatches(c: CompiledRule, day: number): boolean {
  const memo = c.lastDay;
  if (memo.day !== day) {
    memo.day = day;
    memo.matches = dayMatchesCivil(c, day);
  }
  return memo.matches;
}

/** First period index at or after `idx` that lies on a later day (sub-daily day skipping). */
function nextDayIndex(c: CompiledRule, idx: number): number {
  const start = periodStart(c, idx);
  const nextDay = (Math.floor(start / MS_PER_DAY) + 1) * MS_PER_DAY;
  const base = Math.floor(c.dtWall / c.unit) * c.unit;
  const steps = Math.ceil((nextDay - base) / c.unit / c.interval);
  return Math.max(idx + c.interval, steps * c.interval);
}

/**
 * Occurrence keys of one rule, ascending, at or after wall time `fromWall` (earlier ones are
 * still counted for COUNT). Stops at COUNT/UNTIL, after `stopWall`, or after an empty 400 years.
 */
function* ruleKeys(
  c: CompiledRule,
  times: Pick<CompiledSeries, 'toKey' | 'keyToWall'>,
  fromWall: number,
  stopWall: number,
  stats: ExpansionStats | undefined,
  budget: ExpansionBudget,
): Generator<number, void, undefined> {
  let idx = 0;
  let emitted = 0;
  const target = fromWall <= c.dtWall ? 0 : Math.floor(periodIndexOf(c, fromWall) / c.interval) * c.interval;
  if (c.count === undefined) {
    idx = target;
  } else if (c.uniform !== undefined && c.uniform > 0 && target > c.interval) {
    // COUNT with uniform periods: count period 0 (it may begin before the start), then skip
    // whole periods arithmetically, leaving at least one occurrence to find by iteration.
    emitted = periodCandidates(c, 0, stats, budget).filter((w) => w >= c.dtWall).length;
    const remaining = c.count - emitted;
    const maxSkip = target / c.interval - 1;
    const skip = remaining > 0 ? Math.min(maxSkip, Math.floor((remaining - 1) / c.uniform)) : 0;
    emitted += skip * c.uniform;
    idx = (skip + 1) * c.interval;
  }
  // Candidates come in wall-time order, which is instant order except in a DST gap: a wall time
  // there moves forward by the gap's length, past the instants of the wall times just after the
  // gap (Chatham skips 02:45-03:45, so 03:15 is 04:15 and comes after 03:45). Such keys wait
  // here, ascending, until a later key passes them. COUNT and UNTIL still go by candidate order,
  // as python-dateutil counts and stops.
  const moved: number[] = [];
  let lastFound = Math.max(c.dtWall, periodStart(c, idx));
  const bound = Math.min(stopWall, MAX_WALL, c.untilWall ?? Infinity, c.untilInstant === undefined ? Infinity : c.untilInstant + 2 * MS_PER_DAY);
  periods: for (;;) {
    if (--budget.remaining < 0) throw new ExpansionBudgetError();
    const ps = periodStart(c, idx);
    if (ps > bound || ps - lastFound > EMPTY_SPAN) break;
    if (c.order <= 2 && !subDailyDayMatches(c, Math.floor(ps / MS_PER_DAY))) {
      // Sub-daily rule on a day the day-level parts exclude: skip the rest of that day.
      idx = nextDayIndex(c, idx);
      continue;
    }
    const cands = periodCandidates(c, idx, stats, budget);
    for (const w of cands) {
      if (w < c.dtWall) continue;
      if (c.untilWall !== undefined && w > c.untilWall) break periods;
      if (c.count !== undefined && emitted >= c.count) break periods;
      emitted += 1;
      lastFound = w;
      // Before the window a candidate is only counted (COUNT goes by wall times), unless a UTC
      // UNTIL needs its instant: reading the zone's offset is the costly part of a candidate.
      if (w < fromWall && c.untilInstant === undefined) continue;
      const key = times.toKey(w);
      if (c.untilInstant !== undefined && key > c.untilInstant) break periods;
      if (w < fromWall) continue;
      if (times.keyToWall(key) !== w) {
        let at = moved.length;
        while (at > 0 && (moved[at - 1] as number) > key) at--;
        moved.splice(at, 0, key);
        continue;
      }
      while (moved.length > 0 && (moved[0] as number) < key) yield moved.shift() as number;
      yield key;
    }
    idx += c.interval;
  }
  yield* moved;
}

// ---------------------------------------------------------------------------------------------
// Recurrence sets (§3.8.5: RRULEs and RDATEs, minus EXRULEs and EXDATEs, plus the start).

interface CompiledSeries {
  readonly series: Series;
  readonly startKey: number;
  readonly dtWall: number;
  readonly toKey: (wall: number) => number;
  readonly keyToWall: (key: number) => number;
  readonly rules: readonly CompiledRule[];
  readonly exrules: readonly CompiledRule[];
  readonly rdates: readonly number[];
  readonly exdates: ReadonlySet<number>;
  readonly exLocalDays: ReadonlySet<number>;
}

const compiledCache = new WeakMap<Series, CompiledSeries>();

function dateRefKey(ref: DateRef, series: Series): { key: number } | { localDay: number } {
  const v = ref.value;
  if (series.kind === 'date') {
    // parseRecurrence refuses date-times for all-day series; read one as its date regardless.
    const d = v.kind === 'date' ? v.date : v.wall;
    return { key: daysFromCivil(d.year, d.month, d.day) * MS_PER_DAY };
  }
  if (v.kind === 'date') return { localDay: daysFromCivil(v.date.year, v.date.month, v.date.day) };
  const wall = wallToMs(v.wall);
  if (v.utc) return { key: wall };
  return { key: wallMsToInstant(wall, ref.tzid ?? series.timeZone) };
}

function compile(series: Series): CompiledSeries {
  const hit = compiledCache.get(series);
  if (hit !== undefined) return hit;
  let startKey: number;
  let dtWall: number;
  let toKey: (wall: number) => number;
  let keyToWall: (key: number) => number;
  if (series.kind === 'dateTime') {
    const zone = series.timeZone;
    startKey = series.start;
    dtWall = series.startWall;
    // The start's own wall time maps back to the start even in a repeated hour's second pass
    // (a start written with the later offset).
    toKey = (wall) => (wall === dtWall ? series.start : wallMsToInstant(wall, zone));
    keyToWall = (key) => instantToWallMs(key, zone);
  } else {
    const d = series.startDate;
    dtWall = daysFromCivil(d.year, d.month, d.day) * MS_PER_DAY;
    startKey = dtWall;
    toKey = (wall) => wall;
    keyToWall = (key) => key;
  }
  const rec = series.recurrence;
  const rdates: number[] = [];
  for (const r of rec.rdates) {
    const k = dateRefKey(r, series);
    // An RDATE DATE on a timed series: that date at the start's time of day.
    rdates.push('key' in k ? k.key : toKey(k.localDay * MS_PER_DAY + (dtWall - Math.floor(dtWall / MS_PER_DAY) * MS_PER_DAY)));
  }
  rdates.sort((a, b) => a - b);
  const exdates = new Set<number>();
  const exLocalDays = new Set<number>();
  for (const r of rec.exdates) {
    const k = dateRefKey(r, series);
    if ('key' in k) exdates.add(k.key);
    else exLocalDays.add(k.localDay);
  }
  const compiled: CompiledSeries = {
    series,
    startKey,
    dtWall,
    toKey,
    keyToWall,
    rules: rec.rrules.map((r) => compileRule(r, dtWall, series, true)),
    exrules: rec.exrules.map((r) => compileRule(r, dtWall, series, false)),
    rdates,
    exdates,
    exLocalDays,
  };
  compiledCache.set(series, compiled);
  return compiled;
}

function* fromList(list: readonly number[], fromKey: number): Generator<number, void, undefined> {
  for (const k of list) if (k >= fromKey) yield k;
}

interface Head {
  readonly it: Iterator<number, void, undefined>;
  value: number;
}

function heads(its: Iterator<number, void, undefined>[]): Head[] {
  const out: Head[] = [];
  for (const it of its) {
    const r = it.next();
    if (r.done !== true) out.push({ it, value: r.value });
  }
  return out;
}

export interface IterateOptions {
  /** Yield only keys at or after this key (an instant; for all-day series a date key). */
  readonly from?: OccurrenceKey;
  /** Stop once keys pass this one (lets empty stretches of a rule end early). */
  readonly until?: OccurrenceKey;
  readonly stats?: ExpansionStats;
  /** Default: a fresh budget of MAX_EXPANSION_STEPS for this iteration. */
  readonly budget?: ExpansionBudget;
}

/**
 * The series' occurrence keys in ascending order, lazily; infinite for unbounded rules.
 * Exception records are not applied here (see instancesInWindow).
 */
export function* occurrences(series: Series, options: IterateOptions = {}): Generator<OccurrenceKey, void, undefined> {
  const c = compile(series);
  const fromKey = options.from ?? -Infinity;
  const stopKey = options.until ?? Infinity;
  // Wall-time bounds with a day of slack either side for zone offsets.
  const fromWall = Number.isFinite(fromKey) ? c.keyToWall(fromKey) - MS_PER_DAY : -Infinity;
  const stopWall = Number.isFinite(stopKey) ? c.keyToWall(stopKey) + MS_PER_DAY : Infinity;
  const budget = options.budget ?? expansionBudget();
  const sources = heads([
    fromList([c.startKey], fromKey),
    fromList(c.rdates, fromKey),
    ...c.rules.map((r) => ruleKeys(r, c, fromWall, stopWall, options.stats, budget)),
  ]);
  const ex = heads(c.exrules.map((r) => ruleKeys(r, c, fromWall, stopWall, options.stats, budget)));
  let last = -Infinity;
  for (;;) {
    let min: Head | undefined;
    for (const h of sources) if (min === undefined || h.value < min.value) min = h;
    if (min === undefined) return;
    const key = min.value;
    const r = min.it.next();
    if (r.done === true) sources.splice(sources.indexOf(min), 1);
    else min.value = r.value;
    if (key === last || key < fromKey) continue;
    if (key > stopKey) return;
    last = key;
    if (c.exdates.has(key)) continue;
    if (c.exLocalDays.size > 0 && c.exLocalDays.has(Math.floor(c.keyToWall(key) / MS_PER_DAY))) continue;
    let excluded = false;
    for (let i = ex.length - 1; i >= 0; i--) {
      const h = ex[i] as Head;
      while (h.value < key) {
        const n = h.it.next();
        if (n.done === true) {
          h.value = Infinity;
          break;
        }
        h.value = n.value;
      }
      if (h.value === key) excluded = true;
    }
    if (!excluded) yield key;
  }
}

/** Start and end instants of the occurrence with original start `key`. */
export function occurrenceSpan(series: Series, key: OccurrenceKey, allDayZone = 'UTC'): Occurrence {
  if (series.kind === 'dateTime') return { originalStart: key, start: key, end: key + series.durationMs };
  const days = Math.floor(key / MS_PER_DAY);
  return {
    originalStart: key,
    start: startOfDateInZone(civilFromDays(days), allDayZone),
    end: startOfDateInZone(civilFromDays(days + series.durationDays), allDayZone),
  };
}

/** [start, end) overlaps [windowStart, windowEnd); a zero-length event counts at its start. */
export function overlaps(start: number, end: number, windowStart: number, windowEnd: number): boolean {
  if (start >= windowEnd) return false;
  return end > windowStart || (end === start && start >= windowStart);
}

/** Occurrences whose [start, end) overlaps [windowStart, windowEnd), earliest first. */
export function expandInWindow(series: Series, windowStart: number, windowEnd: number, options: ExpandOptions = {}): Occurrence[] {
  const limit = options.limit ?? Infinity;
  const zone = options.allDayZone ?? 'UTC';
  let from: number;
  let until: number;
  if (series.kind === 'dateTime') {
    from = windowStart - series.durationMs;
    until = windowEnd;
  } else {
    // Dates whose placement in `zone` can overlap: a day of slack either side for the offset.
    from = (Math.floor(windowStart / MS_PER_DAY) - series.durationDays - 1) * MS_PER_DAY;
    until = (Math.floor(windowEnd / MS_PER_DAY) + 1) * MS_PER_DAY;
  }
  const out: Occurrence[] = [];
  if (limit <= 0 || !(windowStart < windowEnd)) return out;
  const opts: IterateOptions = { from, until, ...(options.stats && { stats: options.stats }), ...(options.budget && { budget: options.budget }) };
  for (const key of occurrences(series, opts)) {
    const o = occurrenceSpan(series, key, zone);
    if (o.start >= windowEnd) break;
    if (!overlaps(o.start, o.end, windowStart, windowEnd)) continue;
    out.push(o);
    if (out.length >= limit) break;
  }
  return out;
}

/** Whether `key` is an original start of the series (validates instance ids). */
export function isOccurrence(series: Series, key: OccurrenceKey, budget?: ExpansionBudget): boolean {
  for (const k of occurrences(series, { from: key, until: key, ...(budget && { budget }) })) return k === key;
  return false;
}

/** The first occurrence's key, or undefined when exclusions remove every occurrence. */
export function firstOccurrence(series: Series): OccurrenceKey | undefined {
  for (const k of occurrences(series)) return k;
  return undefined;
}

/**
 * The last occurrence's key: Infinity when some RRULE has neither COUNT nor UNTIL, undefined
 * when the set is empty.
 */
export function lastOccurrence(series: Series): OccurrenceKey | undefined {
  const c = compile(series);
  if (c.rules.some((r) => r.rule.count === undefined && r.rule.until === undefined)) return Infinity;
  if (c.rules.some((r) => r.rule.count !== undefined)) {
    let last: number | undefined;
    for (const k of occurrences(series)) last = k;
    return last;
  }
  // UNTIL only: search backwards from the latest possible key in widening windows, on one budget.
  const budget = expansionBudget();
  let upper = Math.max(c.startKey, ...c.rdates);
  for (const r of c.rules) {
    const u = r.untilInstant ?? (r.untilWall === undefined ? undefined : c.toKey(Math.min(r.untilWall, MAX_WALL)));
    if (u !== undefined) upper = Math.max(upper, u + MS_PER_DAY);
  }
  for (let span = 32 * MS_PER_DAY; ; span *= 4) {
    const from = upper - span;
    let last: number | undefined;
    for (const k of occurrences(series, { from, until: upper, budget })) last = k;
    if (last !== undefined) return last;
    if (from <= c.startKey) return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Google's instance identity (BEHAVIOUR.md §2.3).

/** Key of an all-day date: its midnight read as UTC. */
export function dateKey(d: CivilDate): OccurrenceKey {
  return daysFromCivil(d.year, d.month, d.day) * MS_PER_DAY;
}

export function keyToDate(key: OccurrenceKey): CivilDate {
  return civilFromDays(Math.floor(key / MS_PER_DAY));
}

/** `<eventId>_<YYYYMMDDTHHMMSSZ>` for timed series, `<eventId>_<YYYYMMDD>` for all-day ones. */
export function formatInstanceId(eventId: string, kind: Series['kind'], key: OccurrenceKey): string {
  return `${eventId}_${kind === 'dateTime' ? formatBasicUtc(key) : formatBasicDate(keyToDate(key))}`;
}

export interface ParsedInstanceId {
  readonly eventId: string;
  readonly kind: Series['kind'];
  readonly originalStart: OccurrenceKey;
}

const INSTANCE_SUFFIX = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/;

/** Splits an instance id; undefined when `id` does not have that shape (a plain event id). */
export function parseInstanceId(id: string): ParsedInstanceId | undefined {
  const cut = id.lastIndexOf('_');
  if (cut <= 0) return undefined;
  const m = INSTANCE_SUFFIX.exec(id.slice(cut + 1));
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const days = daysFromCivil(year, month, day);
  const eventId = id.slice(0, cut);
  if (m[4] === undefined) return { eventId, kind: 'date', originalStart: days * MS_PER_DAY };
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const s = Number(m[6]);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return { eventId, kind: 'dateTime', originalStart: days * MS_PER_DAY + h * MS_PER_HOUR + mi * MS_PER_MINUTE + s * MS_PER_SECOND };
}

export type OriginalStartTime = { readonly dateTime: string; readonly timeZone: string } | { readonly date: string };

/** An instance's `originalStartTime`: in the series' zone for timed series, a date otherwise. */
export function originalStartTime(series: Series, key: OccurrenceKey): OriginalStartTime {
  if (series.kind === 'dateTime') return { dateTime: formatRfc3339InZone(key, series.timeZone), timeZone: series.timeZone };
  return { date: formatDate(keyToDate(key)) };
}

// ---------------------------------------------------------------------------------------------
// Exceptions: stored modified or cancelled instances, keyed by original start.

export interface ExceptionTiming {
  readonly originalStart: OccurrenceKey;
  readonly cancelled: boolean;
  /** The exception's own start and end instants (ignored when cancelled). */
  readonly start: number;
  readonly end: number;
}

export interface Instance<E extends ExceptionTiming> {
  readonly originalStart: OccurrenceKey;
  readonly start: number;
  readonly end: number;
  readonly cancelled: boolean;
  /** The stored exception this instance comes from; undefined for an untouched occurrence. */
  readonly exception: E | undefined;
}

export interface InstancesOptions extends ExpandOptions {
  /** Include cancelled exceptions (flagged), as showDeleted asks. */
  readonly showCancelled?: boolean;
}

/**
 * The series' instances overlapping the window with exceptions applied, by start then original
 * start. A modified exception appears where its own times overlap the window, even if its
 * original start lies outside; a cancelled one removes its occurrence (or shows it flagged, at
 * the original times). Exceptions whose original start the rules no longer produce are dropped,
 * as Google drops them when a series' times change.
 */
export function instancesInWindow<E extends ExceptionTiming>(
  series: Series,
  exceptions: readonly E[],
  windowStart: number,
  windowEnd: number,
  options: InstancesOptions = {},
): Instance<E>[] {
  const limit = options.limit ?? Infinity;
  const byKey = new Map<number, E>();
  for (const e of exceptions) byKey.set(e.originalStart, e);
  // Each exception displaces at most one occurrence, so this many raw ones always suffice.
  const raw = expandInWindow(series, windowStart, windowEnd, { ...options, limit: limit + byKey.size });
  const out: Instance<E>[] = [];
  const seen = new Set<number>();
  for (const o of raw) {
    const e = byKey.get(o.originalStart);
    if (e === undefined) {
      out.push({ ...o, cancelled: false, exception: undefined });
      continue;
    }
    seen.add(o.originalStart);
    if (e.cancelled) {
      if (options.showCancelled === true) out.push({ ...o, cancelled: true, exception: e });
    } else if (overlaps(e.start, e.end, windowStart, windowEnd)) {
      out.push({ originalStart: o.originalStart, start: e.start, end: e.end, cancelled: false, exception: e });
    }
  }
  for (const e of byKey.values()) {
    if (seen.has(e.originalStart) || e.cancelled || !overlaps(e.start, e.end, windowStart, windowEnd)) continue;
    if (!isOccurrence(series, e.originalStart, options.budget)) continue;
    out.push({ originalStart: e.originalStart, start: e.start, end: e.end, cancelled: false, exception: e });
  }
  out.sort((a, b) => a.start - b.start || a.originalStart - b.originalStart);
  return out.length > limit ? out.slice(0, limit) : out;
}

/**
 * Earliest start and latest end over the series' occurrences (end Infinity when unbounded),
 * for overlap tests against a recurring master; undefined when the set is empty.
 */
export function seriesBounds(series: Series, allDayZone = 'UTC'): { readonly start: number; readonly end: number } | undefined {
  const first = firstOccurrence(series);
  if (first === undefined) return undefined;
  const last = lastOccurrence(series);
  const start = occurrenceSpan(series, first, allDayZone).start;
  if (last === undefined) return undefined;
  const end = Number.isFinite(last) ? occurrenceSpan(series, last, allDayZone).end : Infinity;
  return { start, end };
}
