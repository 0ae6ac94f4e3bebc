// Google's partial-response selector, the `fields` system parameter (https://developers.google.com/workspace/calendar/api/v3/reference):
//
//   fields    = selection *( "," selection )
//   selection = path [ "(" fields ")" ]          items(id,summary)  is  items/id,items/summary
//   path      = name *( "/" name )               a/b selects b inside a
//   name      = "*" / 1*( any char but , ( ) / * and white space )
//
// `*` selects every member at its level. Selections are a union: a member selected whole and also
// through a sub-path is returned whole. Arrays are transparent (a selection applies to each
// element). Before the handler runs, so that a refused selector has no side effects, the selector
// is checked twice: its syntax (`400 invalid`), then every name against the schema the method
// answers with (schema-fields.ts, from the discovery document). A name the schema does not have
// is `400 invalidParameter` "Invalid field selection <name>", as Google answers it, never an
// empty 200; a name the schema has but one response lacks (an optional field unset) selects
// nothing.

import { GoogleApiError, googleErrors } from '../api/google-error.ts';
import { stringParam } from './params.ts';
import { isSchemaName, memberNames, memberShape } from '../domain/schema-fields.ts';
import type { MemberShape, SchemaName } from '../domain/schema-fields.ts';
import type { CalendarOperation } from './scopes.ts';

/** 'all' keeps the whole value; otherwise the listed members (and, with a wildcard, every member). */
export type FieldSelector = 'all' | { readonly keys: ReadonlyMap<string, FieldSelector>; readonly wildcard?: FieldSelector };

/** The parsed `fields` parameter; undefined when absent or empty (the full response). */
export function fieldsParam(query: URLSearchParams): FieldSelector | undefined {
  const text = stringParam(query, 'fields');
  return text === undefined || text.trim() === '' ? undefined : parseFieldSelector(text);
}

/** The `fields` parameter of a call to `operation`, checked for syntax and against its response schema. */
export function checkFieldsParam(query: URLSearchParams, operation: CalendarOperation): void {
  const selector = fieldsParam(query);
  const schema = RESPONSE_SCHEMA[operation];
  if (selector !== undefined && schema !== undefined) checkFieldNames(selector, schema);
}

export function parseFieldSelector(text: string): FieldSelector {
  const parser = new Parser(text);
  const selector = parser.fields();
  parser.end();
  return selector;
}

class Parser {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  fields(): FieldSelector {
    let selector = this.#selection();
    while (this.#peek() === ',') {
      this.#at++;
      selector = merge(selector, this.#selection());
    }
    return selector;
  }

