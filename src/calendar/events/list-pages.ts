// The ways events.list reads one page from the store (the map of which one a query takes is in
// list.ts; an incremental expanded sync is instance-sync.ts). Each takes the cursor its
// previous page left (list-cursor.ts) and returns the rendered items and the next cursor, so
// the cost follows the window and the page, never the calendar
// (indexes, not scans):
// - changesPage, no window: listEventsChangedSince in change order, which is also the order of
//   `updated`, in batches, each request examining a bounded number.
// - windowPage, a window without singleEvents: listEventsOverlapping, ordered by id.
// - singleEventsPage: the window's events from listEventsOverlapping, series expanded only over
//   the window and only as far as the page needs, kept while nothing in them changes
//   (window-cache.ts); ordered by start then id.
// - singleEventsByUpdated: the whole window expanded and sorted by last change (bounded).
// A windowed listing takes the largest sequence in the window on its first page and carries it
// through its page tokens (`watermark`), so a change made while paging is never lost.

import { googleErrors } from '../../api/google-error.ts';
import type { CalendarRecord, EventRecord } from '../../store/store.ts';
import { ExpansionLimitError, expandWindow, occurrenceCancelled, occurrenceId, occurrenceRecord } from '../../event-model/occurrences.ts';
import type { Occurrence } from '../../event-model/occurrences.ts';
import type { CalendarCall } from '../context.ts';
import { eventText, occurrenceText, tombstoneText } from './list-items.ts';
import type { RenderContext } from './resource.ts';
import type { TextContext } from './list-items.ts';
import type { CursorOf, ListCursor } from './list-cursor.ts';
import { ACCEPT_ALL, passesUpdatedMin } from './list-filters.ts';
import type { Window } from './list-query.ts';
import { stringParam } from '../params.ts';
import { expandWindowCached } from '../window-cache.ts';

/** Records one request may examine when filters leave most of a batch out (pages may be short). */
const EXAMINE_LIMIT = 5000;
/** Occurrences an orderBy=updated expansion may hold (it must sort the whole window). */
const UPDATED_ORDER_LIMIT = 10_000;

export interface ListState {
  readonly call: CalendarCall;
  readonly calendar: CalendarRecord;
  readonly ctx: RenderContext;
  readonly text: TextContext;
  readonly size: number;
  readonly showDeleted: boolean;
  readonly accept: (record: EventRecord) => boolean;
}

export interface ListPage {
  /** Rendered events, as list items (UTF-8 JSON, each followed by a comma). */
  items: Buffer[];
  watermark: number;
  updatedMs: number;
  /** The cursor of the next page; undefined on the last page. */
  nextCursor: ListCursor | undefined;
}

/**
 * Whether a cancelled record is listed, and how: deletions appear with showDeleted (in full) and
 * in incremental results (as tombstones); a cancelled exception of a live series appears even
 * without showDeleted when series are not expanded (https://developers.google.com/workspace/calendar/api/v3/reference/events/list).
 */
function renderListed(state: ListState, record: EventRecord, incremental: boolean): Buffer | undefined {
  if (record.status !== 'cancelled' || state.showDeleted) return eventText(record, state.text);
  if (incremental) return tombstoneText(record, state.ctx);
  if (record.recurringEventId !== null) {
    const master = state.call.app.store.getEvent(state.calendar.id, record.recurringEventId);
    if (master && master.status !== 'cancelled') return tombstoneText(record, state.ctx);
  }
  return undefined;
}

/** No window: records in change order (listEventsChangedSince), a bounded number per request. */
export function changesPage(state: ListState, cursor: CursorOf<'changes'> | undefined, sinceSeq: number, incremental: boolean): ListPage {
  const { store } = state.call.app;
  let after = cursor?.afterSeq ?? sinceSeq;
  const items: Buffer[] = [];
  let examined = 0;
  let updatedMs = 0;
  for (;;) {
    const batch = store.listEventsChangedSince(state.calendar.id, after, Math.min(state.size + 1, EXAMINE_LIMIT));
    for (const record of batch) {
      if (items.length === state.size) return { items, watermark: after, updatedMs, nextCursor: { kind: 'changes', afterSeq: after } };
      after = record.seq;
      examined++;
      updatedMs = Math.max(updatedMs, record.updatedMs);
      if (!state.accept(record) && !(incremental && record.status === 'cancelled' && passesUpdatedMin(state.call.req.query, record))) continue;
      const item = renderListed(state, record, incremental);
      if (item !== undefined) items.push(item);
    }
    if (batch.length <= state.size && batch.length < Math.min(state.size + 1, EXAMINE_LIMIT)) {
      return { items, watermark: after, updatedMs: updatedMs || state.call.app.clock.now(), nextCursor: undefined };
    }
    if (examined >= EXAMINE_LIMIT) return { items, watermark: after, updatedMs, nextCursor: { kind: 'changes', afterSeq: after } };
  }
}

