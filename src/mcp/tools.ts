// Google's nine Calendar MCP tools as data: name, what it does, its input schema member by member
// (as Google's MCP tool reference publishes them, one page per tool under
// https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/),
// its annotations, and the Calendar API methods it runs, whose scopes (src/calendar/scopes.ts)
// decide whether a token may call it. `tools/list` answers this table; argument checks
// (arguments.ts) read the same schemas, so what is listed is what is enforced.
// A member the reference types `string` but documents with "Possible values" (eventTypeFilter,
// responseStatus) is listed as a plain string, as its JSON representation gives it; the tool
// checks the value itself. Only NotificationLevel is an enum there.
// Descriptions are written for this service: they keep the meaning of Google's and say what the
// emulator does.

import type { CalendarOperation } from '../calendar/scopes.ts';

export type JsonSchema =
  | { type: 'string'; description: string; enum?: readonly string[] }
  | { type: 'integer'; description: string }
  | { type: 'boolean'; description: string }
  | { type: 'array'; description: string; items: { type: 'string'; enum?: readonly string[] } }
  | { type: 'object'; description?: string; properties: Readonly<Record<string, JsonSchema>>; required?: readonly string[] };

export type ObjectSchema = Extract<JsonSchema, { type: 'object' }>;

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ObjectSchema;
  readonly annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** The Calendar API methods the tool runs: a token needs a scope allowing each. */
  readonly methods: readonly CalendarOperation[];
  /** The narrowest scope Google's MCP guide gives the tool, named when a token lacks it. */
  readonly scope: string;
}

const text = (description: string) => ({ type: 'string', description }) as const;
const emails = (description: string) => ({ type: 'array', description, items: { type: 'string' } }) as const;

// Google's NotificationLevel: who is told of a write (Calendar API `sendUpdates`).
const NOTIFICATION_LEVEL = {
  type: 'string',
  description: 'Who is e-mailed about the change: ALL guests (the default), EXTERNAL_ONLY (guests outside the workspace) or NONE.',
  enum: ['NOTIFICATION_LEVEL_UNSPECIFIED', 'ALL', 'EXTERNAL_ONLY', 'NONE'],
} as const;

