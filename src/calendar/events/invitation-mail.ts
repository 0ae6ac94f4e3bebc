// The e-mails Google would send about an event write, recorded in the outbox instead
// (docs/invitations.md, GET /__svc/outbox): the `sendUpdates` parameter (`all`, `externalOnly`,
// `none`, default `none`; the deprecated `sendNotifications=true` means `all`; when both are
// given `sendUpdates` wins, being the documented replacement: Google's reference says only
// "Deprecated. Please use sendUpdates instead"), who gets which kind, one message per
// recipient, recorded in the write's own transaction so a refused write leaves none.
//
// Choices where docs/invitations.md is silent (Google sends these mails but documents no finer rule):
// - an organizer's update mails every attendee still listed whenever the organizer writes the
//   event, whatever changed (Google's "send updates" prompt does not look at what changed);
// - an attendee listed twice, or in another letter case, gets one message;
// - the recipient list never holds the writer (`all`: "every attendee except the writer").

import type { JsonObject, NewOutboxMessage, OutboxKind, Store, UserRecord } from '../../store/store.ts';
import { attendeesOf, organizerEmail } from '../../event-model/invitee-copies.ts';
import type { UsersByEmail } from '../../event-model/invitee-copies.ts';
import { booleanParam, enumParam } from '../params.ts';

export type SendUpdates = 'all' | 'externalOnly' | 'none';

/** `sendUpdates`, else the deprecated `sendNotifications` (true: all), else none. */
export function sendUpdatesParam(query: URLSearchParams): SendUpdates {
  const sendUpdates = enumParam(query, 'sendUpdates', ['all', 'externalOnly', 'none'] as const);
  const sendNotifications = booleanParam(query, 'sendNotifications');
  return sendUpdates ?? (sendNotifications === true ? 'all' : 'none');
}

/** What one write mails: who sent it, how, and which event. */
export interface Mailing {
  store: Store;
  now: number;
  users: UsersByEmail;
  send: SendUpdates;
  writer: UserRecord;
  /** The organizer's calendar holding the event. */
  calendarId: string;
  eventId: string;
  summary: string | null;
}

function emails(data: JsonObject | undefined): string[] {
  if (data === undefined) return [];
  return attendeesOf(data).flatMap((a) => (typeof a.email === 'string' ? [a.email] : []));
}

function isTestUser(mailing: Mailing, email: string): boolean {
  return mailing.users().has(email.toLowerCase());
}

/** The messages of `kind` for each of `to` that the mode lets through. */
function messages(mailing: Mailing, kind: OutboxKind, to: readonly string[]): NewOutboxMessage[] {
  if (mailing.send === 'none') return [];
  const seen = new Set<string>([mailing.writer.email.toLowerCase()]);
  const out: NewOutboxMessage[] = [];
  for (const email of to) {
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (mailing.send === 'externalOnly' && isTestUser(mailing, email)) continue;
    out.push({
      at: mailing.now,
      to: email,
      kind,
      eventId: mailing.eventId,
      calendarId: mailing.calendarId,
      fromUserId: mailing.writer.id,
      summary: mailing.summary,
    });
  }
  return out;
}

/**
 * An organizer's write (or an invitee's with guestsCanModify) took the event from `before` to
 * `after` (undefined: it did not exist / was deleted): new attendees get an invitation, removed
 * ones a cancellation, the others an update; a deletion cancels for everyone. The write's
 * messages are recorded together, so the outbox trims once (store/outbox-bounds.ts).
 */
export function mailOrganizerWrite(mailing: Mailing, before: JsonObject | undefined, after: JsonObject | undefined): void {
  if (mailing.send === 'none') return;
  if (after === undefined) {
    mailing.store.addOutboxMessages(messages(mailing, 'cancellation', emails(before)));
    return;
  }
  mailing.store.addOutboxMessages(guestListMessages(mailing, before, after, true));
}

/**
 * An invitee's write changed only the guest list (guests they invited, or with guestsCanModify
 * added or removed): the new guests get their invitation and the removed ones their
 * cancellation as from the organizer's write; the others get no update, the event being the
 * same for them (a choice: Google documents no rule for it).
 */
export function mailGuestListChange(mailing: Mailing, before: JsonObject, after: JsonObject): void {
  if (mailing.send === 'none') return;
  mailing.store.addOutboxMessages(guestListMessages(mailing, before, after, false));
}

function guestListMessages(mailing: Mailing, before: JsonObject | undefined, after: JsonObject, updates: boolean): NewOutboxMessage[] {
  const was = emails(before);
  const now = emails(after);
  // One lookup per guest (docs/invitations.md "Cost": linear in the number of guests).
  const wasListed = lowerCased(was);
  const nowListed = lowerCased(now);
  return [
    ...messages(mailing, 'cancellation', was.filter((e) => !nowListed.has(e.toLowerCase()))),
    ...messages(mailing, 'invitation', now.filter((e) => !wasListed.has(e.toLowerCase()))),
    ...(before === undefined || !updates ? [] : messages(mailing, 'update', now.filter((e) => wasListed.has(e.toLowerCase())))),
  ];
}

function lowerCased(emails: readonly string[]): Set<string> {
  return new Set(emails.map((e) => e.toLowerCase()));
}

/** An invitee changed their answer: a reply to the organizer, only with `all`. */
export function mailReply(mailing: Mailing, organizer: JsonObject): void {
  const to = organizerEmail(organizer);
  if (mailing.send === 'all' && to !== undefined) mailing.store.addOutboxMessages(messages(mailing, 'reply', [to]));
}
