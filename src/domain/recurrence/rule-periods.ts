// A compiled rule's periods (RFC 5545 §3.3.10): where period `idx` begins, which period holds a
// wall time, and the candidates one period builds, BYSETPOS applied. A period is a year for
// YEARLY, a month for MONTHLY, a WKST-aligned week for WEEKLY, a day for DAILY, and an hour,
// minute or second (aligned to its unit) for the sub-daily frequencies. All times are wall ms
// in the series' zone; rule-iterate.ts turns them into instants.

import type { CompiledRule } from './rule-compile.ts';
import type { ExpansionBudget } from './cost.ts';
import { charge } from './cost.ts';
import { dayMatches, dayMatchesCivil, subDailyDayMatches } from './rule-days.ts';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, MS_PER_SECOND, civilFromDays, daysFromCivil, daysInMonth } from '../time/zones.ts';

/** Year and month of the MONTHLY period `idx`. */
function monthOfPeriod(c: CompiledRule, idx: number): { readonly year: number; readonly month: number } {
  const d = civilFromDays(c.dtDays);
  const total = d.year * 12 + d.month - 1 + idx;
  return { year: Math.floor(total / 12), month: (total % 12) + 1 };
}

/** Wall ms at which period `idx` begins. */
export function periodStart(c: CompiledRule, idx: number): number {
  switch (c.freq) {
    case 'YEARLY':
      return daysFromCivil(civilFromDays(c.dtDays).year + idx, 1, 1) * MS_PER_DAY;
    case 'MONTHLY': {
      const { year, month } = monthOfPeriod(c, idx);
      return daysFromCivil(year, month, 1) * MS_PER_DAY;
    }
    case 'WEEKLY':
      return (c.weekStart0 + 7 * idx) * MS_PER_DAY;
    case 'DAILY':
      return (c.dtDays + idx) * MS_PER_DAY;
    default:
      return Math.floor(c.dtWall / c.unit) * c.unit + idx * c.unit;
  }
}

/** Index of the period holding wall ms `wall` (may be negative before the start). */
export function periodIndexOf(c: CompiledRule, wall: number): number {
  const days = Math.floor(wall / MS_PER_DAY);
  switch (c.freq) {
    case 'YEARLY':
      return civilFromDays(days).year - civilFromDays(c.dtDays).year;
    case 'MONTHLY': {
      const a = civilFromDays(days);
      const b = civilFromDays(c.dtDays);
      return a.year * 12 + a.month - (b.year * 12 + b.month);
    }
    case 'WEEKLY':
      return Math.floor((days - c.weekStart0) / 7);
    case 'DAILY':
      return days - c.dtDays;
    default:
      return Math.floor(wall / c.unit) - Math.floor(c.dtWall / c.unit);
  }
}

/**
 * Candidates of period `idx`, ascending wall ms, after BYSETPOS. Their number is charged to
 * `budget` before the list is built.
 */
export function periodCandidates(c: CompiledRule, idx: number, budget: ExpansionBudget): number[] {
  const out = c.subDaily ? subDailyCandidates(c, idx, budget) : dayCandidates(c, idx, budget);
  const setPos = c.rule.bySetPos;
  if (setPos.length === 0 || out.length === 0) return out;
  const picked = new Set<number>();
  for (const n of setPos) {
    const v = out[n > 0 ? n - 1 : out.length + n];
    if (v !== undefined) picked.add(v);
  }
  return [...picked].sort((a, b) => a - b);
}

/** DAILY and coarser: the period's matching days, each at every time of `c.times`. */
function dayCandidates(c: CompiledRule, idx: number, budget: ExpansionBudget): number[] {
  const days: number[] = [];
  switch (c.freq) {
    case 'YEARLY':
    case 'MONTHLY': {
      let year: number;
      let months: number[];
      if (c.freq === 'YEARLY') {
        year = civilFromDays(c.dtDays).year + idx;
        months = [];
        for (let m = 1; m <= 12; m++) if (c.byMonth === undefined || c.byMonth[m] === true) months.push(m);
      } else {
        const period = monthOfPeriod(c, idx);
        year = period.year;
        months = [period.month];
      }
      for (const month of months) {
        const first = daysFromCivil(year, month, 1);
        const dim = daysInMonth(year, month);
        for (let day = 1; day <= dim; day++) if (dayMatches(c, first + day - 1, year, month, day)) days.push(first + day - 1);
      }
      break;
    }
    case 'WEEKLY': {
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
 * above the period's unit limit, finer ones expand (§3.3.10 table): BYHOUR limits all three,
 * BYMINUTE limits MINUTELY and SECONDLY and expands HOURLY, BYSECOND limits SECONDLY and expands
 * the others. Periods are aligned to their unit (periodStart), so the finer values add to the
 * period's start.
 */
function subDailyCandidates(c: CompiledRule, idx: number, budget: ExpansionBudget): number[] {
  const start = periodStart(c, idx);
  const day = Math.floor(start / MS_PER_DAY);
  if (!subDailyDayMatches(c, day)) return [];
  const ms = start - day * MS_PER_DAY;
  if (c.byHour !== undefined && !c.byHour.includes(Math.floor(ms / MS_PER_HOUR))) return [];
  const minuteLimited = c.byMinute !== undefined && !c.byMinute.includes(Math.floor((ms % MS_PER_HOUR) / MS_PER_MINUTE));
  switch (c.freq) {
    case 'SECONDLY':
      if (minuteLimited) return [];
      if (c.bySecond !== undefined && !c.bySecond.includes(Math.floor((ms % MS_PER_MINUTE) / MS_PER_SECOND))) return [];
      charge(budget, 1);
      return [start];
    case 'MINUTELY':
      if (minuteLimited) return [];
      return withMinutesAndSeconds(c, start, [0], budget);
    default:
      return withMinutesAndSeconds(c, start, c.minutes, budget);
  }
}

function withMinutesAndSeconds(c: CompiledRule, start: number, minutes: readonly number[], budget: ExpansionBudget): number[] {
  charge(budget, minutes.length * c.seconds.length);
  const out: number[] = [];
  for (const m of minutes) for (const sec of c.seconds) out.push(start + m * MS_PER_MINUTE + sec * MS_PER_SECOND);
  return out;
}

/** First period index at or after `idx` that lies on a later day (sub-daily day skipping). */
export function nextDayIndex(c: CompiledRule, idx: number): number {
  const start = periodStart(c, idx);
  const nextDay = (Math.floor(start / MS_PER_DAY) + 1) * MS_PER_DAY;
  const base = Math.floor(c.dtWall / c.unit) * c.unit;
  const steps = Math.ceil((nextDay - base) / c.unit / c.interval);
  return Math.max(idx + c.interval, steps * c.interval);
}
