// What events.list and events.instances read off the call before choosing how to read the
// store: the calendar, render context and page size, the time window (https://developers.google.com/workspace/calendar/api/v3/reference/events/list timeMin/timeMax), and the fingerprint
// a page token carries so that a token replayed with other parameters is refused (paging.ts).

import { googleErrors } from '../../api/google-error.ts';
import type { CalendarRecord } from '../../store/store.ts';
import type { RenderContext } from './resource.ts';
import { calendarOf, renderContext } from './call.ts';
import { TIME_MAX, TIME_MIN } from '../../domain/time/bounds.ts';
import { sha256 } from '../../crypto/crypto.ts';
import type { CalendarCall } from '../context.ts';
import { pageSizeParam, timestampParam } from '../params.ts';

const PAGE = { default: 250, max: 2500 } as const;

/** The calendar a listing reads, how its items render, and its page size (`maxResults`). */
export function listingOf(call: CalendarCall): { calendar: CalendarRecord; ctx: RenderContext; size: number } {
  const calendar = calendarOf(call);
  const ctx = renderContext(call, calendar);
  return { calendar, ctx, size: pageSizeParam(call.req.query, PAGE) };
}

export interface Window {
  from: number;
  to: number;
  /** Whether timeMin or timeMax was sent (else the window is all time). */
  windowed: boolean;
}

// timeMin/timeMax: "milliseconds are accepted and ignored" (https://developers.google.com/workspace/calendar/api/v3/reference/events/list).
function seconds(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.floor(ms / 1000) * 1000;
}

export function windowParams(query: URLSearchParams): Window {
  const timeMin = seconds(timestampParam(query, 'timeMin'));
  const timeMax = seconds(timestampParam(query, 'timeMax'));
  if (timeMin !== undefined && timeMax !== undefined && timeMax <= timeMin) throw googleErrors.timeRangeEmpty();
  return { from: timeMin ?? TIME_MIN, to: timeMax ?? TIME_MAX, windowed: timeMin !== undefined || timeMax !== undefined };
}

// Parameters that change what a page token points into; a token replayed with others is refused.
const LIST_QUERY_PARAMS = [
  'eventTypes', 'iCalUID', 'maxAttendees', 'maxResults', 'orderBy', 'privateExtendedProperty', 'q', 'sharedExtendedProperty',
  'showDeleted', 'singleEvents', 'syncToken', 'timeMax', 'timeMin', 'timeZone', 'updatedMin', 'originalStart',
];

export function queryFingerprint(call: CalendarCall, calendar: CalendarRecord): string {
  const query = call.req.query;
  const parts = LIST_QUERY_PARAMS.map((name) => `${name}=${query.getAll(name).join(',')}`);
  // Hashed so the token stays short whatever the query holds.
  return sha256(`${call.req.path.split('?')[0] ?? ''}|${calendar.id}|${parts.join('&')}`).slice(0, 22);
}
