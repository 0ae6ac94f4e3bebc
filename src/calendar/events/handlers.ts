// The events resource's handlers (https://developers.google.com/workspace/calendar/api/v3/reference/events, https://developers.google.com/workspace/calendar/api/guides/version-resources): get, insert, update,
// patch and delete here, thin: each parses the request, runs one store transaction for a write
// (input and the writes themselves: write.ts and src/event-model/), and hands the resource to
// respond(). The listing handlers have a file each: events.list in list.ts (how it reads
// the store: list-pages.ts and instance-sync.ts; cursors: list-cursor.ts; filters:
// list-filters.ts) and events.instances in instances.ts. The wire shape is
// resource.ts. A write on a calendar holding invitations goes through invitation-writes.ts:
// copies on the invitees' calendars follow in the same transaction, the outbox records the mails
// `sendUpdates` asks for, and every calendar that changed is notified after the commit.

import { jsonBody } from '../../http/request.ts';
import type { CalendarRecord, JsonObject } from '../../store/store.ts';
import { asPending } from '../../event-model/meet-conference.ts';
import { CONFERENCE_PENDING } from '../../faults/catalogue.ts';
import type { CalendarHandler, CalendarCall } from '../context.ts';
import { checkIfMatch, etagFor } from '../etag.ts';
import { deleteEvent, eventInputToGoogle, writeEvent } from './write.ts';
import type { EventTarget, WriteMode } from './write.ts';
import { insertEventRecord } from '../../event-model/event-insert.ts';
import type { WriteContext } from '../../event-model/event-record.ts';
import { EventInputError } from '../../event-model/input-error.ts';
import { conferenceDataVersionParam } from './conference-version.ts';
import { booleanParam } from '../params.ts';
import { renderEvent } from './resource.ts';
import { itemJson, textContext } from './list-items.ts';
import { calendarOf, renderContext, targetItem, targetOf } from './call.ts';
import { instances } from './instances.ts';
import { list } from './list.ts';
import { noContent, respond, respondText } from '../respond.ts';
import { afterOrganizerWrite, inviteeDelete, inviteeModify, invitationRun, isCopyTarget } from './invitation-writes.ts';
import type { InvitationRun } from './invitation-writes.ts';
import { sendUpdatesParam } from './invitation-mail.ts';

// ---------------------------------------------------------------------------------------------
// Shared request pieces.

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

/** After the commit: every calendar the write changed (the caller's, and invitees') is notified. */
function notifyChanged(call: CalendarCall, run: InvitationRun): void {
  for (const calendarId of run.changed) call.app.collectionChanged({ kind: 'events', calendarId });
}

function targetEtag(target: EventTarget): string {
  return etagFor(target.kind === 'record' ? target.record.seq : target.master.seq);
}

// ---------------------------------------------------------------------------------------------
// get, insert, update, patch, delete.

const get: CalendarHandler = (call) => {
  const calendar = calendarOf(call);
  const ctx = renderContext(call, calendar);
  // events.get always returns cancelled events too (https://developers.google.com/workspace/calendar/api/v3/reference/events/get).
  const target = targetOf(call, calendar);
  return respondText(call, targetEtag(target), itemJson(targetItem(target, textContext(call.caches.renders, ctx))));
};

/** What insert, update and patch read before their transaction: the body and the write's parameters. */
function writeRequest(call: CalendarCall) {
  const calendar = calendarOf(call);
  const ctx = renderContext(call, calendar);
  const body = jsonBody(call.req);
  const conferenceDataVersion = conferenceDataVersionParam(call.req.query);
  // Attachments are not stored (write.ts), but the flag is read so that a value other
  // than true or false is refused, as every boolean parameter is (https://developers.google.com/workspace/calendar/api/v3/reference/events/insert).
  booleanParam(call.req.query, 'supportsAttachments');
  const send = sendUpdatesParam(call.req.query);
  const write = { ...writeContext(call, calendar), conferenceDataVersion };
  return { calendar, ctx, body, write, run: invitationRun(write, send) };
}

/** A written event as the write answers it: with its new conference still pending when a fault rule says so (docs/faults.md). */
function written(call: CalendarCall, event: JsonObject, body: unknown): JsonObject {
  return call.req.trace.shape === CONFERENCE_PENDING ? asPending(event, body) : event;
}

const insert: CalendarHandler = (call) => {
  const { ctx, body, write, run } = writeRequest(call);
  const record = transact(call, () => {
    const created = insertEventRecord(body, write);
    call.app.store.putEvent(created);
    afterOrganizerWrite(run, created, undefined);
    return created;
  });
  notifyChanged(call, run);
  return respond(call, written(call, renderEvent(record, ctx), body));
};

function modify(mode: WriteMode): CalendarHandler {
  return (call) => {
    const { calendar, ctx, body, write, run } = writeRequest(call);
    const record = transact(call, () => {
      const target = targetOf(call, calendar);
      checkIfMatch(call.req, targetEtag(target));
      if (isCopyTarget(target)) return inviteeModify(run, target, body, mode, call.params.eventId as string);
      const before = target.kind === 'record' ? target.record.data : target.master.data;
      const written = writeEvent(write, target, body, mode);
      call.app.store.putEvent(written);
      afterOrganizerWrite(run, written, before);
      return written;
    });
    notifyChanged(call, run);
    return respond(call, written(call, renderEvent(record, ctx), body));
  };
}

const remove: CalendarHandler = (call) => {
  const calendar = calendarOf(call);
  const send = sendUpdatesParam(call.req.query);
  const run = invitationRun(writeContext(call, calendar), send);
  transact(call, () => {
    const target = targetOf(call, calendar);
    checkIfMatch(call.req, targetEtag(target));
    if (isCopyTarget(target)) {
      inviteeDelete(run, target, call.params.eventId as string);
      return;
    }
    const before = target.kind === 'record' ? target.record.data : target.master.data;
    const written = deleteEvent(run.ctx, target);
    for (const record of written) call.app.store.putEvent(record);
    // The last record is the one covering the others (a series master after its exceptions).
    const last = written[written.length - 1];
    if (last !== undefined) afterOrganizerWrite(run, last, before, true);
  });
  notifyChanged(call, run);
  return noContent();
};

export const eventHandlers = {
  list,
  get,
  instances,
  insert,
  update: modify('update'),
  patch: modify('patch'),
  delete: remove,
} satisfies Record<string, CalendarHandler>;

