// tools/list lists Google's nine Calendar MCP tools with the input schemas Google publishes,
// member by member, as type, enum and required: written here from Google's MCP tool reference,
// one page per tool, cited above each entry. Members the reference types `string` and documents
// with "Possible values" in prose (eventTypeFilter, responseStatus) are plain strings there; only
// NotificationLevel is an enum. search_events has no reference page this project could read (the
// overview lists the tool, and a directory that probed the live server describes it as semantic
// search over the primary calendar): its members are this service's choice (README).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rpc, startMcp } from '../_helpers/mcp.ts';

const NOTIFICATION_LEVEL = { type: 'string', enum: ['NOTIFICATION_LEVEL_UNSPECIFIED', 'ALL', 'EXTERNAL_ONLY', 'NONE'] };
const STRINGS = { type: 'array', items: { type: 'string' } };

const EXPECTED: Record<string, { required?: string[]; properties: Record<string, object> }> = {
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/list_calendars
  list_calendars: { properties: { pageSize: { type: 'integer' }, pageToken: { type: 'string' } } },
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/list_events
  list_events: {
    properties: {
      eventTypeFilter: STRINGS,
      calendarId: { type: 'string' },
      pageSize: { type: 'integer' },
      pageToken: { type: 'string' },
      startTime: { type: 'string' },
      endTime: { type: 'string' },
      timeZone: { type: 'string' },
      orderBy: { type: 'string' },
      fullText: { type: 'string' },
    },
  },
  // No reference page read (see above): this service's members, in the reference's naming.
  search_events: {
    required: ['query'],
    properties: { query: { type: 'string' }, startTime: { type: 'string' }, endTime: { type: 'string' }, timeZone: { type: 'string' }, pageSize: { type: 'integer' } },
  },
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/get_event
  get_event: { required: ['eventId'], properties: { eventId: { type: 'string' }, calendarId: { type: 'string' } } },
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/create_event
  create_event: {
    required: ['summary', 'startTime', 'endTime', 'timeZone'],
    properties: {
      summary: { type: 'string' },
      startTime: { type: 'string' },
      endTime: { type: 'string' },
      timeZone: { type: 'string' },
      attendeeEmails: STRINGS,
      recurrenceData: STRINGS,
      calendarId: { type: 'string' },
      description: { type: 'string' },
      location: { type: 'string' },
      allDay: { type: 'boolean' },
      notificationLevel: NOTIFICATION_LEVEL,
      addGoogleMeetUrl: { type: 'boolean' },
      visibility: { type: 'string' },
      colorId: { type: 'string' },
    },
  },
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/update_event
  update_event: {
    required: ['eventId'],
    properties: {
      eventId: { type: 'string' },
      addedAttendeeEmails: STRINGS,
      removedAttendeeEmails: STRINGS,
      calendarId: { type: 'string' },
      summary: { type: 'string' },
      description: { type: 'string' },
      location: { type: 'string' },
      startTime: { type: 'string' },
      endTime: { type: 'string' },
      notificationLevel: NOTIFICATION_LEVEL,
    },
  },
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/delete_event
  delete_event: { required: ['eventId'], properties: { eventId: { type: 'string' }, calendarId: { type: 'string' }, notificationLevel: NOTIFICATION_LEVEL } },
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/respond_to_event
  respond_to_event: {
    required: ['eventId', 'responseStatus'],
    properties: {
      eventId: { type: 'string' },
      responseStatus: { type: 'string' },
      calendarId: { type: 'string' },
      notificationLevel: NOTIFICATION_LEVEL,
      responseComment: { type: 'string' },
    },
  },
  // https://developers.google.com/workspace/calendar/api/v3/reference/mcp/tools_list/suggest_time
  suggest_time: {
    required: ['attendeeEmails', 'startTime', 'endTime'],
    properties: {
      attendeeEmails: STRINGS,
      startTime: { type: 'string' },
      endTime: { type: 'string' },
      timeZone: { type: 'string' },
      durationMinutes: { type: 'integer' },
      preferences: { type: 'object', properties: { startHour: { type: 'string' }, endHour: { type: 'string' }, excludeWeekends: { type: 'boolean' } } },
    },
  },
};

/** A schema without its descriptions (they are this service's wording, not Google's). */
function shape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shape);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key, value]) => !(key === 'description' && typeof value === 'string')).map(([key, value]) => [key, shape(value)]));
}

test('tools/list: the nine tools with the input schemas of Google\'s reference', async (t) => {
  const w = await startMcp(t);
  const answer = await rpc(w.url, await w.token(), 'tools/list');
  assert.equal(answer.status, 200);
  const tools = answer.json.result.tools as Array<{ name: string; description: string; inputSchema: unknown; annotations: Record<string, boolean> }>;
  assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(EXPECTED).sort());
  for (const tool of tools) {
    const expected = EXPECTED[tool.name] as { required?: string[]; properties: object };
    assert.deepEqual(shape(tool.inputSchema), { type: 'object', ...expected }, tool.name);
    assert.ok(tool.description.length > 20, tool.name);
    assert.equal(typeof tool.annotations.readOnlyHint, 'boolean');
  }
  // Google's reference (its list_calendars page, "Tool Annotations"): list_calendars reads only,
  // idempotently, in a closed world.
  const listCalendars = tools.find((tool) => tool.name === 'list_calendars');
  assert.deepEqual(listCalendars?.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  assert.match(tools.find((tool) => tool.name === 'search_events')?.description ?? '', /not a semantic search/);
});
