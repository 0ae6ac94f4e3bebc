// freebusy.query, POST /calendar/v3/freeBusy (docs/calendar-api.md, "FreeBusy request and response",
// https://developers.google.com/workspace/calendar/api/v3/reference/freebusy/query, docs/calendar-api.md).
//
// - Any workspace calendar is readable by id (busy times only); `primary` is the caller's own
//   primary calendar; an unknown id answers that entry with errors [{global, notFound}] and no
//   busy times, and the request still succeeds.
// - Busy = the opaque, non-cancelled events and series instances overlapping the range, with
//   cancelled instances removed; all-day events occupy their dates in their calendar's zone.
//   An event whose attendee entry for the calendar reads `declined` is not busy there
//   (docs/invitations.md: an invitee is busy for a copy unless they declined it or it is transparent).
//   Overlapping or touching intervals merge, and every interval is clipped to [timeMin, timeMax).
// - Output: top-level timeMin/timeMax in UTC with milliseconds (as Google echoes them); busy
//   times in the request's timeZone (default UTC: `Z` without milliseconds; other zones with
//   their offset).
// - Limits: calendarExpansionMax <= 50 (items beyond the cap get tooManyCalendarsRequested,
//   the reason https://developers.google.com/workspace/calendar/api/guides/errors lists); groupExpansionMax <= 100 (groups are not supported, so a
//   group id is an unknown calendar). The range may span at most MAX_RANGE_DAYS days (Google
//   refuses roughly three months and more with timeRangeTooLong; this service allows a year) and
//   one request expands at most MAX_INSTANCES events and instances, else 400 — the work a request
//   can cause stays bounded.

import { googleErrors, GoogleApiError } from '../api/google-error.ts';
import { jsonBody } from '../http/request.ts';
import { DateTimeError, parseRfc3339 } from '../domain/time/datetime.ts';
import { expansionBudget } from '../domain/recurrence/expand.ts';
import type { ExpansionBudget } from '../domain/recurrence/expand.ts';
import { MS_PER_DAY, formatIsoUtc, formatRfc3339InZone, isValidTimeZone } from '../domain/time/zones.ts';
import type { CalendarRecord, Json, JsonObject } from '../store/store.ts';
import type { CalendarHandler } from './context.ts';
import { PRIMARY_ALIAS, resolveOwnedCalendar } from './calendars.ts';
import { ExpansionLimitError, expandWindow } from '../event-model/occurrences.ts';
import { entryOf } from '../event-model/invitee-copies.ts';
import { respondText } from './respond.ts';
import { keptWindowValue } from './window-cache.ts';
import type { CalendarCall } from './context.ts';
import { invalidLocatedMember } from '../api/body-rules.ts';
import { assertArray, assertInteger, assertObject, assertString, isJsonObject } from '../validation/validation.ts';
import type { Fail, JsonRecord } from '../validation/validation.ts';

const MAX_RANGE_DAYS = 366;
const MAX_INSTANCES = 20_000;
const MAX_CALENDARS = 50;
const MAX_GROUP_EXPANSION = 100;

/** 400 invalid naming the member as its location, worded `message` whatever the rule broken. */
function invalidAs(message: string): Fail {
  return (path) => googleErrors.invalid(message, path);
}

function timestamp(body: JsonRecord, name: 'timeMin' | 'timeMax'): number {
  const value = body[name];
  if (value === undefined || value === null) throw googleErrors.required(`Missing ${name} parameter.`, name);
  assertString(value, name, invalidAs(`${name} must be an RFC 3339 timestamp with offset`));
  try {
    return parseRfc3339(value, name);
  } catch (error) {
    if (error instanceof DateTimeError) throw googleErrors.invalid(`${name} must be an RFC 3339 timestamp with offset`, name);
    throw error;
  }
}

function limit(body: JsonRecord, name: string, max: number): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  assertInteger(value, { min: 1, max }, name, invalidLocatedMember);
  return value;
}

function requestedIds(body: JsonRecord): string[] {
  const items = body.items ?? [];
  assertArray(items, 'items', invalidAs('items must be an array of {id}'));
  return items.map((item, i) => {
    if (!isJsonObject(item) || typeof item.id !== 'string' || item.id === '') {
      throw googleErrors.invalid(`items[${i}].id must be a calendar id`, `items[${i}].id`);
    }
    return item.id;
  });
}

function calendarError(reason: string, domain = 'global'): JsonObject {
  return { errors: [{ domain, reason }], busy: [] };
}

/** One calendar's answer (`{"busy":[…]}`) and what computing it counted against the request's budgets. */
interface BusyAnswer {
  readonly text: Buffer;
  /** Events and instances expanded (MAX_INSTANCES). */
  readonly expanded: number;
  /** Rule-expansion steps taken (MAX_EXPANSION_STEPS). */
  readonly steps: number;
}

/**
 * One calendar's busy intervals over [from, to), merged and clipped, in time order, written in
 * `zone`; kept in the window cache while no write may change them. A kept answer is used only
 * when the request's budgets still hold what computing it took, and is charged to them, so a
 * request fails exactly where computing every calendar anew would.
 */