const CALENDAR_ID = (what: string) => text(`Calendar to ${what}; default the user's primary calendar.`);
/** The values list_events documents for eventTypeFilter. */
export const EVENT_TYPES: readonly string[] = ['default', 'outOfOffice', 'focusTime', 'workingLocation', 'birthday', 'fromGmail'];
/** The values respond_to_event documents for responseStatus. */
export const RESPONSE_STATUSES: readonly string[] = ['accepted', 'declined', 'tentative'];

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'list_calendars',
    description: "Returns the calendars on the user's calendar list (id, title, description, time zone), to resolve a calendar named in words into its id.",
    inputSchema: {
      type: 'object',
      properties: {
        pageSize: { type: 'integer', description: 'Most calendars on one page: default 100, at most 250.' },
        pageToken: text('Which page to return, from a previous nextPageToken.'),
      },
    },
    annotations: READ,
    methods: ['calendar.calendarList.list'],
    scope: 'calendar.calendarlist.readonly',
  },
  {
    name: 'list_events',
    description:
      'Lists every event of one calendar that satisfies the conditions: a time range, keywords, event types. Recurring events come as their single instances.',
    inputSchema: {
      type: 'object',
      properties: {
        eventTypeFilter: { type: 'array', description: `Event types to return, of ${EVENT_TYPES.join(', ')}; empty means every type.`, items: { type: 'string' } },
        calendarId: CALENDAR_ID('list'),
        pageSize: { type: 'integer', description: 'Most events on one page: default 250, at most 2500.' },
        pageToken: text('Which page to return, from a previous nextPageToken.'),
        startTime: text('Only events ending after this time (ISO 8601; without an offset, read in timeZone).'),
        endTime: text('Only events starting before this time (ISO 8601; without an offset, read in timeZone).'),
        timeZone: text("IANA time zone of the times given and returned; default the calendar's."),
        orderBy: text('startTime (the default) or updated.'),
        fullText: text('Keywords that must all occur in the summary, description, location or a guest.'),
      },
    },
    annotations: READ,
    methods: ['calendar.events.list'],
    scope: 'calendar.events.readonly',
  },
  {
    name: 'search_events',
    description:
      "Finds the user's primary-calendar events whose summary, description, location or guests contain every keyword of the query. The emulator matches words, not meaning: it is not a semantic search.",
    inputSchema: {
      type: 'object',
      properties: {
        query: text('The words to look for.'),
        startTime: text('Only events ending after this time (ISO 8601).'),
        endTime: text('Only events starting before this time (ISO 8601).'),
        timeZone: text("IANA time zone of the times given and returned; default the calendar's."),
        pageSize: { type: 'integer', description: 'Most events returned: default 10, at most 250.' },
      },
      required: ['query'],
    },
    annotations: READ,
    methods: ['calendar.events.list'],
    scope: 'calendar.events.readonly',
  },
  {
    name: 'get_event',
    description: 'Returns one event of a calendar by its id.',
    inputSchema: {
      type: 'object',
      properties: { eventId: text('The id of the event.'), calendarId: CALENDAR_ID('read') },
      required: ['eventId'],
    },
    annotations: READ,
    methods: ['calendar.events.get'],
    scope: 'calendar.events.readonly',
  },
  {
    name: 'create_event',
    description: 'Creates an event, inviting the attendees given (each test user gets a copy on their primary calendar).',
    inputSchema: {
      type: 'object',
      properties: {
        summary: text('Title of the event.'),
        startTime: text('Start (ISO 8601); a date when allDay.'),
        endTime: text('End (ISO 8601, exclusive); a date when allDay.'),
        timeZone: text('IANA time zone of the event, e.g. Europe/Zurich.'),
        attendeeEmails: emails('Guests to invite, as e-mail addresses.'),
        recurrenceData: emails('RRULE, EXRULE, RDATE and EXDATE lines (RFC 5545) of a recurring event.'),
        calendarId: CALENDAR_ID('create the event on'),
        description: text('Description; may hold HTML.'),
        location: text('Where the event takes place, as free text.'),
        allDay: { type: 'boolean', description: 'Whether the event lasts whole days.' },
        notificationLevel: NOTIFICATION_LEVEL,
        addGoogleMeetUrl: { type: 'boolean', description: 'Whether to attach a Google Meet link.' },
        visibility: text('default, public, private or confidential.'),
        colorId: text('Event colour id (see the Calendar API colors resource).'),
      },
      required: ['summary', 'startTime', 'endTime', 'timeZone'],
    },
    annotations: WRITE,
    methods: ['calendar.events.insert'],
    scope: 'calendar.events',
  },
  {
    name: 'update_event',
    description: 'Changes the members given of an event and leaves the rest as it is; adds and removes guests.',
    inputSchema: {
      type: 'object',
      properties: {
        eventId: text('The id of the event.'),
        addedAttendeeEmails: emails('Guests to add, as e-mail addresses.'),
        removedAttendeeEmails: emails('Guests to remove, as e-mail addresses.'),
        calendarId: CALENDAR_ID('update the event on'),
        summary: text('New title.'),
        description: text('New description.'),
        location: text('New location.'),
        startTime: text("New start (ISO 8601; without an offset, read in the event's time zone)."),
        endTime: text("New end (ISO 8601; without an offset, read in the event's time zone)."),
        notificationLevel: NOTIFICATION_LEVEL,
      },
      required: ['eventId'],
    },
    annotations: { ...WRITE, idempotentHint: true },
    methods: ['calendar.events.get', 'calendar.events.patch'],
    scope: 'calendar.events',
  },
  {
    name: 'delete_event',
    description: "Deletes an event and returns it as it was; every guest's copy is cancelled. To cancel or decline an invitation instead, use respond_to_event.",
    inputSchema: {
      type: 'object',
      properties: { eventId: text('The id of the event.'), calendarId: CALENDAR_ID('delete the event from'), notificationLevel: NOTIFICATION_LEVEL },
      required: ['eventId'],
    },
    annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    methods: ['calendar.events.get', 'calendar.events.delete'],
    scope: 'calendar.events',
  },
  {
    name: 'respond_to_event',
    description: "Answers an invitation as the user: accepted, declined or tentative, with an optional comment; the organizer sees the answer.",
    inputSchema: {
      type: 'object',
      properties: {
        eventId: text('The id of the event.'),
        responseStatus: text(`The answer: ${RESPONSE_STATUSES.join(', ')}.`),
        calendarId: CALENDAR_ID('answer on'),
        notificationLevel: NOTIFICATION_LEVEL,
        responseComment: text('A note to the organizer with the answer.'),
      },
      required: ['eventId', 'responseStatus'],
    },
    annotations: { ...WRITE, idempotentHint: true },
    methods: ['calendar.events.get', 'calendar.events.patch'],
    scope: 'calendar.events',
  },
  {
    name: 'suggest_time',
    description:
      "Suggests up to five times when every attendee is free for the duration asked, from their free/busy, within working hours (09:00-17:00 in each attendee's time zone unless preferences say otherwise). Use 'primary' for the user.",
    inputSchema: {
      type: 'object',
      properties: {
        attendeeEmails: emails("Attendees to find a common free time for; 'primary' is the user."),
        startTime: text('Start of the period to search (ISO 8601).'),
        endTime: text('End of the period to search (ISO 8601).'),
        timeZone: text("IANA time zone of the times given and returned; default the user's primary calendar's."),
        durationMinutes: { type: 'integer', description: 'Length of the meeting in minutes; default 30.' },
        preferences: {
          type: 'object',
          description: 'Working hours and days to keep to.',
          properties: {
            startHour: text('Earliest start of day, HH:MM in timeZone; default 09:00 in each attendee\'s zone.'),
            endHour: text('Latest end of day, HH:MM in timeZone; default 17:00 in each attendee\'s zone.'),
            excludeWeekends: { type: 'boolean', description: 'Whether to leave out Saturdays and Sundays.' },
          },
        },
      },
      required: ['attendeeEmails', 'startTime', 'endTime'],
    },
    annotations: READ,
    methods: ['calendar.freebusy.query'],
    scope: 'calendar.events.freebusy',
  },
];

/** Fault rules and the journal name a tool call `mcp.<tool>` (docs/mcp.md). */
export const MCP_OPERATIONS: readonly string[] = TOOLS.map((tool) => `mcp.${tool.name}`);

export function toolNamed(name: string): ToolSpec | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
