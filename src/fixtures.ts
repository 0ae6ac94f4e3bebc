// Fixture validation and loading (CONTRACT §2). Validation is strict and names the JSON path of
// the first problem; loading happens only after the whole fixture validated, inside one store
// transaction, so an invalid fixture changes nothing.
//
// Strict means: every object holds only the members its rule names (own keys are checked, so
// JSON.parse's own `__proto__` member is seen too; `constructor` and `Id` are unknown like any
// other typo), every container is the type the rule says (absent is empty, `null` is not), ids,
// e-mail addresses and URIs hold no control character, and events hold only the members the
// Event schema of the discovery document defines, at every depth. Messages name the path and the
// rule, never a value: the startup error line goes to logs, and a fixture may hold client secrets.

import { readFileSync } from 'node:fs';
import { ExpansionBudgetError } from './domain/recurrence/expand.ts';
import { isValidTimeZone } from './domain/time/zones.ts';
import { createEventRecord } from './events/event-insert.ts';
import { EventInputError } from './events/input-error.ts';
import { schemaMembers } from './calendar/schema-fields.ts';
import type { MemberShape, ScalarType, SchemaName } from './calendar/schema-fields.ts';
import { jsonErrorPosition } from './json-error-position.ts';
import { sha256 } from './oauth/hash.ts';
import { oneLine } from './one-line.ts';
import type { CalendarRecord, JsonObject, Store, UserRecord } from './store/store.ts';
import { assertArray, assertBoolean, assertEnum, assertInteger, assertObject, assertString, isJsonObject, ruleText } from './validation.ts';
import type { Fail, JsonRecord } from './validation.ts';

export class FixtureError extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(path ? `${path}: ${message}` : message);
    this.path = path;
  }
}

export interface FixtureClient {
  id: string;
  secret: string;
  redirectUris: string[];
}

