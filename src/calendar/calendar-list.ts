// calendarList.list / get / insert / patch / update / delete (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList,
// https://developers.google.com/workspace/calendar/api/v3/reference/calendarList). Single-owner model: a user's list holds exactly the calendars they own, so
// their role is `owner` on every entry, insert only re-adds an owned calendar whose entry was
// removed, and the primary calendar can never leave the list.
//
// Every write stamps the entry with a fresh `store.nextSeq()` inside one store transaction: the
// seq is the entry's etag and what incremental sync compares against. Removed entries stay
// stored with `deleted: true`, for showDeleted and sync.

import { googleErrors } from '../api/google-error.ts';
import { jsonBody } from '../http/request.ts';
import type { CalendarListEntryRecord, CalendarRecord, Json } from '../store/store.ts';
import { ACCESS_ROLES, applyEntryBody, bodyObject, renderEntry } from './calendar-list-entry.ts';
import type { EntryWrite } from './calendar-list-entry.ts';
import { resolveOwnedCalendar } from './calendars.ts';
import type { CalendarCall, CalendarHandler } from './context.ts';
import { checkIfMatch, etagFor } from './etag.ts';
import { makePageToken, makeSyncToken, readPageToken, readSyncToken } from './paging.ts';
import { booleanParam, enumParam, pageSizeParam, stringParam } from './params.ts';
import { noContent, respond } from './respond.ts';

const PAGE_SIZE = { default: 100, max: 250 };

function syncCollection(call: CalendarCall): string {
  return `calendarList/${call.auth.user.id}`;
}

/** The caller's entry for the calendar a path names; 404 when the calendar is not theirs or its entry was removed. */
function listedEntry(call: CalendarCall): { calendar: CalendarRecord; entry: CalendarListEntryRecord } {
  const calendar = resolveOwnedCalendar(call, call.params.calendarId as string);
  const entry = call.app.store.getCalendarListEntry(call.auth.user.id, calendar.id);
  if (!entry || entry.deleted) throw googleErrors.notFound();
  return { calendar, entry };
}

/** Stores `entry` with a fresh seq and returns the stored record. */
function stamp(call: CalendarCall, entry: Omit<CalendarListEntryRecord, 'seq'>): CalendarListEntryRecord {
  const stored = { ...entry, seq: call.app.store.nextSeq() };
  call.app.store.putCalendarListEntry(stored);
  return stored;
}

function writeMode(call: CalendarCall, mode: EntryWrite['mode']): EntryWrite {
  return { mode, rgb: booleanParam(call.req.query, 'colorRgbFormat') ?? false };
}

/**
 * calendarList.list. Paging walks the entries in calendar-id order; the page token carries the
 * last id served and the high-water seq seen by the first page, which the last page hands out as
 * nextSyncToken, so a change made while paging is reported by the next sync.
 */
const list: CalendarHandler = (call) => {
  const { query } = call.req;
  const { store } = call.app;
  const maxResults = pageSizeParam(query, PAGE_SIZE);
  const pageToken = stringParam(query, 'pageToken');
  const syncToken = stringParam(query, 'syncToken');
  const showDeleted = booleanParam(query, 'showDeleted');
  const showHidden = booleanParam(query, 'showHidden');
  // The caller owns every calendar in their list, so each role, `owner` included, keeps every entry.
  const minAccessRole = enumParam(query, 'minAccessRole', ACCESS_ROLES);

  let since: number | undefined;
  if (syncToken !== undefined) {
    // https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/list: sync always reports removed and hidden entries, and takes no role filter.
    if (minAccessRole !== undefined) throw googleErrors.invalid('minAccessRole cannot be used together with syncToken', 'minAccessRole');
    if (showDeleted === false) throw googleErrors.invalid('showDeleted cannot be false together with syncToken', 'showDeleted');
    if (showHidden === false) throw googleErrors.invalid('showHidden cannot be false together with syncToken', 'showHidden');
    since = readSyncToken(call.app, syncCollection(call), syncToken);
  }

  const entries = store.listCalendarListEntries(call.auth.user.id);
  const currentHigh = entries.reduce((high, entry) => Math.max(high, entry.seq), 0);
  const fingerprint = JSON.stringify([since ?? null, showDeleted ?? false, showHidden ?? false]);
  let after = '';
  let high = currentHigh;
  if (pageToken !== undefined) {
    const cursor = readPageToken(call.app, fingerprint, pageToken);
    if (typeof cursor.after !== 'string' || typeof cursor.high !== 'number') throw googleErrors.invalid('Invalid page token value.', 'pageToken');
    after = cursor.after;
    high = cursor.high;
  }

  const remaining = entries
    .filter((entry) => (since !== undefined ? entry.seq > since : (showDeleted || !entry.deleted) && (showHidden || !entry.hidden)))
    .filter((entry) => entry.calendarId > after)
    .sort((a, b) => (a.calendarId < b.calendarId ? -1 : a.calendarId > b.calendarId ? 1 : 0));
  const page = remaining.slice(0, maxResults);
  const items: Json[] = [];
  for (const entry of page) {
    const calendar = store.getCalendar(entry.calendarId);
    if (calendar) items.push(renderEntry(entry, calendar, call.auth.user));
  }

  const last = page.at(-1);
  const envelope: Record<string, Json> = { kind: 'calendar#calendarList', etag: etagFor(currentHigh) };
  if (remaining.length > maxResults && last) envelope.nextPageToken = makePageToken(call.app, fingerprint, { after: last.calendarId, high });
  else envelope.nextSyncToken = makeSyncToken(call.app, syncCollection(call), high);
  envelope.items = items;
  return respond(call, envelope);
};

