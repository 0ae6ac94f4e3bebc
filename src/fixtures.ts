// Fixture validation (docs/fixtures.md). Validation is strict and names the JSON path of the first
// problem; loading (src/fixtures/load.ts) happens only after the whole fixture validated, inside
// one store transaction, so an invalid fixture changes nothing. The events' members are checked
// against the Event schema by src/fixtures/event-members.ts; paths and rules are spelled by
// src/fixtures/paths.ts.
//
// Strict means: every object holds only the members its rule names (own keys are checked, so
// JSON.parse's own `__proto__` member is seen too; `constructor` and `Id` are unknown like any
// other typo), every container is the type the rule says (absent is empty, `null` is not), ids,
// e-mail addresses and URIs hold no control character, and events hold only the members the
// Event schema of the discovery document defines, at every depth; an event entry whose
// `organizer` names another calendar is an invitee's entry (FixtureInvitation), which may hold
// only the invitee's own part of that calendar's event (src/fixtures/invitee-entry.ts). Messages
// name the path and the rule, never a value (src/fixtures/checks.ts).

import { readFileSync } from 'node:fs';
import { sha256 } from './crypto.ts';
import { array, boolean, FixtureError, identifier, invalidFixture, nonEmptyString, object, onlyKeys, optionalArray,
  string, unique, zone } from './fixtures/checks.ts';
import { eventMemberFault } from './fixtures/event-members.ts';
import { otherOrganizer, parseInvitation } from './fixtures/invitee-entry.ts';
import type { FixtureInvitation } from './fixtures/invitee-entry.ts';
import { jsonErrorPosition } from './json-error-position.ts';
import type { JsonObject } from './store/store.ts';
import { assertEnum, assertInteger } from './validation.ts';
import type { JsonRecord } from './validation.ts';

export { FixtureError } from './fixtures/checks.ts';
export type { FixtureInvitation } from './fixtures/invitee-entry.ts';

export interface FixtureClient {
  id: string;
  /** SHA-256 of the secret, base64url, as the store keeps it (ClientRecord.secretHash). */
  secretHash: string;
  redirectUris: string[];
}

export interface FixtureCalendar {
  primary: boolean;
  id: string | undefined;
  timeZone: string | undefined;
  calendarFields: JsonObject;
  entryFields: JsonObject;
  hidden: boolean;
  /** Removed from its owner's calendar list (calendarList.delete), as the export writes it. */
  deleted: boolean;
  /** The calendar's `events` as written; its invitees' entries are also in `invitations`, and loaded from there. */
  events: unknown[];
  invitations: FixtureInvitation[];
}

export interface FixtureUser {
  id: string;
  name: string;
  email: string;
  timeZone: string;
  calendars: FixtureCalendar[];
}

/** A fixture that passed structural validation (events are validated when loaded, as events.insert would). */
export interface Fixture {
  clients: FixtureClient[];
  users: FixtureUser[];
}

export function readFixtureFile(path: string): Fixture {
  return parseFixtureText(readFixtureText(path), `fixture file ${path}`);
}

export function readFixtureText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new FixtureError('', `cannot read fixture file ${path}: ${(error as Error).message}`);
  }
}

/** Parses and validates fixture JSON text; `source` names it in a syntax error. */
export function parseFixtureText(text: string, source = 'the fixture'): Fixture {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON.parse's message: it can quote the text around the fault.
    const at = jsonErrorPosition(text);
    throw new FixtureError('', `${source} is not valid JSON${at ? ` (line ${at.line}, column ${at.column})` : ''}`);
  }
  return parseFixture(value);
}

const CALENDAR_FIELDS = ['summary', 'description', 'location'] as const;
const ENTRY_STRINGS = ['colorId', 'summaryOverride'] as const;
const CALENDAR_KEYS = [
  'id', 'primary', 'timeZone', 'hidden', 'deleted', 'events', 'backgroundColor', 'foregroundColor', 'selected', 'defaultReminders',
  'notificationSettings', ...CALENDAR_FIELDS, ...ENTRY_STRINGS,
];

export function parseFixture(value: unknown): Fixture {
  const root = object(value, '');
  onlyKeys(root, '', ['clients', 'users']);
  const clients = optionalArray(root.clients, 'clients').map((c, i) => parseClient(c, `clients[${i}]`));
  unique(clients.map((c) => c.id), (i) => `clients[${i}].id`, 'client id');
  const users = optionalArray(root.users, 'users').map((u, i) => parseUser(u, `users[${i}]`));
  unique(users.map((u) => u.id), (i) => `users[${i}].id`, 'user id');
  unique(users.map((u) => u.email.toLowerCase()), (i) => `users[${i}].email`, 'user email');
  const calendarIds = new Map<string, string>();
  users.forEach((user, u) => {
    // Every user has a primary calendar whose id is their e-mail, described or not.
    if (!user.calendars.some((c) => c.primary)) claimCalendarId(calendarIds, user.email, `users[${u}].email`);
    user.calendars.forEach((calendar, c) => {
      const id = calendar.primary ? user.email : (calendar.id as string);
      claimCalendarId(calendarIds, id, `users[${u}].calendars[${c}]${calendar.primary ? '' : '.id'}`);
    });
  });
  return { clients, users };
}

