// A deliberately naive RRULE evaluator for property tests: it walks every day from the start,
// decides each day's period and membership from first principles with Date arithmetic, and
// shares no code with src/domain/recurrence/. Handles DAILY..YEARLY only. Beside it, a
// naive reading of wall times in a zone straight from Intl, sharing no code with zones.ts.

import type { RRule } from '../../src/domain/recurrence/rule.ts';

const DAY = 86_400_000;

function ymd(dayNum: number): { y: number; m: number; d: number; wd: number } {
  const dt = new Date(dayNum * DAY);
  return { y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate(), wd: (dt.getUTCDay() + 6) % 7 };
}
const dayOf = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / DAY;
const dim = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();

function weekOneStart(year: number, wkst: number): number {
  let s = dayOf(year, 1, 1);
  while (ymd(s).wd !== wkst) s -= 1;
  let inYear = 0;
  for (let k = 0; k < 7; k++) if (ymd(s + k).y === year) inYear += 1;
  return inYear >= 4 ? s : s + 7;
}

function weekInfo(day: number, wkst: number): { no: number; count: number } {
  let ws = day;
  while (ymd(ws).wd !== wkst) ws -= 1;
  const years = new Map<number, number>();
  for (let k = 0; k < 7; k++) {
    const y = ymd(ws + k).y;
    years.set(y, (years.get(y) ?? 0) + 1);
  }
  let wy = 0;
  for (const [y, n] of years) if (n >= 4) wy = y;
  const w1 = weekOneStart(wy, wkst);
  return { no: (ws - w1) / 7 + 1, count: (weekOneStart(wy + 1, wkst) - w1) / 7 };
}

/** Wall-time ms of occurrences with wall < horizonWall (occurrences in floating time). */
export function naiveExpand(rule: RRule, startWall: number, horizonWall: number, allDay: boolean): number[] {
  const d0 = Math.floor(startWall / DAY);
  const s0 = ymd(d0);
  const tod = startWall - d0 * DAY;
  const hasDayPart = rule.byWeekNo.length + rule.byYearDay.length + rule.byMonthDay.length + rule.byDay.length > 0;
  let byMonth = rule.byMonth;
  let byMonthDay = rule.byMonthDay;
  let byDay = rule.byDay;
  if (!hasDayPart && rule.freq === 'YEARLY') {
    if (byMonth.length === 0) byMonth = [s0.m];
    byMonthDay = [s0.d];
  }
  if (!hasDayPart && rule.freq === 'MONTHLY') byMonthDay = [s0.d];
  if (!hasDayPart && rule.freq === 'WEEKLY') byDay = [{ weekday: s0.wd, ordinal: 0 }];
  const inMonthScope = rule.freq === 'MONTHLY' || (rule.freq === 'YEARLY' && byMonth.length > 0);

  const hours = rule.byHour.length > 0 ? rule.byHour : [Math.floor(tod / 3_600_000)];
  const minutes = rule.byMinute.length > 0 ? rule.byMinute : [Math.floor(tod / 60_000) % 60];
  const seconds = rule.bySecond.length > 0 ? rule.bySecond : [Math.floor(tod / 1000) % 60];
  const times: number[] = [];
  if (allDay) times.push(0);
  else for (const h of hours) for (const m of minutes) for (const s of seconds) times.push(h * 3_600_000 + m * 60_000 + s * 1000);
  times.sort((a, b) => a - b);

  let ws0 = d0;
  while (ymd(ws0).wd !== rule.wkst) ws0 -= 1;
  const periodOf = (day: number): number => {
    const c = ymd(day);
    switch (rule.freq) {
      case 'YEARLY': return c.y - s0.y;
      case 'MONTHLY': return (c.y - s0.y) * 12 + c.m - s0.m;
      case 'WEEKLY': return Math.floor((day - ws0) / 7);
      default: return day - d0;
    }
  };
  const matches = (day: number): boolean => {
    const c = ymd(day);
    if (byMonth.length > 0 && !byMonth.includes(c.m)) return false;
    const md = dim(c.y, c.m);
    if (byMonthDay.length > 0 && !byMonthDay.some((n) => (n > 0 ? c.d === n : c.d === md + 1 + n))) return false;
    const yd = day - dayOf(c.y, 1, 1) + 1;
    const yl = dayOf(c.y + 1, 1, 1) - dayOf(c.y, 1, 1);
    if (rule.byYearDay.length > 0 && !rule.byYearDay.some((n) => (n > 0 ? yd === n : yd === yl + 1 + n))) return false;
    if (rule.byWeekNo.length > 0) {
      const w = weekInfo(day, rule.wkst);
      if (!rule.byWeekNo.some((n) => (n > 0 ? w.no === n : w.no === w.count + 1 + n))) return false;
    }
    if (byDay.length > 0) {
      const ok = byDay.some((b) => {
        if (b.weekday !== c.wd) return false;
        if (b.ordinal === 0) return true;
        // Count same weekdays in scope before and after this day.
        const first = inMonthScope ? dayOf(c.y, c.m, 1) : dayOf(c.y, 1, 1);
        const last = inMonthScope ? dayOf(c.y, c.m, md) : dayOf(c.y, 12, 31);
        let before = 0;
        let after = 0;
        for (let x = first; x < day; x++) if (ymd(x).wd === c.wd) before += 1;
        for (let x = day + 1; x <= last; x++) if (ymd(x).wd === c.wd) after += 1;
        return b.ordinal === before + 1 || b.ordinal === -(after + 1);
      });
      if (!ok) return false;
    }
    return true;
  };

  let untilWall = Infinity;
  if (rule.until !== undefined) {
    const u = rule.until;
    if (u.kind === 'date') untilWall = dayOf(u.date.year, u.date.month, u.date.day) * DAY + (allDay ? 0 : DAY - 1);
    else untilWall = Date.UTC(u.wall.year, u.wall.month - 1, u.wall.day, u.wall.hour, u.wall.minute, u.wall.second);
  }

  const ruleHits: number[] = [];
  let current: number | undefined;
  let bucket: number[] = [];
  let ended = false;
  const flush = (): void => {
    let cands = bucket;
    if (rule.bySetPos.length > 0) {
      const picked = new Set<number>();
      for (const n of rule.bySetPos) {
        const v = cands[n > 0 ? n - 1 : cands.length + n];
        if (v !== undefined) picked.add(v);
      }
      cands = [...picked].sort((a, b) => a - b);
    }
    for (const w of cands) {
      if (w < startWall) continue;
      if (w > untilWall) {
        ended = true;
        return;
      }
      ruleHits.push(w);
    }
  };
  // Start a year early so the start's period is seen whole (BYSETPOS counts from its start).
  // Run a year past the horizon so the last period is also seen whole.
  for (let day = d0 - 400; day * DAY < horizonWall + 370 * DAY; day++) {
    const p = periodOf(day);
    if (p < 0) continue;
    if (p !== current) {
      if (current !== undefined) flush();
      if (ended) break;
      current = p;
      bucket = [];
    }
    if (p % rule.interval !== 0 || !matches(day)) continue;
    for (const t of times) bucket.push(day * DAY + t);
  }
  if (!ended) flush();
  // RFC 5545 §3.8.5.3: the start is always in the set and counts as the first occurrence.
  const startIsHit = ruleHits[0] === startWall;
  const taken = rule.count === undefined ? ruleHits : ruleHits.slice(0, startIsHit ? rule.count : rule.count - 1);
  const all = new Set([startWall, ...taken]);
  return [...all].sort((a, b) => a - b).filter((w) => w < horizonWall);
}

