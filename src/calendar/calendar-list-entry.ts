// The CalendarListEntry resource (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList): how a stored entry is
// rendered, and how a request body changes the entry's writable fields.
//
// Writable: summaryOverride, colorId, backgroundColor, foregroundColor, hidden, selected,
// defaultReminders, notificationSettings. Everything else a body carries (kind, etag, id,
// summary, timeZone, accessRole, primary, ...) is read-only and silently ignored, which lets a
// client send back an entry it read, changed in one place.
//
// Colours (https://developers.google.com/workspace/calendar/api/v3/reference/colors): `colorId` is a key of the 24-entry palette. The RGB fields can be
// changed only with colorRgbFormat=true, and then `colorId` becomes the nearest palette entry.
// Without the flag an RGB field must restate the current value (a read-modify-write), otherwise
// the request is refused with a message that names the flag.

import { invalidMember } from '../api/body-rules.ts';
import { googleErrors } from '../api/google-error.ts';
import type { CalendarListEntryRecord, CalendarRecord, Json, JsonObject, UserRecord } from '../store/store.ts';
import { conferencePropertiesOf } from '../event-model/meet-conference.ts';
import { calendarText, dataOwnerOf } from './calendars.ts';
import { CALENDAR_PALETTE, DEFAULT_FOREGROUND, RGB_COLOUR, defaultColorId, nearestColorId } from './colors.ts';
import { etagFor } from './etag.ts';
import { assertArray, assertBoolean, assertEnum, assertInteger, assertObject, assertString } from '../validation/validation.ts';

export const ACCESS_ROLES = ['freeBusyReader', 'reader', 'writer', 'owner'] as const;

// The four e-mail notifications of a live primary entry (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList).
const PRIMARY_NOTIFICATIONS: JsonObject = {
  notifications: ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse'].map((type) => ({ type, method: 'email' })),
};

const NOTIFICATION_TYPES = ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse', 'agenda'];
const REMINDER_METHODS = ['email', 'popup'];

interface Colours {
  colorId: string;
  backgroundColor: string;
  foregroundColor: string;
}

function paletteColours(colorId: string): Colours {
  return { colorId, backgroundColor: CALENDAR_PALETTE.get(colorId) as string, foregroundColor: DEFAULT_FOREGROUND };
}

/** The colours an entry shows: what was stored, completed from the palette and the calendar's default colour. */
function coloursOf(entry: CalendarListEntryRecord | undefined, calendarId: string): Colours {
  const data = entry?.data ?? {};
  const background = typeof data.backgroundColor === 'string' ? data.backgroundColor : undefined;
  const stored = typeof data.colorId === 'string' && CALENDAR_PALETTE.has(data.colorId) ? data.colorId : undefined;
  const colorId = stored ?? (background !== undefined ? nearestColorId(background) : defaultColorId(calendarId));
  return {
    colorId,
    backgroundColor: background ?? (CALENDAR_PALETTE.get(colorId) as string),
    foregroundColor: typeof data.foregroundColor === 'string' ? data.foregroundColor : DEFAULT_FOREGROUND,
  };
}

export function renderEntry(entry: CalendarListEntryRecord, calendar: CalendarRecord, owner: UserRecord): Record<string, Json> {
  const { data } = entry;
  const out: Record<string, Json> = {
    kind: 'calendar#calendarListEntry',
    etag: etagFor(entry.seq),
    id: calendar.id,
    summary: calendarText(calendar, 'summary') ?? '',
  };
  if (typeof data.summaryOverride === 'string') out.summaryOverride = data.summaryOverride;
  const description = calendarText(calendar, 'description');
  if (description !== undefined) out.description = description;
  const location = calendarText(calendar, 'location');
  if (location !== undefined) out.location = location;
  out.timeZone = calendar.timeZone;
  Object.assign(out, coloursOf(entry, calendar.id));
  // `hidden`, `primary` and `deleted` are omitted unless true (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList).
  if (entry.hidden) out.hidden = true;
  out.selected = typeof data.selected === 'boolean' ? data.selected : true;
  out.accessRole = 'owner';
  out.defaultReminders = Array.isArray(data.defaultReminders) ? data.defaultReminders : [];
  const notifications = data.notificationSettings ?? (calendar.primary ? PRIMARY_NOTIFICATIONS : undefined);
  if (notifications !== undefined) out.notificationSettings = notifications;
  if (calendar.primary) out.primary = true;
  if (entry.deleted) out.deleted = true;
  out.conferenceProperties = conferencePropertiesOf(calendar);
  const dataOwner = dataOwnerOf(calendar, owner);
  if (dataOwner !== undefined) out.dataOwner = dataOwner;
  return out;
}

export interface EntryWrite {
  /** patch keeps fields the body leaves out; replace (update, insert) resets them to their defaults. */
  mode: 'patch' | 'replace';
  /** The colorRgbFormat query parameter. */
  rgb: boolean;
}

