// The tools over calendars and events, each a mapping of Google's MCP arguments onto one or two
// Calendar API methods (api-call.ts) and of the answer onto the output its reference page gives
// (https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/<tool>):
// ListCalendarsResponse {calendars, nextPageToken}, a list of events with nextPageToken, or one
// Event. Writes name who is told through `sendUpdates`, from Google's NotificationLevel.

import { randomUUID } from 'node:crypto';
import type { SendUpdates } from '../calendar/events/invitation-mail.ts';
import { callApi } from './api-call.ts';
import type { ToolContext } from './api-call.ts';
import { booleanArg, documentedValue, integerArg, stringArg, stringsArg, ToolError } from './arguments.ts';
import type { Arguments } from './arguments.ts';
import { rfc3339Arg, zoneArg } from './times.ts';
import { EVENT_TYPES, RESPONSE_STATUSES } from './tools.ts';

export type ToolHandler = (ctx: ToolContext, args: Arguments) => Promise<Record<string, unknown>>;

const PRIMARY = 'primary';

// NotificationLevel → sendUpdates. Unspecified means everyone, as Calendar's own UI sends invitations.
const SEND_UPDATES: Readonly<Record<string, SendUpdates>> = { NOTIFICATION_LEVEL_UNSPECIFIED: 'all', ALL: 'all', EXTERNAL_ONLY: 'externalOnly', NONE: 'none' };

function sendUpdates(args: Arguments): SendUpdates {
  return SEND_UPDATES[stringArg(args, 'notificationLevel') ?? 'ALL'] ?? 'all';
}

function calendarIdOf(args: Arguments): string {
  return stringArg(args, 'calendarId') ?? PRIMARY;
}

/**
 * The zone a time without an offset is read in: the argument's, else the calendar's. An unknown
 * calendar reads UTC here; the method called next answers its 404.
 */
function zoneFor(ctx: ToolContext, args: Arguments, calendarId: string): string {
  const given = zoneArg(stringArg(args, 'timeZone'));
  if (given !== undefined) return given;
  const { store } = ctx.app;
  const user = ctx.auth.user;
  const calendar = calendarId === PRIMARY ? store.listCalendarsByOwner(user.id).find((c) => c.primary) : store.getCalendar(calendarId);
  return calendar !== undefined && calendar.ownerId === user.id ? calendar.timeZone : 'UTC';
}

type ApiEvent = Record<string, unknown>;

/**
 * The Event of Google's MCP output schema: the Calendar API's Event resource without its
 * envelope members `kind` and `etag` (the reference's Event begins with `id`, for example on
 * https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/delete_event).
 */
function mcpEvent({ kind: _kind, etag: _etag, ...event }: ApiEvent): ApiEvent {
  return event;
}

function eventsPage(answer: { items: ApiEvent[]; nextPageToken?: string }): Record<string, unknown> {
  return { events: answer.items.map(mcpEvent), ...(answer.nextPageToken === undefined ? {} : { nextPageToken: answer.nextPageToken }) };
}

const listCalendars: ToolHandler = async (ctx, args) => {
  const page = await callApi(ctx, 'calendar.calendarList.list', {
    query: { maxResults: optionalNumber(integerArg(args, 'pageSize')), pageToken: stringArg(args, 'pageToken') },
  });
  const calendars = (page.items as Array<Record<string, unknown>>).map(({ id, summary, description, timeZone }) => ({
    id,
    summary,
    ...(description === undefined ? {} : { description }),
    timeZone,
  }));
  return { calendars, ...(page.nextPageToken === undefined ? {} : { nextPageToken: page.nextPageToken }) };
};

/** events.list over a time range, instances expanded, in start order unless asked otherwise. */
async function listing(ctx: ToolContext, args: Arguments, calendarId: string, extra: Record<string, string | readonly string[] | undefined>) {
  const zone = zoneFor(ctx, args, calendarId);
  const answer = await callApi(ctx, 'calendar.events.list', {
    params: { calendarId },
    query: {
      singleEvents: 'true',
      orderBy: 'startTime',
      timeMin: rfc3339Arg(stringArg(args, 'startTime'), zone, 'startTime'),
      timeMax: rfc3339Arg(stringArg(args, 'endTime'), zone, 'endTime'),
      timeZone: stringArg(args, 'timeZone'),
      ...extra,
    },
  });
  return eventsPage(answer);
}

const listEvents: ToolHandler = (ctx, args) =>
  listing(ctx, args, calendarIdOf(args), {
    maxResults: optionalNumber(integerArg(args, 'pageSize')),
    pageToken: stringArg(args, 'pageToken'),
    orderBy: stringArg(args, 'orderBy') ?? 'startTime',
    q: stringArg(args, 'fullText'),
    eventTypes: stringsArg(args, 'eventTypeFilter').map((type, i) => documentedValue(type, EVENT_TYPES, `eventTypeFilter[${i}]`) as string),
  });

// Google's search_events is a semantic search ("the top K most relevant events"); the emulator
// has no model of meaning, so it searches keywords instead: every word of the query must occur in
// the summary, description, location or a guest's name or address (the Calendar API's own `q`,
// https://developers.google.com/workspace/calendar/api/v3/reference/events/list). The first pageSize matches in start order stand in for "most relevant".
const searchEvents: ToolHandler = (ctx, args) =>
  listing(ctx, args, PRIMARY, { q: stringArg(args, 'query'), maxResults: String(integerArg(args, 'pageSize') ?? 10) });

const getEvent: ToolHandler = async (ctx, args) => mcpEvent(await callApi(ctx, 'calendar.events.get', { params: eventParams(args) }));

