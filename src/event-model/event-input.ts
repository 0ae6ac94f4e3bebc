// Validation of the client-writable fields of an Event body (https://developers.google.com/workspace/calendar/api/v3/reference/events), and Google's
// wordings of the refusals in one table (https://developers.google.com/workspace/calendar/api/guides/errors). One validation path serves the
// calendar API and the fixture loader (docs/fixtures.md: fixture events are "validated exactly as
// events.insert validates them"), so it sits below both and knows neither: a refusal is an
// EventInputError with a reason and the offending path, which the calendar API renders in
// Google's envelope and the fixture loader as invalid_fixture.
//
// Unknown and read-only members of a body are ignored, as Google ignores them; the fixture
// loader is stricter on its own (src/fixtures/fixture.ts). start, end and recurrence are checked in
// event-times-input.ts.

import type { Json, JsonObject } from '../store/store.ts';
import { assertArray, assertBoolean, assertEnum, assertInteger, assertObject, assertString, assertStringMap, isJsonObject } from '../validation/validation.ts';
import type { JsonRecord } from '../validation/validation.ts';
import { parseTimes, recurrence } from './event-times-input.ts';
import { TYPE_PROPERTIES } from './event-types.ts';
import { EVENT_WORDING, EventInputError, invalid, invalidValue, invalidWith } from './input-error.ts';

function text(value: unknown, field: string): string {
  assertString(value, field, invalidValue);
  return value;
}

function flag(value: unknown, field: string): boolean {
  assertBoolean(value, field, invalidValue);
  return value;
}

