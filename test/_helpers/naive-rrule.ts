// A deliberately naive RRULE evaluator for property tests: it walks every day from the start,
// decides each day's period and membership from first principles with Date arithmetic, and
// shares no code with src/domain/recurrence/expand.ts. Handles DAILY..YEARLY only.

import type { RRule } from '../../src/domain/recurrence/rrule.ts';

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
