// events.list / get / instances / insert / update / patch / delete (METHODS.md §2.9-2.15,
// BEHAVIOUR.md §2-3). Handlers parse the request, run one store transaction for a write, and
// hand the resource to respond(); validation and the writes themselves live in event-write.ts,
// the wire shape in event-resource.ts, time and recurrence in src/events/occurrences.ts.
//
// How events.list reads the store, so the cost follows the window and the page, never the
// calendar (STYLE.md; issue 5 "indexes, not scans"):
// - singleEvents=true: the window's events from listEventsOverlapping, series expanded only over
//   the window (up to timeMax, else the horizon: horizon.ts) and only as far as the page needs,
//   kept while nothing in them changes (window-cache.ts); ordered by start then id; the page
//   token carries the (start, id) of the last item.
// - a time window without singleEvents: listEventsOverlapping, ordered by id (cursor: last id).
// - no window: listEventsChangedSince in change order, which is also the order of `updated`
//   (cursor: the change sequence), in batches, each request examining a bounded number.
// - syncToken: listEventsChangedSince from the token's sequence; with singleEvents=true the
//   changes are reported as instances over the token's window (instance-sync.ts).
// The nextSyncToken is a change-sequence watermark: every change after it has a larger sequence.
// A windowed listing takes the largest sequence in the window on its first page and carries it
// through its page tokens, so a change made while paging is never lost.

import { googleErrors } from '../api/google-error.ts';
import { jsonBody } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { parseDate, parseRfc3339, DateTimeError } from '../domain/time/datetime.ts';
import { dateKey } from '../domain/recurrence/expand.ts';
import type { CalendarRecord, EventRecord, Json, JsonObject } from '../store/store.ts';
import type { CalendarCall, CalendarHandler } from './context.ts';
import { resolveOwnedCalendar } from './calendars.ts';
import { checkIfMatch, etagFor } from './etag.ts';
import { deleteEvent, eventInputToGoogle, findTarget, writeEvent } from './event-write.ts';
import { insertEventRecord } from '../events/event-insert.ts';
import type { WriteContext } from '../events/event-record.ts';
import { EventInputError } from '../events/input-error.ts';
import { conferenceDataVersionParam } from './conference.ts';
import type { EventTarget, WriteMode } from './event-write.ts';
import { eventText, instanceText, itemJson, listItem, occurrenceText, renderEvent, renderTombstone, textContext } from './event-resource.ts';
import type { RenderContext, TextContext } from './event-resource.ts';
import {
  ExpansionLimitError,
  expandWindow,
  occurrenceCancelled,
  occurrenceId,
  occurrenceRecord,
  occurrenceTimes,
  instanceId,
  seriesOf,
} from '../events/occurrences.ts';
import type { Occurrence } from '../events/occurrences.ts';
import { TIME_MAX, TIME_MIN } from '../domain/time/bounds.ts';
import { makePageToken, makeSyncToken, readPageToken, readSyncState } from './paging.ts';
import { expansionHorizon } from './horizon.ts';
import type { SeriesWindow } from './horizon.ts';
import { instanceChanges } from './instance-sync.ts';
import { expandWindowCached } from './window-cache.ts';
import { respondEnvelope } from './events-envelope.ts';
import { booleanParam, enumParam, integerParam, pageSizeParam, repeatedParam, stringParam, timeZoneParam, timestampParam } from './params.ts';
import { noContent, respond, respondText } from './respond.ts';
import { sha256 } from '../crypto.ts';

const PAGE = { default: 250, max: 2500 } as const;
/** Records one request may examine when filters leave most of a batch out (pages may be short). */
const EXAMINE_LIMIT = 5000;
/** Occurrences an orderBy=updated expansion may hold (it must sort the whole window). */
const UPDATED_ORDER_LIMIT = 10_000;

// ---------------------------------------------------------------------------------------------
// Shared request pieces.

function calendarOf(call: CalendarCall): CalendarRecord {
  return resolveOwnedCalendar(call, call.params.calendarId as string);
}

function renderContext(call: CalendarCall, calendar: CalendarRecord): RenderContext {
  const query = call.req.query;
  return {
    calendar,
    zone: timeZoneParam(query, 'timeZone') ?? calendar.timeZone,
    baseUrl: call.req.baseUrl,
    maxAttendees: integerParam(query, 'maxAttendees', { min: 1, max: Number.MAX_SAFE_INTEGER }),
  };
}