// ---------------------------------------------------------------------------------------------
// Wall times in a zone, from Intl alone.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Offset (ms, local = UTC + offset) of `zone` at `instant`, read from Intl's wall fields. */
export function naiveOffset(zone: string, instant: number): number {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, f);
  }
  const at = Math.floor(instant / 1000) * 1000;
  const part = (parts: Intl.DateTimeFormatPart[], type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const p = f.formatToParts(at);
  return Date.UTC(part(p, 'year'), part(p, 'month') - 1, part(p, 'day'), part(p, 'hour'), part(p, 'minute'), part(p, 'second')) - at;
}

/**
 * The instant a clock in `zone` shows wall ms `wall` (civil fields read as UTC), by RFC 5545
 * §3.3.5 as python-dateutil applies it (fold=0): of the offsets in force a day either side, the
 * earliest instant that shows `wall`; a wall time no instant shows (a gap) is read with the
 * offset before the gap.
 */
export function naiveWallToInstant(wall: number, zone: string): number {
  const before = naiveOffset(zone, wall - DAY);
  const after = naiveOffset(zone, wall + DAY);
  const shown = [before, after].map((o) => wall - o).filter((t) => naiveOffset(zone, t) === wall - t);
  return shown.length > 0 ? Math.min(...shown) : wall - before;
}

/** Wall times (wall ms, [from, to)) that a gap skips or an overlap shows twice. */
export interface NaiveTransition {
  readonly from: number;
  readonly to: number;
  readonly gap: boolean;
}

/** The offset changes of `zone` in years fromYear..toYear, found day by day. */
export function naiveTransitions(zone: string, fromYear: number, toYear: number): NaiveTransition[] {
  const out: NaiveTransition[] = [];
  for (let day = dayOf(fromYear, 1, 1); day < dayOf(toYear + 1, 1, 1); day++) {
    let lo = day * DAY;
    let hi = lo + DAY;
    const before = naiveOffset(zone, lo);
    const after = naiveOffset(zone, hi);
    if (after === before) continue;
    while (hi - lo > 60_000) {
      const mid = lo + Math.max(1, Math.floor((hi - lo) / 120_000)) * 60_000;
      if (naiveOffset(zone, mid) === before) lo = mid;
      else hi = mid;
    }
    out.push({ from: hi + Math.min(before, after), to: hi + Math.max(before, after), gap: after > before });
  }
  return out;
}