function busyAnswer(
  call: CalendarCall,
  calendar: CalendarRecord,
  from: number,
  to: number,
  zone: string,
  budget: number,
  work: ExpansionBudget,
): BusyAnswer {
  let computed = false;
  const answer = keptWindowValue(
    call.app,
    call.caches.windows,
    calendar,
    from,
    to,
    `busy ${zone}`,
    () => {
      computed = true;
      const stepsBefore = work.remaining;
      const expansion = expandWindow(call.app.store, calendar, from, to, {
        showDeleted: false,
        limit: budget,
        strict: true,
        budget: work,
        // Event.transparency: "transparent" does not block time (https://developers.google.com/workspace/calendar/api/v3/reference/events).
        accept: (record) => record.data.transparency !== 'transparent' && entryOf(record.data, calendar.id)?.responseStatus !== 'declined',
      });
      const merged: Array<[number, number]> = [];
      for (const o of expansion.occurrences) {
        const start = Math.max(o.start, from);
        const end = Math.min(o.end, to);
        if (end <= start) continue;
        const last = merged[merged.length - 1];
        if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
        else merged.push([start, end]);
      }
      const busy: Json[] = merged.map(([start, end]) => ({ start: formatRfc3339InZone(start, zone), end: formatRfc3339InZone(end, zone) }));
      const value = { text: Buffer.from(JSON.stringify({ busy }), 'utf8'), expanded: expansion.occurrences.length, steps: stepsBefore - work.remaining };
      return { expansion, value, size: merged.length };
    },
    (kept) => kept.expanded <= budget && kept.steps <= work.remaining,
  );
  // A kept answer took no steps now: it is charged what computing it took.
  if (!computed) work.remaining -= answer.steps;
  return answer;
}

export const freebusyQuery: CalendarHandler = (call) => {
  const body = jsonBody(call.req);
  assertObject(body, '', () => googleErrors.invalid('The request body must be a FreeBusyRequest object.'));
  const from = timestamp(body, 'timeMin');
  const to = timestamp(body, 'timeMax');
  if (to <= from) throw googleErrors.timeRangeEmpty();
  if (to - from > MAX_RANGE_DAYS * MS_PER_DAY) {
    throw new GoogleApiError({
      status: 400,
      domain: 'calendar',
      reason: 'timeRangeTooLong',
      message: `The requested time range is too long; at most ${MAX_RANGE_DAYS} days are allowed.`,
      location: 'timeMax',
      locationType: 'parameter',
    });
  }
  let zone = 'UTC';
  if (body.timeZone !== undefined && body.timeZone !== null) {
    if (typeof body.timeZone !== 'string' || !isValidTimeZone(body.timeZone)) {
      throw googleErrors.invalid('timeZone must be an IANA time zone name', 'timeZone');
    }
    zone = body.timeZone;
  }
  const calendarCap = limit(body, 'calendarExpansionMax', MAX_CALENDARS) ?? MAX_CALENDARS;
  limit(body, 'groupExpansionMax', MAX_GROUP_EXPANSION);
  const ids = requestedIds(body);

  const { store } = call.app;
  // Each calendar's answer: its JSON text, or an error entry.
  const calendars: Record<string, Buffer | JsonObject> = {};
  let budget = MAX_INSTANCES;
  // The rule-expansion steps of every calendar together (MAX_EXPANSION_STEPS).
  const work = expansionBudget();
  let served = 0;
  for (const id of ids) {
    if (id in calendars) continue;
    if (served >= calendarCap) {
      calendars[id] = calendarError('tooManyCalendarsRequested', 'calendar');
      continue;
    }
    served++;
    // Any workspace calendar by id (busy times only); `primary` is the caller's own.
    const calendar = id === PRIMARY_ALIAS ? resolveOwnedCalendar(call, id) : store.getCalendar(id);
    if (!calendar) {
      calendars[id] = calendarError('notFound');
      continue;
    }
    try {
      const answer = busyAnswer(call, calendar, from, to, zone, budget, work);
      budget -= answer.expanded;
      calendars[id] = answer.text;
    } catch (error) {
      if (error instanceof ExpansionLimitError) {
        throw googleErrors.invalid(`The query would expand more than ${MAX_INSTANCES} events; narrow timeMin/timeMax or ask for fewer calendars.`, 'timeMax');
      }
      throw error;
    }
  }
  // The calendars' answers are JSON text already: the body is written around them, as parts, in
  // the order JSON.stringify would give the object's members.
  let text = `{"kind":"calendar#freeBusy","timeMin":"${formatIsoUtc(from)}","timeMax":"${formatIsoUtc(to)}","calendars":{`;
  const parts: Buffer[] = [];
  for (const [i, id] of Object.keys(calendars).entries()) {
    const answer = calendars[id] as Buffer | JsonObject;
    text += `${i === 0 ? '' : ','}${JSON.stringify(id)}:`;
    if (Buffer.isBuffer(answer)) {
      parts.push(Buffer.from(text, 'utf8'), answer);
      text = '';
    } else {
      text += JSON.stringify(answer);
    }
  }
  parts.push(Buffer.from(`${text}}}`, 'utf8'));
  return respondText(call, undefined, parts);
};