/** A request body as a JSON object, or 400. */
export function bodyObject(value: unknown): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw googleErrors.invalid('The request body must be a JSON object.');
  }
  return value as JsonObject;
}

/**
 * The entry after applying `body` to `current` (the stored entry, possibly one removed from the
 * list), without its seq: the caller stamps that inside its transaction.
 */
export function applyEntryBody(
  current: CalendarListEntryRecord,
  calendar: CalendarRecord,
  body: JsonObject,
  write: EntryWrite,
): Pick<CalendarListEntryRecord, 'hidden' | 'data'> {
  const data: JsonObject = write.mode === 'patch' ? { ...current.data } : {};
  let hidden = write.mode === 'patch' ? current.hidden : false;

  if ('summaryOverride' in body) setOrClear(data, 'summaryOverride', body.summaryOverride, stringField);
  if ('selected' in body) setOrClear(data, 'selected', body.selected, booleanField);
  if ('defaultReminders' in body) setOrClear(data, 'defaultReminders', body.defaultReminders, reminders);
  if ('notificationSettings' in body) setOrClear(data, 'notificationSettings', body.notificationSettings, notificationSettings);
  if ('hidden' in body) hidden = body.hidden === null ? false : booleanField(body.hidden, 'hidden');
  if (hidden && calendar.primary) {
    // https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/delete: one's own primary calendar cannot leave (or hide from) one's list.
    throw googleErrors.forbidden('cannotChangeOwnPrimarySubscription', 'The primary calendar cannot be hidden from the calendar list.');
  }

  Object.assign(data, nextColours(coloursOf(current, calendar.id), calendar.id, body, write));
  return { hidden, data };
}

function nextColours(current: Colours, calendarId: string, body: JsonObject, write: EntryWrite): Colours {
  const defaults = paletteColours(defaultColorId(calendarId));
  let next = write.mode === 'patch' ? current : defaults;
  if ('colorId' in body) {
    if (body.colorId === null) {
      next = defaults;
    } else {
      const colorId = body.colorId;
      if (typeof colorId !== 'string' || !CALENDAR_PALETTE.has(colorId)) {
        throw googleErrors.invalid(`colorId must be a calendar colour id from 1 to ${CALENDAR_PALETTE.size}`);
      }
      // Restating the current colorId keeps the current colours, custom RGB included.
      next = colorId === current.colorId ? current : paletteColours(colorId);
    }
  }
  for (const field of ['backgroundColor', 'foregroundColor'] as const) {
    if (!(field in body)) continue;
    const value = body[field];
    if (value === null) {
      if (write.rgb) next = { ...next, [field]: field === 'backgroundColor' ? (CALENDAR_PALETTE.get(next.colorId) as string) : DEFAULT_FOREGROUND };
      continue;
    }
    if (typeof value !== 'string' || !RGB_COLOUR.test(value)) throw googleErrors.invalid(`${field} must be a colour like #0088aa`);
    const colour = value.toLowerCase();
    if (!write.rgb) {
      if (colour !== current[field]) throw googleErrors.invalid(`${field} can only be changed with colorRgbFormat=true`, 'colorRgbFormat');
      continue;
    }
    next = { ...next, [field]: colour };
    if (field === 'backgroundColor') next.colorId = nearestColorId(colour);
  }
  return next;
}

function setOrClear<T extends Json>(data: JsonObject, field: string, value: Json | undefined, parse: (value: Json | undefined, field: string) => T): void {
  if (value === null) delete data[field];
  else data[field] = parse(value, field);
}

function stringField(value: Json | undefined, field: string): string {
  assertString(value, field, invalidMember);
  return value;
}

function booleanField(value: Json | undefined, field: string): boolean {
  assertBoolean(value, field, invalidMember);
  return value;
}

// EventReminder (https://developers.google.com/workspace/calendar/api/v3/reference/events): method email|popup, minutes 0..40320 (four weeks).
function reminders(value: Json | undefined, field: string): Json[] {
  assertArray(value, field, invalidMember);
  return value.map((reminder, i) => {
    const path = `${field}[${i}]`;
    assertObject(reminder, path, invalidMember);
    assertEnum(reminder.method, REMINDER_METHODS, `${path}.method`, invalidMember);
    assertInteger(reminder.minutes, { min: 0, max: 40320 }, `${path}.minutes`, invalidMember);
    return { method: reminder.method, minutes: reminder.minutes };
  });
}

// CalendarNotification (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList): method email, type one of five.
function notificationSettings(value: Json | undefined, field: string): JsonObject {
  assertObject(value, field, invalidMember);
  const list = value.notifications ?? [];
  assertArray(list, `${field}.notifications`, invalidMember);
  const notifications = list.map((notification, i) => {
    const path = `${field}.notifications[${i}]`;
    assertObject(notification, path, invalidMember);
    assertEnum(notification.method, ['email'], `${path}.method`, invalidMember);
    assertEnum(notification.type, NOTIFICATION_TYPES, `${path}.type`, invalidMember);
    return { type: notification.type, method: 'email' };
  });
  return { notifications };
}
