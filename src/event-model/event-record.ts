// The stored record of a written event (Store.EventRecord): the validated client fields plus the
// server fields `created`, `sequence`, `creator`, `organizer` and `conferenceData`, and the
// record's index columns (status, span, change sequence). `kind`, `etag`, `htmlLink` and
// defaults are added when rendering (src/calendar/events/resource.ts).
//
// Record building sits here, below the calendar API, because the fixture loader builds records
// exactly as events.insert does (docs/fixtures.md) and must not reach into the API to do it. It reads
// where an event sits in time through occurrences.ts, whose rules (spans, series,
// instance ids) depend only on the store types and the domain.
//
// Organizer and creator (the discovery document's Event.organizer, Event.creator; captured events): the organizer is
// the calendar holding the event — on a secondary calendar the calendar itself (its id and
// summary), on a primary calendar its user — and is `self` there; the creator is the user who
// wrote it, `self` only on their own primary calendar.

import type { CalendarRecord, EventRecord, EventStatus, Json, JsonObject, Store, UserRecord } from '../store/store.ts';
import type { JsonRecord } from '../validation/validation.ts';
import { formatIsoUtc } from '../domain/time/zones.ts';
import { eventSpan } from './occurrences.ts';
import { recurrenceLines } from './event-series.ts';
import { allowedConferenceTypes, resolveConference } from './meet-conference.ts';
import type { ConferenceDataVersion } from './meet-conference.ts';

export interface WriteContext {
  store: Store;
  calendar: CalendarRecord;
  owner: UserRecord;
  now: number;
  /** The request's `conferenceDataVersion` (meet-conference.ts); absent means 0. */
  conferenceDataVersion?: ConferenceDataVersion;
}

/** Which write stores the record: patch leaves what its body omits, insert and update do not. */
export type WriteKind = 'insert' | 'update' | 'patch';

/** A stored number field (`sequence`, `originalStartKey`), 0 when absent. */
export function numberOf(value: Json | undefined): number {
  return typeof value === 'number' ? value : 0;
}

/** `created`: RFC 3339 UTC at second precision (`.000Z`), as Google shows it (https://developers.google.com/workspace/calendar/api/v3/reference/events). */
export function createdStamp(now: number): string {
  return formatIsoUtc(Math.floor(now / 1000) * 1000);
}

export function status(fields: JsonObject): EventStatus {
  const value = fields.status;
  return value === 'cancelled' || value === 'tentative' ? value : 'confirmed';
}

// One frozen creator/organizer object per user or calendar record, shared by the events written
// there: the memory store keeps frozen values without copying them (objects less per stored event).
const users = new WeakMap<UserRecord, { readonly self: JsonObject; readonly other: JsonObject }>();
const secondaryOrganizers = new WeakMap<CalendarRecord, JsonObject>();

function userAs(owner: UserRecord, self: boolean): JsonObject {
  let found = users.get(owner);
  if (found === undefined) {
    found = {
      self: Object.freeze({ email: owner.email, displayName: owner.name, self: true }),
      other: Object.freeze({ email: owner.email, displayName: owner.name }),
    };
    users.set(owner, found);
  }
  return self ? found.self : found.other;
}

/** `creator`: the writing user, `self` when the event is on their primary calendar. */
export function creatorOf(ctx: WriteContext): JsonObject {
  return userAs(ctx.owner, ctx.calendar.primary);
}

/** `organizer`: the calendar holding the event (on a primary calendar, its user), `self` there. */
export function organizerOf(ctx: WriteContext): JsonObject {
  if (ctx.calendar.primary) return userAs(ctx.owner, true);
  let found = secondaryOrganizers.get(ctx.calendar);
  if (found === undefined) {
    const summary = ctx.calendar.data.summary;
    found = Object.freeze(
      typeof summary === 'string' && summary !== '' ? { email: ctx.calendar.id, displayName: summary, self: true } : { email: ctx.calendar.id, self: true },
    );
    secondaryOrganizers.set(ctx.calendar, found);
  }
  return found;
}

/**
 * The `conferenceData` an event holds after a write (meet-conference.ts): what it had unless the
 * request says `conferenceDataVersion=1`; then the body's value, where patch leaves an absent one
 * as it was and update or insert clears it.
 */
export function conferenceAfter(ctx: WriteContext, body: JsonRecord, previous: Json | undefined, kind: WriteKind): Json | undefined {
  if (ctx.conferenceDataVersion !== 1) return previous;
  const value = body.conferenceData;
  if (value === undefined && kind === 'patch') return previous;
  if (value === undefined || value === null) return undefined;
  return resolveConference(value, previous, allowedConferenceTypes(ctx.calendar));
}

/** `data` with `conferenceData` set to `conference`, or without it when undefined. */
export function withConference(data: JsonObject, conference: Json | undefined): JsonObject {
  if (conference !== undefined) data.conferenceData = conference;
  return data;
}

/** A new record for `data`, with its index columns and a fresh change sequence. */
export function buildRecord(
  ctx: WriteContext,
  id: string,
  iCalUID: string,
  data: JsonObject,
  exception: { recurringEventId: string; originalStartMs: number } | undefined,
): EventRecord {
  const span = eventSpan(data, ctx.calendar.timeZone);
  return {
    calendarId: ctx.calendar.id,
    id,
    seq: ctx.store.nextSeq(),
    status: status(data),
    recurring: recurrenceLines(data).length > 0,
    recurringEventId: exception?.recurringEventId ?? null,
    originalStartMs: exception?.originalStartMs ?? null,
    startMs: span.startMs,
    endMs: span.endMs,
    iCalUID,
    updatedMs: ctx.now,
    data,
  };
}
