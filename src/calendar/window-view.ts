// A calendar's events over one window, as its owner's events.list with
// `singleEvents=true&orderBy=startTime&showDeleted=true&timeMin=…&timeMax=…` lists them, in one
// page of at most 2,500 items: the read-only view of the management API for the inspector
// (CONTRACT §10), bound to no token. It reads the window through the same expansion
// (window-cache.ts), time window rules (list-query.ts) and renderings (list-items.ts) as
// events.list's singleEventsPage, so the two cannot drift apart.

import { GoogleApiError } from '../api/google-error.ts';
import type { App } from '../app.ts';
import type { CalendarRecord } from '../store/store.ts';
import type { CalendarCaches } from './context.ts';
import { occurrenceText, pageBody, textContext } from './list-items.ts';
import { windowParams } from './list-query.ts';
import type { Window } from './list-query.ts';
import { expandWindowCached } from './window-cache.ts';

/** events.list's largest page (maxResults=2500). */
const VIEW_LIMIT = 2500;

/** A query the view refuses: its message says why. */
export class WindowQueryError extends Error {}

/** timeMin and timeMax, both required, read as events.list reads them. */
export function viewWindow(query: URLSearchParams): Window {
  if (!query.has('timeMin') || !query.has('timeMax')) throw new WindowQueryError('timeMin and timeMax are both required (RFC 3339 timestamps).');
  try {
    return windowParams(query);
  } catch (error) {
    if (error instanceof GoogleApiError) throw new WindowQueryError(error.message);
    throw error;
  }
}

/** `{"timeZone":…,"items":[…]}`: the calendar's events in `window`, in the calendar's zone. */
export function windowViewBody(app: App, caches: CalendarCaches, calendar: CalendarRecord, window: Window, baseUrl: string): Buffer | Buffer[] {
  const expanded = expandWindowCached(app, caches.windows, calendar, window.from, window.to, { seriesTo: window.to, showDeleted: true, limit: VIEW_LIMIT });
  const text = textContext(caches.renders, { calendar, zone: calendar.timeZone, baseUrl, maxAttendees: undefined });
  const items = expanded.occurrences.map((o) => occurrenceText(o, text));
  return pageBody(`{"timeZone":${JSON.stringify(calendar.timeZone)},"items":[`, items);
}
