// The record events.insert creates, and the records a fixture's events become (docs/fixtures.md).
//
// events.insert ignores `recurringEventId` and `originalStartTime` (the discovery document's Event: set by the
// server on instances), so a copy of an instance inserted back is a new single event and the
// occurrence it was copied from is untouched. Fixtures describe exceptions with those two
// fields, as events.import would (createEventRecord). An id held by a deleted event still
// collides (409 duplicate): get keeps returning the tombstone, so the id is not free (a choice
// documented in the README's API notes).

import { formatInstanceId, isOccurrence } from '../domain/recurrence/expand.ts';
import type { OccurrenceKey } from '../domain/recurrence/expand.ts';
import { DateTimeError } from '../domain/time/datetime.ts';
import { BASE32HEX, TIME_PREFIX_LENGTH, timePrefix } from '../domain/time-ordered.ts';
import { randomBytes } from '../crypto/crypto.ts';
import type { EventRecord, JsonObject, Store } from '../store/store.ts';
import type { JsonRecord } from '../validation/validation.ts';
import { assertString, isJsonObject } from '../validation/validation.ts';
import { occurrenceKeyOf, seriesOf } from './event-series.ts';
import { clientFields, eventBody, eventType, iCalUIDInput, sequenceInput, validateFields } from './event-input.ts';
import { applyTypeRules } from './event-types.ts';
import { buildRecord, conferenceAfter, createdStamp, creatorOf, numberOf, organizerOf, withConference } from './event-record.ts';
import type { WriteContext } from './event-record.ts';
import { EVENT_WORDING, EventInputError, invalid, invalidValue } from './input-error.ts';
import { exceptionRecord, instanceBase, writeException } from './series-exceptions.ts';

// Event.id (the discovery document): base32hex (RFC 2938 §3.1.2), lower case, 5 to 1024 characters.
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
  if (store.getEvent(calendarId, id)) throw new EventInputError('duplicate', EVENT_WORDING.duplicateId, 'id');
}

/** A client-chosen id, or `allowed` (an instance id, which has an underscore). */
function idInput(value: unknown, allowed?: string): string {
  if (typeof value !== 'string' || (value !== allowed && !EVENT_ID.test(value))) throw invalid('id', EVENT_WORDING.invalidId);
  return value;
}

/**
 * events.insert: validates an Event resource and returns the record to put, a single event or a
 * series. `recurringEventId` and `originalStartTime` are read-only here and ignored.
 */
export function insertEventRecord(input: unknown, ctx: WriteContext): EventRecord {
  const body = eventBody(input);
  let id: string;
  if (body.id !== undefined && body.id !== null) {
    id = idInput(body.id);
    checkNewId(ctx.store, ctx.calendar.id, id);
  } else {
    // Unique without asking the store (a lookup that cost a SQLite insert 3 %): two ids
    // made in the same millisecond are alike once in 2^80.
    id = generateEventId(ctx.now);
  }
  const iCalUID = iCalUIDInput(body) ?? `${id}@google.com`;
  const validated = validateFields(body, ctx.calendar.timeZone, false);
  const type = eventType(body);
  applyTypeRules(type, validated.fields, ctx.calendar.primary);
  const data: JsonObject = {
    ...validated.fields,
    eventType: type,
    created: createdStamp(ctx.now),
    sequence: sequenceInput(body) ?? 0,
    creator: creatorOf(ctx),
    organizer: organizerOf(ctx),
  };
  return buildRecord(ctx, id, iCalUID, withConference(data, conferenceAfter(ctx, body, undefined, 'insert')), undefined);
}

/**
 * A fixture's event (docs/fixtures.md), validated as events.insert validates it, except that, as
 * events.import accepts, a body with `recurringEventId` + `originalStartTime` describes an
 * exception of a series in the same calendar: a modified or, with `status: "cancelled"`,
 * cancelled instance whose id defaults to the instance id. Its `conferenceData` is kept as
 * written (`conferenceDataVersion=1`), so a workspace can seed Meet links.
 */
export function createEventRecord(input: unknown, ctx: WriteContext): EventRecord {
  const importing: WriteContext = { ...ctx, conferenceDataVersion: 1 };
  if (isJsonObject(input) && input.recurringEventId !== undefined && input.recurringEventId !== null) return createImportedException(input, importing);
  return insertEventRecord(input, importing);
}

function createImportedException(input: JsonRecord, ctx: WriteContext): EventRecord {
  const masterId = input.recurringEventId;
  assertString(masterId, 'recurringEventId', invalidValue);
  const master = ctx.store.getEvent(ctx.calendar.id, masterId);
  const series = master && seriesOf(master.data, ctx.calendar.timeZone);
  const cancelled = input.status === 'cancelled';
  // A cancelled exception may outlive its occurrence (below), never its master.
  if (!master || (!series && !cancelled)) throw invalid('recurringEventId', 'The recurringEventId does not name a recurring event of this calendar.');
  const original = input.originalStartTime;
  if (!isJsonObject(original)) throw new EventInputError('required', 'Missing originalStartTime.', 'originalStartTime');
  const kind = original.date !== undefined && original.date !== null ? 'date' : 'dateTime';
  let key: OccurrenceKey;
  try {
    key = occurrenceKeyOf(original as JsonObject, kind, 'originalStartTime');
  } catch (error) {
    if (error instanceof DateTimeError) throw invalid('originalStartTime', 'Invalid originalStartTime.');
    throw error;
  }
  const defaultId = formatInstanceId(master.id, kind, key);
  const id = input.id !== undefined && input.id !== null ? idInput(input.id, defaultId) : defaultId;
  checkNewId(ctx.store, ctx.calendar.id, id);
  const created = createdStamp(ctx.now);
  const sequence = sequenceInput(input) ?? numberOf(master.data.sequence);
  if (series !== undefined && series.kind === kind && isOccurrence(series, key)) {
    // The instance inherits the series' fields; the body overrides them.
    const base = instanceBase(master, series, key, ctx.calendar.timeZone);
    const body: JsonRecord = { ...base, ...clientFields(input) };
    return writeException(ctx, master, series, key, id, body, { created, sequence, conferenceData: conferenceAfter(ctx, input, master.data.conferenceData, 'insert') });
  }
  // A write that changes a series' timing cancels the exceptions the series no longer produces
  // and keeps them (src/calendar/events/series-revision.ts), so a workspace export (docs/journal.md#workspace-export) holds
  // them: a fixture may describe such an exception, cancelled, spanning its own start and end.
  if (!cancelled) throw invalid('originalStartTime', 'originalStartTime is not an instance of the recurring event.');
  const originalStartTime: JsonObject = kind === 'date' ? { date: original.date as string } : { dateTime: original.dateTime as string };
  if (kind === 'dateTime' && typeof original.timeZone === 'string') originalStartTime.timeZone = original.timeZone;
  return exceptionRecord(ctx, master, { key, originalStartTime, slot: undefined }, id, clientFields(input), {
    created,
    sequence,
    conferenceData: conferenceAfter(ctx, input, undefined, 'insert'),
  });
}
