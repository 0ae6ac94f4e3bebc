// Calendars: the `primary` alias and ownership check every calendarId path parameter goes
// through, the Calendar resource (https://developers.google.com/workspace/calendar/api/v3/reference/calendars) and calendars.get (https://developers.google.com/workspace/calendar/api/v3/reference/calendars/get).
//
// Single-owner model: each calendar belongs to exactly one user and only that user reaches it
// through the API. Any other calendar id answers 404 notFound, the same as an unknown one, so the
// API never reveals which ids exist (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/delete, docs/calendar-api.md).

import { googleErrors } from '../api/google-error.ts';
import type { CalendarRecord, Json, UserRecord } from '../store/store.ts';
import type { CalendarCall, CalendarHandler } from './context.ts';
import { conferencePropertiesOf } from '../event-model/meet-conference.ts';
import { etagFor } from './etag.ts';
import { respond } from './respond.ts';

/** The keyword every calendarId path parameter accepts for the caller's primary calendar (https://developers.google.com/workspace/calendar/api/v3/reference/calendars/get). */
export const PRIMARY_ALIAS = 'primary';

/** The calendar a calendarId path parameter names, owned by the caller; otherwise 404 notFound. */
export function resolveOwnedCalendar(call: CalendarCall, calendarId: string): CalendarRecord {
  const { store } = call.app;
  const user = call.auth.user;
  const calendar = calendarId === PRIMARY_ALIAS ? primaryOf(call) : store.getCalendar(calendarId);
  if (!calendar || calendar.ownerId !== user.id) throw googleErrors.notFound();
  return calendar;
}

/** The caller's primary calendar: its id is the owner's e-mail (src/fixtures/fixture.ts), so one lookup usually finds it. */
function primaryOf(call: CalendarCall): CalendarRecord | undefined {
  const { store } = call.app;
  const user = call.auth.user;
  const byEmail = store.getCalendar(user.email);
  if (byEmail?.primary === true && byEmail.ownerId === user.id) return byEmail;
  return store.listCalendarsByOwner(user.id).find((c) => c.primary);
}

/** A calendar field kept in `data` as a string, or undefined (absent optional fields are omitted). */
export function calendarText(calendar: CalendarRecord, key: 'summary' | 'description' | 'location'): string | undefined {
  const value = calendar.data[key];
  return typeof value === 'string' ? value : undefined;
}

/** `dataOwner`: the owner's e-mail, present on secondary calendars only (https://developers.google.com/workspace/calendar/api/v3/reference/calendars). */
export function dataOwnerOf(calendar: CalendarRecord, owner: UserRecord): string | undefined {
  return calendar.primary ? undefined : owner.email;
}

function renderCalendar(calendar: CalendarRecord, owner: UserRecord): Record<string, Json> {
  const out: Record<string, Json> = {
    kind: 'calendar#calendar',
    etag: etagFor(calendar.seq),
    id: calendar.id,
    summary: calendarText(calendar, 'summary') ?? '',
  };
  const description = calendarText(calendar, 'description');
  if (description !== undefined) out.description = description;
  const location = calendarText(calendar, 'location');
  if (location !== undefined) out.location = location;
  out.timeZone = calendar.timeZone;
  out.conferenceProperties = conferencePropertiesOf(calendar);
  const dataOwner = dataOwnerOf(calendar, owner);
  if (dataOwner !== undefined) out.dataOwner = dataOwner;
  return out;
}

/** calendars.get (https://developers.google.com/workspace/calendar/api/v3/reference/calendars/get): the calendar's metadata; the response carries the real id, never `primary`. */
export const getCalendar: CalendarHandler = (call) => {
  const calendar = resolveOwnedCalendar(call, call.params.calendarId as string);
  return respond(call, renderCalendar(calendar, call.auth.user));
};
