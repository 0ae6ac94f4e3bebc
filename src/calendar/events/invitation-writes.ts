// Event writes where invitations are involved (docs/invitations.md): what an organizer's write does to
// the copies on its invitees' calendars and to the outbox, and what an invitee may do to a copy
// (answer, set its own private properties, delete it to decline). The copies themselves are
// src/event-model/invitee-copies.ts; the mails invitation-mail.ts. Every function here runs inside the
// handler's one store transaction, so a refused write changes nothing anywhere.
//
// Rights on a copy (docs/invitations.md, https://developers.google.com/workspace/calendar/api/guides/errors): unless the organizer set guestsCanModify,
// an invitee changes only their own attendee entry's responseStatus, comment and
// additionalGuests and the copy's private properties, and, unless the organizer set
// guestsCanInviteOthers to false (its default is true), adds guests; anything else is 403
// forbiddenForNonOrganizer. Adding is all that guestsCanInviteOthers allows: removing or changing
// another guest takes guestsCanModify, as Google's permissions read ("Modify event: change all
// event details, including removing guests"; "Invite others",
// https://github.com/hackforla/product-management/wiki/Guest-Permissions-for-Google-Calendar-Invites;
// the Event resource: "Whether attendees other than the organizer can invite others to the
// event", https://developers.google.com/calendar/api/v3/reference/events). The rights are read off the organizer's event as it stands (a guest
// it no longer lists changes nothing), what the invitee changed off the copy they were shown
// (which lists only them and the organizer when the guests may not see each other, so the
// hidden guests stay whatever the invitee sends). Choices where docs/invitations.md and Google's documentation
// are silent:
// - a body without `attendees` leaves the attendees as they are (an update that sends back the
//   event without its guest list is not taken as removing every guest);
// - the invitee's own entry keeps its other members (displayName, optional) as the organizer
//   wrote them: only the three answer members are taken from the body;
// - an answer to one instance goes through the organizer's calendar as a write of that instance,
//   so it becomes an exception there and on every copy, as docs/invitations.md asks.

import { GoogleApiError } from '../../api/google-error.ts';
import type { CalendarRecord, EventRecord, JsonObject, Store, UserRecord } from '../../store/store.ts';
import type { WriteContext } from '../../event-model/event-record.ts';
import { clientFields } from '../../event-model/event-input.ts';
import { instanceBase } from '../../event-model/series-exceptions.ts';
import { privateOf, sharedOf, statusOf } from '../../event-model/copy-data.ts';
import { attendeesOf, entryOf, invitesLive, isCopy, organizerEmail, ownKey, sameEmail, syncCopies, usersByEmail } from '../../event-model/invitee-copies.ts';
import type { CopyContext, UsersByEmail } from '../../event-model/invitee-copies.ts';
import { deleteEvent, findTarget, timingChanged, writeEvent } from './write.ts';
import type { EventTarget, WriteMode } from './write.ts';
import { mailGuestListChange, mailOrganizerWrite, mailReply } from './invitation-mail.ts';
import type { Mailing, SendUpdates } from './invitation-mail.ts';

/** https://developers.google.com/workspace/calendar/api/guides/errors: an attendee changing what only the organizer may change. */
export function forbiddenForNonOrganizer(): GoogleApiError {
  return new GoogleApiError({
    status: 403,
    domain: 'calendar',
    reason: 'forbiddenForNonOrganizer',
    message: 'Shared properties can only be changed by the organizer of the event.',
  });
}

/** One write as the handler runs it: its context, the mail mode, and the calendars it changed. */
export interface InvitationRun {
  ctx: WriteContext;
  send: SendUpdates;
  users: UsersByEmail;
  /** Calendars whose events changed (push notifications go to each after the commit). */
  changed: Set<string>;
}

export function invitationRun(ctx: WriteContext, send: SendUpdates): InvitationRun {
  return { ctx, send, users: usersByEmail(ctx.store), changed: new Set([ctx.calendar.id]) };
}

