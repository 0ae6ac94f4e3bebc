// Validation of Event resources and the writes of events.insert / update / patch / delete. One
// validation path serves the API and the fixture loader (CONTRACT §2: fixture events are
// "validated exactly as events.insert validates them").
//
// Stored data keeps the client-writable fields as validated (start/end as sent, so a local
// dateTime keeps its timeZone) plus the server fields `created`, `sequence`, `creator`,
// `organizer`; `kind`, `etag`, `htmlLink` and defaults are added when rendering
// (event-resource.ts). Unknown and read-only fields in a body are ignored, as Google ignores them:
// events.insert ignores `recurringEventId` and `originalStartTime` too (DISC Event: set by the
// server on instances), so a copy of an instance inserted back is a new single event and the
// occurrence it was copied from is untouched. Fixtures describe exceptions with those two fields,
// as events.import would (createEventRecord).
//
// Write rules refused with 400 (issue 14, BEHAVIOUR.md §2.1):
// - an all-day event must end at least one day after it starts (`end.date` is exclusive);
// - `sequence` may not go below the stored value (Google's `invalid` message quoted below);
// - an instance of a series has no recurrence of its own, so `recurrence` on one is refused.
//
// Organizer and creator (DISC Event.organizer, Event.creator; captured events): the organizer is
// the calendar holding the event — on a secondary calendar the calendar itself (its id and
// summary), on a primary calendar its user — and is `self` there; the creator is the user who
// wrote it, `self` only on their own primary calendar.
//
// Choices where Google is unconfirmed (documented in the README's API notes):
// - `sequence` goes up by one when start, end or recurrence change (RFC 5545 §3.8.7.4: a
//   "significant revision"); a larger client-sent value wins.
// - patch merges nested objects key by key (extendedProperties.private.x alone can change), but
//   `start`, `end` and every array are replaced whole; `null` clears a field.
// - an id held by a deleted event still collides on insert (409 duplicate): get keeps
//   returning the tombstone, so the id is not free.
// - `attachments` are not stored (the emulator has no Drive). `conferenceData` follows
//   `conferenceDataVersion` (conference.ts).

import { GoogleApiError, googleErrors } from '../api/google-error.ts';
import { RecurrenceError, parseRecurrence } from '../domain/recurrence/rrule.ts';
import { DateTimeError, formatDate, hasOffset, parseDate, parseDateTimeWithZone, startOfDateInZone } from '../domain/time/datetime.ts';
import { isValidTimeZone, formatRfc3339InZone } from '../domain/time/zones.ts';
import { isOccurrence, keyToDate } from '../domain/recurrence/expand.ts';
import type { OccurrenceKey, Series } from '../domain/recurrence/expand.ts';
import type { CalendarRecord, EventRecord, EventStatus, Json, JsonObject, Store, UserRecord } from '../store/store.ts';
import { randomBytes } from '../oauth/hash.ts';
import { BASE32HEX, TIME_PREFIX_LENGTH, timePrefix } from '../domain/time-ordered.ts';
import { eventSpan, eventTimes, findInstance, instanceId, occurrenceKeyOf, occurrenceTimes, recurrenceLines, seriesOf } from './occurrences.ts';
import { conferencePropertiesOf } from './calendars.ts';
import { ConferenceInputError, resolveConference } from './conference.ts';
import { reviseSeries } from './series-revision.ts';
import type { ConferenceDataVersion } from './conference.ts';

export type EventInputReason = 'invalid' | 'required' | 'timeRangeEmpty' | 'duplicate';

/** A refused Event body; `field` is the offending path (`start.dateTime`), used by fixture errors. */
export class EventInputError extends Error {
  readonly field: string | undefined;
  readonly reason: EventInputReason;
  constructor(reason: EventInputReason, message: string, field?: string) {
    super(message);
    this.name = 'EventInputError';
    this.reason = reason;
    this.field = field;
  }
}

/** The API's rendering of an input error (BEHAVIOUR.md §1.2 reasons and messages). */
export function eventInputToGoogle(error: EventInputError): GoogleApiError {
  switch (error.reason) {
    case 'required':
      return googleErrors.required(error.message);
    case 'timeRangeEmpty':
      return new GoogleApiError({ status: 400, domain: 'calendar', reason: 'timeRangeEmpty', message: error.message });
    case 'duplicate':
      return googleErrors.duplicate();
    default:
      return googleErrors.invalid(error.message);
  }
}

