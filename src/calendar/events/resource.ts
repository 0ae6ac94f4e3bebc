// Stored event records to wire Event resources (https://developers.google.com/workspace/calendar/api/v3/reference/events): `kind`,
// `etag`, `htmlLink`, defaults, and every time rendered in the requested output zone (the
// `timeZone` parameter, else the calendar's). Fields at their defaults are omitted, as Google
// omits them (`transparency: opaque`, `visibility: default`, false booleans). `hangoutLink` is
// read off a Meet conference (src/event-model/meet-conference.ts); attendee `self` marks the calendar holding the event.
// What becomes of a rendering (cached bytes, list items, a page's body) is list-items.ts.

import type { CalendarRecord, EventRecord, Json, JsonObject } from '../../store/store.ts';
import type { OccurrenceKey, Series } from '../../domain/recurrence/expand.ts';
import { keyToDate } from '../../domain/recurrence/expand.ts';
import { formatDate } from '../../domain/time/datetime.ts';
import { formatIsoUtc, formatRfc3339InZone, MS_PER_DAY } from '../../domain/time/zones.ts';
import { hangoutLinkOf } from '../../event-model/meet-conference.ts';
import { TYPE_PROPERTIES } from '../../event-model/event-types.ts';
import { etagFor } from '../etag.ts';
import { eventTimes } from '../../event-model/event-series.ts';
import { sameEmail } from '../../event-model/invitee-copies.ts';

export interface RenderContext {
  calendar: CalendarRecord;
  /** Output zone for dateTime values. */
  zone: string;
  baseUrl: string;
  /** events.* `maxAttendees`: longer attendee lists shrink to the caller's own entry. */
  maxAttendees?: number | undefined;
}

/**
 * `htmlLink`: Google's form, `…/calendar/event?eid=<base64url("<eventId> <calendarId>")>`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/events), on this service's own host.
 */
export function htmlLink(baseUrl: string, eventId: string, calendarId: string): string {
  return `${baseUrl}/calendar/event?eid=${Buffer.from(`${eventId} ${calendarId}`, 'utf8').toString('base64url')}`;
}

