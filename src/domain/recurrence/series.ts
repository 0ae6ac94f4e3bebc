// The recurring series the recurrence package expands, and the keys that name its occurrences.
// Event input builds a Series from a stored master event (event-model/occurrences.ts); every
// other module here reads one.

import type { RecurrenceSet } from './rule.ts';
import type { CivilDate } from '../time/zones.ts';
import { MS_PER_DAY, civilFromDays, daysFromCivil } from '../time/zones.ts';

interface TimedSeries {
  readonly kind: 'dateTime';
  /** Instant of the first instance's start (the event's `start`). */
  readonly start: number;
  /**
   * DTSTART's wall time in `timeZone` (wall ms, zones.ts; datetime.ts parseDateTimeWall), which
   * the rules run from. It differs from the wall time `start` shows only when the start was
   * written as a local time inside a DST gap: 02:30 on a spring-forward day starts at 03:30,
   * and the following days keep 02:30.
   */
  readonly startWall: number;
  readonly durationMs: number;
  /** IANA zone the series is expanded in (the event's `start.timeZone`). */
  readonly timeZone: string;
  readonly recurrence: RecurrenceSet;
}

interface AllDaySeries {
  readonly kind: 'date';
  readonly startDate: CivilDate;
  /** end.date - start.date (end is exclusive). */
  readonly durationDays: number;
  readonly recurrence: RecurrenceSet;
}

export type Series = TimedSeries | AllDaySeries;

/**
 * An occurrence is identified by its *original start key*: for a timed series the instant (epoch
 * ms) of the start the rules assign; for an all-day series the date's midnight read as UTC
 * (`dateKey`). Keys order occurrences and key exception records.
 */
export type OccurrenceKey = number;

export interface Occurrence {
  readonly originalStart: OccurrenceKey;
  /** Instants; an all-day occurrence is placed at midnight of its dates in `allDayZone`. */
  readonly start: number;
  readonly end: number;
}

/** Key of an all-day date: its midnight read as UTC. */
export function dateKey(d: CivilDate): OccurrenceKey {
  return daysFromCivil(d.year, d.month, d.day) * MS_PER_DAY;
}

export function keyToDate(key: OccurrenceKey): CivilDate {
  return civilFromDays(Math.floor(key / MS_PER_DAY));
}