function writeContext(call: CalendarCall, calendar: CalendarRecord): WriteContext {
  return { store: call.app.store, calendar, owner: call.auth.user, now: call.app.clock.now() };
}

/** Runs a write in one transaction, turning input errors into the API's 400/409. */
function transact<T>(call: CalendarCall, fn: () => T): T {
  try {
    return call.app.store.transaction(fn);
  } catch (error) {
    if (error instanceof EventInputError) throw eventInputToGoogle(error);
    throw error;
  }
}

function targetOf(call: CalendarCall, calendar: CalendarRecord): EventTarget {
  const target = findTarget(call.app.store, calendar, call.params.eventId as string);
  if (!target) throw googleErrors.notFound();
  return target;
}

function targetEtag(target: EventTarget): string {
  return etagFor(target.kind === 'record' ? target.record.seq : target.master.seq);
}

/** The wire Event a target names, as a list item (event-resource.ts). */
function targetItem(target: EventTarget, tc: TextContext): Buffer {
  if (target.kind === 'record') return eventText(target.record, tc);
  const times = occurrenceTimes(target.series, target.key, tc.ctx.calendar.timeZone);
  return instanceText(target.master, target.series, target.key, target.id, times, target.master.status === 'cancelled', tc);
}

// ---------------------------------------------------------------------------------------------
// get, insert, update, patch, delete.

const get: CalendarHandler = (call) => {
  const calendar = calendarOf(call);
  const ctx = renderContext(call, calendar);
  // events.get always returns cancelled events too (METHODS.md §2.10).
  const target = targetOf(call, calendar);
  return respondText(call, targetEtag(target), itemJson(targetItem(target, textContext(call.app, ctx))));
};

const insert: CalendarHandler = (call) => {
  const calendar = calendarOf(call);
  const ctx = renderContext(call, calendar);
  const body = jsonBody(call.req);
  const conferenceDataVersion = conferenceDataVersionParam(call.req.query);
  const record = transact(call, () => {
    const created = insertEventRecord(body, { ...writeContext(call, calendar), conferenceDataVersion });
    call.app.store.putEvent(created);
    return created;
  });
  call.app.collectionChanged({ kind: 'events', calendarId: calendar.id });
  return respond(call, renderEvent(record, ctx));
};

function modify(mode: WriteMode): CalendarHandler {
  return (call) => {
    const calendar = calendarOf(call);
    const ctx = renderContext(call, calendar);
    const body = jsonBody(call.req);
    const conferenceDataVersion = conferenceDataVersionParam(call.req.query);
    const record = transact(call, () => {
      const target = targetOf(call, calendar);
      checkIfMatch(call.req, targetEtag(target));
      const written = writeEvent({ ...writeContext(call, calendar), conferenceDataVersion }, target, body, mode);
      call.app.store.putEvent(written);
      return written;
    });
    call.app.collectionChanged({ kind: 'events', calendarId: calendar.id });
    return respond(call, renderEvent(record, ctx));
  };
}

const remove: CalendarHandler = (call) => {
  const calendar = calendarOf(call);
  transact(call, () => {
    const target = targetOf(call, calendar);
    checkIfMatch(call.req, targetEtag(target));
    for (const record of deleteEvent(writeContext(call, calendar), target)) call.app.store.putEvent(record);
  });
  call.app.collectionChanged({ kind: 'events', calendarId: calendar.id });
  return noContent();
};

// ---------------------------------------------------------------------------------------------
// Query parsing for list and instances.

interface Window {
  from: number;
  to: number;
  windowed: boolean;
}

// timeMin/timeMax: "milliseconds are accepted and ignored" (METHODS.md §2.9).
function seconds(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.floor(ms / 1000) * 1000;
}

function windowParams(query: URLSearchParams): Window {
  const timeMin = seconds(timestampParam(query, 'timeMin'));
  const timeMax = seconds(timestampParam(query, 'timeMax'));
  if (timeMin !== undefined && timeMax !== undefined && timeMax <= timeMin) throw googleErrors.timeRangeEmpty();
  return { from: timeMin ?? TIME_MIN, to: timeMax ?? TIME_MAX, windowed: timeMin !== undefined || timeMax !== undefined };
}