function object(value: Json | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

function dateTimeOut(stored: JsonObject | undefined, instant: number, zone: string): JsonObject {
  if (stored !== undefined && typeof stored.date === 'string') {
    return stored.timeZone === undefined ? { date: stored.date } : { date: stored.date, timeZone: stored.timeZone };
  }
  const out: JsonObject = { dateTime: formatRfc3339InZone(instant, zone) };
  if (stored !== undefined && typeof stored.timeZone === 'string') out.timeZone = stored.timeZone;
  return out;
}

function attendeesOut(data: JsonObject, ctx: RenderContext): { attendees?: Json[]; attendeesOmitted?: boolean } {
  const list = Array.isArray(data.attendees) ? data.attendees : [];
  if (list.length === 0) return {};
  const organizer = object(data.organizer)?.email;
  // EventAttendee.self: "this entry stands for the calendar holding this copy of the event".
  const self = ctx.calendar.id;
  const marked = list.map((entry) => {
    const a = { ...(object(entry) ?? {}) };
    // E-mail addresses compare without letter case (docs/invitations.md: a test user's entry).
    if (sameEmail(a.email, organizer)) a.organizer = true;
    if (sameEmail(a.email, self)) a.self = true;
    return a;
  });
  if (ctx.maxAttendees !== undefined && marked.length > ctx.maxAttendees) {
    return { attendees: marked.filter((a) => a.self === true), attendeesOmitted: true };
  }
  // A copy of an event whose guests may not see each other holds its invitee's and organizer's
  // entries alone (src/event-model/invitee-copies.ts); the organizer's own event lists everyone.
  if (data.guestsCanSeeOtherGuests === false && organizer !== undefined && !sameEmail(organizer, self)) return { attendees: marked, attendeesOmitted: true };
  return { attendees: marked };
}

/** The wire Event for `data` under `id`; the caller supplies the parts that differ for instances. */
function assemble(
  parts: {
    id: string;
    seq: number;
    status: string;
    updatedMs: number;
    iCalUID: string;
    start: JsonObject;
    end: JsonObject;
    recurringEventId?: string;
    originalStartTime?: JsonObject;
  },
  data: JsonObject,
  ctx: RenderContext,
): JsonObject {
  const out: JsonObject = {
    kind: 'calendar#event',
    etag: etagFor(parts.seq),
    id: parts.id,
    status: parts.status,
    htmlLink: htmlLink(ctx.baseUrl, parts.id, ctx.calendar.id),
  };
  if (typeof data.created === 'string') out.created = data.created;
  out.updated = formatIsoUtc(parts.updatedMs);
  for (const key of ['summary', 'description', 'location', 'colorId', 'creator', 'organizer'] as const) {
    if (data[key] !== undefined) out[key] = data[key];
  }
  out.start = parts.start;
  out.end = parts.end;
  if (data.endTimeUnspecified === true) out.endTimeUnspecified = true;
  if (parts.recurringEventId === undefined && Array.isArray(data.recurrence)) out.recurrence = data.recurrence;
  if (parts.recurringEventId !== undefined) out.recurringEventId = parts.recurringEventId;
  if (parts.originalStartTime !== undefined) out.originalStartTime = parts.originalStartTime;
  if (data.transparency === 'transparent') out.transparency = 'transparent';
  if (typeof data.visibility === 'string' && data.visibility !== 'default') out.visibility = data.visibility;
  out.iCalUID = parts.iCalUID;
  out.sequence = typeof data.sequence === 'number' ? data.sequence : 0;
  Object.assign(out, attendeesOut(data, ctx));
  for (const key of ['anyoneCanAddSelf', 'guestsCanModify', 'privateCopy'] as const) {
    if (data[key] === true) out[key] = true;
  }
  for (const key of ['guestsCanInviteOthers', 'guestsCanSeeOtherGuests'] as const) {
    if (data[key] === false) out[key] = false;
  }
  if (data.extendedProperties !== undefined) out.extendedProperties = data.extendedProperties;
  const hangoutLink = hangoutLinkOf(data.conferenceData);
  if (hangoutLink !== undefined) out.hangoutLink = hangoutLink;
  if (data.conferenceData !== undefined) out.conferenceData = data.conferenceData;
  out.reminders = data.reminders ?? { useDefault: true };
  if (data.source !== undefined) out.source = data.source;
  out.eventType = typeof data.eventType === 'string' ? data.eventType : 'default';
  // The properties object of the event's type (event-types.ts keeps no other).
  for (const [, key] of TYPE_PROPERTIES) if (data[key] !== undefined) out[key] = data[key];
  return out;
}

function originalStartOut(stored: JsonObject, key: OccurrenceKey, zone: string): JsonObject {
  if (typeof stored.date === 'string') return { date: stored.date };
  return { dateTime: formatRfc3339InZone(key, zone), timeZone: stored.timeZone ?? zone };
}

/** A stored record (single event, series master or exception) as a wire Event. */
export function renderEvent(record: EventRecord, ctx: RenderContext): JsonObject {
  const data = record.data;
  // A plain single event's own instants are its stored span (Store.EventRecord), so only series
  // masters and exceptions, whose span is not their own start and end, parse their times again.
  const times =
    record.recurring || record.recurringEventId !== null ? eventTimes(data, ctx.calendar.timeZone) : { start: record.startMs, end: record.endMs };
  const original = object(data.originalStartTime);
  const originalKey = typeof data.originalStartKey === 'number' ? data.originalStartKey : (record.originalStartMs ?? 0);
  return assemble(
    {
      id: record.id,
      seq: record.seq,
      status: record.status,
      updatedMs: record.updatedMs,
      iCalUID: record.iCalUID,
      start: dateTimeOut(object(data.start), times.start, ctx.zone),
      end: dateTimeOut(object(data.end), times.end, ctx.zone),
      ...(record.recurringEventId === null ? {} : { recurringEventId: record.recurringEventId }),
      ...(original === undefined ? {} : { originalStartTime: originalStartOut(original, originalKey, ctx.zone) }),
    },
    data,
    ctx,
  );
}

/** An instance of a series that has no record of its own, at its original start `key`. */
export interface UntouchedInstance {
  readonly master: EventRecord;
  readonly series: Series;
  readonly key: OccurrenceKey;
  readonly id: string;
  readonly times: { readonly start: number; readonly end: number };
  /** Whether the series is cancelled (the instance is listed as cancelled). */
  readonly cancelled: boolean;
}

/**
 * An untouched instance of a series: the master's fields and etag at the occurrence's times,
 * with `recurringEventId` and `originalStartTime` and no `recurrence` (https://developers.google.com/workspace/calendar/api/guides/recurringevents).
 */
export function renderInstance(instance: UntouchedInstance, ctx: RenderContext): JsonObject {
  const { master, series, key, id, times, cancelled } = instance;
  const data = master.data;
  const startStored = object(data.start);
  const endStored = object(data.end);
  let start: JsonObject;
  let end: JsonObject;
  let originalStartTime: JsonObject;
  if (series.kind === 'date') {
    start = { date: formatDate(keyToDate(key)) };
    end = { date: formatDate(keyToDate(key + series.durationDays * MS_PER_DAY)) };
    originalStartTime = { date: formatDate(keyToDate(key)) };
  } else {
    start = dateTimeOut(startStored, times.start, ctx.zone);
    end = dateTimeOut(endStored, times.end, ctx.zone);
    originalStartTime = { dateTime: formatRfc3339InZone(key, ctx.zone), timeZone: series.timeZone };
  }
  return assemble(
    {
      id,
      seq: master.seq,
      status: cancelled ? 'cancelled' : master.status,
      updatedMs: master.updatedMs,
      iCalUID: master.iCalUID,
      start,
      end,
      recurringEventId: master.id,
      originalStartTime,
    },
    data,
    ctx,
  );
}

/**
 * A deletion in incremental results: only what Google guarantees (https://developers.google.com/workspace/calendar/api/v3/reference/events/list) — `id`, and for
 * a cancelled exception of a series `recurringEventId` and `originalStartTime`.
 */
export function renderTombstone(record: EventRecord, ctx: RenderContext): JsonObject {
  const out: JsonObject = { kind: 'calendar#event', etag: etagFor(record.seq), id: record.id, status: 'cancelled' };
  const original = object(record.data.originalStartTime);
  if (record.recurringEventId !== null && original !== undefined) {
    out.recurringEventId = record.recurringEventId;
    const key = typeof record.data.originalStartKey === 'number' ? record.data.originalStartKey : (record.originalStartMs ?? 0);
    out.originalStartTime = originalStartOut(original, key, ctx.zone);
  }
  return out;
}
