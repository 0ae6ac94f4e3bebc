// The one vocabulary for checking JSON bodies: `asserts`-typed primitives that
// take the value, the JSON path of the value (`attendees[0].email`) and an error factory. The
// factory belongs to the surface that checks the body, so each surface keeps its own error type
// and wording: the calendar API's Google envelope, the fixture loader's invalid_fixture, the
// management API's OAuth-shaped errors. The primitives only decide whether a value breaks a rule
// and which rule; ruleText is the one table of how the service words a broken rule when a
// surface has no wording of its own ("users[0].email must be a string").
//
// Nothing here imports anything: every layer may use it.

/** A rule a JSON value can break. `stringMap` is an object whose every member is a string. */
export type Rule =
  | { readonly type: 'object' }
  | { readonly type: 'array' }
  | { readonly type: 'string' }
  | { readonly type: 'boolean' }
  | { readonly type: 'enum'; readonly allowed: readonly string[] }
  | { readonly type: 'integer'; readonly min: number; readonly max: number };

/** Makes the error a surface throws for `path` breaking `rule`. */
export type Fail = (path: string, rule: Rule) => Error;

export type JsonRecord = Record<string, unknown>;

const OBJECT: Rule = { type: 'object' };
const ARRAY: Rule = { type: 'array' };
const STRING: Rule = { type: 'string' };
const BOOLEAN: Rule = { type: 'boolean' };

/** A surface's own wording of some rules, where it has always said something else. */
export type OwnWording = { readonly [T in Rule['type']]?: string };

/**
 * How a broken rule reads after its path (`must be an integer from 0 to 40320`): the one table of
 * the service's wordings, with `own` taking precedence for the rules a surface words its own way.
 */
export function ruleText(rule: Rule, own: OwnWording = {}): string {
  const fixed = own[rule.type];
  if (fixed !== undefined) return fixed;
  switch (rule.type) {
    case 'object':
      return 'must be a JSON object';
    case 'array':
      return 'must be an array';
    case 'string':
      return 'must be a string';
    case 'boolean':
      return 'must be true or false';
    case 'enum':
      // A choice of one or two reads best quoted; a longer list as a list.
      return rule.allowed.length <= 2 ? `must be ${rule.allowed.map((v) => `"${v}"`).join(' or ')}` : `must be one of ${rule.allowed.join(', ')}`;
    case 'integer':
      return `must be an integer from ${rule.min} to ${rule.max}`;
  }
}

/** An object, not `null` and not an array. */
export function isJsonObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function assertObject(value: unknown, path: string, fail: Fail): asserts value is JsonRecord {
  if (!isJsonObject(value)) throw fail(path, OBJECT);
}

export function assertArray(value: unknown, path: string, fail: Fail): asserts value is unknown[] {
  if (!Array.isArray(value)) throw fail(path, ARRAY);
}

export function assertString(value: unknown, path: string, fail: Fail): asserts value is string {
  if (typeof value !== 'string') throw fail(path, STRING);
}

export function assertBoolean(value: unknown, path: string, fail: Fail): asserts value is boolean {
  if (typeof value !== 'boolean') throw fail(path, BOOLEAN);
}

/** One of `allowed`, compared exactly (the Calendar API's enums are case-sensitive). */
export function assertEnum<T extends string>(value: unknown, allowed: readonly T[], path: string, fail: Fail): asserts value is T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw fail(path, { type: 'enum', allowed });
}

/** An integer in [min, max]; `1.0` counts (JSON has one number type), `1.5` and `"1"` do not. */
export function assertInteger(value: unknown, range: { min: number; max: number }, path: string, fail: Fail): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw fail(path, { type: 'integer', min: range.min, max: range.max });
  }
}

/** An object whose every member is a string; a member that is not fails at its own path. */
export function assertStringMap(value: unknown, path: string, fail: Fail): asserts value is Record<string, string> {
  assertObject(value, path, fail);
  for (const [key, member] of Object.entries(value)) assertString(member, `${path}.${key}`, fail);
}
