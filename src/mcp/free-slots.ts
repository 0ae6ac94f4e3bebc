// The interval arithmetic of suggest_time, on epoch milliseconds: each attendee's working hours
// as instants (read on their own wall clock, so a DST change moves them as it moves the clock),
// their intersection, the busy times taken out, and the first slots of the length asked.
// Intervals are half-open [start, end) and kept sorted and disjoint.

import { instantToWallMs, MS_PER_DAY, MS_PER_MINUTE, wallMsToInstant, weekdayOfDays } from '../domain/time/zones.ts';

export type Interval = readonly [number, number];

export interface WorkingHours {
  readonly zone: string;
  /** Minutes after midnight, start inclusive, end exclusive. */
  readonly startMinute: number;
  readonly endMinute: number;
  readonly excludeWeekends: boolean;
}

/** The working periods of `hours` that overlap [from, to), clipped to it. */
export function workingIntervals(hours: WorkingHours, from: number, to: number): Interval[] {
  const out: Array<[number, number]> = [];
  const firstDay = Math.floor(instantToWallMs(from, hours.zone) / MS_PER_DAY);
  const lastDay = Math.floor(instantToWallMs(to, hours.zone) / MS_PER_DAY);
  for (let day = firstDay; day <= lastDay; day++) {
    if (hours.excludeWeekends && weekdayOfDays(day) >= 5) continue;
    const start = Math.max(from, wallMsToInstant(day * MS_PER_DAY + hours.startMinute * MS_PER_MINUTE, hours.zone));
    const end = Math.min(to, wallMsToInstant(day * MS_PER_DAY + hours.endMinute * MS_PER_MINUTE, hours.zone));
    if (start < end) out.push([start, end]);
  }
  return out;
}

/** The times inside both `a` and `b`. */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aStart, aEnd] = a[i] as Interval;
    const [bStart, bEnd] = b[j] as Interval;
    const start = Math.max(aStart, bStart);
    const end = Math.min(aEnd, bEnd);
    if (start < end) out.push([start, end]);
    if (aEnd < bEnd) i++;
    else j++;
  }
  return out;
}

/** The times of `free` outside every interval of `busy` (any order, overlaps allowed). */
export function subtract(free: readonly Interval[], busy: readonly Interval[]): Interval[] {
  const sorted = [...busy].sort((x, y) => x[0] - y[0]);
  const out: Interval[] = [];
  for (const [start, end] of free) {
    let cursor = start;
    for (const [busyStart, busyEnd] of sorted) {
      if (busyEnd <= cursor) continue;
      if (busyStart >= end) break;
      if (busyStart > cursor) out.push([cursor, busyStart]);
      cursor = Math.max(cursor, busyEnd);
    }
    if (cursor < end) out.push([cursor, end]);
  }
  return out;
}

/** The first `count` slots of `length` ms: the start of each free interval long enough, one per interval. */
export function firstSlots(free: readonly Interval[], length: number, count: number): Interval[] {
  const out: Interval[] = [];
  for (const [start, end] of free) {
    if (out.length >= count) break;
    if (end - start >= length) out.push([start, start + length]);
  }
  return out;
}
