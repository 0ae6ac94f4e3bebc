// Event types other than `default` (https://developers.google.com/workspace/calendar/api/v3/reference/events Event.eventType, §A.6-A.9): the properties
// object each carries, and Google's rules for where each may live and what it may hold.
//
// What Google documents:
// - focusTime, outOfOffice, workingLocation: "only available on primary calendars"; focus time
//   and out of office are opaque and timed, never all-day; a working location is public and
//   transparent, timed or an all-day event of one day
//   (https://developers.google.com/calendar/api/guides/calendar-status).
// - birthday: an all-day event of one day, private, transparent, recurring yearly
//   (`RRULE:FREQ=YEARLY`, or `RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1` for 29 February), with
//   `birthdayProperties.type: birthday` the only type the API creates; afterwards only its
//   summary, reminders and dates change (https://developers.google.com/calendar/api/guides/event-types).
//   A refused birthday write answers 400 `eventTypeRestriction` in the `calendar` domain, "Attempt
//   made to modify 'birthday' event in a way that is not valid for this event type." (captured in
//   https://github.com/kellylford/QuickMail/issues/294); its private extended properties are
//   refused as "'birthday' event type must not have private extended properties."
//   (https://github.com/phw198/OutlookGoogleCalendarSync/issues/2103).
//
// Choices where Google publishes no answer:
// - every breach of these rules is that same `eventTypeRestriction`, worded per rule;
// - birthday events, like the status events, live on primary calendars only;
// - a transparency or visibility the body leaves out is set to the type's own (a working location
//   is stored public and transparent), a contrary one is refused;
// - a properties object of another type than the event's is ignored, as unknown members are;
// - focus time and out of office without their properties object read back with an empty one;
// - a working location's sub-object for its `type` may be absent ("it may be absent when empty",
//   the discovery document); the sub-objects of the other types are dropped ("disregarded").

import type { Json, JsonObject } from '../store/store.ts';
import { assertEnum, assertObject, assertString, isJsonObject } from '../validation/validation.ts';
import { EventInputError, invalidValue } from './input-error.ts';

function optionalText(value: JsonObject, key: string, path: string, out: JsonObject): void {
  const member = value[key];
  if (member === undefined || member === null) return;
  assertString(member, `${path}.${key}`, invalidValue);
  out[key] = member;
}

function optionalEnum(value: JsonObject, key: string, allowed: readonly string[], path: string, out: JsonObject): void {
  const member = value[key];
  if (member === undefined || member === null) return;
  assertEnum(member, allowed, `${path}.${key}`, invalidValue);
  out[key] = member;
}

const AUTO_DECLINE_MODES = ['declineNone', 'declineAllConflictingInvitations', 'declineOnlyNewConflictingInvitations'];

function focusTimeProperties(value: unknown, path: string): JsonObject {
  assertObject(value, path, invalidValue);
  const object = value as JsonObject;
  const out: JsonObject = {};
  optionalEnum(object, 'autoDeclineMode', AUTO_DECLINE_MODES, path, out);
  optionalEnum(object, 'chatStatus', ['available', 'doNotDisturb'], path, out);
  optionalText(object, 'declineMessage', path, out);
  return out;
}

function outOfOfficeProperties(value: unknown, path: string): JsonObject {
  assertObject(value, path, invalidValue);
  const object = value as JsonObject;
  const out: JsonObject = {};
  optionalEnum(object, 'autoDeclineMode', AUTO_DECLINE_MODES, path, out);
  optionalText(object, 'declineMessage', path, out);
  return out;
}

const WORKING_LOCATION_TYPES = ['homeOffice', 'officeLocation', 'customLocation'];
const LOCATION_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  officeLocation: ['buildingId', 'deskId', 'floorId', 'floorSectionId', 'label'],
  customLocation: ['label'],
};

function workingLocationProperties(value: unknown, path: string): JsonObject {
  assertObject(value, path, invalidValue);
  const object = value as JsonObject;
  // EventWorkingLocationProperties.type: "Mandatory whenever working-location properties are supplied."
  if (object.type === undefined || object.type === null) throw new EventInputError('required', 'Missing working location type.', `${path}.type`);
  assertEnum(object.type, WORKING_LOCATION_TYPES, `${path}.type`, invalidValue);
  const type = object.type;
  const out: JsonObject = { type };
  const detail = object[type];
  if (detail === undefined || detail === null) return out;
  if (type === 'homeOffice') {
    // Typed `any` by the discovery document: kept as sent.
    out.homeOffice = detail;
    return out;
  }
  assertObject(detail, `${path}.${type}`, invalidValue);
  const sub: JsonObject = {};
  for (const key of LOCATION_MEMBERS[type] ?? []) optionalText(detail as JsonObject, key, `${path}.${type}`, sub);
  out[type] = sub;
  return out;
}

function birthdayProperties(value: unknown, path: string): JsonObject {
  assertObject(value, path, invalidValue);
  // `contact` and `customTypeName` are read-only; `type` is created as `birthday` only.
  const type = value.type ?? 'birthday';
  if (type !== 'birthday') throw restriction('birthday', `${path}.type`, "The API can only create birthday events of type 'birthday'.");
  return { type };
}

/** The properties member of each event type, with its validator (Event, https://developers.google.com/workspace/calendar/api/v3/reference/events). */
export const TYPE_PROPERTIES: ReadonlyArray<readonly [string, string, (value: unknown, field: string) => Json]> = [
  ['focusTime', 'focusTimeProperties', focusTimeProperties],
  ['outOfOffice', 'outOfOfficeProperties', outOfOfficeProperties],
  ['workingLocation', 'workingLocationProperties', workingLocationProperties],
  ['birthday', 'birthdayProperties', birthdayProperties],
];