export interface WriteContext {
  store: Store;
  calendar: CalendarRecord;
  owner: UserRecord;
  now: number;
  /** The request's `conferenceDataVersion` (conference.ts); absent means 0. */
  conferenceDataVersion?: ConferenceDataVersion;
}

// ---------------------------------------------------------------------------------------------
// Identifiers.

// Event.id (DISC): base32hex (RFC 2938 §3.1.2), lower case, 5 to 1024 characters.
const EVENT_ID = /^[a-v0-9]{5,1024}$/;

/**
 * A server-chosen id: 26 base32hex characters like Google's, the time it was made (so ids sort
 * by creation, see time-ordered.ts) then 80 random bits.
 */
export function generateEventId(now: number): string {
  let id = timePrefix(now);
  for (const byte of randomBytes(26 - TIME_PREFIX_LENGTH)) id += BASE32HEX[byte & 31];
  return id;
}

function checkNewId(store: Store, calendarId: string, id: string): void {
  if (store.getEvent(calendarId, id)) throw new EventInputError('duplicate', 'The requested identifier already exists.', 'id');
}

// ---------------------------------------------------------------------------------------------
// Field validation. Each validator takes the raw value and returns the stored form, or throws.

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(field: string, message = `Invalid value for ${field}.`): EventInputError {
  return new EventInputError('invalid', message, field);
}

function stringField(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(field);
  return value;
}

function booleanField(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalid(field);
  return value;
}

function enumField(value: unknown, field: string, allowed: readonly string[]): string {
  if (typeof value !== 'string' || !allowed.includes(value)) throw invalid(field);
  return value;
}

function stringMap(value: unknown, field: string): JsonObject {
  if (!isObject(value)) throw invalid(field);
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) out[key] = stringField(v, `${field}.${key}`);
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const RESPONSE_STATUSES = ['needsAction', 'declined', 'tentative', 'accepted'] as const;

// EventAttendee (METHODS.md §3.3): email required and an address; organizer/self are read-only.
function attendees(value: unknown): Json[] {
  if (!Array.isArray(value)) throw invalid('attendees');
  return value.map((raw, i) => {
    const path = `attendees[${i}]`;
    if (!isObject(raw)) throw invalid(path);
    if (raw.email === undefined) throw new EventInputError('required', 'Missing attendee email.', `${path}.email`);
    const email = stringField(raw.email, `${path}.email`);
    if (!EMAIL.test(email)) throw invalid(`${path}.email`, 'Invalid attendee email.');
    const out: JsonObject = { email };
    for (const key of ['displayName', 'comment', 'id'] as const) {
      if (raw[key] !== undefined) out[key] = stringField(raw[key], `${path}.${key}`);
    }
    for (const key of ['optional', 'resource'] as const) {
      if (raw[key] !== undefined && booleanField(raw[key], `${path}.${key}`)) out[key] = true;
    }
    if (raw.additionalGuests !== undefined) {
      const n = raw.additionalGuests;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw invalid(`${path}.additionalGuests`);
      if (n > 0) out.additionalGuests = n;
    }
    out.responseStatus = raw.responseStatus === undefined ? 'needsAction' : enumField(raw.responseStatus, `${path}.responseStatus`, RESPONSE_STATUSES);
    return out;
  });
}

// Event.reminders (METHODS.md §3.1, §3.4): at most 5 overrides, method email|popup, minutes 0..40320.
function reminders(value: unknown): JsonObject {
  if (!isObject(value)) throw invalid('reminders');
  const useDefault = value.useDefault === undefined ? false : booleanField(value.useDefault, 'reminders.useDefault');
  const out: JsonObject = { useDefault };
  if (value.overrides !== undefined && value.overrides !== null) {
    if (!Array.isArray(value.overrides)) throw invalid('reminders.overrides');
    if (useDefault && value.overrides.length > 0) {
      throw invalid('reminders.overrides', 'Cannot specify both default reminders and overrides at the same time.');
    }
    if (value.overrides.length > 5) throw invalid('reminders.overrides', 'At most 5 reminder overrides are allowed.');
    out.overrides = value.overrides.map((raw, i) => {
      const path = `reminders.overrides[${i}]`;
      if (!isObject(raw)) throw invalid(path);
      if (raw.method === undefined) throw new EventInputError('required', 'Missing reminder method.', `${path}.method`);
      if (raw.minutes === undefined) throw new EventInputError('required', 'Missing reminder minutes.', `${path}.minutes`);
      const method = enumField(raw.method, `${path}.method`, ['email', 'popup']);
      const minutes = raw.minutes;
      if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 0 || minutes > 40320) {
        throw invalid(`${path}.minutes`, 'Reminder minutes must be an integer from 0 to 40320.');
      }
      return { method, minutes };
    });
  }
  return out;
}