/** The record or series master a target stands on. */
function targetRecord(target: EventTarget): EventRecord {
  return target.kind === 'record' ? target.record : target.master;
}

/** Whether the target is a copy of an event organized on another calendar. */
export function isCopyTarget(target: EventTarget): boolean {
  return isCopy(targetRecord(target));
}

/** The client fields the target holds now (an untouched instance: the series' at its times). */
function currentFields(target: EventTarget, calendar: CalendarRecord): JsonObject {
  if (target.kind === 'record') return target.record.data;
  return instanceBase(target.master, target.series, target.key, calendar.timeZone) as JsonObject;
}

function copyContext(run: InvitationRun, own?: ReadonlyMap<string, JsonObject>): CopyContext {
  return { store: run.ctx.store, now: run.ctx.now, users: run.users, ...(own === undefined ? {} : { own }) };
}

function mailing(run: InvitationRun, writer: UserRecord, calendarId: string, record: EventRecord): Mailing {
  const summary = record.data.summary;
  return {
    store: run.ctx.store,
    now: run.ctx.now,
    users: run.users,
    send: run.send,
    writer,
    calendarId,
    eventId: record.id,
    summary: typeof summary === 'string' ? summary : null,
  };
}

function addAll(into: Set<string>, from: Iterable<string>): void {
  for (const id of from) into.add(id);
}

/**
 * After the organizer's calendar stored `written` (events.insert, update, patch; for delete, the
 * last record deleteEvent returns, which is the one covering the others): the copies follow and
 * the mails are recorded. `before`: the event's fields before the write (undefined on insert);
 * `deleted`: the write was events.delete.
 */
export function afterOrganizerWrite(run: InvitationRun, written: EventRecord, before: JsonObject | undefined, deleted = false): void {
  addAll(run.changed, syncCopies(copyContext(run), written, before));
  mailOrganizerWrite(mailing(run, run.ctx.owner, written.calendarId, written), before, deleted ? undefined : written.data);
}

// ---------------------------------------------------------------------------------------------
// An invitee's writes to their copy.

const ANSWER_MEMBERS = ['responseStatus', 'comment', 'additionalGuests'] as const;

/** The attendees after an invitee's write: theirs with the answer members of `sent`, the others as they were. */
function answeredAttendees(current: JsonObject, sent: JsonObject | undefined, email: string): JsonObject[] {
  return attendeesOf(current).map((entry) => {
    if (!sameEmail(entry.email, email)) return entry;
    const out: JsonObject = { ...entry };
    for (const key of ANSWER_MEMBERS) {
      delete out[key];
      if (sent?.[key] !== undefined) out[key] = sent[key];
    }
    return out;
  });
}

/** An attendee entry reduced to what identifies and describes the guest (read-only flags dropped). */
function guestKey(entry: JsonObject): string {
  const { self: _self, organizer: _organizer, ...rest } = entry;
  return JSON.stringify(Object.keys(rest).sort().map((k) => [k.toLowerCase() === 'email' ? String(rest[k]).toLowerCase() : k, rest[k]]));
}

/** What a sent attendee list does to the guests other than the invitee, against the list they were shown. */
interface OthersSent {
  /** Entries for guests the invitee was not shown (one per e-mail): guests they invite. */
  added: JsonObject[];
  /** Whether a shown guest is changed or left out (the invitee's own entry left out included). */
  changed: boolean;
}

/** A list of the invitee's own entry alone changes nobody else. One Map or Set lookup per guest. */
function othersSent(seen: JsonObject, sent: JsonObject[], email: string): OthersSent {
  if (sent.length === 1 && sameEmail(sent[0]?.email, email)) return { added: [], changed: false };
  const key = (entry: JsonObject): string => String(entry.email).toLowerCase();
  const sentBy = new Map(sent.map((entry) => [key(entry), entry]));
  let changed = !sentBy.has(email.toLowerCase());
  const shown = new Set<string>();
  for (const entry of attendeesOf(seen)) {
    shown.add(key(entry));
    if (sameEmail(entry.email, email)) continue;
    const now = sentBy.get(key(entry));
    if (now === undefined || guestKey(now) !== guestKey(entry)) changed = true;
  }
  return { added: [...sentBy.values()].filter((entry) => !shown.has(key(entry))), changed };
}

