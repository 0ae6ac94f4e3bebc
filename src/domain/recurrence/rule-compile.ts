// One RRULE or EXRULE made ready to evaluate (RFC 5545 §3.3.10): the parts the rule leaves out
// taken from DTSTART, BYxxx lists turned into masks and times of day, UNTIL read against the
// series' kind. rule-days.ts, rule-periods.ts and rule-iterate.ts evaluate the result.

import type { Frequency, RRule, WeekdayNum } from './rule.ts';
import type { Series } from './series.ts';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, MS_PER_SECOND, civilFromDays, daysFromCivil, wallToMs, weekdayOfDays } from '../time/zones.ts';

export interface CompiledRule {
  readonly rule: RRule;
  readonly freq: Frequency;
  /** HOURLY, MINUTELY or SECONDLY: periods shorter than a day, stepped by `unit`. */
  readonly subDaily: boolean;
  readonly interval: number;
  readonly dtWall: number;
  readonly dtDays: number;
  readonly byMonth: readonly boolean[] | undefined; // index 1-12
  readonly plainDays: readonly boolean[] | undefined; // index 0-6 (MO-SU)
  readonly ordDays: readonly WeekdayNum[];
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
  /** Count left for the rule's own occurrences (rule-iterate.ts withStartCounted). */
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

function unitOf(freq: Frequency): number {
  switch (freq) {
    case 'HOURLY':
      return MS_PER_HOUR;
    case 'MINUTELY':
      return MS_PER_MINUTE;
    default:
      return MS_PER_SECOND;
  }
}

/** `rule` run from wall time `dtWall` (wall ms) of a series of kind `kind`. */
export function compileRule(rule: RRule, dtWall: number, kind: Series['kind']): CompiledRule {
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
  const subDaily = rule.freq === 'HOURLY' || rule.freq === 'MINUTELY' || rule.freq === 'SECONDLY';
  const hours = rule.byHour.length > 0 ? rule.byHour : [dtHour];
  const minutes = rule.byMinute.length > 0 ? rule.byMinute : [dtMinute];
  const seconds = rule.bySecond.length > 0 ? rule.bySecond : [dtSecond];
  // Sub-daily periods fix the hour (or minute) themselves and build their times per period.
  const times: number[] = [];
  if (kind === 'date') {
    times.push(0);
  } else if (!subDaily) {
    for (const h of hours) for (const m of minutes) for (const s of seconds) times.push(h * MS_PER_HOUR + m * MS_PER_MINUTE + s * MS_PER_SECOND);
  }

  let untilWall: number | undefined;
  let untilInstant: number | undefined;
  const u = rule.until;
  if (u !== undefined) {
    if (u.kind === 'date') {
      const d = daysFromCivil(u.date.year, u.date.month, u.date.day);
      untilWall = kind === 'date' ? d * MS_PER_DAY : (d + 1) * MS_PER_DAY - 1;
    } else if (u.utc && kind === 'dateTime') {
      untilInstant = wallToMs(u.wall);
    } else {
      untilWall = wallToMs(u.wall);
    }
  }

  const plainDays = mask(plain, 7);
  let uniform: number | undefined;
  if (rule.bySetPos.length === 0 && rule.byMonth.length === 0) {
    if (rule.freq === 'DAILY' && plainDays === undefined && byMonthDay.length === 0) uniform = times.length;
    if (rule.freq === 'WEEKLY' && ordDays.length === 0) uniform = (plain.length === 0 ? 7 : new Set(plain).size) * times.length;
  }
  return {
    rule,
    freq: rule.freq,
    subDaily,
    interval: rule.interval,
    dtWall,
    dtDays,
    byMonth: mask(byMonth, 13),
    plainDays,
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
    weekStart0: dtDays - ((weekdayOfDays(dtDays) - rule.wkst + 7) % 7),
    unit: unitOf(rule.freq),
    untilWall,
    untilInstant,
    count: rule.count,
    uniform,
    lastDay: { day: NaN, matches: false },
  };
}
