// Times as Google's MCP tools take them: ISO 8601 with or without an offset (its examples write
// '2024-09-17T14:00:00'), or a bare date; a time without an offset is read in a time zone the
// call names or the calendar's. The Calendar API wants RFC 3339 with an offset, so each is turned
// into an instant here, once, with a message naming the argument when it does not parse.

import { DateTimeError, parseDate, parseDateTimeWithZone, startOfDateInZone } from '../domain/time/datetime.ts';
import { isValidTimeZone } from '../domain/time/zones.ts';
import { ToolError } from './arguments.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Epoch milliseconds of an ISO 8601 argument, read in `zone` when it carries no offset. */
export function instantArg(text: string, zone: string, name: string): number {
  try {
    if (DATE_ONLY.test(text)) return startOfDateInZone(parseDate(text, name), zone);
    return parseDateTimeWithZone(text, zone, name);
  } catch (error) {
    if (error instanceof DateTimeError) throw new ToolError(`${name} must be an ISO 8601 date-time, such as 2024-09-17T14:00:00 or 2024-09-17T14:00:00+02:00.`);
    throw error;
  }
}

/** The RFC 3339 form the Calendar API's query parameters take. */
export function rfc3339Arg(text: string | undefined, zone: string, name: string): string | undefined {
  return text === undefined ? undefined : new Date(instantArg(text, zone, name)).toISOString();
}

/** A `timeZone` argument, checked; undefined when not given. */
export function zoneArg(zone: string | undefined, name = 'timeZone'): string | undefined {
  if (zone !== undefined && !isValidTimeZone(zone)) throw new ToolError(`${name} must be an IANA time zone name, such as Europe/Zurich.`);
  return zone;
}
