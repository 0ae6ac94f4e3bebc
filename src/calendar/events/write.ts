// The writes of the calendar API to events: events.update / patch (of a stored event, or of an
// instance, which then becomes an exception) and events.delete, and the rendering of a refused
// Event body in Google's envelope. What a body may hold, and the records it becomes, live below
// the API in src/event-model/ (shared with the fixture loader); what a write to a series master does
// to its exceptions is series-revision.ts.
//
// Write rules refused with 400 (https://developers.google.com/workspace/calendar/api/v3/reference/events): `sequence` may not go below the
// stored value; an instance of a series has no recurrence of its own (src/event-model/event-input.ts).
//
// Choices where Google is unconfirmed (documented in the README's API notes):
// - `sequence` goes up by one when start, end or recurrence change (RFC 5545 §3.8.7.4: a
//   "significant revision"); a larger client-sent value wins.
// - patch merges nested objects key by key (extendedProperties.private.x alone can change), but
//   `start`, `end` and every array are replaced whole; `null` clears a field.
// - `attachments` are not stored (the emulator has no Drive). `conferenceData` follows
//   `conferenceDataVersion` (src/event-model/meet-conference.ts).

import { GoogleApiError, googleErrors } from '../../api/google-error.ts';
import type { OccurrenceKey, Series } from '../../domain/recurrence/expand.ts';
import type { CalendarRecord, EventRecord, Json, JsonObject, Store } from '../../store/store.ts';
import { isJsonObject } from '../../validation/validation.ts';
import type { JsonRecord } from '../../validation/validation.ts';
import { clientFields, eventBody, refuseEventTypeChange, refuseInstanceRecurrence, sequenceNotBelow, validateFields } from '../../event-model/event-input.ts';
import { conferenceAfter, createdStamp, numberOf, status, withConference } from '../../event-model/event-record.ts';
import type { WriteContext } from '../../event-model/event-record.ts';
import { applyTypeRules } from '../../event-model/event-types.ts';
import { CALENDAR_DOMAIN_REASONS } from '../../event-model/input-error.ts';
import type { EventInputError } from '../../event-model/input-error.ts';
import { instanceBase, writeException } from '../../event-model/series-exceptions.ts';
import { eventSpan, findInstance, occurrenceTimes } from '../../event-model/occurrences.ts';
import { eventTimes, recurrenceLines, seriesOf } from '../../event-model/event-series.ts';
import { reviseSeries } from './series-revision.ts';

/** The API's rendering of an input error (https://developers.google.com/workspace/calendar/api/guides/errors reasons and messages). */
export function eventInputToGoogle(error: EventInputError): GoogleApiError {
  switch (error.reason) {
    case 'required':
      return googleErrors.required(error.message);
    case 'duplicate':
      return googleErrors.duplicate();
    case 'invalid':
      return googleErrors.invalid(error.message);
    default:
      return new GoogleApiError({ status: 400, domain: CALENDAR_DOMAIN_REASONS.has(error.reason) ? 'calendar' : 'global', reason: error.reason, message: error.message });
  }
}

export type WriteMode = 'update' | 'patch';

/** What an event id names: a stored record, or an instance of a series that has no record yet. */
export type EventTarget =
  | { kind: 'record'; record: EventRecord }
  | { kind: 'instance'; master: EventRecord; series: Series; key: OccurrenceKey; id: string };

/** The stored event or series instance `id` names in the calendar; undefined when neither. */
export function findTarget(store: Store, calendar: CalendarRecord, id: string): EventTarget | undefined {
  const record = store.getEvent(calendar.id, id);
  if (record) return { kind: 'record', record };
  const found = findInstance(store, calendar, id);
  if (!found) return undefined;
  return { kind: 'instance', master: found.master, series: found.series, key: found.key, id };
}

function mergePatch(base: JsonRecord, patch: JsonRecord, replaceWhole: ReadonlySet<string>): JsonRecord {
  const out: JsonRecord = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isJsonObject(value) && isJsonObject(out[key]) && !replaceWhole.has(key)) out[key] = mergePatch(out[key] as JsonRecord, value, new Set());
    else out[key] = value;
  }
  return out;
}

const REPLACED_WHOLE = new Set(['start', 'end', 'originalStartTime']);

/** The body a write stores: update's body as is; patch's merged over the current fields. */
function effectiveBody(current: JsonRecord, input: JsonRecord, mode: WriteMode): JsonRecord {
  return mode === 'update' ? clientFields(input) : mergePatch(clientFields(current), clientFields(input), REPLACED_WHOLE);
}

/**
 * Whether a write changes when the event happens: its instants, the zones it is kept in, or its
 * recurrence. Spelling alone is no change: `10:00:00Z` read back as `19:00:00+09:00` and sent
 * again keeps the sequence, so a client's older copy does not fall below it.
 */
export function timingChanged(before: JsonObject, after: JsonObject, calendarZone: string): boolean {
  return timingOf(before, calendarZone) !== timingOf(after, calendarZone);
}

function timingOf(data: JsonObject, calendarZone: string): string {
  const times = eventTimes(data, calendarZone);
  const zoneOf = (value: Json | undefined): unknown => (isJsonObject(value) ? (value.timeZone ?? null) : null);
  return JSON.stringify([times.kind, times.start, times.end, zoneOf(data.start), zoneOf(data.end), data.recurrence ?? null]);
}

/**
 * events.update / events.patch of a stored event or of an instance (which then becomes an
 * exception). Returns the record written; the caller runs it in a transaction.
 */
