// Builders for recurrence tests: series from RFC-style local start times, and occurrences
// printed as local wall times so vectors read like RFC 5545's lists.

import { parseRecurrence } from '../../src/domain/recurrence/rrule.ts';
import type { RRule } from '../../src/domain/recurrence/rule.ts';
import { occurrences } from '../../src/domain/recurrence/recurrence-set.ts';
import type { Series } from '../../src/domain/recurrence/series.ts';
import { instantToWallMs, msToWall, wallMsToInstant, wallToMs } from '../../src/domain/time/zones.ts';

export type TimedSeries = Extract<Series, { readonly kind: 'dateTime' }>;
export type AllDaySeries = Extract<Series, { readonly kind: 'date' }>;

/** The one rule of an RRULE line's value (`FREQ=WEEKLY;BYDAY=MO`), parsed as an event's recurrence is. */
export function parseRule(value: string, allDay = false): RRule {
  const parsed = parseRecurrence([`RRULE:${value}`], { allDay }).rrules[0];
  if (parsed === undefined) throw new Error(`no rule in ${value}`);
  return parsed;
}

const BASIC_LOCAL = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?$/;

/** Wall ms (zones.ts) of a local `YYYYMMDDThhmm[ss]`. */
export function localWall(local: string): number {
  const m = BASIC_LOCAL.exec(local);
  if (m === null) throw new Error(`bad local time ${local}`);
  return wallToMs({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6] ?? 0), millisecond: 0 });
}

/** Instant of a local `YYYYMMDDThhmm[ss]` in `zone`. */
export function localInstant(local: string, zone: string): number {
  return wallMsToInstant(localWall(local), zone);
}

/** A series whose DTSTART is the local time `local` in `zone` (as a `dateTime` without offset). */
export function timedSeries(local: string, zone: string, lines: readonly string[], durationMs = 3_600_000): TimedSeries {
  return { kind: 'dateTime', start: localInstant(local, zone), startWall: localWall(local), durationMs, timeZone: zone, recurrence: parseRecurrence(lines, { allDay: false }) };
}

export function allDaySeries(date: string, lines: readonly string[], durationDays = 1): AllDaySeries {
  const [y, m, d] = [Number(date.slice(0, 4)), Number(date.slice(4, 6)), Number(date.slice(6, 8))];
  return { kind: 'date', startDate: { year: y, month: m, day: d }, durationDays, recurrence: parseRecurrence(lines, { allDay: true }) };
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/** `YYYYMMDDThhmm` of an instant in `zone`. */
export function localString(instant: number, zone: string): string {
  const w = msToWall(instantToWallMs(instant, zone));
  return `${w.year}${p2(w.month)}${p2(w.day)}T${p2(w.hour)}${p2(w.minute)}${w.second === 0 ? '' : p2(w.second)}`;
}

/** The first `n` occurrences (all if fewer), as local strings (dates for all-day series). */
export function firstN(series: Series, n: number): string[] {
  const out: string[] = [];
  if (n <= 0) return out;
  for (const k of occurrences(series)) {
    out.push(series.kind === 'dateTime' ? localString(k, series.timeZone) : localString(k, 'UTC').slice(0, 8));
    if (out.length >= n) break;
  }
  return out;
}

/** Expands `Y-M: d,d,d` groups into `YYYYMMDDT0900` strings (RFC lists dates at 9:00 AM). */
export function days(spec: string, time = '0900'): string[] {
  const out: string[] = [];
  for (const group of spec.split(';')) {
    const [ym, list] = group.split(':');
    if (ym === undefined || list === undefined) throw new Error(`bad spec ${group}`);
    const [y, m] = ym.trim().split('-');
    for (const d of list.split(',')) out.push(`${y}${(m ?? '').padStart(2, '0')}${d.trim().padStart(2, '0')}T${time}`);
  }
  return out;
}

/** Inclusive day ranges `Y-M: a-b`. */
export function range(y: number, m: number, from: number, to: number, time = '0900'): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d++) out.push(`${y}${p2(m)}${p2(d)}T${time}`);
  return out;
}
