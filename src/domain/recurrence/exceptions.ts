// A series' instances with its stored exceptions applied: modified instances (own times) and
// cancelled ones, each keyed by the original start of the occurrence it replaces (Google's
// recurringEventId + originalStartTime, https://developers.google.com/workspace/calendar/api/guides/recurringevents).

import type { OccurrenceKey, Series } from './series.ts';
import type { ExpandOptions } from './window.ts';
import { expandInWindow, isOccurrence, overlaps } from './window.ts';

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

interface InstancesOptions extends ExpandOptions {
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