/** `attendees` and, after them, each of `added` they do not list yet (a guest hidden from the inviter stays as listed). */
function withGuests(attendees: JsonObject[], added: readonly JsonObject[]): JsonObject[] {
  const listed = new Set(attendees.map((entry) => String(entry.email).toLowerCase()));
  return [...attendees, ...added.filter((entry) => !listed.has(String(entry.email).toLowerCase()))];
}

/**
 * Fields at their default value, which a client sends back when it writes what it read (Google
 * renders some defaults: `status: confirmed`) and which mean the same as the field left out.
 */
const DEFAULTS: JsonObject = {
  status: 'confirmed',
  visibility: 'default',
  anyoneCanAddSelf: false,
  guestsCanInviteOthers: true,
  guestsCanModify: false,
  guestsCanSeeOtherGuests: true,
  privateCopy: false,
  endTimeUnspecified: false,
};

/** Whether `after` differs from `before` in a shared property other than the attendees. */
function sharedChanged(before: JsonObject, after: JsonObject, zone: string): boolean {
  if (timingChanged(before, after, zone)) return true;
  const strip = (data: JsonObject): JsonObject => {
    const shared = sharedOf(clientFields(data) as JsonObject);
    for (const key of ['attendees', 'start', 'end']) delete shared[key];
    for (const [key, value] of Object.entries(DEFAULTS)) if (shared[key] === value) delete shared[key];
    return shared;
  };
  const a = strip(before);
  const b = strip(after);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return true;
  return false;
}

/** The organizer's calendar, owner and target for a copy's event, when they still exist. */
function organizerSide(store: Store, copy: EventRecord, id: string): { calendar: CalendarRecord; owner: UserRecord; target: EventTarget } | undefined {
  const email = organizerEmail(copy.data);
  const calendar = email === undefined ? undefined : store.getCalendar(email);
  const owner = calendar && store.getUser(calendar.ownerId);
  const target = calendar && findTarget(store, calendar, id);
  return calendar && owner && target ? { calendar, owner, target } : undefined;
}

/**
 * events.update / patch of a copy by its invitee: the rights check, then the answer (and, with
 * guestsCanModify, the shared change) written to the organizer's event, from where every copy
 * follows; the copy keeps the private properties the body set. `status: "cancelled"` is their
 * decline, as their delete is (inviteeDelete): only the organizer cancels the event for
 * everyone. Returns the copy as written.
 */