  end(): void {
    if (this.#peek() !== undefined) this.#fail();
  }

  #selection(): FieldSelector {
    const path = [this.#name()];
    while (this.#peek() === '/') {
      this.#at++;
      path.push(this.#name());
    }
    let inner: FieldSelector = 'all';
    if (this.#peek() === '(') {
      this.#at++;
      inner = this.fields();
      if (this.#peek() !== ')') this.#fail();
      this.#at++;
    }
    return path.reduceRight<FieldSelector>(
      (selected, name) => (name === '*' ? { keys: new Map(), wildcard: selected } : { keys: new Map([[name, selected]]) }),
      inner,
    );
  }

  #name(): string {
    this.#skipSpace();
    const name = /^[^,()/\s]+/.exec(this.#text.slice(this.#at))?.[0];
    // A wildcard is a whole name, never part of one (`a*`, `*a`).
    if (name === undefined || (name.includes('*') && name !== '*')) this.#fail();
    this.#at += name.length;
    return name;
  }

  #peek(): string | undefined {
    this.#skipSpace();
    return this.#text[this.#at];
  }

  #skipSpace(): void {
    while (this.#at < this.#text.length && /\s/.test(this.#text[this.#at] as string)) this.#at++;
  }

  #fail(): never {
    throw googleErrors.invalid(`Invalid field selection ${this.#text}`, 'fields');
  }
}

function merge(a: FieldSelector, b: FieldSelector): FieldSelector {
  if (a === 'all' || b === 'all') return 'all';
  const keys = new Map(a.keys);
  for (const [name, selected] of b.keys) {
    const existing = keys.get(name);
    keys.set(name, existing === undefined ? selected : merge(existing, selected));
  }
  const wildcard = a.wildcard === undefined ? b.wildcard : b.wildcard === undefined ? a.wildcard : merge(a.wildcard, b.wildcard);
  return wildcard === undefined ? { keys } : { keys, wildcard };
}

/** The parts of `value` the selector names, in the value's own member order. */
export function applyFieldSelector(value: unknown, selector: FieldSelector): unknown {
  if (selector === 'all') return value;
  if (Array.isArray(value)) return value.map((item) => applyFieldSelector(item, selector));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const named = selector.keys.get(name);
    const selected =
      named === undefined ? selector.wildcard : selector.wildcard === undefined ? named : merge(named, selector.wildcard);
    if (selected !== undefined) out[name] = applyFieldSelector(member, selected);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Names against the schema.

/** The schema each method answers with (the discovery document's `response.$ref`); none: no body. */
const RESPONSE_SCHEMA: Readonly<Record<CalendarOperation, SchemaName | undefined>> = {
  'calendar.calendarList.list': 'CalendarList',
  'calendar.calendarList.get': 'CalendarListEntry',
  'calendar.calendarList.insert': 'CalendarListEntry',
  'calendar.calendarList.patch': 'CalendarListEntry',
  'calendar.calendarList.update': 'CalendarListEntry',
  'calendar.calendarList.delete': undefined,
  'calendar.calendarList.watch': 'Channel',
  'calendar.calendars.get': 'Calendar',
  'calendar.events.list': 'Events',
  'calendar.events.get': 'Event',
  'calendar.events.instances': 'Events',
  'calendar.events.insert': 'Event',
  'calendar.events.update': 'Event',
  'calendar.events.patch': 'Event',
  'calendar.events.delete': undefined,
  'calendar.events.watch': 'Channel',
  'calendar.channels.stop': undefined,
  'calendar.freebusy.query': 'FreeBusyResponse',
};

/** What a selection applies to: the members of a schema, the values of a map under any key, or a plain value. */
type Selectable = 'value' | { readonly schema: SchemaName } | { readonly map: Selectable };

function selectableOf(shape: MemberShape): Selectable {
  const one: Selectable = isSchemaName(shape.of) ? { schema: shape.of } : 'value';
  // Arrays are transparent: a selection applies to each element.
  return shape.container === 'map' ? { map: one } : one;
}

function invalidSelection(name: string): GoogleApiError {
  return new GoogleApiError({ status: 400, reason: 'invalidParameter', message: `Invalid field selection ${name}`, location: 'fields', locationType: 'parameter' });
}

/**
 * Refuses a selector naming a member `schema` does not have, at any depth (`items(id,nope)`
 * names `nope`). Any key selects into a map (`extendedProperties/private/anyKey`). A selection
 * under `*` must fit at least one member of its level.
 */
export function checkFieldNames(selector: FieldSelector, schema: SchemaName): void {
  checkSelection(selector, { schema });
}

function checkSelection(selector: FieldSelector, target: Selectable): void {
  if (selector === 'all') return;
  // A plain value has no members: `summary/x` names x.
  if (target === 'value') throw invalidSelection(selector.keys.keys().next().value ?? '*');
  for (const [name, inner] of selector.keys) checkSelection(inner, memberOf(target, name));
  const wildcard = selector.wildcard;
  if (wildcard === undefined || wildcard === 'all') return;
  const members = 'map' in target ? [target.map] : memberNames(target.schema).map((name) => memberOf(target, name));
  const failures = members.map((member) => failureOf(wildcard, member));
  if (!failures.includes(undefined)) throw failures[0] ?? invalidSelection('*');
}

function memberOf(target: { readonly schema: SchemaName } | { readonly map: Selectable }, name: string): Selectable {
  if ('map' in target) return target.map;
  const shape = memberShape(target.schema, name);
  if (shape === undefined) throw invalidSelection(name);
  return selectableOf(shape);
}

function failureOf(selector: FieldSelector, target: Selectable): GoogleApiError | undefined {
  try {
    checkSelection(selector, target);
    return undefined;
  } catch (error) {
    if (error instanceof GoogleApiError) return error;
    throw error;
  }
}
