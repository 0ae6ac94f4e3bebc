// Copies of an organizer's event on the primary calendars of the test users it invites
// (docs/invitations.md). A copy reads as an event of the invitee's calendar, under the same id and
// iCalUID, so reading it (get, list, instances, sync, free/busy, the read caches) costs what
// reading any event costs; the writes keep copies in line with the organizer's record inside the
// same store transaction.
//
// How copies are stored: the invitees whose copy is what a new copy would be hold one shared
// copy (Store's SharedCopyRecord), written once per organizer write however many they are; an
// insert inviting twenty test users writes two records, not twenty-one. A copy becomes a record
// of the invitee's own (syncOne) once it differs from the shared one: its invitee set private
// properties on it, it is cancelled for them alone, or it keeps a transparency the organizer has
// since changed. Exceptions of a series, all-day events (whose dates are days of each holder's
// zone) and events whose guests may not see each other (each copy lists its own invitee) are
// copied per invitee.
//
// Who holds copies: every attendee whose e-mail is a test user's (case-insensitively), except
// the organizer. An exception of a series is copied to the series' invitees: one who is not
// among the exception's own attendees gets the instance cancelled. An attendee listed on one
// instance only and not on the series gets no copy (Google would send a one-instance invitation;
// not modelled). A cancelled copy stays cancelled while its invitee's answer is `declined` and
// the organizer's record is not: that is an invitation the invitee deleted (an organizer's
// removal also cancels, and re-adding makes a new `needsAction` entry, which revives it).
// An invitee of an organizer's record that is cancelled holds it cancelled even when they held
// no copy before (a fixture or an export loaded anew, an event inserted cancelled): a deleted
// event reads back by id as `cancelled` for everyone it invited, as it does for its organizer.
//
// An event of the invitee's own that already holds the id (an unrelated event, not a copy of
// this one) is left alone and that invitee gets no copy: an invitation must not overwrite data.

import type { CalendarRecord, EventRecord, JsonObject, SharedCopyRecord, Store, UserRecord } from '../store/store.ts';
import { copyData, initialPrivate, privateOf, sameData, statusOf } from './copy-data.ts';
import { isJsonObject } from '../validation/validation.ts';
import { occurrenceTimes, eventSpan } from './occurrences.ts';
import { recurrenceLines, seriesOf } from './event-series.ts';
import { withHistory, withoutHistory } from './series-history.ts';

