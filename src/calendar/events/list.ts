// events.list (https://developers.google.com/workspace/calendar/api/v3/reference/events/list, https://developers.google.com/workspace/calendar/api/guides/sync): checks the query, chooses how to read the
// store, and answers the page with a page token or, on the last page, a sync token.
// - singleEvents=true: series expanded over the window (up to timeMax, else the horizon:
//   horizon.ts), by start then id (list-pages.ts singleEventsPage), or by last change with
//   orderBy=updated; with a syncToken, the changes since it as instances over the token's
//   window (instance-sync.ts).
// - a time window without singleEvents: the records overlapping it, by id (windowPage).
// - no window, or a syncToken: records in change order (changesPage).
// The nextSyncToken is a change-sequence watermark: every change after it has a larger sequence.

import { googleErrors } from '../../api/google-error.ts';
import type { CalendarHandler } from '../context.ts';
import { textContext } from './list-items.ts';
import { respondEnvelope } from './envelope.ts';
import { expansionHorizon } from '../horizon.ts';
import type { SeriesWindow } from '../horizon.ts';
import { instanceChanges } from './instance-sync.ts';
import { makeListToken, readListToken } from './list-cursor.ts';
import type { CursorOf, ListCursorKind } from './list-cursor.ts';
import { recordFilter } from './list-filters.ts';
import { changesPage, singleEventsByUpdated, singleEventsPage, windowPage } from './list-pages.ts';
import type { ListPage, ListState } from './list-pages.ts';
import { listingOf, queryFingerprint, windowParams } from './list-query.ts';
import { makeSyncToken, readSyncState } from '../paging.ts';
import { booleanParam, enumParam, stringParam } from '../params.ts';

// Parameters https://developers.google.com/workspace/calendar/api/v3/reference/events/list says must not accompany syncToken.
const NOT_WITH_SYNC_TOKEN = ['iCalUID', 'orderBy', 'privateExtendedProperty', 'q', 'sharedExtendedProperty', 'timeMin', 'timeMax', 'updatedMin'];

// A listing ordered by start time, or with a content filter, ends without a nextSyncToken:
// Google answers orderBy=startTime so (https://github.com/googleapis/google-api-ruby-client/issues/312),
// and a token taken under a content filter could not be used anyway, since none of these may
// accompany a syncToken. For the content filters (q, iCalUID, extended properties, updatedMin)
// this is a choice, as is keeping the token after orderBy=updated; a time window and
// singleEvents keep their token, as captured in
// https://github.com/googleapis/google-api-python-client/issues/2262 (timeMin and timeMax).
const NO_SYNC_TOKEN_AFTER = ['q', 'iCalUID', 'privateExtendedProperty', 'sharedExtendedProperty', 'updatedMin'];

export const list: CalendarHandler = (call) => {
  const { calendar, ctx, size } = listingOf(call);
  const query = call.req.query;
  const singleEvents = booleanParam(query, 'singleEvents') ?? false;
  const orderBy = enumParam(query, 'orderBy', ['startTime', 'updated'] as const);
  const showDeletedParam = booleanParam(query, 'showDeleted');
  const syncTokenText = stringParam(query, 'syncToken');
  const window = windowParams(query);
  const accept = recordFilter(query);
  if (orderBy === 'startTime' && !singleEvents) {
    throw googleErrors.invalid('The requested ordering is not available for the particular query.', 'orderBy');
  }
  const collection = `events:${calendar.id}`;
  let sync: ReturnType<typeof readSyncState> | undefined;
  if (syncTokenText !== undefined) {
    for (const name of query.keys()) {
      if (NOT_WITH_SYNC_TOKEN.includes(name)) throw googleErrors.invalid(`syncToken cannot be combined with ${name}`, name);
    }
    // Deletions are always part of an incremental result (https://developers.google.com/workspace/calendar/api/v3/reference/events/list).
    if (showDeletedParam === false) throw googleErrors.invalid('syncToken cannot be combined with showDeleted=false', 'showDeleted');
    sync = readSyncState(call.app, collection, syncTokenText);
  }
  const sinceSeq = sync?.seq;
  const pageTokenText = stringParam(query, 'pageToken');
  /** The cursor of this page, of the kind the query reads by (list-cursor.ts). */
  const cursorOf = <K extends ListCursorKind>(kind: K): CursorOf<K> | undefined =>
    pageTokenText === undefined ? undefined : readListToken(call.app, queryFingerprint(call, calendar), pageTokenText, kind);
  const state: ListState = { call, calendar, ctx, text: textContext(call.caches.renders, ctx), size, showDeleted: showDeletedParam ?? false, accept };
  // updatedMin, like a sync token, always brings deletions (https://developers.google.com/workspace/calendar/api/v3/reference/events/list).
  const incremental = sinceSeq !== undefined || query.has('updatedMin');

  let page: ListPage;
  // Series expand over the sync token's window, else up to timeMax or the horizon (horizon.ts),
  // fixed by the first page and carried by every later page token and the sync token.
  let seriesWindow: SeriesWindow | undefined;
  const seriesWindowOf = (cursor: { readonly seriesTo: number } | undefined): SeriesWindow =>
    sync?.window ?? { from: window.from, to: cursor?.seriesTo ?? (query.has('timeMax') ? window.to : expansionHorizon(call.app.clock.now())) };
  if (singleEvents && sync !== undefined) {
    const cursor = cursorOf('instanceSync');
    seriesWindow = seriesWindowOf(cursor);
    const { store, clock } = call.app;
    page = instanceChanges({ ...state, store, sinceSeq: sync.seq, window: seriesWindow, cursor, now: clock.now() });
  } else if (singleEvents && orderBy === 'updated') {
    const cursor = cursorOf('singleEventsByUpdated');
    seriesWindow = seriesWindowOf(cursor);
    page = singleEventsByUpdated(state, cursor, window, seriesWindow.to, incremental);
  } else if (singleEvents) {
    const cursor = cursorOf('singleEvents');
    seriesWindow = seriesWindowOf(cursor);
    page = singleEventsPage(state, cursor, window, seriesWindow.to, incremental);
  } else if (window.windowed) {
    page = windowPage(state, cursorOf('window'), window, incremental);
  } else {
    page = changesPage(state, cursorOf('changes'), sinceSeq ?? 0, incremental);
  }
  const syncable = orderBy !== 'startTime' && !NO_SYNC_TOKEN_AFTER.some((name) => query.has(name));
  const next =
    page.nextCursor !== undefined
      ? { pageToken: makeListToken(call.app, queryFingerprint(call, calendar), page.nextCursor) }
      : syncable
        ? { syncToken: makeSyncToken(call.app, collection, page.watermark, seriesWindow) }
        : undefined;
  return respondEnvelope(call, calendar, { ...page, next });
};