export function inviteeModify(run: InvitationRun, target: EventTarget, input: unknown, mode: WriteMode, id: string): EventRecord {
  const { ctx } = run;
  const me = ctx.owner.email;
  const zone = ctx.calendar.timeZone;
  // What the invitee sees: their copy (a guest list without the hidden guests, docs/invitations.md).
  const seen = currentFields(target, ctx.calendar);
  const intended = writeEvent(ctx, target, input, mode);
  const organizer = organizerSide(ctx.store, targetRecord(target), id);
  // Rights come from the organizer's event as it stands and its current guest list, never from
  // the copy (docs/invitations.md): a guest the organizer removed, or of an event the organizer deleted,
  // holds a cancelled copy and changes nothing, whatever the copy says of guestsCanModify.
  const orgBefore = organizer && currentFields(organizer.target, organizer.calendar);
  if (organizer !== undefined && !invitesLive(ctx.store, targetRecord(organizer.target), me)) throw forbiddenForNonOrganizer();
  const mayModify = orgBefore?.guestsCanModify === true;
  const declining = statusOf(intended.data) === 'cancelled' && statusOf(seen) !== 'cancelled';
  // The rest of the body is checked and written as any other; the status stays the event's.
  const asked = declining ? withStatusOf(intended.data, seen) : intended.data;
  const body = input as JsonObject;
  const sent = Array.isArray(body.attendees) ? (body.attendees.filter((a) => typeof a === 'object' && a !== null && !Array.isArray(a)) as JsonObject[]) : undefined;
  const others = sent === undefined ? undefined : othersSent(seen, sent, me);
  // guestsCanInviteOthers (Google's default true) lets a guest add guests, never remove or
  // change one: that takes guestsCanModify. An orphaned copy invites nobody.
  const mayInvite = orgBefore !== undefined && orgBefore.guestsCanInviteOthers !== false;
  if (!mayModify) {
    if (sharedChanged(seen, asked, zone)) throw forbiddenForNonOrganizer();
    if (others?.changed === true) throw forbiddenForNonOrganizer();
    if (others !== undefined && others.added.length > 0 && !mayInvite) throw forbiddenForNonOrganizer();
  }
  if (organizer === undefined || orgBefore === undefined) {
    // The organizer's event is gone (its user was deleted): the copy alone takes the write.
    ctx.store.putEvent(intended);
    return intended;
  }
  const mine = sent?.find((a) => sameEmail(a.email, me));
  const ownOnly = sent !== undefined && sent.length === 1 && mine !== undefined;
  // A decline's answer is written by inviteeDelete below, once.
  const answer = declining ? undefined : mine;
  let attendees: JsonObject[];
  if (mayModify && sent !== undefined && !ownOnly) attendees = guestsAfter(orgBefore, seen, sent, declining ? me : undefined);
  else attendees = withGuests(answer === undefined ? attendeesOf(orgBefore) : answeredAttendees(orgBefore, answer, me), others?.added ?? []);
  const answerChanged = JSON.stringify(attendees) !== JSON.stringify(attendeesOf(orgBefore));
  const shared = mayModify && sharedChanged(seen, asked, zone);
  const orgCtx: WriteContext = { ...ctx, calendar: organizer.calendar, owner: organizer.owner };
  const own = new Map([[ownKey(ctx.calendar.id, id), privateOf(intended.data)]]);
  let orgRecord: EventRecord;
  if (answerChanged || shared || target.kind === 'instance') {
    const patch: JsonObject = { attendees };
    if (shared) Object.assign(patch, sharedPatch(seen, asked));
    orgRecord = writeEvent(orgCtx, organizer.target, patch, 'patch');
    ctx.store.putEvent(orgRecord);
    run.changed.add(organizer.calendar.id);
  } else {
    orgRecord = targetRecord(organizer.target);
  }
  addAll(run.changed, syncCopies(copyContext(run, own), orgRecord, organizer.target.kind === 'record' ? orgBefore : undefined));
  const mail = mailing(run, ctx.owner, organizer.calendar.id, orgRecord);
  if (shared) mailOrganizerWrite(mail, orgBefore, orgRecord.data);
  else mailGuestListChange(mail, orgBefore, orgRecord.data);
  const answerBefore = entryOf(orgBefore, me);
  const answerAfter = entryOf(orgRecord.data, me);
  if (answerBefore?.responseStatus !== answerAfter?.responseStatus || answerBefore?.comment !== answerAfter?.comment) {
    mailReply(mail, orgRecord.data);
  }
  if (declining) inviteeDelete(run, target, id);
  return ctx.store.getEvent(ctx.calendar.id, id) ?? intended;
}

/** `data` with the status `from` has (none when it has none). */
function withStatusOf(data: JsonObject, from: JsonObject): JsonObject {
  const { status: _status, ...rest } = data;
  return from.status === undefined ? rest : { ...rest, status: from.status };
}

