// Whether a day passes a compiled rule's day-level parts: BYMONTH, BYMONTHDAY, BYYEARDAY, BYDAY
// (plain and ordinal) and BYWEEKNO (RFC 5545 §3.3.10). rule-periods.ts asks it for every day
// of a period.

import type { CompiledRule } from './rule-compile.ts';
import { civilFromDays, daysFromCivil, daysInMonth, isLeapYear, weekdayOfDays } from '../time/zones.ts';

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

/** Day number `days` (its civil date given too, which callers iterating months already have). */
export function dayMatches(c: CompiledRule, days: number, year: number, month: number, day: number): boolean {
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

export function dayMatchesCivil(c: CompiledRule, days: number): boolean {
  const d = civilFromDays(days);
  return dayMatches(c, days, d.year, d.month, d.day);
}

/** dayMatchesCivil for the periods of a sub-daily rule, which ask about the same day thousands of times. */
export function subDailyDayMatches(c: CompiledRule, day: number): boolean {
  const memo = c.lastDay;
  if (memo.day !== day) {
    memo.day = day;
    memo.matches = dayMatchesCivil(c, day);
  }
  return memo.matches;
}
