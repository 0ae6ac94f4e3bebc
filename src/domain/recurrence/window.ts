// A series' occurrences as spans of time: the start and end instants of one occurrence, and the
// occurrences overlapping a window, which is how events.list, events.instances and freeBusy
// read a series. Also whether a key is an occurrence at all (instance ids name one) and the
// span the whole series covers.

import type { Occurrence, OccurrenceKey, Series } from './series.ts';
import type { ExpansionBudget } from './cost.ts';
import type { IterateOptions } from './recurrence-set.ts';
import { firstOccurrence, lastOccurrence, occurrences } from './recurrence-set.ts';
import { startOfDateInZone } from '../time/datetime.ts';
import { MS_PER_DAY, civilFromDays } from '../time/zones.ts';

export interface ExpandOptions {
  /** At most this many occurrences (earliest first). */
  readonly limit?: number;
  /** Zone all-day dates are placed in to compare with instants (the calendar's); default UTC. */
  readonly allDayZone?: string;
  /** Default: a fresh budget of cost.ts MAX_EXPANSION_STEPS for this call. */
  readonly budget?: ExpansionBudget;
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
  const opts: IterateOptions = { from, until, ...(options.budget && { budget: options.budget }) };
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
