// How far an expanded listing (events.list singleEvents=true) reaches when the request has no
// timeMax: a series with no end would otherwise be listed up to the year 9999, and a client
// syncing the calendar would page on for ever. Google bounds it too, without saying where (its
// Calendar API team on Stack Overflow, question 30599745: such a listing "is not endless, just
// somewhat lengthy"). The choice here: instances that start before the end of the same date
// two years on (UTC), so always at least two years ahead: past the one-year views calendar apps
// build, and as far as the future-expansion window CalDAV servers commonly use (Apple's
// CalendarServer, for one, defaults to two years). Single events are listed whatever their date;
// there are finitely many.
//
// The horizon is fixed when a listing starts and travels in its page tokens and its sync token
// (paging.ts), so every page of a full sync, and every incremental sync that follows from it,
// expands series over the same window: what an incremental sync reports then always matches
// what the full sync listed.

import { TIME_MAX } from '../domain/time/bounds.ts';

/** The end of the expansion window of a listing started at `now` that has no timeMax. */
export function expansionHorizon(now: number): number {
  const today = new Date(now);
  return Math.min(TIME_MAX, Date.UTC(today.getUTCFullYear() + 2, today.getUTCMonth(), today.getUTCDate() + 1));
}

/** The window series are expanded over in a sync, as the sync token carries it. */
export interface SeriesWindow {
  readonly from: number;
  readonly to: number;
}