/**
 * The organizer's attendees after an invitee allowed to modify the event sent `sent` for the
 * list they saw on their copy (`seen`): guests hidden from them stay as they are, the ones they
 * saw follow `sent` (those left out are removed, those added are added), and a guest the
 * organizer removed since the copy was written is not brought back. `keep`: a guest whose entry
 * stays as the organizer's list has it (the invitee declining: inviteeDelete answers for them).
 * One Map or Set lookup per guest (docs/invitations.md "Cost").
 */
function guestsAfter(current: JsonObject, seen: JsonObject, sent: JsonObject[], keep: string | undefined): JsonObject[] {
  const key = (entry: JsonObject): string => String(entry.email).toLowerCase();
  const shown = new Set(attendeesOf(seen).map(key));
  const kept = keep?.toLowerCase();
  const sentBy = new Map(sent.map((entry) => [key(entry), entry]));
  const out: JsonObject[] = [];
  for (const entry of attendeesOf(current)) {
    const k = key(entry);
    const followed = shown.has(k) && k !== kept ? sentBy.get(k) : entry;
    if (followed !== undefined) out.push(followed);
    sentBy.delete(k);
  }
  for (const [k, entry] of sentBy) if (!shown.has(k)) out.push(entry);
  return out;
}

/** The patch that gives the organizer's event the shared fields the invitee changed from what they saw (null clears one). */
function sharedPatch(seen: JsonObject, after: JsonObject): JsonObject {
  const wanted = sharedOf(clientFields(after) as JsonObject);
  const was = sharedOf(clientFields(seen) as JsonObject);
  const patch: JsonObject = {};
  for (const key of new Set([...Object.keys(wanted), ...Object.keys(was)])) {
    if (key !== 'attendees' && JSON.stringify(wanted[key]) !== JSON.stringify(was[key])) patch[key] = wanted[key] ?? null;
  }
  return patch;
}

/**
 * events.delete of a copy by its invitee: they decline (their entry reads `declined` on the
 * organizer's event, and so on every copy; for a series, on every instance that lists them) and
 * their own copy is cancelled, for them only. An organizer's event that is gone leaves the
 * copy to be deleted alone.
 */
export function inviteeDelete(run: InvitationRun, target: EventTarget, id: string): void {
  const { ctx } = run;
  const me = ctx.owner.email;
  const organizer = organizerSide(ctx.store, targetRecord(target), id);
  if (organizer !== undefined && targetRecord(target).status !== 'cancelled') {
    const orgCtx: WriteContext = { ...ctx, calendar: organizer.calendar, owner: organizer.owner };
    const declined = (data: JsonObject): JsonObject[] => answeredAttendees(data, { responseStatus: 'declined' }, me);
    const orgBefore = currentFields(organizer.target, organizer.calendar);
    if (organizer.target.kind === 'record' && organizer.target.record.recurring) {
      for (const exception of ctx.store.listExceptions(organizer.calendar.id, organizer.target.record.id)) {
        if (exception.status === 'cancelled' || entryOf(exception.data, me) === undefined) continue;
        ctx.store.putEvent(writeEvent(orgCtx, { kind: 'record', record: exception }, { attendees: declined(exception.data) }, 'patch'));
      }
    }
    const orgRecord = writeEvent(orgCtx, organizer.target, { attendees: declined(orgBefore) }, 'patch');
    ctx.store.putEvent(orgRecord);
    run.changed.add(organizer.calendar.id);
    addAll(run.changed, syncCopies(copyContext(run), orgRecord, organizer.target.kind === 'record' ? orgBefore : undefined));
    if (entryOf(orgBefore, me)?.responseStatus !== 'declined') mailReply(mailing(run, ctx.owner, organizer.calendar.id, orgRecord), orgRecord.data);
  }
  // The copy as it stands now (an instance answered above has become an exception).
  const own = findTarget(ctx.store, ctx.calendar, id) ?? target;
  for (const record of deleteEvent(ctx, own)) ctx.store.putEvent(record);
}
