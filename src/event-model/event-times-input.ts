// When an Event body says it happens: `start` and `end` (EventDateTime, https://developers.google.com/workspace/calendar/api/v3/reference/events;
// https://developers.google.com/workspace/calendar/api/v3/reference/events) and `recurrence` (RFC 5545 lines, src/domain/recurrence/rrule.ts), checked
// and turned into their stored form and instants.
//
// Write rules refused with 400 (https://developers.google.com/workspace/calendar/api/v3/reference/events): an all-day event must end at least
// one day after it starts (`end.date` is exclusive); a timed event may last no time at all; a
// local dateTime needs a zone.

import { RecurrenceError, parseRecurrence } from '../domain/recurrence/rrule.ts';
import { DateTimeError, formatDate, hasOffset, parseDate, parseDateTimeWithZone, startOfDateInZone } from '../domain/time/datetime.ts';
import { isValidTimeZone } from '../domain/time/zones.ts';
import type { JsonObject } from '../store/store.ts';
import { assertArray, assertObject, assertString } from '../validation/validation.ts';
import { EVENT_WORDING, EventInputError, invalid, invalidValue, invalidWith } from './input-error.ts';

type Moment = 'start' | 'end';

export interface ParsedTimes {
  allDay: boolean;
  start: JsonObject;
  end: JsonObject;
  startMs: number;
  endMs: number;
}

function dateTimeValue(raw: unknown, name: Moment): { stored: JsonObject; allDay: boolean } {
  if (raw === undefined || raw === null) throw new EventInputError('required', EVENT_WORDING.missingTime(name), name);
  assertObject(raw, name, invalidWith(EVENT_WORDING.invalidTime(name)));
  const stored: JsonObject = {};
  if (raw.timeZone !== undefined && raw.timeZone !== null) {
    const zone = raw.timeZone;
    if (typeof zone !== 'string' || !isValidTimeZone(zone)) throw invalid(`${name}.timeZone`, EVENT_WORDING.invalidZone(name));
    stored.timeZone = zone;
  }
  const hasDate = raw.date !== undefined && raw.date !== null;
  const hasDateTime = raw.dateTime !== undefined && raw.dateTime !== null;
  if (hasDate === hasDateTime) {
    if (!hasDate) throw new EventInputError('required', EVENT_WORDING.missingTime(name), name);
    throw invalid(name, EVENT_WORDING.invalidTime(name));
  }
  if (hasDate) {
    const date = raw.date;
    try {
      stored.date = formatDate(parseDate(typeof date === 'string' ? date : '', `${name}.date`));
    } catch (error) {
      if (error instanceof DateTimeError) throw invalid(`${name}.date`, EVENT_WORDING.invalidTime(name));
      throw error;
    }
    return { stored, allDay: true };
  }
  const dateTime = raw.dateTime;
  assertString(dateTime, `${name}.dateTime`, invalidWith(EVENT_WORDING.invalidTime(name)));
  stored.dateTime = dateTime;
  return { stored, allDay: false };
}

/** `start` and `end` of a body, both dates or both dateTimes, the end not before the start. */
export function parseTimes(startRaw: unknown, endRaw: unknown, calendarZone: string): ParsedTimes {
  const start = dateTimeValue(startRaw, 'start');
  const end = dateTimeValue(endRaw, 'end');
  if (start.allDay !== end.allDay) throw invalid('end', EVENT_WORDING.mixedTimes);
  let startMs: number;
  let endMs: number;
  if (start.allDay) {
    // All-day dates are placed in the calendar's zone (https://developers.google.com/workspace/calendar/api/v3/reference/events).
    startMs = startOfDateInZone(parseDate(String(start.stored.date), 'start.date'), calendarZone);
    endMs = startOfDateInZone(parseDate(String(end.stored.date), 'end.date'), calendarZone);
  } else {
    startMs = instant(start.stored, 'start', undefined);
    endMs = instant(end.stored, 'end', typeof start.stored.timeZone === 'string' ? start.stored.timeZone : undefined);
  }
  // A timed event may last no time at all; an all-day one covers at least its start date.
  if (endMs < startMs || (start.allDay && endMs === startMs)) {
    throw new EventInputError('timeRangeEmpty', EVENT_WORDING.emptyRange, 'end');
  }
  return { allDay: start.allDay, start: start.stored, end: end.stored, startMs, endMs };
}

function instant(value: JsonObject, name: Moment, fallbackZone: string | undefined): number {
  const dateTime = String(value.dateTime);
  const zone = typeof value.timeZone === 'string' ? value.timeZone : fallbackZone;
  // A local time needs a zone to mean an instant (EventDateTime.dateTime).
  if (!hasOffset(dateTime) && zone === undefined) {
    if (/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(dateTime)) throw invalid(`${name}.timeZone`, EVENT_WORDING.missingZone(name));
    throw invalid(`${name}.dateTime`, EVENT_WORDING.invalidTime(name));
  }
  try {
    return parseDateTimeWithZone(dateTime, zone, `${name}.dateTime`);
  } catch (error) {
    if (error instanceof DateTimeError) throw invalid(`${name}.dateTime`, EVENT_WORDING.invalidTime(name));
    throw error;
  }
}

/** The recurrence lines of a body, parsed once to refuse what the service cannot expand. */
export function recurrence(value: unknown, allDay: boolean): string[] {
  assertArray(value, 'recurrence', invalidWith(EVENT_WORDING.recurrenceNotArray));
  const lines = value.map((line, i) => {
    assertString(line, `recurrence[${i}]`, invalidValue);
    return line;
  });
  try {
    parseRecurrence(lines, { allDay });
  } catch (error) {
    if (error instanceof RecurrenceError) throw invalid('recurrence', error.message);
    throw error;
  }
  return lines;
}
