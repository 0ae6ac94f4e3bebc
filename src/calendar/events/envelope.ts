// The Events envelope of events.list and events.instances (https://developers.google.com/workspace/calendar/api/v3/reference/events/list, https://developers.google.com/workspace/calendar/api/guides/sync):
// `{"kind","etag","summary","description"?,"updated","timeZone","accessRole","defaultReminders",
// "nextPageToken"|"nextSyncToken","items"}`: the head written as text, spliced with items already
// serialised (list-items.ts), so a page is its cached renderings sent one after another.
//
// The envelope is built on every list call, a sync that finds nothing included, so the parts
// that follow from the calendar and from the caller's calendar-list entry alone are serialised
// once per version of each: records a store hands out are read-only and shared (Store), and a
// write makes a new record.

import type { Result } from '../../http/result.ts';
import type { CalendarListEntryRecord, CalendarRecord } from '../../store/store.ts';
import { formatIsoUtc } from '../../domain/time/zones.ts';
import type { CalendarCall } from '../context.ts';
import { calendarText } from '../calendars.ts';
import { etagFor } from '../etag.ts';
import { pageBody } from './list-items.ts';
import { respondText } from '../respond.ts';

export interface EnvelopePage {
  /** List items (UTF-8 JSON, each followed by a comma). */
  readonly items: Buffer[];
  readonly watermark: number;
  readonly updatedMs: number;
  readonly next: { pageToken: string } | { syncToken: string } | undefined;
}

const calendarParts = new WeakMap<CalendarRecord, string>();
const reminderParts = new WeakMap<CalendarListEntryRecord, string>();

/** `,"summary":…,"description":…` as the calendar has them. */
function calendarPart(calendar: CalendarRecord): string {
  let part = calendarParts.get(calendar);
  if (part === undefined) {
    part = '';
    for (const key of ['summary', 'description'] as const) {
      const value = calendarText(calendar, key);
      if (value !== undefined) part += `,"${key}":${JSON.stringify(value)}`;
    }
    calendarParts.set(calendar, part);
  }
  return part;
}

/** The caller's default reminders for the calendar, as JSON. */
function remindersPart(call: CalendarCall, calendar: CalendarRecord): string {
  const entry = call.app.store.getCalendarListEntry(call.auth.user.id, calendar.id);
  if (entry === undefined) return '[]';
  let part = reminderParts.get(entry);
  if (part === undefined) {
    const reminders = entry.data.defaultReminders;
    part = Array.isArray(reminders) ? JSON.stringify(reminders) : '[]';
    reminderParts.set(entry, part);
  }
  return part;
}

// Answers in the same millisecond carry the same `updated` (an empty page is stamped now), and
// formatting an instant is a good part of building an envelope: the last one is kept.
let lastStamp = { ms: Number.NaN, text: '' };

function stamp(ms: number): string {
  if (ms !== lastStamp.ms) lastStamp = { ms, text: formatIsoUtc(ms) };
  return lastStamp.text;
}

export function respondEnvelope(call: CalendarCall, calendar: CalendarRecord, page: EnvelopePage): Result {
  const etag = etagFor(Math.max(page.watermark, calendar.seq));
  let next = '';
  if (page.next !== undefined) {
    next = 'pageToken' in page.next ? `,"nextPageToken":${JSON.stringify(page.next.pageToken)}` : `,"nextSyncToken":${JSON.stringify(page.next.syncToken)}`;
  }
  const head =
    `{"kind":"calendar#events","etag":${JSON.stringify(etag)}${calendarPart(calendar)}` +
    `,"updated":"${stamp(page.updatedMs)}","timeZone":${JSON.stringify(calendar.timeZone)}` +
    `,"accessRole":"owner","defaultReminders":${remindersPart(call, calendar)}${next},"items":[`;
  return respondText(call, etag, pageBody(head, page.items));
}