function extendedProperties(value: unknown): JsonObject {
  if (!isObject(value)) throw invalid('extendedProperties');
  const out: JsonObject = {};
  for (const key of ['private', 'shared'] as const) {
    if (value[key] !== undefined && value[key] !== null) out[key] = stringMap(value[key], `extendedProperties.${key}`);
  }
  return out;
}

function source(value: unknown): JsonObject {
  if (!isObject(value)) throw invalid('source');
  const out: JsonObject = {};
  if (value.title !== undefined) out.title = stringField(value.title, 'source.title');
  if (value.url !== undefined) out.url = stringField(value.url, 'source.url');
  return out;
}

// The Event palette has keys "1".."11" (METHODS.md §4.5, the live palette).
const COLOR_IDS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'];
const CREATABLE_EVENT_TYPES = ['default', 'focusTime', 'outOfOffice', 'workingLocation'];

/** Client-writable fields other than start, end and recurrence, with their validators. */
const SIMPLE_FIELDS: ReadonlyArray<readonly [string, (value: unknown, field: string) => Json]> = [
  ['summary', stringField],
  ['description', stringField],
  ['location', stringField],
  ['colorId', (v, f) => enumField(v, f, COLOR_IDS)],
  ['status', (v, f) => enumField(v, f, ['confirmed', 'tentative', 'cancelled'])],
  ['transparency', (v, f) => enumField(v, f, ['opaque', 'transparent'])],
  ['visibility', (v, f) => enumField(v, f, ['default', 'public', 'private', 'confidential'])],
  ['attendees', attendees],
  ['reminders', reminders],
  ['extendedProperties', extendedProperties],
  ['source', source],
  ['anyoneCanAddSelf', booleanField],
  ['guestsCanInviteOthers', booleanField],
  ['guestsCanModify', booleanField],
  ['guestsCanSeeOtherGuests', booleanField],
  ['endTimeUnspecified', booleanField],
  ['privateCopy', booleanField],
];

/** The names of every stored client field (what update replaces and patch merges). */
const CLIENT_FIELDS = new Set(['start', 'end', 'recurrence', ...SIMPLE_FIELDS.map(([name]) => name)]);

// ---------------------------------------------------------------------------------------------
// start / end (EventDateTime, METHODS.md §3.2; BEHAVIOUR.md §2.1).

interface ParsedTimes {
  allDay: boolean;
  start: JsonObject;
  end: JsonObject;
  startMs: number;
  endMs: number;
}

function which(name: 'start' | 'end'): string {
  return name === 'start' ? 'start time' : 'end time';
}

function dateTimeValue(raw: unknown, name: 'start' | 'end'): { stored: JsonObject; allDay: boolean } {
  if (raw === undefined || raw === null) {
    throw new EventInputError('required', `Missing ${which(name)}.`, name);
  }
  if (!isObject(raw)) throw invalid(name, `Invalid ${which(name)}.`);
  const stored: JsonObject = {};
  if (raw.timeZone !== undefined && raw.timeZone !== null) {
    const zone = raw.timeZone;
    if (typeof zone !== 'string' || !isValidTimeZone(zone)) {
      throw invalid(`${name}.timeZone`, `Invalid time zone definition for ${which(name)}.`);
    }
    stored.timeZone = zone;
  }
  const hasDate = raw.date !== undefined && raw.date !== null;
  const hasDateTime = raw.dateTime !== undefined && raw.dateTime !== null;
  if (hasDate === hasDateTime) {
    if (!hasDate) throw new EventInputError('required', `Missing ${which(name)}.`, name);
    throw invalid(name, `Invalid ${which(name)}.`);
  }
  if (hasDate) {
    const date = raw.date;
    try {
      stored.date = formatDate(parseDate(typeof date === 'string' ? date : '', `${name}.date`));
    } catch (error) {
      if (error instanceof DateTimeError) throw invalid(`${name}.date`, `Invalid ${which(name)}.`);
      throw error;
    }
    return { stored, allDay: true };
  }
  const dateTime = raw.dateTime;
  if (typeof dateTime !== 'string') throw invalid(`${name}.dateTime`, `Invalid ${which(name)}.`);
  stored.dateTime = dateTime;
  return { stored, allDay: false };
}

