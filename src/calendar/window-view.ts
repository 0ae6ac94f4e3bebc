// A calendar's events over one window, as its owner's events.list with
// `singleEvents=true&orderBy=startTime&showDeleted=true&timeMin=…&timeMax=…` lists them, in one
// page of at most 2,500 items: the read-only view of the management API for the inspector
// (docs/management-api.md), bound to no token. It reads the window through the same expansion
// (window-cache.ts), time window rules (events/list-query.ts) and renderings (events/list-items.ts) as
// events.list's singleEventsPage, so the two cannot drift apart.
//
// A series that cannot be expanded (a rule stored before today's caps, or one over the step
// budget in this window) does not fail the view, as it fails events.list with 400: the view is a
// person's window on the whole calendar, and one bad series must not hide the rest of the week.
// The view answers per event instead (SECURITY.md): the series is left out of `items` and
// listed under `unexpandable` with the answer the management API gives for it, `400
// invalid_request` and why, beside the master as events.get renders it:
//   "unexpandable":[{"status":400,"error":"invalid_request","error_description":"…","event":{…}}]
// The member is present only when some series was left out, so an ordinary view is unchanged.

import { GoogleApiError } from '../api/google-error.ts';
import type { App } from '../app/app.ts';
import type { CalendarRecord } from '../store/store.ts';
import type { CalendarCaches } from './context.ts';
import { renderEvent } from './events/resource.ts';
import { occurrenceText, pageBody, textContext } from './events/list-items.ts';
import { windowParams } from './events/list-query.ts';
import type { Window } from './events/list-query.ts';
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
export function windowViewBody(app: App, caches: CalendarCaches, calendar: CalendarRecord, window: Window, baseUrl: string): string | Buffer[] {
  const expanded = expandWindowCached(app, caches.windows, calendar, window.from, window.to, {
    seriesTo: window.to,
    showDeleted: true,
    limit: VIEW_LIMIT,
    skipUnexpandable: true,
  });
  const text = textContext(caches.renders, { calendar, zone: calendar.timeZone, baseUrl, maxAttendees: undefined });
  const items = expanded.occurrences.map((o) => occurrenceText(o, text));
  const unexpandable = expanded.unexpandable.map(({ master, reason }) => ({
    status: 400,
    error: 'invalid_request',
    error_description: reason,
    event: renderEvent(master, text.ctx),
  }));
  const left = unexpandable.length === 0 ? '' : `"unexpandable":${JSON.stringify(unexpandable)},`;
  return pageBody(`{"timeZone":${JSON.stringify(calendar.timeZone)},${left}"items":[`, items);
}