export function writeEvent(ctx: WriteContext, target: EventTarget, input: unknown, mode: WriteMode): EventRecord {
  const body = eventBody(input);
  if (target.kind === 'instance') {
    refuseInstanceRecurrence(body);
    const current = numberOf(target.master.data.sequence);
    const base = instanceBase(target.master, target.series, target.key, ctx.calendar.timeZone);
    refuseEventTypeChange(body, target.master.data.eventType);
    const effective = effectiveBody(base, body, mode);
    // The write that moves an instance off its occurrence revises it like a moved event: one
    // above the series' sequence (RFC 5545 §3.8.7.4; Google's exact rule for instances is
    // unpublished, so this is a choice consistent with its single events).
    const moved = timingChanged(base as JsonObject, validateFields(effective, ctx.calendar.timeZone, true).fields, ctx.calendar.timeZone);
    return writeException(ctx, target.master, target.series, target.key, target.id, effective, {
      created: typeof target.master.data.created === 'string' ? target.master.data.created : createdStamp(ctx.now),
      sequence: Math.max(current + (moved ? 1 : 0), sequenceNotBelow(body, current) ?? 0),
      conferenceData: conferenceAfter(ctx, body, target.master.data.conferenceData, mode),
    });
  }
  const existing = target.record;
  const isException = existing.recurringEventId !== null;
  if (isException) refuseInstanceRecurrence(body);
  const requestedSequence = sequenceNotBelow(body, numberOf(existing.data.sequence));
  const stored = effectiveBody(existing.data, body, mode);
  refuseEventTypeChange(body, existing.data.eventType);
  const validated = validateFields(stored, ctx.calendar.timeZone, isException);
  applyTypeRules(typeOf(existing.data), validated.fields, ctx.calendar.primary, { previous: clientFields(existing.data) as JsonObject, instance: isException });
  const bumped = numberOf(existing.data.sequence) + (timingChanged(existing.data, validated.fields, ctx.calendar.timeZone) ? 1 : 0);
  const server: JsonObject = {};
  for (const key of ['eventType', 'created', 'creator', 'organizer', 'recurringEventId', 'originalStartTime', 'originalStartKey']) {
    const value = existing.data[key];
    if (value !== undefined) server[key] = value;
  }
  const data: JsonObject = { ...validated.fields, ...server, sequence: Math.max(bumped, requestedSequence ?? 0) };
  withConference(data, conferenceAfter(ctx, body, existing.data.conferenceData, mode));
  const record: EventRecord = {
    ...existing,
    seq: ctx.store.nextSeq(),
    status: status(data),
    recurring: !isException && recurrenceLines(data).length > 0,
    // Event.updated: "Updating event reminders will not cause this to change" (https://developers.google.com/workspace/calendar/api/v3/reference/events);
    // the etag and the sync position still move, so sync reports the change.
    updatedMs: onlyRemindersDiffer(existing.data, data) ? existing.updatedMs : ctx.now,
    data,
  };
  const span = eventSpan(data, ctx.calendar.timeZone);
  record.startMs = span.startMs;
  record.endMs = span.endMs;
  if (isException && record.status === 'cancelled' && existing.originalStartMs !== null) {
    const master = ctx.store.getEvent(ctx.calendar.id, existing.recurringEventId as string);
    const series = master && seriesOf(master.data, ctx.calendar.timeZone);
    if (series) Object.assign(record, spanOf(occurrenceTimes(series, numberOf(data.originalStartKey), ctx.calendar.timeZone)));
  }
  return isException ? record : reviseSeries(ctx, existing, record);
}

function typeOf(data: JsonObject): string {
  return typeof data.eventType === 'string' ? data.eventType : 'default';
}

/** Whether two stored events differ in their reminders and nothing else (member order aside). */
function onlyRemindersDiffer(before: JsonObject, after: JsonObject): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete('reminders');
  const same = (a: Json | undefined, b: Json | undefined): boolean => sameJson(a ?? null, b ?? null);
  return !same(before.reminders, after.reminders) && [...keys].every((key) => same(before[key], after[key]));
}

function sameJson(a: Json, b: Json): boolean {
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key] as Json, b[key] as Json));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i] as Json));
  return a === b;
}

function spanOf(times: { start: number; end: number }): { startMs: number; endMs: number } {
  return { startMs: times.start, endMs: times.end };
}

function cancelled(ctx: WriteContext, record: EventRecord): EventRecord {
  return { ...record, seq: ctx.store.nextSeq(), status: 'cancelled', updatedMs: ctx.now, data: { ...record.data, status: 'cancelled' } };
}

/**
 * events.delete: a single event or exception becomes a cancelled tombstone (get still returns
 * it; sync reports it); a series master is cancelled with every exception; an instance without a
 * record becomes a cancelled exception. An already cancelled event is 410 deleted.
 */
export function deleteEvent(ctx: WriteContext, target: EventTarget): EventRecord[] {
  if (target.kind === 'instance') {
    if (target.master.status === 'cancelled') throw googleErrors.deleted();
    const base = instanceBase(target.master, target.series, target.key, ctx.calendar.timeZone);
    return [
      writeException(ctx, target.master, target.series, target.key, target.id, { ...base, status: 'cancelled' }, {
        created: createdStamp(ctx.now),
        sequence: numberOf(target.master.data.sequence),
        conferenceData: target.master.data.conferenceData,
      }),
    ];
  }
  const record = target.record;
  if (record.status === 'cancelled') throw googleErrors.deleted();
  // Exceptions first, the master last: an expanded incremental sync (instance-sync.ts) reports a
  // series change with every instance of the series, exceptions included, so a master changed
  // after its exceptions covers them, and no instance's tombstone is handed out twice.
  const written: EventRecord[] = [];
  if (record.recurring) {
    for (const exception of ctx.store.listExceptions(ctx.calendar.id, record.id)) {
      if (exception.status !== 'cancelled') written.push(cancelled(ctx, exception));
    }
  }
  written.push(cancelled(ctx, record));
  return written;
}