function parseTimes(startRaw: unknown, endRaw: unknown, calendarZone: string): ParsedTimes {
  const start = dateTimeValue(startRaw, 'start');
  const end = dateTimeValue(endRaw, 'end');
  if (start.allDay !== end.allDay) {
    throw invalid('end', 'Start and end times must either both be date or both be dateTime.');
  }
  let startMs: number;
  let endMs: number;
  if (start.allDay) {
    // All-day dates are placed in the calendar's zone (BEHAVIOUR.md §2.1).
    startMs = startOfDateInZone(parseDate(String(start.stored.date), 'start.date'), calendarZone);
    endMs = startOfDateInZone(parseDate(String(end.stored.date), 'end.date'), calendarZone);
  } else {
    startMs = instant(start.stored, 'start', undefined);
    endMs = instant(end.stored, 'end', typeof start.stored.timeZone === 'string' ? start.stored.timeZone : undefined);
  }
  // A timed event may last no time at all; an all-day one covers at least its start date.
  if (endMs < startMs || (start.allDay && endMs === startMs)) {
    throw new EventInputError('timeRangeEmpty', 'The specified time range is empty.', 'end');
  }
  return { allDay: start.allDay, start: start.stored, end: end.stored, startMs, endMs };
}

function instant(value: JsonObject, name: 'start' | 'end', fallbackZone: string | undefined): number {
  const dateTime = String(value.dateTime);
  const zone = typeof value.timeZone === 'string' ? value.timeZone : fallbackZone;
  // A local time needs a zone to mean an instant (EventDateTime.dateTime).
  if (!hasOffset(dateTime) && zone === undefined) {
    if (/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(dateTime)) {
      throw invalid(`${name}.timeZone`, `Missing time zone definition for ${which(name)}.`);
    }
    throw invalid(`${name}.dateTime`, `Invalid ${which(name)}.`);
  }
  try {
    return parseDateTimeWithZone(dateTime, zone, `${name}.dateTime`);
  } catch (error) {
    if (error instanceof DateTimeError) throw invalid(`${name}.dateTime`, `Invalid ${which(name)}.`);
    throw error;
  }
}

