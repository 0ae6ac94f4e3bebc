// What a copy of an organizer's event holds (docs/invitations.md; who holds copies, and when they are
// written, is invitee-copies.ts).
//
// What a copy holds: the organizer's record with `organizer` and `creator` stripped of `self`
// (the calendar holding the copy is not theirs; its guest list is cut to the invitee's and the
// organizer's entries when the guests may not see each other), and the copy's own PRIVATE
// properties (reminders, colorId, transparency, extendedProperties.private), which the invitee
// sets and no organizer write touches. A new copy starts with the organizer's transparency
// (Google shows a new invitation busy or free as its organizer set it) and no reminders, colour
// or private properties of its own.

import type { EventStatus, JsonObject } from '../store/store.ts';
import { isJsonObject } from '../validation/validation.ts';
import { withoutHistory } from './series-history.ts';

/** The properties of an event that belong to each calendar holding it, not to the event. */
export const PRIVATE_FIELDS = ['reminders', 'colorId', 'transparency'] as const;

/** The private properties of `data` (PRIVATE_FIELDS and extendedProperties.private). */
export function privateOf(data: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of PRIVATE_FIELDS) if (data[key] !== undefined) out[key] = data[key];
  const extended = data.extendedProperties;
  if (isJsonObject(extended) && extended.private !== undefined) out.extendedPrivate = extended.private;
  return out;
}

/** `data` without its private properties: what every calendar holding the event shares. */
export function sharedOf(data: JsonObject): JsonObject {
  const out: JsonObject = { ...data };
  for (const key of PRIVATE_FIELDS) delete out[key];
  const extended = data.extendedProperties;
  if (isJsonObject(extended)) {
    const { private: _own, ...shared } = extended;
    if (Object.keys(shared).length > 0) out.extendedProperties = shared;
    else delete out.extendedProperties;
  }
  return out;
}

/** `shared` with the private properties `own` (as privateOf returns them). */
function withPrivate(shared: JsonObject, own: JsonObject): JsonObject {
  const out: JsonObject = { ...shared };
  for (const key of PRIVATE_FIELDS) if (own[key] !== undefined) out[key] = own[key];
  if (own.extendedPrivate !== undefined) {
    const extended = isJsonObject(shared.extendedProperties) ? shared.extendedProperties : {};
    out.extendedProperties = { ...extended, private: own.extendedPrivate };
  }
  return out;
}

function withoutSelf(value: JsonObject[keyof JsonObject] | undefined): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  const { self: _self, ...rest } = value;
  return rest;
}

/**
 * What every copy of `organizer` (a record's data) shares, deeply frozen and made once per
 * version of the organizer's data: the memory store keeps frozen parts without copying them
 * (memory-records.ts), so twenty copies hold one attendee list, not twenty.
 */
const templates = new WeakMap<JsonObject, JsonObject>();

function copyTemplate(organizer: JsonObject): JsonObject {
  let template = templates.get(organizer);
  if (template === undefined) {
    const shared = sharedOf(withoutHistory(organizer));
    const organizerField = withoutSelf(organizer.organizer);
    const creatorField = withoutSelf(organizer.creator);
    if (organizerField !== undefined) shared.organizer = organizerField;
    if (creatorField !== undefined) shared.creator = creatorField;
    template = deepFreeze(JSON.parse(JSON.stringify(shared)) as JsonObject);
    templates.set(organizer, template);
  }
  return template;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The data of the copy of `organizer` (a record's data) holding the private properties `own`,
 * and listing `attendees` instead of the organizer's list when given (a copy whose invitee may
 * not see the other guests).
 */
export function copyData(organizer: JsonObject, own: JsonObject, attendees?: JsonObject[]): JsonObject {
  const template = copyTemplate(organizer);
  return withPrivate(attendees === undefined ? template : { ...template, attendees: deepFreeze(JSON.parse(JSON.stringify(attendees)) as JsonObject[]) }, own);
}

/** The status an event's data says. */
export function statusOf(data: JsonObject): EventStatus {
  return data.status === 'cancelled' || data.status === 'tentative' ? data.status : 'confirmed';
}

/** The private properties a new copy starts with: the organizer's transparency (Google shows a new invitation busy or free as its organizer set it). */
export function initialPrivate(organizer: JsonObject): JsonObject {
  return organizer.transparency === undefined ? {} : { transparency: organizer.transparency };
}

/** Whether two versions of data are the same, member order included (both are built the same way). */
export function sameData(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
