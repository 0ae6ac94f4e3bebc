// The event a week should open on (docs/inspector.md): a calendar's first event at or after an instant
// (one under way counts), else its latest one before it, cancelled ones aside. Read through the
// read-only view of docs/management-api.md, which lists a window's events earliest first, at most 2,500 of them: a
// near window first, as most calendars have something within weeks, then the rest of time.

import { api, withQuery } from './api.js';

/** @typedef {import('./week.js').CalendarEvent} CalendarEvent */
/** @typedef {import('./week.js').EventTime} EventTime */

const NEAR_MS = 8 * 7 * 86_400_000;
// The Calendar API's range of RFC 3339 timestamps.
const BEGINNING = Date.parse('0001-01-01T00:00:00Z');
const END = Date.parse('9999-12-31T23:59:59Z');
// The view's page: a window with this many events may hold later ones past them.
const VIEW_LIMIT = 2500;

/**
 * @param {string} calendarId
 * @param {number} instant
 * @returns {Promise<{ event: CalendarEvent, after: boolean } | undefined>}
 */
export async function nearestEvent(calendarId, instant) {
  const next = await nextEvent(calendarId, instant);
  if (next !== undefined) return { event: next, after: true };
  const latest = await latestEvent(calendarId, instant);
  return latest === undefined ? undefined : { event: latest, after: false };
}

/** @param {string} calendarId @param {number} instant */
async function nextEvent(calendarId, instant) {
  for (const to of [instant + NEAR_MS, END]) {
    const found = (await read(calendarId, instant, to)).find(held);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** @param {string} calendarId @param {number} instant */
async function latestEvent(calendarId, instant) {
  for (const [from, to] of [[instant - NEAR_MS, instant], [BEGINNING, instant - NEAR_MS]]) {
    let lower = /** @type {number} */ (from);
    for (;;) {
      const items = await read(calendarId, lower, /** @type {number} */ (to));
      const found = items.findLast(held);
      const lastStart = startOf(items.at(-1));
      // A full page may have later events past it: read again from the last start listed.
      if (items.length < VIEW_LIMIT || lastStart === undefined || lastStart <= lower) {
        if (found !== undefined) return found;
        break;
      }
      lower = lastStart;
    }
  }
  return undefined;
}

/** @param {string} calendarId @param {number} from @param {number} to @returns {Promise<CalendarEvent[]>} */
async function read(calendarId, from, to) {
  const answer = await api('GET', withQuery(`/__svc/calendars/${encodeURIComponent(calendarId)}/events`, { timeMin: new Date(from).toISOString(), timeMax: new Date(to).toISOString() }));
  return /** @type {{ items: CalendarEvent[] }} */ (answer).items;
}

/** Not cancelled: the view lists cancelled events too (showDeleted). @param {CalendarEvent} event */
function held(event) {
  return event.status !== 'cancelled';
}

/**
 * When an event starts, an all-day one taken at its date's UTC midnight (near enough to narrow a
 * search window).
 * @param {CalendarEvent | undefined} event
 */
export function startOf(event) {
  const start = event?.start ?? event?.originalStartTime;
  if (start?.dateTime !== undefined) return Date.parse(start.dateTime);
  if (start?.date !== undefined) return Date.parse(`${start.date}T00:00:00Z`);
  return undefined;
}