export function sameEmail(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** The organizer's e-mail: the calendar that holds the organizer's record (event-record.ts). */
export function organizerEmail(data: JsonObject): string | undefined {
  const organizer = data.organizer;
  return isJsonObject(organizer) && typeof organizer.email === 'string' ? organizer.email : undefined;
}

/** Whether a stored record is a copy: an event organized on another calendar. */
export function isCopy(record: EventRecord): boolean {
  const email = organizerEmail(record.data);
  return email !== undefined && !sameEmail(email, record.calendarId);
}

export function attendeesOf(data: JsonObject): JsonObject[] {
  const list = Array.isArray(data.attendees) ? data.attendees : [];
  return list.filter((a): a is JsonObject => typeof a === 'object' && a !== null && !Array.isArray(a));
}

/** The attendee entry of `email` in `data`, if listed (one search of the list: see listedEntry for many). */
export function entryOf(data: JsonObject, email: string): JsonObject | undefined {
  return attendeesOf(data).find((a) => sameEmail(a.email, email));
}

/** An attendee list by lower-case e-mail: each guest's first entry, and its place in the list. */
type GuestIndex = ReadonlyMap<string, { readonly entry: JsonObject; readonly at: number }>;

/**
 * The attendees of an organizer's record by lower-case e-mail, made once per version of its
 * data (a record's data is not changed once written: Store's records read are read-only), so
 * that what a write looks up for each of its guests costs one Map read, not a search of the
 * list (docs/invitations.md "Cost": linear in the number of guests).
 */
const indexes = new WeakMap<JsonObject, GuestIndex>();

function guestsOf(data: JsonObject): GuestIndex {
  let index = indexes.get(data);
  if (index === undefined) {
    const built = new Map<string, { entry: JsonObject; at: number }>();
    attendeesOf(data).forEach((entry, at) => {
      const key = typeof entry.email === 'string' ? entry.email.toLowerCase() : undefined;
      if (key !== undefined && !built.has(key)) built.set(key, { entry, at });
    });
    index = built;
    indexes.set(data, index);
  }
  return index;
}

/** The entry of `email` in an organizer's record's `data`, if listed: entryOf for lookups that repeat per guest. */
export function listedEntry(data: JsonObject, email: string): JsonObject | undefined {
  return guestsOf(data).get(email.toLowerCase())?.entry;
}

/**
 * The attendees the copy of `data` held by the invitee `email` lists, when the organizer hides
 * the guest list (`guestsCanSeeOtherGuests: false`, docs/invitations.md): the invitee's own entry and
 * the organizer's, in the list's order. Undefined when the guests see each other: the copy then
 * lists everyone. Held in the copy itself, not hidden when it is rendered, so nothing that reads
 * a copy (lists, `q`, sync, free/busy, the export) can show the others.
 */
function guestsSeenBy(data: JsonObject, email: string): JsonObject[] | undefined {
  if (data.guestsCanSeeOtherGuests !== false) return undefined;
  const index = guestsOf(data);
  const mine = index.get(email.toLowerCase());
  const organizer = index.get(organizerEmail(data)?.toLowerCase() ?? '');
  const seen = [mine, organizer].flatMap((found) => (found === undefined ? [] : [found]));
  return seen.sort((a, b) => a.at - b.at).map((found) => found.entry);
}

/**
 * The workspace's test users by lower-case e-mail (docs/invitations.md: "a test user"), listed once, on
 * first use: a write whose event invites nobody (most of them) never lists the users.
 */
export function usersByEmail(store: Store): UsersByEmail {
  let users: Map<string, UserRecord> | undefined;
  return () => {
    users ??= new Map(store.listUsers().map((u) => [u.email.toLowerCase(), u]));
    return users;
  };
}

/** The workspace's test users by lower-case e-mail, read when first asked for. */
export type UsersByEmail = () => ReadonlyMap<string, UserRecord>;

/**
 * Whether `organizer` (an organizer's record) invites `email` so that its copy lives on that
 * user's calendar: it is not cancelled and lists them, and, for an instance, so does its series
 * (copies of exceptions go to the series' invitees).
 */
export function invitesLive(store: Store, organizer: EventRecord, email: string): boolean {
  if (organizer.status === 'cancelled' || listedEntry(organizer.data, email) === undefined) return false;
  if (organizer.recurringEventId === null) return true;
  const master = store.getEvent(organizer.calendarId, organizer.recurringEventId);
  return master !== undefined && listedEntry(master.data, email) !== undefined;
}

/** The test users `data` invites (its attendees that are test users, the organizer excepted). */
export function inviteesOf(data: JsonObject | undefined, users: UsersByEmail): UserRecord[] {
  const attendees = data === undefined ? [] : attendeesOf(data);
  if (data === undefined || attendees.length === 0) return [];
  const organizer = organizerEmail(data);
  const byEmail = users();
  const out = new Set<UserRecord>();
  for (const entry of attendees) {
    if (typeof entry.email !== 'string' || sameEmail(entry.email, organizer)) continue;
    const user = byEmail.get(entry.email.toLowerCase());
    if (user !== undefined) out.add(user);
  }
  return [...out];
}

/** What a sync of copies writes with: the store, the time, the workspace's users by e-mail. */
export interface CopyContext {
  store: Store;
  now: number;
  users: UsersByEmail;
  /** Private properties to give one copy (the invitee's own write), by ownKey. */
  own?: ReadonlyMap<string, JsonObject>;
}

/** The key of one copy in CopyContext.own: its calendar and its event id. */
export function ownKey(calendarId: string, eventId: string): string {
  return `${calendarId}\n${eventId}`;
}

/** The record id `calendar` would hold as a copy of `organizer`, if the id is free or a copy of it. */
function copyTarget(store: Store, calendar: CalendarRecord, organizer: EventRecord): { existing: EventRecord | undefined } | undefined {
  const existing = store.getEvent(calendar.id, organizer.id);
  if (existing === undefined) return { existing };
  const sameEvent = existing.iCalUID === organizer.iCalUID && sameEmail(organizerEmail(existing.data), organizerEmail(organizer.data));
  return sameEvent ? { existing } : undefined;
}

/** The copy record for `data` on `calendar`; `master` is the organizer's series of an exception. */
function copyRecord(
  ctx: CopyContext,
  calendar: Pick<CalendarRecord, 'id' | 'timeZone'>,
  organizer: EventRecord,
  data: JsonObject,
  master: EventRecord | undefined,
  existing: EventRecord | undefined,
): EventRecord {
  const status = statusOf(data);
  let span = { startMs: organizer.startMs, endMs: organizer.endMs };
  let originalStartMs = organizer.originalStartMs;
  // Spans follow the copy's calendar where they depend on it: all-day dates are days of its zone,
  // as for its own events. Timed events (series expand in their own zone) take the organizer's.
  const allDay = isJsonObject(data.start) && typeof data.start.date === 'string';
  if (allDay || status !== organizer.status) span = eventSpan(data, calendar.timeZone);
  const series = (allDay || status !== organizer.status) && master !== undefined ? seriesOf(master.data, calendar.timeZone) : undefined;
  if (organizer.recurringEventId !== null && series !== undefined && typeof data.originalStartKey === 'number') {
    const times = occurrenceTimes(series, data.originalStartKey, calendar.timeZone);
    originalStartMs = times.start;
    // A cancelled instance occupies its original slot (series-exceptions.ts).
    if (status === 'cancelled') span = { startMs: times.start, endMs: times.end };
  }
  const record: EventRecord = {
    calendarId: calendar.id,
    id: organizer.id,
    seq: ctx.store.nextSeq(),
    status,
    recurring: organizer.recurringEventId === null && recurrenceLines(data).length > 0,
    recurringEventId: organizer.recurringEventId,
    originalStartMs,
    startMs: span.startMs,
    endMs: span.endMs,
    iCalUID: organizer.iCalUID,
    updatedMs: ctx.now,
    data,
  };
  return existing !== undefined && organizer.recurringEventId === null ? withHistory(existing, record) : record;
}

/**
 * Brings `user`'s copy of `organizer` in line: `invited` says whether they are to hold it live.
 * For an exception, `master` is the organizer's series; when `invited` is false but the user
 * holds the series live, the instance is written cancelled on their calendar (else their copy
 * of the series would still show it). Returns whether anything was written.
 */
function syncOne(ctx: CopyContext, user: UserRecord, organizer: EventRecord, master: EventRecord | undefined, invited: boolean, revived = false): boolean {
  const calendar = ctx.store.getCalendar(user.email);
  if (calendar === undefined) return false;
  const found = copyTarget(ctx.store, calendar, organizer);
  if (found === undefined) return false;
  const { existing } = found;
  const own = ctx.own?.get(ownKey(calendar.id, organizer.id));
  if (!invited || organizer.status === 'cancelled') {
    if (existing?.status === 'cancelled' && revived) {
      // The series' copy came back (the invitee was added again): its cancelled instances are
      // written anew, so an incremental sync that dropped them with the series reports them again.
      ctx.store.putEvent({ ...existing, seq: ctx.store.nextSeq(), updatedMs: ctx.now });
      return true;
    }
    if (existing?.status === 'cancelled') return false;
    if (existing === undefined && !cancelledCopyDue(ctx.store, calendar, master, invited)) return false;
    putCancelled(ctx, calendar, organizer, master, existing);
    return true;
  }
  if (existing?.status === 'cancelled' && listedEntry(organizer.data, user.email)?.responseStatus === 'declined') return false;
  const data = copyData(organizer.data, own ?? (existing !== undefined ? privateOf(existing.data) : initialPrivate(organizer.data)), guestsSeenBy(organizer.data, user.email));
  if (existing !== undefined && existing.status === statusOf(data) && sameData(withoutHistory(existing.data), data)) return false;
  ctx.store.putEvent(copyRecord(ctx, calendar, organizer, data, master, existing));
  return true;
}

/** `calendar`'s copy of the series `master`, live or cancelled, if it holds one. */
function heldCopyOf(store: Store, calendar: CalendarRecord, master: EventRecord): EventRecord | undefined {
  const copy = store.getEvent(calendar.id, master.id);
  return copy !== undefined && copy.iCalUID === master.iCalUID && isCopy(copy) ? copy : undefined;
}

/** Whether `calendar` holds a live copy of the series `master`. */
function holdsLive(store: Store, calendar: CalendarRecord, master: EventRecord): boolean {
  const copy = heldCopyOf(store, calendar, master);
  return copy !== undefined && copy.status !== 'cancelled';
}

/**
 * Whether a calendar that holds no copy of a record to be held cancelled gets a cancelled one:
 * an invitee of a cancelled record does (of a cancelled exception, when they hold the series'
 * copy, live or cancelled); one not invited to an exception does when they hold its series live
 * (else their copy of the series would still show the instance); nobody else.
 */
function cancelledCopyDue(store: Store, calendar: CalendarRecord, master: EventRecord | undefined, invited: boolean): boolean {
  if (master === undefined) return invited;
  return invited ? heldCopyOf(store, calendar, master) !== undefined : holdsLive(store, calendar, master);
}

/**
 * Writes `calendar`'s copy of `organizer` cancelled, as the organizer's record stands now (an
 * invitee taken off the guest list holds the list without them) with the copy's own private
 * properties. A cancelled copy is not written again by later changes of the organizer's: it is
 * no longer that invitee's event.
 */
function putCancelled(ctx: CopyContext, calendar: CalendarRecord, organizer: EventRecord, master: EventRecord | undefined, existing: EventRecord | undefined): void {
  const own = ctx.own?.get(ownKey(calendar.id, organizer.id)) ?? (existing !== undefined ? privateOf(existing.data) : initialPrivate(organizer.data));
  const data: JsonObject = { ...copyData(organizer.data, own, guestsSeenBy(organizer.data, calendar.id)), status: 'cancelled' };
  ctx.store.putEvent(copyRecord(ctx, calendar, organizer, data, master, existing));
}

/**
 * Writes `user`'s copy of the organizer's record cancelled, made first if they hold none: a
 * copy cancelled for them alone (they deleted it, or the organizer took them off the guest
 * list), as a loaded fixture states it (src/fixtures/load.ts). False when their calendar holds
 * an event of its own under that id.
 */
export function cancelCopy(ctx: CopyContext, user: UserRecord, organizer: EventRecord): boolean {
  const calendar = ctx.store.getCalendar(user.email);
  const found = calendar && copyTarget(ctx.store, calendar, organizer);
  if (calendar === undefined || found === undefined) return false;
  if (found.existing?.status === 'cancelled') return true;
  const master = organizer.recurringEventId === null ? undefined : ctx.store.getEvent(organizer.calendarId, organizer.recurringEventId);
  putCancelled(ctx, calendar, organizer, master, found.existing);
  return true;
}

/**
 * Brings every copy of an organizer's record (single event, series master or exception) in line
 * with it, after it was written. `former` is the record's data before the write: its invitees
 * who are no longer invited have their copies cancelled. For a series master, its exceptions'
 * copies follow too, after the master's copy (an exception's copy needs to know whether the
 * invitee holds the series). Returns the ids of the calendars whose events changed.
 */
export function syncCopies(ctx: CopyContext, organizer: EventRecord, former: JsonObject | undefined): Set<string> {
  const changed = new Set<string>();
  const note = (user: UserRecord, wrote: boolean): void => {
    if (wrote) changed.add(user.email);
  };
  if (organizer.recurringEventId !== null) {
    const master = ctx.store.getEvent(organizer.calendarId, organizer.recurringEventId);
    if (master === undefined || attendeesOf(master.data).length === 0) return changed;
    const invitedHere = new Set(inviteesOf(organizer.data, ctx.users));
    for (const user of inviteesOf(master.data, ctx.users)) note(user, syncOne(ctx, user, organizer, master, invitedHere.has(user)));
    return changed;
  }
  const invited = inviteesOf(organizer.data, ctx.users);
  const invitedNow = new Set(invited);
  const holders = [...invited, ...inviteesOf(former, ctx.users).filter((u) => !invitedNow.has(u))];
  // A shared copy has holders, who are invited or were until this write.
  if (holders.length === 0) return changed;
  const before = ctx.store.getSharedCopy(organizer.calendarId, organizer.id);
  const exceptions = organizer.recurring || (former !== undefined && recurrenceLines(former).length > 0) ? ctx.store.listExceptions(organizer.calendarId, organizer.id) : [];
  const invitedTo = exceptions.map((exception) => new Set(inviteesOf(exception.data, ctx.users)));
  // Whether each holds the series live, read before anything is written (an exception's copy
  // needs to know whether the series' came back).
  const wasLive = new Map<UserRecord, boolean>();
  for (const user of exceptions.length > 0 ? holders : []) {
    const calendar = ctx.store.getCalendar(user.email);
    wasLive.set(user, calendar !== undefined && holdsLive(ctx.store, calendar, organizer));
  }
  const sharing = shareCopy(ctx, organizer, invited, before, former === undefined);
  if (sharing.wrote) {
    for (const calendarId of [...sharing.holders, ...(before?.holders ?? [])]) changed.add(calendarId);
  }
  for (const user of holders) {
    const isInvited = invitedNow.has(user);
    if (!sharing.holders.has(user.email)) note(user, syncOne(ctx, user, organizer, undefined, isInvited));
    if (exceptions.length === 0) continue;
    const calendar = ctx.store.getCalendar(user.email);
    const revived = calendar !== undefined && wasLive.get(user) === false && holdsLive(ctx.store, calendar, organizer);
    exceptions.forEach((exception, i) => note(user, syncOne(ctx, user, exception, organizer, isInvited && invitedTo[i]?.has(user) === true, revived)));
  }
  return changed;
}

/**
 * Whether the copies of `organizer` can be one shared copy (Store's SharedCopyRecord): a record
 * that is not an exception (those follow their series per invitee), whose span does not depend
 * on the calendar holding it (an all-day event's dates are days of each holder's zone), and whose
 * guests see each other (else each copy lists its own invitee: guestsSeenBy).
 */
function shareable(organizer: EventRecord): boolean {
  return organizer.recurringEventId === null && !(isJsonObject(organizer.data.start) && typeof organizer.data.start.date === 'string') &&
    organizer.data.guestsCanSeeOtherGuests !== false;
}

/**
 * Writes the copy of `organizer` that its invitees hold alike, and says who holds it: every
 * invitee who holds no copy of their own (one they set private properties on, or that is
 * cancelled for them alone, which syncOne keeps). A holder of the former shared copy who will
 * not hold the new one (taken off the guest list, or their copy keeps a transparency the
 * organizer changed) first gets the former one as a copy of their own, as it read there, for
 * syncOne to bring in line. On an insert (`fresh`) nobody holds a copy yet: an event of an
 * invitee's own under the same id (not a copy) hides the shared copy on their calendar.
 */
function shareCopy(ctx: CopyContext, organizer: EventRecord, invited: readonly UserRecord[], before: SharedCopyRecord | undefined, fresh: boolean): { holders: ReadonlySet<string>; wrote: boolean } {
  // What `calendarId` holds under the id: nothing, the former shared copy, or a copy (or an
  // event) of its own. A copy of its own never carries the shared copy's sequence.
  const heldBefore = new Set(before?.holders);
  const holds = (calendarId: string): 'nothing' | 'shared' | 'own' => {
    const held = fresh ? undefined : ctx.store.getEvent(calendarId, organizer.id);
    if (held === undefined) return 'nothing';
    return before !== undefined && held.seq === before.event.seq && heldBefore.has(calendarId) ? 'shared' : 'own';
  };
  const privateKept = before === undefined || sameData(privateOf(before.event.data), initialPrivate(organizer.data));
  const holders = new Set<string>();
  for (const user of shareable(organizer) ? invited : []) {
    if (ctx.own?.has(ownKey(user.email, organizer.id)) === true) continue;
    const held = holds(user.email);
    if (held === 'nothing' || (held === 'shared' && privateKept)) holders.add(user.email);
  }
  if (before !== undefined) {
    for (const holder of before.holders) {
      if (!holders.has(holder) && holds(holder) === 'shared') ctx.store.putEvent({ ...before.event, calendarId: holder });
    }
  }
  if (holders.size === 0) {
    if (before !== undefined) ctx.store.putSharedCopy({ event: before.event, holders: [] });
    return { holders, wrote: before !== undefined };
  }
  const data = copyData(organizer.data, initialPrivate(organizer.data));
  const unchanged = before !== undefined && sameData(withoutHistory(before.event.data), data) &&
    before.holders.length === holders.size && before.holders.every((h) => holders.has(h));
  if (unchanged) return { holders, wrote: false };
  // A shared copy's span is the organizer's record's (shareable() keeps out what depends on the
  // holder's zone), so the organizer's calendar stands in for the holders'.
  const event = copyRecord(ctx, { id: organizer.calendarId, timeZone: 'UTC' }, organizer, data, undefined, before?.event);
  ctx.store.putSharedCopy({ event, holders: [...holders] });
  return { holders, wrote: true };
}
