// Query-parameter parsing for the calendar API: every parameter is read once into a typed value,
// and every refusal is `400 invalid` naming the parameter in both the message and `location`
// (validated at the edge, with uniform messages), e.g. `timeMin must be an RFC 3339 timestamp with offset`.
//
// A parameter that takes one value and is sent twice is refused rather than guessed at; the
// parameters that Google declares `repeated` (eventTypes, privateExtendedProperty, ...) are read
// with repeatedParam.

import { googleErrors } from '../api/google-error.ts';
import { DateTimeError, parseRfc3339 } from '../domain/time/datetime.ts';
import { isValidTimeZone } from '../domain/time/zones.ts';

/** The single value of `name`, or undefined when absent. */
export function stringParam(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw googleErrors.invalid(`${name} must be given at most once`, name);
  return values[0];
}

/** Every value of a repeated parameter (`eventTypes=default&eventTypes=focusTime`), in order. */
export function repeatedParam(query: URLSearchParams, name: string): string[] {
  return query.getAll(name);
}

/** `true` or `false` (the only spellings the discovery document's boolean type allows). */
export function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const text = stringParam(query, name);
  if (text === undefined) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw googleErrors.invalid(`${name} must be true or false`, name);
}

/** A decimal integer of at least `min` and, when given, at most `max`. */
export function integerParam(query: URLSearchParams, name: string, range: { min: number; max?: number }): number | undefined {
  const text = stringParam(query, name);
  if (text === undefined) return undefined;
  const value = /^-?\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < range.min || (range.max !== undefined && value > range.max)) {
    const rule = range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`;
    throw googleErrors.invalid(`${name} must be an integer ${rule}`, name);
  }
  return value;
}

/**
 * `maxResults`: at least 1; larger than the method's maximum is capped to it, since the
 * discovery document states the maxima as "the page size can never be larger than N" rather than
 * as a validation rule (https://developers.google.com/workspace/calendar/api/guides/sync).
 */
export function pageSizeParam(query: URLSearchParams, limits: { default: number; max: number }): number {
  const value = integerParam(query, 'maxResults', { min: 1 });
  return value === undefined ? limits.default : Math.min(value, limits.max);
}

/** One of a fixed set of values. */
export function enumParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const text = stringParam(query, name);
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) throw googleErrors.invalid(`${name} must be one of ${allowed.join(', ')}`, name);
  return text as T;
}

/** An RFC 3339 timestamp with a mandatory offset (timeMin, timeMax, updatedMin), as epoch ms. */
export function timestampParam(query: URLSearchParams, name: string): number | undefined {
  const text = stringParam(query, name);
  if (text === undefined) return undefined;
  try {
    return parseRfc3339(text, name);
  } catch (error) {
    if (error instanceof DateTimeError) throw googleErrors.invalid(`${name} must be an RFC 3339 timestamp with offset`, name);
    throw error;
  }
}

/** An IANA time zone name (the `timeZone` parameter). */
export function timeZoneParam(query: URLSearchParams, name: string): string | undefined {
  const text = stringParam(query, name);
  if (text === undefined) return undefined;
  if (!isValidTimeZone(text)) throw googleErrors.invalid(`${name} must be an IANA time zone name`, name);
  return text;
}