export interface FixtureCalendar {
  primary: boolean;
  id: string | undefined;
  timeZone: string | undefined;
  calendarFields: JsonObject;
  entryFields: JsonObject;
  hidden: boolean;
  events: unknown[];
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

export interface LoadedCounts {
  clients: number;
  users: number;
  calendars: number;
  events: number;
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
const CALENDAR_KEYS = ['id', 'primary', 'timeZone', 'hidden', 'events', 'backgroundColor', 'foregroundColor', 'selected', 'defaultReminders', ...CALENDAR_FIELDS, ...ENTRY_STRINGS];

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
  onlyKeys(client, path, ['id', 'secret', 'redirectUris']);
  const id = identifier(client.id, `${path}.id`);
  const secret = nonEmptyString(client.secret, `${path}.secret`);
  const redirectUris = optionalArray(client.redirectUris, `${path}.redirectUris`).map((uri, i) =>
    redirectUri(uri, `${path}.redirectUris[${i}]`),
  );
  return { id, secret, redirectUris };
}

// The spec's rule for registered redirect URIs: absolute http(s), no fragment, no userinfo.
function redirectUri(value: unknown, path: string): string {
  // Checked before parsing: the URL parser drops tabs and newlines silently.
  const text = identifier(value, path);
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
  const hidden = calendar.hidden === undefined ? false : boolean(calendar.hidden, `${path}.hidden`);
  const events = optionalArray(calendar.events, `${path}.events`);
  events.forEach((event, e) => checkEvent(event, `${path}.events[${e}]`));
  return { primary, id, timeZone, calendarFields, entryFields, hidden, events };
}

// ---------------------------------------------------------------------------------------------
// Events against the discovery document's schemas (CONTRACT §2: stricter than events.insert,
// which ignores members it does not know, because a typo in a hand-written fixture must not
// vanish). Values are validated afterwards by events.insert's own validator, at load. The walk
// keeps its path as a stack of keys and spells it out only for an error: a fixture of 100,000
// events holds about a million members.

type Steps = Array<string | number>;

function stepsPath(base: string, steps: Steps): string {
  return steps.reduce<string>((path, step) => (typeof step === 'number' ? `${path}[${step}]` : memberPath(path, step)), base);
}

/** A fault found by the walk; checkEvent turns it into a FixtureError with the path. */
class MemberFault {
  readonly rule: string;
  constructor(rule: string) {
    this.rule = rule;
  }
}

function checkEvent(value: unknown, path: string): void {
  const steps: Steps = [];
  try {
    checkMembers(value, 'Event', steps);
  } catch (error) {
    if (error instanceof MemberFault) throw new FixtureError(stepsPath(path, steps), error.rule);
    throw error;
  }
}

function checkMembers(value: unknown, schema: SchemaName, steps: Steps): void {
  if (!isJsonObject(value)) throw new MemberFault(ruleText({ type: 'object' }));
  const members = value;
  const shapes = schemaMembers(schema);
  for (const key of Object.keys(members)) {
    steps.push(key);
    const shape = shapes.get(key);
    if (shape === undefined) throw new MemberFault(unknownKeyRule(key, [...shapes.keys()]));
    const member = members[key];
    // null means "no value" to the Calendar API; whether the member may be left out is for
    // events.insert's validator to say.
    if (member !== null) checkMember(member, shape, key, steps);
    steps.pop();
  }
}

function checkMember(member: unknown, shape: Readonly<MemberShape>, name: string, steps: Steps): void {
  if (shape.container === 'one') return checkValue(member, shape.of, name, steps);
  if (shape.container === 'array') {
    if (!Array.isArray(member)) throw new MemberFault(ruleText({ type: 'array' }));
    for (let i = 0; i < member.length; i++) {
      steps.push(i);
      checkValue(member[i], shape.of, name, steps);
      steps.pop();
    }
    return;
  }
  if (!isJsonObject(member)) throw new MemberFault(ruleText({ type: 'object' }));
  for (const [key, item] of Object.entries(member)) {
    steps.push(key);
    // A map's keys are data, but this one cannot be stored as a key of a JavaScript object.
    if (key === '__proto__') throw new MemberFault('is not allowed as a key');
    checkValue(item, shape.of, name, steps);
    steps.pop();
  }
}

const SCALAR_RULES = new Map<string, readonly [(value: unknown) => boolean, string]>([
  ['string', [(v) => typeof v === 'string', ruleText({ type: 'string' })]],
  ['boolean', [(v) => typeof v === 'boolean', ruleText({ type: 'boolean' })]],
  ['integer', [(v) => Number.isInteger(v), 'must be an integer']],
  ['number', [(v) => typeof v === 'number', 'must be a number']],
  ['any', [() => true, '']],
] satisfies Array<[ScalarType, readonly [(value: unknown) => boolean, string]]>);

// Members that identify something or point somewhere: `id`, `iCalUID`, `recurringEventId`,
// `email`, `source.url`, `htmlLink`, `conferenceSolution.iconUri`, ...
const IDENTIFIER_OR_URI = /^(?:id|iCalUID|email|uri|url|link)$|(?:Id|Uri|Url|Link)$/;

function checkValue(value: unknown, type: ScalarType | SchemaName, name: string, steps: Steps): void {
  const scalar = SCALAR_RULES.get(type);
  if (scalar === undefined) return checkMembers(value, type as SchemaName, steps);
  if (!scalar[0](value)) throw new MemberFault(scalar[1]);
  if (typeof value === 'string' && IDENTIFIER_OR_URI.test(name) && CONTROL_CHARACTER.test(value)) throw new MemberFault(CONTROL_CHARACTER_RULE);
}

// EventReminder (METHODS.md §3.4): method email|popup, minutes 0..40320.
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

/**
 * Writes a validated fixture into an empty workspace. Must run inside a store transaction: an
 * event that events.insert would refuse throws a FixtureError and the caller's transaction rolls
 * everything back.
 */
export function loadFixture(store: Store, fixture: Fixture, now: number): LoadedCounts {
  const counts: LoadedCounts = { clients: 0, users: 0, calendars: 0, events: 0 };
  for (const client of fixture.clients) {
    store.putClient({ id: client.id, secretHash: sha256(client.secret), redirectUris: client.redirectUris });
    counts.clients++;
  }
  fixture.users.forEach((fixtureUser, u) => {
    const user: UserRecord = {
      id: fixtureUser.id,
      name: fixtureUser.name,
      email: fixtureUser.email,
      timeZone: fixtureUser.timeZone,
      position: u,
    };
    store.putUser(user);
    counts.users++;
    const described = fixtureUser.calendars.some((c) => c.primary);
    const calendars = described
      ? fixtureUser.calendars
      : [{ primary: true, id: undefined, timeZone: undefined, calendarFields: {}, entryFields: {}, hidden: false, events: [] }, ...fixtureUser.calendars];
    calendars.forEach((fixtureCalendar, c) => {
      const index = described ? c : c - 1;
      const path = `users[${u}].calendars[${index}]`;
      const calendar: CalendarRecord = {
        id: fixtureCalendar.primary ? user.email : (fixtureCalendar.id as string),
        ownerId: user.id,
        primary: fixtureCalendar.primary,
        timeZone: fixtureCalendar.timeZone ?? user.timeZone,
        seq: store.nextSeq(),
        data: { summary: fixtureCalendar.primary ? user.email : '', ...fixtureCalendar.calendarFields },
      };
      if (fixtureCalendar.primary && fixtureCalendar.calendarFields.summary === undefined) calendar.data.summary = user.email;
      store.putCalendar(calendar);
      store.putCalendarListEntry({
        userId: user.id,
        calendarId: calendar.id,
        deleted: false,
        hidden: fixtureCalendar.hidden,
        seq: store.nextSeq(),
        data: fixtureCalendar.entryFields,
      });
      counts.calendars++;
      fixtureCalendar.events.forEach((event, e) => {
        const eventPath = `${path}.events[${e}]`;
        try {
          store.putEvent(createEventRecord(event, { store, calendar, owner: user, now }));
        } catch (error) {
          if (error instanceof EventInputError) {
            throw new FixtureError(error.field ? `${eventPath}.${error.field}` : eventPath, error.message);
          }
          if (error instanceof ExpansionBudgetError) throw new FixtureError(`${eventPath}.recurrence`, error.message);
          throw error;
        }
        counts.events++;
      });
    });
  });
  return counts;
}

/** The factory the validation primitives use here: the path and the rule, never the value. */
const invalidFixture: Fail = (path, rule) => new FixtureError(path, ruleText(rule));

function object(value: unknown, path: string): JsonRecord {
  assertObject(value, path, invalidFixture);
  return value;
}

function array(value: unknown, path: string): unknown[] {
  assertArray(value, path, invalidFixture);
  return value;
}

/** An absent list is empty; anything else, `null` included, must be an array. */
function optionalArray(value: unknown, path: string): unknown[] {
  return value === undefined ? [] : array(value, path);
}

function string(value: unknown, path: string): string {
  assertString(value, path, invalidFixture);
  return value;
}

function nonEmptyString(value: unknown, path: string): string {
  if (value === undefined) throw new FixtureError(path, 'is required');
  const text = string(value, path);
  if (text.trim() === '') throw new FixtureError(path, 'must not be empty');
  return text;
}

// C0 controls, DEL and C1 controls: invisible in logs and pages, and a line break among them
// would let an id forge a log line or a header.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

const CONTROL_CHARACTER_RULE = 'must not contain control characters (U+0000-U+001F, U+007F-U+009F)';

function noControlCharacters(text: string, path: string): void {
  if (CONTROL_CHARACTER.test(text)) throw new FixtureError(path, CONTROL_CHARACTER_RULE);
}

/** A required id, e-mail address or URI. */
function identifier(value: unknown, path: string): string {
  const text = nonEmptyString(value, path);
  noControlCharacters(text, path);
  return text;
}

function boolean(value: unknown, path: string): boolean {
  assertBoolean(value, path, invalidFixture);
  return value;
}

function zone(value: unknown, path: string): string {
  const name = string(value, path);
  if (!isValidTimeZone(name)) throw new FixtureError(path, 'is not an IANA time zone name');
  return name;
}

function onlyKeys(value: JsonRecord, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new FixtureError(memberPath(path, key), unknownKeyRule(key, allowed));
  }
}

function unknownKeyRule(key: string, allowed: readonly string[]): string {
  const meant = allowed.find((name) => name.toLowerCase() === key.toLowerCase());
  return meant === undefined ? 'unknown key' : `unknown key (names are case-sensitive: did you mean ${meant}?)`;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The path of `key` inside `path`: `users[0].email`, or `private["a b"]` for a key that is not a
 * plain name, quoted with every control and line-separator character escaped so that a path
 * always fits on one line.
 */
function memberPath(path: string, key: string): string {
  if (PLAIN_KEY.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${oneLine(JSON.stringify(key))}]`;
}

function unique(values: string[], pathOf: (index: number) => string, what: string): void {
  const seen = new Map<string, number>();
  values.forEach((value, i) => {
    const earlier = seen.get(value);
    if (earlier !== undefined) throw new FixtureError(pathOf(i), `duplicate ${what}, also at ${pathOf(earlier)}`);
    seen.set(value, i);
  });
}

