// What expanding a rule may cost, and the two limits on it (issues 8 and 15).
//
// Per period: the rule modules evaluate a rule one period at a time (a year for YEARLY, a month
// for MONTHLY ...): the period's days that pass the day-level BYxxx parts, times every BYHOUR x
// BYMINUTE x BYSECOND combination, all built before BYSETPOS picks among them (RFC 5545
// §3.3.10). The lists multiply: FREQ=YEARLY;BYYEARDAY=1..366 with every hour, minute and second
// is 366 x 86,400 = 31.6 million candidates in a single period, an allocation that stalls the
// service for seconds and, repeated over a few rule lines, exhausts its memory. MAX_PERIOD_
// CANDIDATES bounds one period, so a rule that could never be expanded within reason is refused
// when it is written (rrule.ts parseRRule, as 400 invalid), not discovered on every later read.
//
// Per event: a series is expanded with all its lines at once (recurrence-set.ts merges them), so
// its first period of every RRULE and EXRULE is built before its first occurrence is known. The
// lines together are capped as one line is (MAX_SERIES_CANDIDATES), and so are the number of
// lines and of listed dates: without these, 120 lines each under the per-line cap made one week
// of the series cost more than a request's whole step budget, for its owner and for every test
// user it invites (SECURITY.md). rrule.ts parseRecurrence refuses an event over any of them,
// at write time as 400 invalid, and on every read of one stored before the caps.
//
// Per request: the step budget (MAX_EXPANSION_STEPS) bounds how many periods and candidates one
// request's expansions build in all; rule-iterate.ts and rule-periods.ts charge it.

import type { RRule } from './rule.ts';

/**
 * Candidates one period of a rule may build, counted before BYSETPOS. Real calendar rules stay
 * far below it: a yearly rule on every weekday has at most 265 days, an every-15-minutes daily
 * rule 96 times, and even "every weekday, 9:00 to 17:30 every half hour" as one YEARLY rule is
 * 265 x 9 x 2 = 4,770. At the cap, one period is about 80 kB of numbers and a few milliseconds.
 */
export const MAX_PERIOD_CANDIDATES = 10_000;

/**
 * Candidates one period of every RRULE and EXRULE line of an event may build, summed: what one
 * line may build, all of them together may. One period of them all is then at most a hundredth
 * of a request's step budget, however many test users the event invites, and an event of real
 * rules (a few, each building a few hundred at most) never comes near it.
 */
export const MAX_SERIES_CANDIDATES = MAX_PERIOD_CANDIDATES;

/**
 * RRULE and EXRULE lines of one event. Google's own events carry one RRULE; a handful covers
 * any pattern that one rule cannot say. Every rule line is a source the expansion merges for each
 * occurrence it yields, so lines that repeat one another multiply the work per occurrence.
 */
export const MAX_RULE_LINES = 10;

/**
 * Recurrence lines of any kind (RRULE, EXRULE, RDATE, EXDATE) of one event. Generous for
 * calendars exported one EXDATE line per cancelled instance: a weekly meeting of twenty years.
 */
export const MAX_RECURRENCE_LINES = 1_000;

/**
 * Dates the RDATE and EXDATE lines of one event list in all (one line may list many): every
 * expansion of the series reads them. A daily series' cancellations over a decade fit.
 */
export const MAX_RECURRENCE_DATES = 5_000;

const count = (list: readonly unknown[]): number => Math.max(1, list.length);

/** Times of day per candidate day: the BYxxx parts finer than the frequency expand (§3.3.10 table). */
function timesPerDay(r: RRule): number {
  switch (r.freq) {
    case 'SECONDLY':
      return 1;
    case 'MINUTELY':
      return count(r.bySecond);
    case 'HOURLY':
      return count(r.byMinute) * count(r.bySecond);
    default:
      return count(r.byHour) * count(r.byMinute) * count(r.bySecond);
  }
}

/**
 * Upper bound on the days of one period that can pass the day-level parts. Every present part
 * must match, so the smallest bound any one of them allows holds for all: a month has at most 5
 * of a weekday, a year 53; an ordinal weekday (`2MO`, `-1FR`) matches one day per month or year.
 */
function daysPerPeriod(r: RRule): number {
  const plain = r.byDay.filter((d) => d.ordinal === 0).length;
  const ordinals = r.byDay.length - plain;
  const dayParts = r.byDay.length + r.byMonthDay.length + r.byYearDay.length + r.byWeekNo.length;
  switch (r.freq) {
    case 'SECONDLY':
    case 'MINUTELY':
    case 'HOURLY':
    case 'DAILY':
      return 1;
    case 'WEEKLY':
      // Without BYDAY the week's one day is the start's weekday.
      return Math.min(7, count(r.byDay));
    case 'MONTHLY': {
      // Without day parts the month's one day is the start's day of the month.
      if (dayParts === 0) return 1;
      const bounds = [31];
      if (r.byMonthDay.length > 0) bounds.push(r.byMonthDay.length);
      if (r.byDay.length > 0) bounds.push(5 * plain + ordinals);
      return Math.min(...bounds);
    }
    case 'YEARLY': {
      const months = r.byMonth.length > 0 ? r.byMonth.length : 12;
      // Without day parts each month of the rule has one day: the start's day of the month.
      if (dayParts === 0) return count(r.byMonth);
      const bounds = [366, 31 * months];
      if (r.byYearDay.length > 0) bounds.push(r.byYearDay.length);
      if (r.byMonthDay.length > 0) bounds.push(r.byMonthDay.length * months);
      // A week number names a week of the week-numbering year (§3.3.10 BYWEEKNO), which may
      // start up to 3 days before January 1 or end up to 3 days after December 31; so a
      // calendar year can also hold up to 3 days of the week-year before and of the one after.
      if (r.byWeekNo.length > 0) bounds.push(7 * r.byWeekNo.length + 6);
      // Ordinals count within each month when BYMONTH is given, else within the year (§3.3.10).
      if (r.byDay.length > 0) bounds.push(r.byMonth.length > 0 ? (5 * plain + ordinals) * months : 53 * plain + ordinals);
      return Math.min(...bounds);
    }
  }
}

/** The most candidates one period of `r` can build (rule-periods.ts periodCandidates). */
export function periodCandidateBound(r: RRule): number {
  return daysPerPeriod(r) * timesPerDay(r);
}

/**
 * Steps one expansion may take before it gives up with ExpansionBudgetError, about half a second
 * of work: one per rule period stepped through (including skipped days) and one per candidate a
 * period builds, counted before the candidates are built. Without it a rule that is valid but
 * never or rarely matches at a fine frequency (`FREQ=SECONDLY;BYSECOND=0;BYSETPOS=2;UNTIL=9999...`)
 * walks billions of periods, and a rule whose periods are large (at most
 * MAX_PERIOD_CANDIDATES each) repeats them over a long window; either would stall the
 * single-threaded service.
 */
const MAX_EXPANSION_STEPS = 1_000_000;

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

/** Takes `steps` from the budget; throws once it is overdrawn. */
export function charge(budget: ExpansionBudget, steps: number): void {
  budget.remaining -= steps;
  if (budget.remaining < 0) throw new ExpansionBudgetError();
}