function oneOf(allowed: readonly string[]): (value: unknown, field: string) => string {
  return (value, field) => {
    assertEnum(value, allowed, field, invalidValue);
    return value;
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const RESPONSE_STATUSES = ['needsAction', 'declined', 'tentative', 'accepted'] as const;

/**
 * The most attendees an event may list (docs/invitations.md "Cost"): Google documents a lower maximum
 * for most accounts; this one keeps every write that compares or copies a guest list, and the
 * mails it records, within one request's budget.
 */
const MAX_ATTENDEES = 2000;

// EventAttendee (https://developers.google.com/workspace/calendar/api/v3/reference/events): email required and an address; organizer/self are read-only.
function attendees(value: unknown): Json[] {
  assertArray(value, 'attendees', invalidValue);
  // Before any entry is looked at: a refused list costs nothing per guest.
  if (value.length > MAX_ATTENDEES) throw invalid('attendees', `An event may list at most ${MAX_ATTENDEES} attendees.`);
  return value.map((raw, i) => {
    const path = `attendees[${i}]`;
    assertObject(raw, path, invalidValue);
    if (raw.email === undefined) throw new EventInputError('required', EVENT_WORDING.missingAttendeeEmail, `${path}.email`);
    const email = text(raw.email, `${path}.email`);
    if (!EMAIL.test(email)) throw invalid(`${path}.email`, EVENT_WORDING.invalidAttendeeEmail);
    const out: JsonObject = { email };
    for (const key of ['displayName', 'comment', 'id'] as const) {
      if (raw[key] !== undefined) out[key] = text(raw[key], `${path}.${key}`);
    }
    for (const key of ['optional', 'resource'] as const) {
      if (raw[key] !== undefined && flag(raw[key], `${path}.${key}`)) out[key] = true;
    }
    if (raw.additionalGuests !== undefined) {
      const n = raw.additionalGuests;
      assertInteger(n, { min: 0, max: Number.POSITIVE_INFINITY }, `${path}.additionalGuests`, invalidValue);
      if (n > 0) out.additionalGuests = n;
    }
    out.responseStatus = raw.responseStatus === undefined ? 'needsAction' : oneOf(RESPONSE_STATUSES)(raw.responseStatus, `${path}.responseStatus`);
    return out;
  });
}

// Event.reminders (https://developers.google.com/workspace/calendar/api/v3/reference/events): at most 5 overrides, method email|popup, minutes 0..40320.
// Minutes outside 0..40320 are refused (400 invalid): a choice, since Google publishes the range
// but not its answer to a value outside it.
function reminders(value: unknown): JsonObject {
  assertObject(value, 'reminders', invalidValue);
  const useDefault = value.useDefault === undefined ? false : flag(value.useDefault, 'reminders.useDefault');
  const out: JsonObject = { useDefault };
  const overrides = value.overrides;
  if (overrides !== undefined && overrides !== null) {
    assertArray(overrides, 'reminders.overrides', invalidValue);
    if (useDefault && overrides.length > 0) {
      throw new EventInputError('cannotUseDefaultRemindersAndSpecifyOverride', EVENT_WORDING.remindersBoth, 'reminders.overrides');
    }
    if (overrides.length > 5) throw new EventInputError('eventRemindersCountExceedsLimit', EVENT_WORDING.tooManyOverrides, 'reminders.overrides');
    // An empty list is not kept: Google reads it back without `overrides` (omitted empty arrays).
    if (overrides.length === 0) return out;
    out.overrides = overrides.map((raw, i) => {
      const path = `reminders.overrides[${i}]`;
      assertObject(raw, path, invalidValue);
      if (raw.method === undefined) throw new EventInputError('required', EVENT_WORDING.missingReminderMethod, `${path}.method`);
      if (raw.minutes === undefined) throw new EventInputError('required', EVENT_WORDING.missingReminderMinutes, `${path}.minutes`);
      const method = oneOf(['email', 'popup'])(raw.method, `${path}.method`);
      const minutes = raw.minutes;
      assertInteger(minutes, { min: 0, max: 40320 }, `${path}.minutes`, invalidWith(EVENT_WORDING.reminderMinutes));
      return { method, minutes };
    });
  }
  return out;
}

function extendedProperties(value: unknown): JsonObject {
  assertObject(value, 'extendedProperties', invalidValue);
  const out: JsonObject = {};
  for (const key of ['private', 'shared'] as const) {
    const map = value[key];
    if (map === undefined || map === null) continue;
    assertStringMap(map, `extendedProperties.${key}`, invalidValue);
    // Copied member by member: an own `__proto__` member (JSON.parse makes one) sets nothing.
    const copy: JsonObject = {};
    for (const [name, value] of Object.entries(map)) copy[name] = value;
    out[key] = copy;
  }
  return out;
}

function source(value: unknown): JsonObject {
  assertObject(value, 'source', invalidValue);
  const out: JsonObject = {};
  if (value.title !== undefined) out.title = text(value.title, 'source.title');
  if (value.url !== undefined) out.url = text(value.url, 'source.url');
  return out;
}

// The Event palette has keys "1".."11" (https://developers.google.com/workspace/calendar/api/v3/reference/colors, the live palette).
const COLOR_IDS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'];
// `fromGmail` is the one type the API does not create (https://developers.google.com/workspace/calendar/api/v3/reference/events/insert).
const CREATABLE_EVENT_TYPES = ['default', 'birthday', 'focusTime', 'outOfOffice', 'workingLocation'];

/** Client-writable fields other than start, end and recurrence, with their validators. */
const SIMPLE_FIELDS: ReadonlyArray<readonly [string, (value: unknown, field: string) => Json]> = [
  ['summary', text],
  ['description', text],
  ['location', text],
  ['colorId', oneOf(COLOR_IDS)],
  ['status', oneOf(['confirmed', 'tentative', 'cancelled'])],
  ['transparency', oneOf(['opaque', 'transparent'])],
  ['visibility', oneOf(['default', 'public', 'private', 'confidential'])],
  ['attendees', attendees],
  ['reminders', reminders],
  ['extendedProperties', extendedProperties],
  ['source', source],
  ['anyoneCanAddSelf', flag],
  ['guestsCanInviteOthers', flag],
  ['guestsCanModify', flag],
  ['guestsCanSeeOtherGuests', flag],
  ['endTimeUnspecified', flag],
  ['privateCopy', flag],
  ...TYPE_PROPERTIES.map(([, name, validate]) => [name, validate] as const),
];

/** The names of every stored client field (what update replaces and patch merges). */
const CLIENT_FIELDS = new Set(['start', 'end', 'recurrence', ...SIMPLE_FIELDS.map(([name]) => name)]);

/** The members of `data` that are client fields. */
export function clientFields(data: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(data)) if (CLIENT_FIELDS.has(key)) out[key] = value;
  return out;
}

/** The body as a JSON object, or the refusal events.insert / update / patch give. */
export function eventBody(input: unknown): JsonRecord {
  if (!isJsonObject(input)) throw new EventInputError('invalid', EVENT_WORDING.notAnObject);
  return input;
}

/** `iCalUID` when the body sets one. */
export function iCalUIDInput(body: JsonRecord): string | undefined {
  return body.iCalUID === undefined || body.iCalUID === null ? undefined : text(body.iCalUID, 'iCalUID');
}

/** The client fields of a body as stored, with the instants of its start and end. */
export interface ValidatedEvent {
  fields: JsonObject;
  startMs: number;
  endMs: number;
}

/**
 * Validates the client-writable fields of an Event body. `instance`: the body describes one
 * instance of a series, which has no `recurrence` of its own.
 */
export function validateFields(body: JsonRecord, calendarZone: string, instance: boolean): ValidatedEvent {
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
      if (!times.allDay && times.start.timeZone === undefined) throw invalid('start.timeZone', EVENT_WORDING.missingZone('start'));
      fields.recurrence = lines;
    }
  }
  return { fields, startMs: times.startMs, endMs: times.endMs };
}

/** `eventType` on insert: one of the types a client may create, `default` when absent. */
export function eventType(body: JsonRecord): string {
  if (body.eventType === undefined || body.eventType === null) return 'default';
  return oneOf(CREATABLE_EVENT_TYPES)(body.eventType, 'eventType');
}

/** `eventType` on a write: it cannot change. */
export function refuseEventTypeChange(body: JsonRecord, current: Json | undefined): void {
  if (body.eventType !== undefined && body.eventType !== null && body.eventType !== current) {
    throw invalid('eventType', EVENT_WORDING.eventTypeChanged);
  }
}

export function sequenceInput(body: JsonRecord): number | undefined {
  const value = body.sequence;
  if (value === undefined || value === null) return undefined;
  assertInteger(value, { min: 0, max: Number.POSITIVE_INFINITY }, 'sequence', invalidValue);
  return value;
}

/** The client's `sequence` for a resource whose sequence is `current`: never lower (Google's message). */
export function sequenceNotBelow(body: JsonRecord, current: number): number | undefined {
  const value = sequenceInput(body);
  if (value !== undefined && value < current) throw invalid('sequence', EVENT_WORDING.sequenceBelow);
  return value;
}

/** An instance of a series takes its recurrence from the series: a non-empty `recurrence` is refused. */
export function refuseInstanceRecurrence(body: JsonRecord): void {
  const value = body.recurrence;
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return;
  throw invalid('recurrence', EVENT_WORDING.instanceRecurrence);
}