function claimCalendarId(claimed: Map<string, string>, id: string, path: string): void {
  const earlier = claimed.get(id);
  if (earlier !== undefined) throw new FixtureError(path, `this calendar id is already used at ${earlier}`);
  claimed.set(id, path);
}

function parseClient(value: unknown, path: string): FixtureClient {
  const client = object(value, path);
  onlyKeys(client, path, ['id', 'secret', 'secretSha256', 'redirectUris']);
  const id = identifier(client.id, `${path}.id`);
  const secretHash = clientSecretHash(client, path);
  const redirectUris = optionalArray(client.redirectUris, `${path}.redirectUris`).map((uri, i) =>
    redirectUri(uri, `${path}.redirectUris[${i}]`),
  );
  return { id, secretHash, redirectUris };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

// docs/journal.md#workspace-export: a client gives its secret, or (as the workspace export writes it, secrets being
// stored only as digests) `secretSha256`, the lowercase hex SHA-256 of the secret's UTF-8 bytes.
function clientSecretHash(client: JsonRecord, path: string): string {
  if (client.secret !== undefined && client.secretSha256 !== undefined) {
    throw new FixtureError(`${path}.secretSha256`, 'give either secret or secretSha256, not both');
  }
  if (client.secretSha256 === undefined) {
    if (client.secret === undefined) throw new FixtureError(`${path}.secret`, 'is required (or secretSha256)');
    return sha256(nonEmptyString(client.secret, `${path}.secret`));
  }
  const hex = string(client.secretSha256, `${path}.secretSha256`);
  if (!SHA256_HEX.test(hex)) throw new FixtureError(`${path}.secretSha256`, 'must be 64 lowercase hexadecimal characters (a SHA-256 digest)');
  return Buffer.from(hex, 'hex').toString('base64url');
}

// docs/fixtures.md's rule for registered redirect URIs: absolute http(s), no fragment, no userinfo.
function redirectUri(value: unknown, path: string): string {
  // Checked before parsing: the URL parser drops tabs and newlines silently.
  const text = identifier(value, path);
  // The consent's answer carries the URI in a Location header, which holds visible ASCII only;
  // normalising it here would break the exact match against what the app sends.
  if (!/^[\x21-\x7e]+$/.test(text)) throw new FixtureError(path, 'must be ASCII without spaces: percent-encode any other character (…/cb%E2%98%83, not …/cb☃)');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FixtureError(path, 'must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FixtureError(path, 'must be an absolute http: or https: URL');
  if (text.includes('#')) throw new FixtureError(path, 'must not have a fragment');
  if (url.username || url.password) throw new FixtureError(path, 'must not have userinfo');
  return text;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function parseUser(value: unknown, path: string): FixtureUser {
  const user = object(value, path);
  onlyKeys(user, path, ['id', 'name', 'email', 'timeZone', 'calendars']);
  const id = identifier(user.id, `${path}.id`);
  const name = nonEmptyString(user.name, `${path}.name`);
  // The e-mail is also the primary calendar's id.
  const email = identifier(user.email, `${path}.email`);
  if (!EMAIL.test(email)) throw new FixtureError(`${path}.email`, 'must be an e-mail address');
  const timeZone = user.timeZone === undefined ? 'UTC' : zone(user.timeZone, `${path}.timeZone`);
  const calendars = optionalArray(user.calendars, `${path}.calendars`).map((c, i) =>
    parseCalendar(c, `${path}.calendars[${i}]`, email),
  );
  const primaries = calendars.filter((c) => c.primary).length;
  if (primaries > 1) throw new FixtureError(`${path}.calendars`, 'at most one calendar may be primary');
  return { id, name, email, timeZone, calendars };
}

function parseCalendar(value: unknown, path: string, email: string): FixtureCalendar {
  const calendar = object(value, path);
  onlyKeys(calendar, path, CALENDAR_KEYS);
  const primary = calendar.primary === undefined ? false : boolean(calendar.primary, `${path}.primary`);
  let id: string | undefined;
  if (calendar.id !== undefined) id = identifier(calendar.id, `${path}.id`);
  if (primary && id !== undefined && id !== email) {
    throw new FixtureError(`${path}.id`, "the primary calendar's id must be the user's e-mail");
  }
  if (!primary && id === undefined) throw new FixtureError(`${path}.id`, 'is required for a calendar that is not primary');
  const timeZone = calendar.timeZone === undefined ? undefined : zone(calendar.timeZone, `${path}.timeZone`);
  const calendarFields: JsonObject = {};
  for (const key of CALENDAR_FIELDS) {
    if (calendar[key] !== undefined) calendarFields[key] = string(calendar[key], `${path}.${key}`);
  }
  const entryFields: JsonObject = {};
  for (const key of ENTRY_STRINGS) {
    if (calendar[key] !== undefined) entryFields[key] = string(calendar[key], `${path}.${key}`);
  }
  for (const key of ['backgroundColor', 'foregroundColor'] as const) {
    if (calendar[key] !== undefined) {
      const color = string(calendar[key], `${path}.${key}`);
      if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw new FixtureError(`${path}.${key}`, 'must be a colour like #0088aa');
      entryFields[key] = color.toLowerCase();
    }
  }
  if (calendar.selected !== undefined) entryFields.selected = boolean(calendar.selected, `${path}.selected`);
  if (calendar.defaultReminders !== undefined) {
    entryFields.defaultReminders = array(calendar.defaultReminders, `${path}.defaultReminders`).map((r, i) =>
      reminder(r, `${path}.defaultReminders[${i}]`),
    );
  }
  if (calendar.notificationSettings !== undefined) {
    entryFields.notificationSettings = notificationSettings(calendar.notificationSettings, `${path}.notificationSettings`);
  }
  const hidden = calendar.hidden === undefined ? false : boolean(calendar.hidden, `${path}.hidden`);
  const deleted = calendar.deleted === undefined ? false : boolean(calendar.deleted, `${path}.deleted`);
  // https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/delete: one's own primary calendar cannot leave one's list.
  if (primary && deleted) throw new FixtureError(`${path}.deleted`, 'the primary calendar cannot be removed from the calendar list');
  const events = optionalArray(calendar.events, `${path}.events`);
  const invitations: FixtureInvitation[] = [];
  events.forEach((event, e) => {
    const eventPath = `${path}.events[${e}]`;
    const fault = eventMemberFault(event, eventPath);
    if (fault !== undefined) throw new FixtureError(fault.path, fault.rule);
    const organizer = otherOrganizer(event as JsonRecord, primary ? email : (id as string));
    if (organizer === undefined) return;
    if (!primary) throw new FixtureError(`${eventPath}.organizer.email`, "names another calendar: an invitee's entry belongs on their primary calendar");
    const invitation = parseInvitation(event as JsonRecord, eventPath, e, organizer);
    const earlier = invitations.find((i) => i.id === invitation.id);
    if (earlier !== undefined) throw new FixtureError(`${eventPath}.id`, `duplicate invitee's entry for this event, also at ${earlier.path}`);
    invitations.push(invitation);
  });
  return { primary, id, timeZone, calendarFields, entryFields, hidden, deleted, events, invitations };
}

// EventReminder (https://developers.google.com/workspace/calendar/api/v3/reference/events): method email|popup, minutes 0..40320.
const REMINDER_METHODS = ['email', 'popup'];

function reminder(value: unknown, path: string): JsonObject {
  const r = object(value, path);
  onlyKeys(r, path, ['method', 'minutes']);
  const method = string(r.method, `${path}.method`);
  assertEnum(method, REMINDER_METHODS, `${path}.method`, invalidFixture);
  const minutes = r.minutes;
  assertInteger(minutes, { min: 0, max: 40320 }, `${path}.minutes`, invalidFixture);
  return { method, minutes };
}

// CalendarNotification (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList), as calendarList.update takes it: method email, one of five types.
const NOTIFICATION_TYPES = ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse', 'agenda'];

function notificationSettings(value: unknown, path: string): JsonObject {
  const settings = object(value, path);
  onlyKeys(settings, path, ['notifications']);
  const notifications = optionalArray(settings.notifications, `${path}.notifications`).map((item, i) => {
    const itemPath = `${path}.notifications[${i}]`;
    const notification = object(item, itemPath);
    onlyKeys(notification, itemPath, ['type', 'method']);
    const type = string(notification.type, `${itemPath}.type`);
    assertEnum(type, NOTIFICATION_TYPES, `${itemPath}.type`, invalidFixture);
    const method = string(notification.method, `${itemPath}.method`);
    assertEnum(method, ['email'], `${itemPath}.method`, invalidFixture);
    return { type, method };
  });
  return { notifications };
}