function recurrence(value: unknown, allDay: boolean): string[] {
  if (!Array.isArray(value)) throw invalid('recurrence', 'Invalid recurrence rule: recurrence must be an array of strings');
  const lines = value.map((line, i) => stringField(line, `recurrence[${i}]`));
  try {
    parseRecurrence(lines, { allDay });
  } catch (error) {
    if (error instanceof RecurrenceError) throw invalid('recurrence', error.message);
    throw error;
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// A whole body.

interface ValidatedEvent {
  /** The client fields as stored. */
  fields: JsonObject;
  startMs: number;
  endMs: number;
}

/**
 * Validates the client-writable fields of an Event body. `instance`: the body describes one
 * instance of a series, which has no `recurrence` of its own.
 */
function validateFields(body: Raw, calendarZone: string, instance: boolean): ValidatedEvent {
  const fields: JsonObject = {};
  for (const [name, validate] of SIMPLE_FIELDS) {
    const value = body[name];
    if (value !== undefined && value !== null) fields[name] = validate(value, name);
  }
  const times = parseTimes(body.start, body.end, calendarZone);
  fields.start = times.start;
  fields.end = times.end;
  if (!instance && body.recurrence !== undefined && body.recurrence !== null) {
    const lines = recurrence(body.recurrence, times.allDay);
    if (lines.length > 0) {
      // EventDateTime.timeZone: "required for recurring events" — the zone they expand in.
      if (!times.allDay && times.start.timeZone === undefined) {
        throw invalid('start.timeZone', 'Missing time zone definition for start time.');
      }
      fields.recurrence = lines;
    }
  }
  return { fields, startMs: times.startMs, endMs: times.endMs };
}

function eventType(body: Raw): string {
  if (body.eventType === undefined || body.eventType === null) return 'default';
  return enumField(body.eventType, 'eventType', CREATABLE_EVENT_TYPES);
}

function status(fields: JsonObject): EventStatus {
  const value = fields.status;
  return value === 'cancelled' || value === 'tentative' ? value : 'confirmed';
}

function sequenceInput(body: Raw): number | undefined {
  const value = body.sequence;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid('sequence');
  return value;
}

/** The client's `sequence` for a resource whose sequence is `current`: never lower (Google's message). */
function sequenceNotBelow(body: Raw, current: number): number | undefined {
  const value = sequenceInput(body);
  if (value !== undefined && value < current) {
    throw invalid('sequence', 'Invalid sequence value. The specified sequence number is below the current sequence number of the resource.');
  }
  return value;
}

/** An instance of a series takes its recurrence from the series: a non-empty `recurrence` is refused. */
function refuseInstanceRecurrence(body: Raw): void {
  const value = body.recurrence;
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return;
  throw invalid('recurrence', 'An instance of a recurring event cannot have a recurrence of its own.');
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
function creatorOf(ctx: WriteContext): JsonObject {
  return userAs(ctx.owner, ctx.calendar.primary);
}

/** `organizer`: the calendar holding the event (on a primary calendar, its user), `self` there. */
function organizerOf(ctx: WriteContext): JsonObject {
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
 * The `conferenceData` an event holds after a write (conference.ts): what it had unless the
 * request says `conferenceDataVersion=1`; then the body's value, where patch leaves an absent one
 * as it was and update or insert clears it.
 */
function conferenceAfter(ctx: WriteContext, body: Raw, previous: Json | undefined, mode: WriteMode | 'insert'): Json | undefined {
  if (ctx.conferenceDataVersion !== 1) return previous;
  const value = body.conferenceData;
  if (value === undefined && mode === 'patch') return previous;
  if (value === undefined || value === null) return undefined;
  const properties = conferencePropertiesOf(ctx.calendar);
  const allowed = typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? properties.allowedConferenceSolutionTypes : undefined;
  try {
    return resolveConference(value, previous, Array.isArray(allowed) ? allowed.filter((t): t is string => typeof t === 'string') : []);
  } catch (error) {
    if (error instanceof ConferenceInputError) throw invalid(error.field, error.message);
    throw error;
  }
}

/** `data` with `conferenceData` set to `conference`, or without it when undefined. */
function withConference(data: JsonObject, conference: Json | undefined): JsonObject {
  if (conference !== undefined) data.conferenceData = conference;
  return data;
}

/** `created`: RFC 3339 UTC at second precision (`.000Z`), as Google shows it (BEHAVIOUR.md §2.1). */
function createdStamp(now: number): string {
  return new Date(Math.floor(now / 1000) * 1000).toISOString();
}

function buildRecord(
  ctx: WriteContext,
  id: string,
  iCalUID: string,
  data: JsonObject,
  exception: { recurringEventId: string; key: OccurrenceKey; originalStartMs: number } | undefined,
): EventRecord {
  const zone = ctx.calendar.timeZone;
  const span = eventSpan(data, zone);
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

/**
 * events.insert: validates an Event resource and returns the record to put, a single event or a
 * series. `recurringEventId` and `originalStartTime` are read-only here and ignored.
 */
export function insertEventRecord(input: unknown, ctx: WriteContext): EventRecord {
  if (!isObject(input)) throw new EventInputError('invalid', 'The event must be a JSON object.');
  let id: string;
  if (input.id !== undefined && input.id !== null) {
    if (typeof input.id !== 'string' || !EVENT_ID.test(input.id)) throw invalid('id', 'Invalid resource id value.');
    id = input.id;
    checkNewId(ctx.store, ctx.calendar.id, id);
  } else {
    do id = generateEventId(ctx.now);
    while (ctx.store.getEvent(ctx.calendar.id, id));
  }
  const iCalUID = input.iCalUID === undefined || input.iCalUID === null ? `${id}@google.com` : stringField(input.iCalUID, 'iCalUID');
  const validated = validateFields(input, ctx.calendar.timeZone, false);
  const data: JsonObject = {
    ...validated.fields,
    eventType: eventType(input),
    created: createdStamp(ctx.now),
    sequence: sequenceInput(input) ?? 0,
    creator: creatorOf(ctx),
    organizer: organizerOf(ctx),
  };
  return buildRecord(ctx, id, iCalUID, withConference(data, conferenceAfter(ctx, input, undefined, 'insert')), undefined);
}

/**
 * A fixture's event (CONTRACT §2), validated as events.insert validates it, except that, as
 * events.import accepts, a body with `recurringEventId` + `originalStartTime` describes an
 * exception of a series in the same calendar: a modified or, with `status: "cancelled"`,
 * cancelled instance whose id defaults to the instance id. Its `conferenceData` is kept as
 * written (`conferenceDataVersion=1`), so a workspace can seed Meet links.
 */
export function createEventRecord(input: unknown, ctx: WriteContext): EventRecord {
  const importing: WriteContext = { ...ctx, conferenceDataVersion: 1 };
  if (isObject(input) && input.recurringEventId !== undefined && input.recurringEventId !== null) return createImportedException(input, importing);
  return insertEventRecord(input, importing);
}

function createImportedException(input: Raw, ctx: WriteContext): EventRecord {
  const masterId = stringField(input.recurringEventId, 'recurringEventId');
  const master = ctx.store.getEvent(ctx.calendar.id, masterId);
  const series = master && seriesOf(master.data, ctx.calendar.timeZone);
  if (!master || !series) throw invalid('recurringEventId', 'The recurringEventId does not name a recurring event of this calendar.');
  if (!isObject(input.originalStartTime)) {
    throw new EventInputError('required', 'Missing originalStartTime.', 'originalStartTime');
  }
  let key: OccurrenceKey;
  try {
    key = occurrenceKeyOf(input.originalStartTime as JsonObject, series, 'originalStartTime');
  } catch (error) {
    if (error instanceof DateTimeError) throw invalid('originalStartTime', 'Invalid originalStartTime.');
    throw error;
  }
  if (!isOccurrence(series, key)) throw invalid('originalStartTime', 'originalStartTime is not an instance of the recurring event.');
  const defaultId = instanceId(master, series, key);
  let id = defaultId;
  if (input.id !== undefined && input.id !== null) {
    if (typeof input.id !== 'string' || (input.id !== defaultId && !EVENT_ID.test(input.id))) throw invalid('id', 'Invalid resource id value.');
    id = input.id;
  }
  checkNewId(ctx.store, ctx.calendar.id, id);
  // The instance inherits the series' fields; the body overrides them.
  const base = instanceBase(master, series, key, ctx.calendar.timeZone);
  const body: Raw = { ...base, ...clientFields(input) };
  return writeException(ctx, master, series, key, id, body, {
    created: createdStamp(ctx.now),
    sequence: sequenceInput(input) ?? numberOf(master.data.sequence),
    conferenceData: conferenceAfter(ctx, input, master.data.conferenceData, 'insert'),
  });
}

// ---------------------------------------------------------------------------------------------
// Exceptions of a series (BEHAVIOUR.md §2.3).

function numberOf(value: Json | undefined): number {
  return typeof value === 'number' ? value : 0;
}

function clientFields(data: Raw): Raw {
  const out: Raw = {};
  for (const [key, value] of Object.entries(data)) if (CLIENT_FIELDS.has(key)) out[key] = value;
  return out;
}

/** The fields of an untouched instance: the series' fields at the occurrence's times, no recurrence. */
function instanceBase(master: EventRecord, series: Series, key: OccurrenceKey, calendarZone: string): Raw {
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

function writeException(
  ctx: WriteContext,
  master: EventRecord,
  series: Series,
  key: OccurrenceKey,
  id: string,
  body: Raw,
  server: { created: string; sequence: number; conferenceData: Json | undefined },
): EventRecord {
  const times = occurrenceTimes(series, key, ctx.calendar.timeZone);
  const validated = validateFields(body, ctx.calendar.timeZone, true);
  const data: JsonObject = {
    ...validated.fields,
    eventType: typeof master.data.eventType === 'string' ? master.data.eventType : 'default',
    created: server.created,
    sequence: server.sequence,
    creator: master.data.creator ?? creatorOf(ctx),
    organizer: master.data.organizer ?? organizerOf(ctx),
    recurringEventId: master.id,
    originalStartTime: originalStartTimeOf(series, key),
    originalStartKey: key,
  };
  withConference(data, server.conferenceData);
  const record = buildRecord(ctx, id, master.iCalUID, data, { recurringEventId: master.id, key, originalStartMs: times.start });
  if (record.status === 'cancelled') {
    // A cancelled instance occupies its original slot (it is what it removes).
    record.startMs = times.start;
    record.endMs = times.end;
  }
  return record;
}

// ---------------------------------------------------------------------------------------------
// update, patch, delete.

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

function mergePatch(base: Raw, patch: Raw, replaceWhole: ReadonlySet<string>): Raw {
  const out: Raw = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(out[key]) && !replaceWhole.has(key)) out[key] = mergePatch(out[key] as Raw, value, new Set());
    else out[key] = value;
  }
  return out;
}

const REPLACED_WHOLE = new Set(['start', 'end', 'originalStartTime']);

/** The body a write stores: update's body as is; patch's merged over the current fields. */
function effectiveBody(current: Raw, input: Raw, mode: WriteMode): Raw {
  return mode === 'update' ? clientFields(input) : mergePatch(clientFields(current), clientFields(input), REPLACED_WHOLE);
}

/**
 * Whether a write changes when the event happens: its instants, the zones it is kept in, or its
 * recurrence. Spelling alone is no change: `10:00:00Z` read back as `19:00:00+09:00` and sent
 * again keeps the sequence, so a client's older copy does not fall below it.
 */
function timingChanged(before: JsonObject, after: JsonObject, calendarZone: string): boolean {
  return timingOf(before, calendarZone) !== timingOf(after, calendarZone);
}

function timingOf(data: JsonObject, calendarZone: string): string {
  const times = eventTimes(data, calendarZone);
  const zoneOf = (value: Json | undefined): unknown => (isObject(value) ? (value.timeZone ?? null) : null);
  return JSON.stringify([times.kind, times.start, times.end, zoneOf(data.start), zoneOf(data.end), data.recurrence ?? null]);
}

/**
 * events.update / events.patch of a stored event or of an instance (which then becomes an
 * exception). Returns the record written; the caller runs it in a transaction.
 */
export function writeEvent(ctx: WriteContext, target: EventTarget, input: unknown, mode: WriteMode): EventRecord {
  if (!isObject(input)) throw new EventInputError('invalid', 'The event must be a JSON object.');
  if (target.kind === 'instance') {
    refuseInstanceRecurrence(input);
    const current = numberOf(target.master.data.sequence);
    const base = instanceBase(target.master, target.series, target.key, ctx.calendar.timeZone);
    const body = effectiveBody(base, input, mode);
    return writeException(ctx, target.master, target.series, target.key, target.id, body, {
      created: typeof target.master.data.created === 'string' ? target.master.data.created : createdStamp(ctx.now),
      sequence: Math.max(current, sequenceNotBelow(input, current) ?? 0),
      conferenceData: conferenceAfter(ctx, input, target.master.data.conferenceData, mode),
    });
  }
  const existing = target.record;
  const isException = existing.recurringEventId !== null;
  if (isException) refuseInstanceRecurrence(input);
  const requestedSequence = sequenceNotBelow(input, numberOf(existing.data.sequence));
  const body = effectiveBody(existing.data as Raw, input, mode);
  if (input.eventType !== undefined && input.eventType !== null && input.eventType !== existing.data.eventType) {
    throw invalid('eventType', 'The event type cannot be changed.');
  }
  const validated = validateFields(body, ctx.calendar.timeZone, isException);
  const bumped = numberOf(existing.data.sequence) + (timingChanged(existing.data, validated.fields, ctx.calendar.timeZone) ? 1 : 0);
  const server: JsonObject = {};
  for (const key of ['eventType', 'created', 'creator', 'organizer', 'recurringEventId', 'originalStartTime', 'originalStartKey']) {
    const value = existing.data[key];
    if (value !== undefined) server[key] = value;
  }
  const data: JsonObject = { ...validated.fields, ...server, sequence: Math.max(bumped, requestedSequence ?? 0) };
  withConference(data, conferenceAfter(ctx, input, existing.data.conferenceData, mode));
  const record: EventRecord = {
    ...existing,
    seq: ctx.store.nextSeq(),
    status: status(data),
    recurring: !isException && recurrenceLines(data).length > 0,
    updatedMs: ctx.now,
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
  const written = [cancelled(ctx, record)];
  if (record.recurring) {
    for (const exception of ctx.store.listExceptions(ctx.calendar.id, record.id)) {
      if (exception.status !== 'cancelled') written.push(cancelled(ctx, exception));
    }
  }
  return written;
}