function eventParams(args: Arguments): Record<string, string> {
  return { calendarId: calendarIdOf(args), eventId: stringArg(args, 'eventId') as string };
}

const ALL_DAY_DATE = /^(\d{4}-\d{2}-\d{2})(?:T00:00(?::00(?:\.0+)?)?)?$/;

function allDayDate(text: string, name: string): string {
  const date = ALL_DAY_DATE.exec(text)?.[1];
  if (date === undefined) throw new ToolError(`${name} must be a date (YYYY-MM-DD) when allDay is true.`);
  return date;
}

const createEvent: ToolHandler = async (ctx, args) => {
  const timeZone = zoneArg(stringArg(args, 'timeZone')) as string;
  const start = stringArg(args, 'startTime') as string;
  const end = stringArg(args, 'endTime') as string;
  const allDay = booleanArg(args, 'allDay') === true;
  const meet = booleanArg(args, 'addGoogleMeetUrl') === true;
  const body = {
    summary: stringArg(args, 'summary'),
    description: stringArg(args, 'description'),
    location: stringArg(args, 'location'),
    visibility: stringArg(args, 'visibility'),
    colorId: stringArg(args, 'colorId'),
    start: allDay ? { date: allDayDate(start, 'startTime') } : { dateTime: start, timeZone },
    end: allDay ? { date: allDayDate(end, 'endTime') } : { dateTime: end, timeZone },
    attendees: args.attendeeEmails === undefined ? undefined : stringsArg(args, 'attendeeEmails').map((email) => ({ email })),
    recurrence: args.recurrenceData === undefined ? undefined : stringsArg(args, 'recurrenceData'),
    conferenceData: meet ? { createRequest: { requestId: randomUUID(), conferenceSolutionKey: { type: 'hangoutsMeet' } } } : undefined,
  };
  return mcpEvent(
    await callApi(ctx, 'calendar.events.insert', {
      params: { calendarId: calendarIdOf(args) },
      query: { sendUpdates: sendUpdates(args), conferenceDataVersion: meet ? '1' : undefined },
      body,
    }),
  );
};

type Attendee = Record<string, unknown> & { email?: string };

const sameAddress = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** The guest list after the additions and removals asked for, or undefined when none was. */
function changedGuests(current: Attendee[], args: Arguments): Attendee[] | undefined {
  const added = stringsArg(args, 'addedAttendeeEmails');
  const removed = stringsArg(args, 'removedAttendeeEmails');
  if (added.length === 0 && removed.length === 0) return undefined;
  const kept = current.filter((a) => !removed.some((email) => sameAddress(a.email, email)));
  for (const email of added) if (!kept.some((a) => sameAddress(a.email, email))) kept.push({ email });
  return kept;
}

const updateEvent: ToolHandler = async (ctx, args) => {
  const params = eventParams(args);
  const event = await callApi(ctx, 'calendar.events.get', { params });
  // A new time without an offset keeps to the event's own zone.
  const timeZone = (event.start?.timeZone as string | undefined) ?? zoneFor(ctx, {}, params.calendarId as string);
  const patch: Record<string, unknown> = {};
  for (const name of ['summary', 'description', 'location'] as const) if (args[name] !== undefined) patch[name] = stringArg(args, name);
  const start = stringArg(args, 'startTime');
  if (start !== undefined) patch.start = { dateTime: start, timeZone };
  const end = stringArg(args, 'endTime');
  if (end !== undefined) patch.end = { dateTime: end, timeZone };
  const attendees = changedGuests((event.attendees as Attendee[] | undefined) ?? [], args);
  if (attendees !== undefined) patch.attendees = attendees;
  return mcpEvent(await callApi(ctx, 'calendar.events.patch', { params, query: { sendUpdates: sendUpdates(args) }, body: patch }));
};

// Google's delete_event answers an Event. The Calendar API's delete answers nothing, so the event
// is read first and returned as deleted: cancelled, as events.list with showDeleted then shows it.
const deleteEvent: ToolHandler = async (ctx, args) => {
  const params = eventParams(args);
  const event = await callApi(ctx, 'calendar.events.get', { params });
  await callApi(ctx, 'calendar.events.delete', { params, query: { sendUpdates: sendUpdates(args) } });
  return { ...mcpEvent(event), status: 'cancelled' };
};

// The user's answer is their own attendee entry changed in the list as they read it: on an
// invitee's copy and on an organizer's own event alike, every other entry stays as it is.
const respondToEvent: ToolHandler = async (ctx, args) => {
  const responseStatus = documentedValue(stringArg(args, 'responseStatus'), RESPONSE_STATUSES, 'responseStatus');
  const params = eventParams(args);
  const event = await callApi(ctx, 'calendar.events.get', { params });
  const attendees = (event.attendees as Attendee[] | undefined) ?? [];
  const own = attendees.find((a) => a.self === true);
  if (own === undefined) throw new ToolError('The user is not a guest of this event, so there is no invitation to answer.');
  const comment = stringArg(args, 'responseComment');
  const answered = attendees.map((a) => (a === own ? { ...a, responseStatus, ...(comment === undefined ? {} : { comment }) } : a));
  return mcpEvent(await callApi(ctx, 'calendar.events.patch', { params, query: { sendUpdates: sendUpdates(args) }, body: { attendees: answered } }));
};

function optionalNumber(value: number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

export const EVENT_TOOLS: Readonly<Record<string, ToolHandler>> = {
  list_calendars: listCalendars,
  list_events: listEvents,
  search_events: searchEvents,
  get_event: getEvent,
  create_event: createEvent,
  update_event: updateEvent,
  delete_event: deleteEvent,
  respond_to_event: respondToEvent,
};