/** The refusal of a write an event type does not allow (the published reason, a wording per rule). */
function restriction(type: string, field: string, message = modifyMessage(type)): EventInputError {
  return new EventInputError('eventTypeRestriction', message, field);
}

function modifyMessage(type: string): string {
  return `Attempt made to modify '${type}' event in a way that is not valid for this event type.`;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  focusTime: 'Focus time',
  outOfOffice: 'Out of office',
  workingLocation: 'Working location',
  birthday: 'Birthday',
};

function object(value: Json | undefined): JsonObject | undefined {
  return isJsonObject(value) ? (value as JsonObject) : undefined;
}

/** Whether the event is all-day; when it is, whether it spans exactly one day. */
function allDaySpan(fields: JsonObject): { allDay: boolean; oneDay: boolean } {
  const start = object(fields.start)?.date;
  const end = object(fields.end)?.date;
  if (typeof start !== 'string' || typeof end !== 'string') return { allDay: false, oneDay: false };
  return { allDay: true, oneDay: Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`) === 86_400_000 };
}

/** `fields[key]` set to `wanted` when absent; refused when it holds another value. */
function settle(type: string, fields: JsonObject, key: 'transparency' | 'visibility', wanted: string): void {
  if (fields[key] === undefined) fields[key] = wanted;
  else if (fields[key] !== wanted) throw restriction(type, key, `${TYPE_NAMES[type]} events must have ${key} '${wanted}'.`);
}

// What a birthday event may hold besides its times (the event-types guide's insert list).
const BIRTHDAY_FIELDS = new Set(['summary', 'start', 'end', 'recurrence', 'reminders', 'transparency', 'visibility', 'birthdayProperties', 'status']);
// What a write may change on a stored birthday event (`status`: deleting it is a write too).
const BIRTHDAY_CHANGEABLE = new Set(['summary', 'reminders', 'start', 'end', 'status']);

/** What a write is: `previous`, the stored fields it replaces; `instance`, one instance of a series (no recurrence of its own). */
export interface TypeRuleContext {
  readonly previous?: JsonObject;
  readonly instance?: boolean;
}

/**
 * Applies the rules of `type` to an event's validated client fields, in place: drops the
 * properties of other types, sets the type's own transparency and visibility, and refuses what
 * the type does not allow. Birthday events change only in their summary, reminders and dates.
 */
export function applyTypeRules(type: string, fields: JsonObject, primary: boolean, write: TypeRuleContext = {}): void {
  const previous = write.previous;
  for (const [owner, key] of TYPE_PROPERTIES) if (owner !== type) delete fields[key];
  if (type === 'default') return;
  if (!primary) throw restriction(type, 'eventType', `${TYPE_NAMES[type]} events can only be created on primary calendars.`);
  const span = allDaySpan(fields);
  if (type === 'focusTime' || type === 'outOfOffice') {
    if (span.allDay) throw restriction(type, 'start', `${TYPE_NAMES[type]} events cannot be all-day.`);
    settle(type, fields, 'transparency', 'opaque');
    const key = type === 'focusTime' ? 'focusTimeProperties' : 'outOfOfficeProperties';
    fields[key] ??= {};
    return;
  }
  if (type === 'workingLocation') {
    if (span.allDay && !span.oneDay) throw restriction(type, 'end', 'All-day working location events must span exactly one day.');
    if (fields.workingLocationProperties === undefined) throw new EventInputError('required', 'Missing workingLocationProperties.', 'workingLocationProperties');
    settle(type, fields, 'transparency', 'transparent');
    settle(type, fields, 'visibility', 'public');
    return;
  }
  // birthday
  const privateProperties = object(object(fields.extendedProperties)?.private);
  if (privateProperties !== undefined && Object.keys(privateProperties).length > 0) {
    throw restriction(type, 'extendedProperties.private', "'birthday' event type must not have private extended properties.");
  }
  if (previous !== undefined) {
    for (const key of new Set([...Object.keys(previous), ...Object.keys(fields)])) {
      if (BIRTHDAY_CHANGEABLE.has(key) || key === 'transparency' || key === 'visibility' || key === 'birthdayProperties' || key === 'recurrence') continue;
      if (JSON.stringify(previous[key] ?? null) !== JSON.stringify(fields[key] ?? null)) throw restriction(type, key);
    }
  } else {
    for (const key of Object.keys(fields)) if (!BIRTHDAY_FIELDS.has(key)) throw restriction(type, key);
  }
  if (!span.oneDay) throw restriction(type, 'start', 'Birthday events must be all-day events spanning exactly one day.');
  const start = object(fields.start)?.date as string;
  const yearly = start.endsWith('-02-29') ? 'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1' : 'RRULE:FREQ=YEARLY';
  const recurrence = fields.recurrence;
  if (write.instance !== true && (!Array.isArray(recurrence) || recurrence.length !== 1 || recurrence[0] !== yearly)) {
    throw restriction(type, 'recurrence', `Birthday events must recur yearly: recurrence must be ['${yearly}'].`);
  }
  settle(type, fields, 'transparency', 'transparent');
  settle(type, fields, 'visibility', 'private');
  const stored = object(previous?.birthdayProperties);
  if (stored !== undefined && fields.birthdayProperties !== undefined && JSON.stringify(stored) !== JSON.stringify(fields.birthdayProperties)) {
    throw restriction(type, 'birthdayProperties');
  }
  fields.birthdayProperties = stored ?? object(fields.birthdayProperties) ?? { type: 'birthday' };
}