function propertyFilters(query: URLSearchParams, name: string): Array<[string, string]> {
  return repeatedParam(query, name).map((text) => {
    const eq = text.indexOf('=');
    if (eq <= 0) throw googleErrors.invalid(`${name} must be written propertyName=value`, name);
    return [text.slice(0, eq), text.slice(eq + 1)];
  });
}

function textOf(value: Json | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** Free text over the fields METHODS.md §2.9 lists for `q`; every term must occur (case-insensitive). */
function searchableText(data: JsonObject): string {
  const parts = [textOf(data.summary), textOf(data.description), textOf(data.location)];
  const people = [...(Array.isArray(data.attendees) ? data.attendees : []), data.organizer];
  for (const person of people) {
    if (typeof person === 'object' && person !== null && !Array.isArray(person)) {
      parts.push(textOf(person.displayName), textOf(person.email));
    }
  }
  return parts.join('\n').toLowerCase();
}

function mapOf(data: JsonObject, kind: 'private' | 'shared'): JsonObject {
  const props = data.extendedProperties;
  const map = typeof props === 'object' && props !== null && !Array.isArray(props) ? props[kind] : undefined;
  return typeof map === 'object' && map !== null && !Array.isArray(map) ? map : {};
}

/** The filter of a listing without content filters. */
const ACCEPT_ALL = (): boolean => true;

const FILTER_PARAMS = ['q', 'iCalUID', 'privateExtendedProperty', 'sharedExtendedProperty', 'eventTypes', 'updatedMin'];

/** The content filters of events.list, as one predicate over stored records (ACCEPT_ALL when none). */
function recordFilter(query: URLSearchParams): (record: EventRecord) => boolean {
  // Most listings have no filter: one pass over the names sent rather than a lookup per filter.
  if (![...query.keys()].some((name) => FILTER_PARAMS.includes(name))) return ACCEPT_ALL;
  const terms = (stringParam(query, 'q') ?? '').toLowerCase().split(/\s+/).filter((t) => t !== '');
  const iCalUID = stringParam(query, 'iCalUID');
  const privateProps = propertyFilters(query, 'privateExtendedProperty');
  const sharedProps = propertyFilters(query, 'sharedExtendedProperty');
  const eventTypes = repeatedParam(query, 'eventTypes');
  const updatedMin = timestampParam(query, 'updatedMin');
  const filters = [terms, privateProps, sharedProps, eventTypes].some((list) => list.length > 0) || iCalUID !== undefined || updatedMin !== undefined;
  if (!filters) return ACCEPT_ALL;
  return (record) => {
    if (iCalUID !== undefined && record.iCalUID !== iCalUID) return false;
    if (updatedMin !== undefined && record.updatedMs < updatedMin) return false;
    if (eventTypes.length > 0 && !eventTypes.includes(textOf(record.data.eventType) || 'default')) return false;
    if (privateProps.some(([k, v]) => mapOf(record.data, 'private')[k] !== v)) return false;
    if (sharedProps.some(([k, v]) => mapOf(record.data, 'shared')[k] !== v)) return false;
    if (terms.length > 0) {
      const text = searchableText(record.data);
      if (!terms.every((t) => text.includes(t))) return false;
    }
    return true;
  };
}

// Parameters that change what a page token points into; a token replayed with others is refused.
const LIST_QUERY_PARAMS = [
  'eventTypes', 'iCalUID', 'maxAttendees', 'maxResults', 'orderBy', 'privateExtendedProperty', 'q', 'sharedExtendedProperty',
  'showDeleted', 'singleEvents', 'syncToken', 'timeMax', 'timeMin', 'timeZone', 'updatedMin', 'originalStart',
];

function queryFingerprint(call: CalendarCall, calendar: CalendarRecord): string {
  const query = call.req.query;
  const parts = LIST_QUERY_PARAMS.map((name) => `${name}=${query.getAll(name).join(',')}`);
  // Hashed so the token stays short whatever the query holds.
  return sha256(`${call.req.path.split('?')[0] ?? ''}|${calendar.id}|${parts.join('&')}`).slice(0, 22);
}

function cursorNumber(cursor: JsonObject | undefined, key: string): number | undefined {
  const value = cursor?.[key];
  return typeof value === 'number' ? value : undefined;
}

function cursorString(cursor: JsonObject | undefined, key: string): string | undefined {
  const value = cursor?.[key];
  return typeof value === 'string' ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// events.list.

// Parameters METHODS.md §2.9 says must not accompany syncToken.
const NOT_WITH_SYNC_TOKEN = ['iCalUID', 'orderBy', 'privateExtendedProperty', 'q', 'sharedExtendedProperty', 'timeMin', 'timeMax', 'updatedMin'];

interface ListState {
  call: CalendarCall;
  calendar: CalendarRecord;
  ctx: RenderContext;
  text: TextContext;
  size: number;
  showDeleted: boolean;
  accept: (record: EventRecord) => boolean;
  cursor: JsonObject | undefined;
}

interface Page {
  /** Rendered events, as list items (UTF-8 JSON, each followed by a comma). */
  items: Buffer[];
  watermark: number;
  updatedMs: number;
  /** The cursor of the next page; undefined on the last page. */
  nextCursor: JsonObject | undefined;
}

const list: CalendarHandler = (call) => {
  const calendar = calendarOf(call);
  const query = call.req.query;
  const ctx = renderContext(call, calendar);
  const size = pageSizeParam(query, PAGE);
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
    // Deletions are always part of an incremental result (METHODS.md §2.9).
    if (showDeletedParam === false) throw googleErrors.invalid('syncToken cannot be combined with showDeleted=false', 'showDeleted');
    sync = readSyncState(call.app, collection, syncTokenText);
  }
  const sinceSeq = sync?.seq;
  const pageTokenText = stringParam(query, 'pageToken');
  const cursor = pageTokenText === undefined ? undefined : readPageToken(call.app, queryFingerprint(call, calendar), pageTokenText);
  const state: ListState = { call, calendar, ctx, text: textContext(call.app, ctx), size, showDeleted: showDeletedParam ?? false, accept, cursor };
  // updatedMin, like a sync token, always brings deletions (METHODS.md §4.2).
  const incremental = sinceSeq !== undefined || query.has('updatedMin');

  let page: Page;
  // Series expand over the sync token's window, else up to timeMax or the horizon (horizon.ts),
  // fixed by the first page and carried by every later page token and the sync token.
  let seriesWindow: SeriesWindow | undefined;
  if (singleEvents) {
    seriesWindow = sync?.window ?? { from: window.from, to: cursorNumber(cursor, 'h') ?? (query.has('timeMax') ? window.to : expansionHorizon(call.app.clock.now())) };
    if (sync !== undefined) {
      const { store, clock } = call.app;
      page = instanceChanges({ ...state, store, sinceSeq: sync.seq, window: seriesWindow, now: clock.now() });
    } else {
      page = orderBy === 'updated' ? singleEventsByUpdated(state, window, seriesWindow.to, incremental) : singleEventsPage(state, window, seriesWindow.to, incremental);
    }
    if (page.nextCursor !== undefined) page.nextCursor = { ...page.nextCursor, h: seriesWindow.to };
  } else if (window.windowed) {
    page = windowPage(state, window, incremental);
  } else {
    page = changesPage(state, sinceSeq ?? 0, incremental);
  }
  const next =
    page.nextCursor !== undefined
      ? { pageToken: makePageToken(call.app, queryFingerprint(call, calendar), page.nextCursor) }
      : { syncToken: makeSyncToken(call.app, collection, page.watermark, seriesWindow) };
  return respondEnvelope(call, calendar, { ...page, next });
};

function tombstoneText(record: EventRecord, ctx: RenderContext): Buffer {
  return listItem(renderTombstone(record, ctx));
}

/**
 * Whether a cancelled record is listed, and how: deletions appear with showDeleted (in full) and
 * in incremental results (as tombstones); a cancelled exception of a live series appears even
 * without showDeleted when series are not expanded (METHODS.md §4.2).
 */
function renderListed(state: ListState, record: EventRecord, incremental: boolean, expanded: boolean): Buffer | undefined {
  if (record.status !== 'cancelled' || state.showDeleted) return eventText(record, state.text);
  if (incremental) return tombstoneText(record, state.ctx);
  if (!expanded && record.recurringEventId !== null) {
    const master = state.call.app.store.getEvent(state.calendar.id, record.recurringEventId);
    if (master && master.status !== 'cancelled') return tombstoneText(record, state.ctx);
  }
  return undefined;
}

/** No window: records in change order (listEventsChangedSince), a bounded number per request. */
function changesPage(state: ListState, sinceSeq: number, incremental: boolean): Page {
  const { store } = state.call.app;
  let after = cursorNumber(state.cursor, 's') ?? sinceSeq;
  const items: Buffer[] = [];
  let examined = 0;
  let updatedMs = 0;
  for (;;) {
    const batch = store.listEventsChangedSince(state.calendar.id, after, Math.min(state.size + 1, EXAMINE_LIMIT));
    for (const record of batch) {
      if (items.length === state.size) return { items, watermark: after, updatedMs, nextCursor: { s: after } };
      after = record.seq;
      examined++;
      updatedMs = Math.max(updatedMs, record.updatedMs);
      if (!state.accept(record) && !(incremental && record.status === 'cancelled' && passesWithoutFilter(state, record))) continue;
      const item = renderListed(state, record, incremental, false);
      if (item !== undefined) items.push(item);
    }
    if (batch.length <= state.size && batch.length < Math.min(state.size + 1, EXAMINE_LIMIT)) {
      return { items, watermark: after, updatedMs: updatedMs || state.call.app.clock.now(), nextCursor: undefined };
    }
    if (examined >= EXAMINE_LIMIT) return { items, watermark: after, updatedMs, nextCursor: { s: after } };
  }
}

/** updatedMin keeps deletions since that time even when content filters would drop them. */
function passesWithoutFilter(state: ListState, record: EventRecord): boolean {
  const updatedMin = timestampParam(state.call.req.query, 'updatedMin');
  return updatedMin === undefined || record.updatedMs >= updatedMin;
}

/** A window without expansion: singles, masters and exceptions overlapping it, by id (or change order). */
function windowPage(state: ListState, window: Window, incremental: boolean): Page {
  const { store } = state.call.app;
  const records = store.listEventsOverlapping(state.calendar.id, window.from, window.to);
  const watermark = cursorNumber(state.cursor, 'w') ?? records.reduce((max, r) => Math.max(max, r.seq), 0);
  const byUpdated = stringParam(state.call.req.query, 'orderBy') === 'updated';
  const key = (r: EventRecord): string => (byUpdated ? String(r.seq).padStart(16, '0') : r.id);
  records.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const afterKey = cursorString(state.cursor, 'k');
  const items: Buffer[] = [];
  let updatedMs = 0;
  let lastKey: string | undefined;
  for (const record of records) {
    if (afterKey !== undefined && key(record) <= afterKey) continue;
    if (!state.accept(record)) continue;
    const item = renderListed(state, record, incremental, false);
    if (item === undefined) continue;
    if (items.length === state.size) return { items, watermark, updatedMs, nextCursor: { k: lastKey ?? '', w: watermark } };
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
function singleEventsPage(state: ListState, window: Window, seriesTo: number, incremental: boolean): Page {
  const start = cursorNumber(state.cursor, 't');
  const id = cursorString(state.cursor, 'i');
  const options = {
    seriesTo,
    showDeleted: state.showDeleted || incremental,
    after: start !== undefined && id !== undefined ? { start, id } : undefined,
    limit: state.size + 1,
  };
  const expanded =
    state.accept === ACCEPT_ALL
      ? expandWindowCached(state.call.app, state.calendar, window.from, window.to, options)
      : expandWindow(state.call.app.store, state.calendar, window.from, window.to, { ...options, accept: state.accept });
  const watermark = cursorNumber(state.cursor, 'w') ?? expanded.watermark;
  const page = expanded.occurrences.slice(0, state.size);
  const items = page.map((o) => occurrenceAccepted(state, o, incremental)).filter((item): item is Buffer => item !== undefined);
  const updatedMs = page.reduce((max, o) => Math.max(max, occurrenceRecord(o).updatedMs), 0) || state.call.app.clock.now();
  const last = page[page.length - 1];
  const more = expanded.occurrences.length > state.size && last !== undefined;
  return { items, watermark, updatedMs, nextCursor: more ? { t: last.start, i: occurrenceId(last), w: watermark } : undefined };
}

/** singleEvents=true&orderBy=updated: the whole window sorted by last change (bounded). */
function singleEventsByUpdated(state: ListState, window: Window, seriesTo: number, incremental: boolean): Page {
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
  const offset = cursorNumber(state.cursor, 'n') ?? 0;
  const watermark = cursorNumber(state.cursor, 'w') ?? expanded.watermark;
  const slice = all.slice(offset, offset + state.size);
  const items = slice.map(({ o }) => occurrenceAccepted(state, o, incremental)).filter((item): item is Buffer => item !== undefined);
  const updatedMs = slice.reduce((max, { o }) => Math.max(max, occurrenceRecord(o).updatedMs), 0) || state.call.app.clock.now();
  const more = offset + state.size < all.length;
  return { items, watermark, updatedMs, nextCursor: more ? { n: offset + state.size, w: watermark } : undefined };
}

// ---------------------------------------------------------------------------------------------
// events.instances (METHODS.md §2.11).

/** `originalStart`: an RFC 3339 timestamp for timed series, a date for all-day ones. */
function originalStartParam(query: URLSearchParams): { instant?: number; dateKey?: number } | undefined {
  const text = stringParam(query, 'originalStart');
  if (text === undefined) return undefined;
  try {
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { dateKey: dateKey(parseDate(text, 'originalStart')) };
    return { instant: parseRfc3339(text, 'originalStart') };
  } catch (error) {
    if (error instanceof DateTimeError) throw googleErrors.invalid('originalStart must be an RFC 3339 timestamp or a date', 'originalStart');
    throw error;
  }
}

const instances: CalendarHandler = (call) => {
  const calendar = calendarOf(call);
  const query = call.req.query;
  const ctx = renderContext(call, calendar);
  const size = pageSizeParam(query, PAGE);
  const showDeleted = booleanParam(query, 'showDeleted') ?? false;
  const window = windowParams(query);
  const originalStart = originalStartParam(query);
  const fingerprint = queryFingerprint(call, calendar);
  const pageTokenText = stringParam(query, 'pageToken');
  const cursor = pageTokenText === undefined ? undefined : readPageToken(call.app, fingerprint, pageTokenText);
  const master = call.app.store.getEvent(calendar.id, call.params.eventId as string);
  if (!master) throw googleErrors.notFound();
  const tc = textContext(call.app, ctx);
  const finish = (items: Buffer[], nextCursor: JsonObject | undefined, updatedMs: number): Result =>
    respondEnvelope(call, calendar, {
      items,
      watermark: master.seq,
      updatedMs,
      next: nextCursor === undefined ? undefined : { pageToken: makePageToken(call.app, fingerprint, nextCursor) },
    });
  if (!master.recurring) {
    // A non-recurring event is its own only instance (a documented choice; Google's answer for
    // this case is unconfirmed).
    const listed = (showDeleted || master.status !== 'cancelled') && master.startMs < window.to && master.endMs >= window.from;
    return finish(listed && master.recurringEventId === null ? [eventText(master, tc)] : [], undefined, master.updatedMs);
  }
  if (originalStart !== undefined) {
    const target = findTarget(call.app.store, calendar, instanceIdFor(master, calendar, originalStart));
    if (target === undefined) return finish([], undefined, master.updatedMs);
    const status = target.kind === 'record' ? target.record.status : target.master.status;
    return finish(showDeleted || status !== 'cancelled' ? [targetItem(target, tc)] : [], undefined, master.updatedMs);
  }
  const start = cursorNumber(cursor, 't');
  const id = cursorString(cursor, 'i');
  const expanded = expandWindow(call.app.store, calendar, window.from, window.to, {
    seriesId: master.id,
    showDeleted,
    inclusiveStart: true,
    after: start !== undefined && id !== undefined ? { start, id } : undefined,
    limit: size + 1,
  });
  const page = expanded.occurrences.slice(0, size);
  const last = page[page.length - 1];
  const more = expanded.occurrences.length > size && last !== undefined;
  return finish(
    page.map((o) => occurrenceText(o, tc)),
    more ? { t: last.start, i: occurrenceId(last) } : undefined,
    page.reduce((max, o) => Math.max(max, occurrenceRecord(o).updatedMs), master.updatedMs),
  );
};

/** The instance id `originalStart` names in a series ('' when the series' kind does not match). */
function instanceIdFor(master: EventRecord, calendar: CalendarRecord, originalStart: { instant?: number; dateKey?: number }): string {
  const series = seriesOf(master.data, calendar.timeZone);
  const key = series?.kind === 'date' ? originalStart.dateKey : originalStart.instant;
  return series === undefined || key === undefined ? '' : instanceId(master, series, key);
}

export const eventHandlers = {
  list,
  get,
  instances,
  insert,
  update: modify('update'),
  patch: modify('patch'),
  delete: remove,
} satisfies Record<string, CalendarHandler>;