const get: CalendarHandler = (call) => {
  const { calendar, entry } = listedEntry(call);
  return respond(call, renderEntry(entry, calendar, call.auth.user));
};

/** calendarList.insert: puts an owned calendar whose entry was removed back on the list. */
const insert: CalendarHandler = (call) => {
  const body = bodyObject(jsonBody(call.req));
  const write = writeMode(call, 'replace');
  if (body.id === undefined || body.id === null) throw googleErrors.required('id is required: the calendar to add to the list');
  if (typeof body.id !== 'string') throw googleErrors.invalid('id must be a string');
  const id = body.id;
  const { store } = call.app;
  const stored = store.transaction(() => {
    const calendar = store.getCalendar(id);
    if (!calendar || calendar.ownerId !== call.auth.user.id) throw googleErrors.notFound();
    const previous = store.getCalendarListEntry(call.auth.user.id, calendar.id);
    if (previous && !previous.deleted) throw googleErrors.duplicate();
    const base: CalendarListEntryRecord = previous ?? { userId: call.auth.user.id, calendarId: calendar.id, deleted: true, hidden: false, seq: 0, data: {} };
    const entry = stamp(call, { userId: base.userId, calendarId: base.calendarId, deleted: false, ...applyEntryBody(base, calendar, body, write) });
    return { entry, calendar };
  });
  call.app.collectionChanged({ kind: 'calendarList', userId: call.auth.user.id });
  return respond(call, renderEntry(stored.entry, stored.calendar, call.auth.user));
};

function modify(mode: EntryWrite['mode']): CalendarHandler {
  return (call) => {
    const body = bodyObject(jsonBody(call.req));
    const write = writeMode(call, mode);
    const stored = call.app.store.transaction(() => {
      const { calendar, entry } = listedEntry(call);
      checkIfMatch(call.req, etagFor(entry.seq));
      const next = stamp(call, { userId: entry.userId, calendarId: entry.calendarId, deleted: false, ...applyEntryBody(entry, calendar, body, write) });
      return { entry: next, calendar };
    });
    call.app.collectionChanged({ kind: 'calendarList', userId: call.auth.user.id });
    return respond(call, renderEntry(stored.entry, stored.calendar, call.auth.user));
  };
}

/** calendarList.delete: the entry leaves the list and stays visible as `deleted: true` to showDeleted and sync. */
const remove: CalendarHandler = (call) => {
  call.app.store.transaction(() => {
    const { calendar, entry } = listedEntry(call);
    if (calendar.primary) {
      // https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/delete: one's own primary calendar cannot leave one's list.
      throw googleErrors.forbidden('cannotChangeOwnPrimarySubscription', 'The primary calendar cannot be removed from the calendar list.');
    }
    checkIfMatch(call.req, etagFor(entry.seq));
    stamp(call, { userId: entry.userId, calendarId: entry.calendarId, deleted: true, hidden: entry.hidden, data: entry.data });
  });
  call.app.collectionChanged({ kind: 'calendarList', userId: call.auth.user.id });
  return noContent();
};

export const calendarListHandlers = {
  list,
  get,
  insert,
  patch: modify('patch'),
  update: modify('replace'),
  delete: remove,
} satisfies Record<string, CalendarHandler>;