/** A window without expansion: singles, masters and exceptions overlapping it, by id (or change order). */
export function windowPage(state: ListState, cursor: CursorOf<'window'> | undefined, window: Window, incremental: boolean): ListPage {
  const { store } = state.call.app;
  const records = store.listEventsOverlapping(state.calendar.id, window.from, window.to);
  const watermark = cursor?.watermark ?? records.reduce((max, r) => Math.max(max, r.seq), 0);
  const byUpdated = stringParam(state.call.req.query, 'orderBy') === 'updated';
  const key = (r: EventRecord): string => (byUpdated ? String(r.seq).padStart(16, '0') : r.id);
  records.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const afterKey = cursor?.afterKey;
  const items: Buffer[] = [];
  let updatedMs = 0;
  let lastKey: string | undefined;
  for (const record of records) {
    if (afterKey !== undefined && key(record) <= afterKey) continue;
    if (!state.accept(record)) continue;
    const item = renderListed(state, record, incremental);
    if (item === undefined) continue;
    if (items.length === state.size) return { items, watermark, updatedMs, nextCursor: { kind: 'window', afterKey: lastKey ?? '', watermark } };
    items.push(item);
    lastKey = key(record);
    updatedMs = Math.max(updatedMs, record.updatedMs);
  }
  return { items, watermark, updatedMs: updatedMs || state.call.app.clock.now(), nextCursor: undefined };
}

function occurrenceAccepted(state: ListState, o: Occurrence, incremental: boolean): Buffer | undefined {
  if (occurrenceCancelled(o) && !state.showDeleted) {
    if (!incremental) return undefined;
    if (o.kind === 'single') return tombstoneText(o.record, state.ctx);
  }
  return occurrenceText(o, state.text);
}

/** singleEvents=true: singles and instances over the window (series' up to `seriesTo`), by start then id. */
export function singleEventsPage(state: ListState, cursor: CursorOf<'singleEvents'> | undefined, window: Window, seriesTo: number, incremental: boolean): ListPage {
  const options = { seriesTo, showDeleted: state.showDeleted || incremental, after: cursor?.after, limit: state.size + 1 };
  const expanded =
    state.accept === ACCEPT_ALL
      ? expandWindowCached(state.call.app, state.call.caches.windows, state.calendar, window.from, window.to, options)
      : expandWindow(state.call.app.store, state.calendar, window.from, window.to, { ...options, accept: state.accept });
  const watermark = cursor?.watermark ?? expanded.watermark;
  const page = expanded.occurrences.slice(0, state.size);
  const items = page.map((o) => occurrenceAccepted(state, o, incremental)).filter((item): item is Buffer => item !== undefined);
  const updatedMs = page.reduce((max, o) => Math.max(max, occurrenceRecord(o).updatedMs), 0) || state.call.app.clock.now();
  const last = page[page.length - 1];
  const more = expanded.occurrences.length > state.size && last !== undefined;
  const nextCursor: ListCursor | undefined = more ? { kind: 'singleEvents', after: { start: last.start, id: occurrenceId(last) }, watermark, seriesTo } : undefined;
  return { items, watermark, updatedMs, nextCursor };
}

/** singleEvents=true&orderBy=updated: the whole window sorted by last change (bounded). */
export function singleEventsByUpdated(
  state: ListState,
  cursor: CursorOf<'singleEventsByUpdated'> | undefined,
  window: Window,
  seriesTo: number,
  incremental: boolean,
): ListPage {
  let expanded: ReturnType<typeof expandWindow>;
  try {
    expanded = expandWindow(state.call.app.store, state.calendar, window.from, window.to, {
      seriesTo,
      showDeleted: state.showDeleted || incremental,
      limit: UPDATED_ORDER_LIMIT,
      strict: true,
      accept: state.accept,
    });
  } catch (error) {
    if (error instanceof ExpansionLimitError) {
      throw googleErrors.invalid(`orderBy=updated with singleEvents can sort at most ${UPDATED_ORDER_LIMIT} instances; narrow timeMin/timeMax`, 'orderBy');
    }
    throw error;
  }
  const all = expanded.occurrences
    .map((o) => ({ o, seq: occurrenceRecord(o).seq }))
    .sort((a, b) => a.seq - b.seq || a.o.start - b.o.start || (occurrenceId(a.o) < occurrenceId(b.o) ? -1 : 1));
  const offset = cursor?.offset ?? 0;
  const watermark = cursor?.watermark ?? expanded.watermark;
  const slice = all.slice(offset, offset + state.size);
  const items = slice.map(({ o }) => occurrenceAccepted(state, o, incremental)).filter((item): item is Buffer => item !== undefined);
  const updatedMs = slice.reduce((max, { o }) => Math.max(max, occurrenceRecord(o).updatedMs), 0) || state.call.app.clock.now();
  const more = offset + state.size < all.length;
  return { items, watermark, updatedMs, nextCursor: more ? { kind: 'singleEventsByUpdated', offset: offset + state.size, watermark, seriesTo } : undefined };
}
