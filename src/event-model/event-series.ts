// A stored event's times and its recurrence series: the instants of its start and end, the
// lines of its recurrence, the Series the recurrence engine expands (cached: every expansion asks
// for the series of every master it reads), instance ids, and stored exceptions in the form the
// engine merges. Apart from occurrences.ts, which expands calendars over windows with these, so
// each file holds one concern; both sit below the calendar API (see occurrences.ts's header).

import type { EventRecord, Json, JsonObject } from '../store/store.ts';
import { parseRecurrence } from '../domain/recurrence/rrule.ts';
import { dateKey, formatInstanceId } from '../domain/recurrence/expand.ts';
import type { ExceptionTiming, OccurrenceKey, Series } from '../domain/recurrence/expand.ts';
import { daysBetween, parseDate, parseDateTimeWall, parseDateTimeWithZone, startOfDateInZone } from '../domain/time/datetime.ts';
import type { CivilDate } from '../domain/time/zones.ts';

/** The times of a stored (already validated) event, read from its `start`/`end` fields. */
export type EventTimes =
  | { readonly kind: 'dateTime'; readonly start: number; readonly end: number; readonly timeZone: string | undefined }
  | { readonly kind: 'date'; readonly start: number; readonly end: number; readonly startDate: CivilDate; readonly endDate: CivilDate };

function field(data: JsonObject, name: string): JsonObject {
  const value = data[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function text(value: Json | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Start and end of stored event data; all-day dates are placed in the calendar's zone. */
export function eventTimes(data: JsonObject, calendarZone: string): EventTimes {
  const start = field(data, 'start');
  const end = field(data, 'end');
  const startDay = text(start.date);
  const endDay = text(end.date);
  if (startDay !== undefined && endDay !== undefined) {
    const startDate = parseDate(startDay, 'start.date');
    const endDate = parseDate(endDay, 'end.date');
    return {
      kind: 'date',
      start: startOfDateInZone(startDate, calendarZone),
      end: startOfDateInZone(endDate, calendarZone),
      startDate,
      endDate,
    };
  }
  const startZone = text(start.timeZone);
  return {
    kind: 'dateTime',
    start: parseDateTimeWithZone(text(start.dateTime) ?? '', startZone, 'start.dateTime'),
    end: parseDateTimeWithZone(text(end.dateTime) ?? '', text(end.timeZone) ?? startZone, 'end.dateTime'),
    timeZone: startZone,
  };
}

/** The lines of a stored `recurrence` field (empty for single events and exceptions). */
export function recurrenceLines(data: JsonObject): string[] {
  const value = data.recurrence;
  return Array.isArray(value) ? value.filter((line): line is string => typeof line === 'string') : [];
}

// Series objects are cached by what defines them (the rule lines, start, end and the calendar's
// zone), not by record: stores hand out fresh copies on every read, and expand.ts caches its
// compiled rules per Series object, so reusing one keeps a series cheap across requests. Values
// are fully determined by the key (and never mutated); the map is bounded by starting over when full.
const SERIES_CACHE_LIMIT = 4096;
const seriesCache = new Map<string, Series>();
// Records a store hands out are frozen and shared (Store), so a frozen data object also finds
// its series by identity, without building the key (an expansion asks for every series it reads).
const seriesByData = new WeakMap<JsonObject, { readonly zone: string; readonly series: Series | undefined }>();

function seriesKey(data: JsonObject, lines: readonly string[], calendarZone: string): string {
  return JSON.stringify([calendarZone, data.start ?? null, data.end ?? null, lines]);
}

/**
 * The recurrence series of a master's data, or undefined for a non-recurring event. Timed series
 * expand in `start.timeZone` (required for recurring events, enforced on write).
 */
export function seriesOf(data: JsonObject, calendarZone: string): Series | undefined {
  const known = seriesByData.get(data);
  if (known !== undefined && known.zone === calendarZone) return known.series;
  const series = seriesOfData(data, calendarZone);
  if (Object.isFrozen(data)) seriesByData.set(data, { zone: calendarZone, series });
  return series;
}

function seriesOfData(data: JsonObject, calendarZone: string): Series | undefined {
  const lines = recurrenceLines(data);
  if (lines.length === 0) return undefined;
  const key = seriesKey(data, lines, calendarZone);
  const cached = seriesCache.get(key);
  if (cached !== undefined) return cached;
  const times = eventTimes(data, calendarZone);
  const series: Series =
    times.kind === 'date'
      ? {
          kind: 'date',
          startDate: times.startDate,
          durationDays: daysBetween(times.startDate, times.endDate),
          recurrence: parseRecurrence(lines, { allDay: true }),
        }
      : {
          kind: 'dateTime',
          start: times.start,
          startWall: parseDateTimeWall(text(field(data, 'start').dateTime) ?? '', times.timeZone ?? calendarZone, 'start.dateTime'),
          durationMs: times.end - times.start,
          timeZone: times.timeZone ?? calendarZone,
          recurrence: parseRecurrence(lines, { allDay: false }),
        };
  if (seriesCache.size >= SERIES_CACHE_LIMIT) seriesCache.clear();
  seriesCache.set(key, series);
  return series;
}

/** The occurrence key of an EventDateTime given as `originalStartTime` (date key or instant), read as `kind`. */
export function occurrenceKeyOf(value: JsonObject, kind: Series['kind'], field: string): OccurrenceKey {
  if (kind === 'date') return dateKey(parseDate(text(value.date) ?? '', `${field}.date`));
  return parseDateTimeWithZone(text(value.dateTime) ?? '', text(value.timeZone), `${field}.dateTime`, `${field}.timeZone`);
}

/** The instance id of an occurrence: `<seriesId>_<YYYYMMDDTHHMMSSZ>` or `<seriesId>_<YYYYMMDD>`. */
export function instanceId(master: EventRecord, series: Series, key: OccurrenceKey): string {
  return formatInstanceId(master.id, series.kind, key);
}

/** A stored exception as expand.ts merges it. */
export interface StoredException extends ExceptionTiming {
  readonly record: EventRecord;
}

/** The key an exception record was stored under (set on write from originalStartTime). */
export function exceptionKey(record: EventRecord): OccurrenceKey {
  const key = record.data.originalStartKey;
  return typeof key === 'number' ? key : (record.originalStartMs ?? 0);
}

export function asException(record: EventRecord): StoredException {
  return {
    originalStart: exceptionKey(record),
    cancelled: record.status === 'cancelled',
    start: record.startMs,
    end: record.endMs,
    record,
  };
}
