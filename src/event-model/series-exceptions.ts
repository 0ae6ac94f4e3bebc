// Exceptions of a series (https://developers.google.com/workspace/calendar/api/guides/recurringevents): the record of one instance that was changed or
// cancelled. An instance inherits the series' fields at its occurrence's times and has no
// recurrence of its own; the body of the write overrides those fields. Used by the calendar
// API's writes of an instance (src/calendar/events/write.ts) and by fixtures that describe
// exceptions (event-insert.ts).

import { formatDate } from '../domain/time/datetime.ts';
import { formatRfc3339InZone } from '../domain/time/zones.ts';
import { keyToDate } from '../domain/recurrence/expand.ts';
import type { OccurrenceKey, Series } from '../domain/recurrence/expand.ts';
import type { EventRecord, Json, JsonObject } from '../store/store.ts';
import type { JsonRecord } from '../validation/validation.ts';
import { occurrenceTimes } from './occurrences.ts';
import { clientFields, validateFields } from './event-input.ts';
import { applyTypeRules } from './event-types.ts';
import { buildRecord, creatorOf, organizerOf, withConference } from './event-record.ts';
import type { WriteContext } from './event-record.ts';

/** The fields of an untouched instance: the series' fields at the occurrence's times, no recurrence. */
export function instanceBase(master: EventRecord, series: Series, key: OccurrenceKey, calendarZone: string): JsonRecord {
  const base = clientFields(master.data);
  delete base.recurrence;
  const times = occurrenceTimes(series, key, calendarZone);
  if (series.kind === 'date') {
    base.start = { date: formatDate(keyToDate(key)) };
    base.end = { date: formatDate(keyToDate(key + series.durationDays * 86_400_000)) };
  } else {
    const endZone = (master.data.end as JsonObject).timeZone;
    base.start = { dateTime: formatRfc3339InZone(times.start, series.timeZone), timeZone: series.timeZone };
    base.end = typeof endZone === 'string'
      ? { dateTime: formatRfc3339InZone(times.end, endZone), timeZone: endZone }
      : { dateTime: formatRfc3339InZone(times.end, series.timeZone) };
  }
  return base;
}

function originalStartTimeOf(series: Series, key: OccurrenceKey): JsonObject {
  if (series.kind === 'date') return { date: formatDate(keyToDate(key)) };
  return { dateTime: formatRfc3339InZone(key, series.timeZone), timeZone: series.timeZone };
}

/** The server fields an exception takes from the write that makes it. */
export interface ExceptionServerFields {
  created: string;
  sequence: number;
  conferenceData: Json | undefined;
}

/** The record of the exception `id` for occurrence `key` of `master`, holding `body`. */
export function writeException(
  ctx: WriteContext,
  master: EventRecord,
  series: Series,
  key: OccurrenceKey,
  id: string,
  body: JsonRecord,
  server: ExceptionServerFields,
): EventRecord {
  const times = occurrenceTimes(series, key, ctx.calendar.timeZone);
  return exceptionRecord(ctx, master, { key, originalStartTime: originalStartTimeOf(series, key), slot: times }, id, body, server);
}

/** Which occurrence an exception replaces: its key, its `originalStartTime`, and its slot by the rule. */
export interface ReplacedOccurrence {
  readonly key: OccurrenceKey;
  readonly originalStartTime: JsonObject;
  /**
   * The instants the occurrence spans by the series' rule; undefined for a cancelled instance of
   * an occurrence the series no longer produces (a fixture's, event-insert.ts), which then spans
   * its own start and end.
   */
  readonly slot: { readonly start: number; readonly end: number } | undefined;
}

/** The record of the exception `id` of `master` replacing `occurrence`, holding `body`. */
export function exceptionRecord(
  ctx: WriteContext,
  master: EventRecord,
  occurrence: ReplacedOccurrence,
  id: string,
  body: JsonRecord,
  server: ExceptionServerFields,
): EventRecord {
  const { key, slot } = occurrence;
  const validated = validateFields(body, ctx.calendar.timeZone, true);
  const eventType = typeof master.data.eventType === 'string' ? master.data.eventType : 'default';
  applyTypeRules(eventType, validated.fields, ctx.calendar.primary, { instance: true });
  const data: JsonObject = {
    ...validated.fields,
    eventType,
    created: server.created,
    sequence: server.sequence,
    creator: master.data.creator ?? creatorOf(ctx),
    organizer: master.data.organizer ?? organizerOf(ctx),
    recurringEventId: master.id,
    originalStartTime: occurrence.originalStartTime,
    originalStartKey: key,
  };
  withConference(data, server.conferenceData);
  const record = buildRecord(ctx, id, master.iCalUID, data, { recurringEventId: master.id, originalStartMs: slot?.start ?? key });
  if (record.status === 'cancelled' && slot !== undefined) {
    // A cancelled instance occupies its original slot (it is what it removes).
    record.startMs = slot.start;
    record.endMs = slot.end;
  }
  return record;
}
