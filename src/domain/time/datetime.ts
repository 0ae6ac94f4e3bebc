// Parsing and formatting of the date and time strings the Calendar API exchanges:
// RFC 3339 timestamps (`2026-10-19T10:00:00+09:00`), all-day dates (`2026-10-19`), local
// date-times paired with a `timeZone`, and RFC 5545 basic forms (`20261019T010000Z`) used by
// recurrence lines and instance ids.

import type { CivilDate, WallTime } from './zones.ts';
import {
  MS_PER_DAY,
  MS_PER_HOUR,
  MS_PER_MINUTE,
  daysFromCivil,
  daysInMonth,
  instantToWallMs,
  isValidTimeZone,
  msToWall,
  wallMsToInstant,
  wallToMs,
} from './zones.ts';

/** A date or time value the client sent is malformed; `field` names where it came from. */
export class DateTimeError extends Error {
  readonly field: string;
  constructor(field: string, reason: string) {
    super(`Invalid value for ${field}: ${reason}`);
    this.name = 'DateTimeError';
    this.field = field;
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function checkRange(field: string, text: string, part: string, value: number, min: number, max: number): void {
  if (value < min || value > max) {
    throw new DateTimeError(field, `${part} ${value} is out of range ${min}-${max} in "${text}"`);
  }
}

function checkDate(field: string, text: string, year: number, month: number, day: number): void {
  checkRange(field, text, 'year', year, 1, 9999);
  checkRange(field, text, 'month', month, 1, 12);
  checkRange(field, text, 'day', day, 1, daysInMonth(year, month));
}

function checkTime(field: string, text: string, hour: number, minute: number, second: number): void {
  checkRange(field, text, 'hour', hour, 0, 23);
  checkRange(field, text, 'minute', minute, 0, 59);
  // RFC 3339 §5.7 admits second 60 for leap seconds; epoch milliseconds cannot hold one.
  checkRange(field, text, 'second', second, 0, 59);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface ParsedDateTime {
  readonly wall: WallTime;
  /** Offset in ms when the text carries one; undefined for a local (floating) time. */
  readonly offset: number | undefined;
}

const ZERO = 0x30;

/** The number the `count` ASCII digits at `at` write, or -1 when one of them is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    // charCodeAt past the end is NaN, which fails this too.
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * RFC 3339 §5.6 date-time, `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm]`: `T` and `Z` may be lower
 * case (§5.6 NOTE), the fraction any length. Read by character rather than by a regular
 * expression, whose captures cost most of a microsecond per value; an insert reads two
 * (test/unit/datetime.test.ts holds it to the expression's answers).
 */
function parseDateTimeText(text: string, field: string): ParsedDateTime {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  let wellFormed =
    year >= 0 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0 &&
    text[4] === '-' && text[7] === '-' && (text[10] === 'T' || text[10] === 't') && text[13] === ':' && text[16] === ':';
  // Sub-millisecond digits are dropped (truncated, not rounded, so a time never moves later).
  let millisecond = 0;
  let end = 19;
  if (text[end] === '.') {
    const first = ++end;
    while (digitsAt(text, end, 1) >= 0) end++;
    if (end === first) wellFormed = false;
    else millisecond = Number(text.slice(first, Math.min(end, first + 3)).padEnd(3, '0'));
  }
  let offset: number | undefined;
  let offsetHour = -1;
  let offsetMinute = -1;
  const zone = text[end];
  if (end === text.length) offset = undefined;
  else if ((zone === 'Z' || zone === 'z') && end + 1 === text.length) offset = 0;
  else if ((zone === '+' || zone === '-') && end + 6 === text.length && text[end + 3] === ':') {
    offsetHour = digitsAt(text, end + 1, 2);
    offsetMinute = digitsAt(text, end + 4, 2);
    if (offsetHour < 0 || offsetMinute < 0) wellFormed = false;
    offset = (zone === '-' ? -1 : 1) * (offsetHour * MS_PER_HOUR + offsetMinute * MS_PER_MINUTE);
  } else wellFormed = false;
  if (!wellFormed) {
    throw new DateTimeError(field, `"${text}" is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm))`);
  }
  checkDate(field, text, year, month, day);
  checkTime(field, text, hour, minute, second);
  if (offsetHour >= 0) {
    checkRange(field, text, 'offset hour', offsetHour, 0, 23);
    checkRange(field, text, 'offset minute', offsetMinute, 0, 59);
  }
  return { wall: { year, month, day, hour, minute, second, millisecond }, offset };
}

/**
 * An RFC 3339 timestamp with a mandatory offset (`Z` or `±hh:mm`) to epoch milliseconds, as
 * timeMin/timeMax/updatedMin and offset-carrying `dateTime` values require.
 */
export function parseRfc3339(text: string, field: string): number {
  const p = parseDateTimeText(text, field);
  if (p.offset === undefined) {
    throw new DateTimeError(field, `"${text}" has no time zone offset; an RFC 3339 timestamp needs Z or ±hh:mm`);
  }
  return wallToMs(p.wall) - p.offset;
}

/** Whether an RFC 3339 text carries an offset (assumes it otherwise parses). */
export function hasOffset(text: string): boolean {
  return /(?:[Zz]|[+-]\d{2}:\d{2})$/.test(text);
}

/**
 * An EventDateTime's `dateTime` with its optional `timeZone` to an instant.
 * Per the Event schema an offset in `dateTime` fixes the instant and `timeZone` then only names
 * the zone the event is shown and expanded in; without an offset the local time is read in
 * `timeZone` (RFC 5545 §3.3.5 rules for gaps and overlaps), and `timeZone` is then required.
 */
export function parseDateTimeWithZone(
  dateTime: string,
  timeZone: string | undefined,
  field: string,
  timeZoneField = 'timeZone',
): number {
  if (timeZone !== undefined && !isValidTimeZone(timeZone)) {
    throw new DateTimeError(timeZoneField, `"${timeZone}" is not a known IANA time zone`);
  }
  const p = parseDateTimeText(dateTime, field);
  if (p.offset !== undefined) return wallToMs(p.wall) - p.offset;
  if (timeZone === undefined) {
    throw new DateTimeError(field, `"${dateTime}" has no time zone offset and no timeZone was given`);
  }
  return wallMsToInstant(wallToMs(p.wall), timeZone);
}

/**
 * The wall time (wall ms, zones.ts) an EventDateTime's `dateTime` names in `timeZone`: a
 * recurring event's DTSTART, since rules run on wall-clock time (RFC 5545 §3.3.10). A local
 * time is taken as written, so one inside a DST gap keeps its wall time (02:30) although its
 * instant lies after the gap (03:30 EDT); a time with an offset fixes the instant, and the
 * wall time a clock in `timeZone` shows then is meant.
 */
export function parseDateTimeWall(dateTime: string, timeZone: string, field: string): number {
  const instant = parseDateTimeWithZone(dateTime, timeZone, field);
  const p = parseDateTimeText(dateTime, field);
  return p.offset !== undefined ? instantToWallMs(instant, timeZone) : wallToMs(p.wall);
}

/** An all-day `YYYY-MM-DD` date. */
export function parseDate(text: string, field: string): CivilDate {
  const m = DATE.exec(text);
  if (m === null) throw new DateTimeError(field, `"${text}" is not a date (YYYY-MM-DD)`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  checkDate(field, text, year, month, day);
  return { year, month, day };
}

export function formatDate(d: CivilDate): string {
  return `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;
}

/** Days since 1970-01-01 of a civil date. */
function dateToDays(d: CivilDate): number {
  return daysFromCivil(d.year, d.month, d.day);
}

/** Whole days from `a` to `b` (b - a). */
export function daysBetween(a: CivilDate, b: CivilDate): number {
  return dateToDays(b) - dateToDays(a);
}

/** Midnight starting `date` in `zone` (an all-day date placed in a calendar's zone). */
export function startOfDateInZone(d: CivilDate, zone: string): number {
  return wallMsToInstant(dateToDays(d) * MS_PER_DAY, zone);
}

// ---------------------------------------------------------------------------------------------
// RFC 5545 §3.3.4 DATE and §3.3.5 DATE-TIME basic forms.

export type BasicValue =
  | { readonly kind: 'date'; readonly date: CivilDate }
  /** `utc`: ends in Z (§3.3.5 form #2); otherwise floating or qualified by a TZID (#1, #3). */
  | { readonly kind: 'dateTime'; readonly wall: WallTime; readonly utc: boolean };

const BASIC = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;

export function parseBasic(text: string, field: string): BasicValue {
  const m = BASIC.exec(text);
  if (m === null) {
    throw new DateTimeError(field, `"${text}" is not an RFC 5545 DATE (YYYYMMDD) or DATE-TIME (YYYYMMDDThhmmss[Z])`);
  }
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  checkDate(field, text, year, month, day);
  if (m[4] === undefined) return { kind: 'date', date: { year, month, day } };
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  checkTime(field, text, hour, minute, second);
  return { kind: 'dateTime', wall: { year, month, day, hour, minute, second, millisecond: 0 }, utc: m[7] === 'Z' };
}

/** `YYYYMMDD`. */
export function formatBasicDate(d: CivilDate): string {
  return `${pad(d.year, 4)}${pad(d.month, 2)}${pad(d.day, 2)}`;
}

/** `YYYYMMDDThhmmssZ` for an instant (milliseconds dropped). */
export function formatBasicUtc(instant: number): string {
  const w = msToWall(instant);
  return `${formatBasicDate(w)}T${pad(w.hour, 2)}${pad(w.minute, 2)}${pad(w.second, 2)}Z`;
}
