// Google's nine Calendar MCP tools on the emulator's one state (docs/mcp.md, docs/invitations.md): each tool's
// happy path and bad input (never a 500), MCP writes seen by the Calendar API, sync tokens, the
// outbox and free/busy, the journal's `mcp.<tool>` and fault rules matching it.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, callTool, rpc, startMcp, tool, toolError } from '../_helpers/mcp.ts';
import type { McpWorld } from '../_helpers/mcp.ts';
import { postJson } from '../_helpers/service.ts';

const AIKO = 'aiko.tanaka@example.com';
const BEN = 'ben.clarke@example.com';
const CARMEN = 'carmen.diaz@example.com';

async function world(t: { after(fn: () => unknown): void }): Promise<McpWorld & { aiko: string; ben: string }> {
  const w = await startMcp(t);
  return { ...w, aiko: await w.token(), ben: await w.token('user-ben') };
}

const MEETING = { summary: 'Roadmap review', startTime: '2026-10-20T10:00:00', endTime: '2026-10-20T11:00:00', timeZone: 'Europe/London', location: 'Room 4' };

async function outbox(url: string): Promise<Array<{ to: string; kind: string; eventId: string }>> {
  return ((await (await fetch(`${url}/__svc/outbox`)).json()) as any).messages;
}

describe('MCP tools: reads', () => {
  test('list_calendars: the calendar list as id, summary, description, timeZone; paging', async (t) => {
    const w = await world(t);
    const all = await tool(w.url, w.aiko, 'list_calendars');
    assert.deepEqual(all.calendars.map((c: any) => c.id), [AIKO, 'team-aiko@group.calendar.example.com']);
    assert.deepEqual(Object.keys(all.calendars[0]).sort(), ['id', 'summary', 'timeZone']);
    const first = await tool(w.url, w.aiko, 'list_calendars', { pageSize: 1 });
    assert.equal(first.calendars.length, 1);
    const second = await tool(w.url, w.aiko, 'list_calendars', { pageSize: 1, pageToken: first.nextPageToken });
    assert.equal(second.calendars[0].id, 'team-aiko@group.calendar.example.com');
  });

  test('list_events: a time range without offset in the calendar zone, keywords, instances, paging', async (t) => {
    const w = await world(t);
    const day = await tool(w.url, w.aiko, 'list_events', { startTime: '2026-10-19T00:00:00', endTime: '2026-10-20T00:00:00' });
    assert.deepEqual(day.events.map((e: any) => e.id), ['designrev1019', 'focusblock1019']);
    const words = await tool(w.url, w.aiko, 'list_events', { fullText: 'design', startTime: '2026-10-19', endTime: '2026-10-20' });
    assert.deepEqual(words.events.map((e: any) => e.id), ['designrev1019']);
    const paged = await tool(w.url, w.aiko, 'list_events', { startTime: '2026-10-19', endTime: '2026-10-20', pageSize: 1 });
    assert.equal(paged.events.length, 1);
    assert.equal(typeof paged.nextPageToken, 'string');
    assert.match(await toolError(w.url, w.aiko, 'list_events', { calendarId: 'nobody@example.com' }), /^notFound/);
    assert.match(await toolError(w.url, w.aiko, 'list_events', { startTime: 'tomorrow' }), /startTime must be an ISO 8601/);
    assert.match(await toolError(w.url, w.aiko, 'list_events', { timeZone: 'Mars/Base' }), /timeZone must be an IANA/);
    assert.deepEqual(day.events.map((e: any) => 'kind' in e || 'etag' in e), [false, false]);
    const range = { startTime: '2026-10-19', endTime: '2026-10-20' };
    assert.equal((await tool(w.url, w.aiko, 'list_events', { ...range, eventTypeFilter: ['default'] })).events.length, 2);
    assert.deepEqual((await tool(w.url, w.aiko, 'list_events', { ...range, eventTypeFilter: ['outOfOffice'] })).events, []);
    assert.match(await toolError(w.url, w.aiko, 'list_events', { eventTypeFilter: ['holiday'] }), /eventTypeFilter\[0\] must be one of default, outOfOffice/);
  });

  test('search_events: keywords over summary, description, location and guests (not semantic)', async (t) => {
    const w = await world(t);
    const created = await tool(w.url, w.aiko, 'create_event', { ...MEETING, description: 'Quarterly planning', attendeeEmails: [CARMEN] });
    for (const query of ['roadmap', 'QUARTERLY', 'room 4', 'carmen.diaz']) {
      const found = await tool(w.url, w.aiko, 'search_events', { query });
      assert.deepEqual(found.events.map((e: any) => e.id), [created.id], query);
    }
    assert.deepEqual((await tool(w.url, w.aiko, 'search_events', { query: 'strategy meeting' })).events, [], 'a synonym finds nothing: words, not meaning');
    assert.match(await toolError(w.url, w.aiko, 'search_events', {}), /query is required/);
  });

  test('get_event: the Event of Google\'s output schema (no kind or etag); an unknown event is a tool error', async (t) => {
    const w = await world(t);
    const event = await tool(w.url, w.aiko, 'get_event', { eventId: 'designrev1019' });
    assert.equal(event.summary, 'Design review');
    assert.equal(Object.keys(event)[0], 'id');
    assert.equal('kind' in event || 'etag' in event, false);
    const missing = await callTool(w.url, w.aiko, 'get_event', { eventId: 'nope' });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent.error.code, 404);
    assert.match(await toolError(w.url, w.aiko, 'get_event', {}), /eventId is required/);
    assert.match(await toolError(w.url, w.aiko, 'get_event', { eventId: 7 }), /eventId must be a string/);
    assert.match(await toolError(w.url, w.aiko, 'get_event', { eventId: 'x', colour: 'red' }), /colour is not an argument/);
  });
});

describe('MCP tools: writes on one state', () => {
  test('create_event with an invitee: seen by events.list on both calendars, the sync token and the outbox', async (t) => {
    const w = await world(t);
    const first = await api(w.url, w.ben, 'GET', 'calendars/primary/events');
    const syncToken = first.json.nextSyncToken as string;
    const created = await tool(w.url, w.aiko, 'create_event', { ...MEETING, attendeeEmails: [BEN] });
    assert.equal(created.start.timeZone, 'Europe/London');
    for (const [token, who] of [[w.aiko, 'organizer'], [w.ben, 'invitee']] as const) {
      const listed = await api(w.url, token, 'GET', 'calendars/primary/events');
      assert.ok(listed.json.items.some((e: any) => e.id === created.id), who);
    }
    const changes = await api(w.url, w.ben, 'GET', `calendars/primary/events?syncToken=${encodeURIComponent(syncToken)}`);
    assert.deepEqual(changes.json.items.map((e: any) => e.id), [created.id]);
    assert.deepEqual((await outbox(w.url)).map((m) => [m.to, m.kind, m.eventId]), [[BEN, 'invitation', created.id]]);
  });

  test('create_event: all-day, recurrence, NONE notifies nobody; bad input is a tool error', async (t) => {
    const w = await world(t);
    const allDay = await tool(w.url, w.aiko, 'create_event', { summary: 'Offsite', startTime: '2026-10-22', endTime: '2026-10-23', timeZone: 'Asia/Tokyo', allDay: true, attendeeEmails: [BEN], notificationLevel: 'NONE' });
    assert.deepEqual(allDay.start, { date: '2026-10-22' });
    assert.deepEqual(await outbox(w.url), []);
    const series = await tool(w.url, w.aiko, 'create_event', { ...MEETING, recurrenceData: ['RRULE:FREQ=WEEKLY;COUNT=3'] });
    assert.deepEqual(series.recurrence, ['RRULE:FREQ=WEEKLY;COUNT=3']);
    assert.match(await toolError(w.url, w.aiko, 'create_event', { summary: 'x' }), /startTime is required/);
    assert.match(await toolError(w.url, w.aiko, 'create_event', { ...MEETING, attendeeEmails: 'ben' }), /attendeeEmails must be an array/);
    assert.match(await toolError(w.url, w.aiko, 'create_event', { ...MEETING, notificationLevel: 'LOUD' }), /notificationLevel must be one of/);
    assert.match(await toolError(w.url, w.aiko, 'create_event', { ...MEETING, endTime: '2026-10-20T09:00:00' }), /^timeRangeEmpty|^invalid/);
    assert.match(await toolError(w.url, w.aiko, 'create_event', { ...MEETING, calendarId: 'someone-else@example.com' }), /^notFound/);
  });

  test('update_event: changed members only, guests added and removed, the copy follows', async (t) => {
    const w = await world(t);
    const created = await tool(w.url, w.aiko, 'create_event', { ...MEETING, attendeeEmails: [BEN] });
    const updated = await tool(w.url, w.aiko, 'update_event', { eventId: created.id, summary: 'Roadmap review (moved)', startTime: '2026-10-20T14:00:00', endTime: '2026-10-20T15:00:00', addedAttendeeEmails: [CARMEN], removedAttendeeEmails: [BEN] });
    assert.equal(updated.location, 'Room 4');
    assert.equal(Date.parse(updated.start.dateTime), Date.parse('2026-10-20T14:00:00+01:00'), 'a new time without offset is read in the event\'s zone');
    assert.deepEqual(updated.attendees.map((a: any) => a.email), [CARMEN]);
    const bens = await api(w.url, w.ben, 'GET', `calendars/primary/events/${created.id}`);
    assert.equal(bens.json.status, 'cancelled');
    assert.match(await toolError(w.url, w.ben, 'update_event', { eventId: created.id, summary: 'mine now' }), /^forbiddenForNonOrganizer|^notFound/);
    assert.match(await toolError(w.url, w.aiko, 'update_event', { eventId: 'nope', summary: 'x' }), /^notFound/);
  });

  test('respond_to_event: the invitee answers, the organizer sees it and gets a reply', async (t) => {
    const w = await world(t);
    const created = await tool(w.url, w.aiko, 'create_event', { ...MEETING, attendeeEmails: [BEN, CARMEN] });
    const answered = await tool(w.url, w.ben, 'respond_to_event', { eventId: created.id, responseStatus: 'tentative', responseComment: 'maybe late' });
    assert.equal(answered.attendees.find((a: any) => a.self).responseStatus, 'tentative');
    const organizers = await api(w.url, w.aiko, 'GET', `calendars/primary/events/${created.id}`);
    const ben = organizers.json.attendees.find((a: any) => a.email === BEN);
    assert.deepEqual([ben.responseStatus, ben.comment], ['tentative', 'maybe late']);
    assert.equal(organizers.json.attendees.find((a: any) => a.email === CARMEN).responseStatus, 'needsAction');
    assert.ok((await outbox(w.url)).some((m) => m.to === AIKO && m.kind === 'reply'));
    assert.match(await toolError(w.url, w.aiko, 'respond_to_event', { eventId: created.id, responseStatus: 'accepted' }), /not a guest/);
    assert.match(await toolError(w.url, w.ben, 'respond_to_event', { eventId: created.id, responseStatus: 'maybe' }), /must be one of accepted, declined, tentative/);
  });

  test('delete_event: gone for the organizer, cancelled for the guest, who is told', async (t) => {
    const w = await world(t);
    const created = await tool(w.url, w.aiko, 'create_event', { ...MEETING, attendeeEmails: [BEN] });
    const deleted = await tool(w.url, w.aiko, 'delete_event', { eventId: created.id });
    assert.deepEqual([deleted.id, deleted.summary, deleted.status, 'kind' in deleted], [created.id, MEETING.summary, 'cancelled', false]);
    assert.equal((await api(w.url, w.ben, 'GET', `calendars/primary/events/${created.id}`)).json.status, 'cancelled');
    assert.ok((await outbox(w.url)).some((m) => m.to === BEN && m.kind === 'cancellation'));
    assert.match(await toolError(w.url, w.aiko, 'delete_event', { eventId: 'nope' }), /^notFound/);
  });
});

describe('MCP tools: suggest_time', () => {
  test('free slots in everyone\'s working hours, avoiding busy times and declines aside', async (t) => {
    const w = await world(t);
    // Ben (London) and Carmen (New York) share 09:00-12:00 New York time on a weekday.
    const carmen = await w.token('user-carmen');
    const before = await tool(w.url, carmen, 'suggest_time', { attendeeEmails: ['primary', BEN], startTime: '2026-10-21T00:00:00', endTime: '2026-10-22T00:00:00', durationMinutes: 60 });
    assert.deepEqual(before.timeSlots, [{ startTime: '2026-10-21T09:00:00-04:00', endTime: '2026-10-21T10:00:00-04:00' }]);
    await tool(w.url, carmen, 'create_event', { summary: 'Sync', startTime: '2026-10-21T09:00:00', endTime: '2026-10-21T10:30:00', timeZone: 'America/New_York', attendeeEmails: [BEN] });
    const after = await tool(w.url, carmen, 'suggest_time', { attendeeEmails: ['primary', BEN], startTime: '2026-10-21T00:00:00', endTime: '2026-10-22T00:00:00', durationMinutes: 60 });
    assert.deepEqual(after.timeSlots, [{ startTime: '2026-10-21T10:30:00-04:00', endTime: '2026-10-21T11:30:00-04:00' }]);
    // Preferences name hours in the request's zone for everyone; weekends can be left out.
    const week = await tool(w.url, w.aiko, 'suggest_time', { attendeeEmails: ['primary'], startTime: '2026-10-23', endTime: '2026-10-27', timeZone: 'UTC', preferences: { startHour: '20:00', endHour: '21:00', excludeWeekends: true } });
    assert.deepEqual(week.timeSlots.map((s: any) => s.startTime), ['2026-10-23T20:00:00Z', '2026-10-26T20:00:00Z']);
    assert.match(await toolError(w.url, w.aiko, 'suggest_time', { attendeeEmails: ['primary'], startTime: '2026-10-23', endTime: '2026-10-22' }), /endTime must be after/);
    assert.match(await toolError(w.url, w.aiko, 'suggest_time', { attendeeEmails: ['primary'], startTime: '2026-10-23', endTime: '2026-10-24', preferences: { startHour: '9am' } }), /startHour must be a time of day/);
    assert.match(await toolError(w.url, w.aiko, 'suggest_time', { attendeeEmails: [], startTime: '2026-10-23', endTime: '2026-10-24' }), /at least one/);
  });
});

describe('MCP tools: protocol errors, journal and faults', () => {
  test('an unknown tool or a call without a name is JSON-RPC invalid params, never a 500', async (t) => {
    const w = await world(t);
    const unknown = await rpc(w.url, w.aiko, 'tools/call', { name: 'book_flight', arguments: {} });
    assert.equal(unknown.status, 200);
    assert.equal(unknown.json.error.code, -32602);
    assert.match(unknown.json.error.message, /book_flight/);
    const nameless = await rpc(w.url, w.aiko, 'tools/call', { arguments: {} });
    assert.equal(nameless.json.error.code, -32602);
    const notObject = await rpc(w.url, w.aiko, 'tools/call', { name: 'get_event', arguments: 'x' });
    assert.equal(notObject.json.result.isError, true);
  });

  test('the journal names each call mcp.<tool>, with who made it', async (t) => {
    const w = await world(t);
    await fetch(`${w.url}/__svc/requests`, { method: 'DELETE' });
    await tool(w.url, w.aiko, 'list_calendars');
    await rpc(w.url, w.aiko, 'tools/list');
    const entries = ((await (await fetch(`${w.url}/__svc/requests`)).json()) as any).requests;
    assert.deepEqual(entries.map((e: any) => [e.operation, e.userId, e.path]), [['mcp.list_calendars', 'user-aiko', '/mcp/v1'], ['mcp.tools/list', 'user-aiko', '/mcp/v1']]);
    const only = ((await (await fetch(`${w.url}/__svc/requests?operation=mcp.list_calendars`)).json()) as any).requests;
    assert.equal(only.length, 1);
  });

  test('a fault rule on mcp.<tool> answers as a tool error with Google\'s envelope, and changes nothing', async (t) => {
    const w = await world(t);
    const rule = await postJson(`${w.url}/__svc/faults`, { match: { method: 'mcp.create_event', userId: 'user-aiko' }, error: 'rateLimitExceeded' });
    assert.equal(rule.status, 201, rule.text);
    const faulted = await callTool(w.url, w.aiko, 'create_event', MEETING);
    assert.equal(faulted.isError, true);
    assert.equal(faulted.structuredContent.error.errors[0].reason, 'rateLimitExceeded');
    assert.match(faulted.content[0]?.text ?? '', /^rateLimitExceeded/);
    assert.deepEqual((await tool(w.url, w.aiko, 'search_events', { query: 'roadmap' })).events, []);
    const entry = ((await (await fetch(`${w.url}/__svc/requests?operation=mcp.create_event`)).json()) as any).requests[0];
    assert.equal(entry.fault, rule.json.id);
    // The rule was used once: the next call runs.
    assert.equal((await tool(w.url, w.aiko, 'create_event', MEETING)).summary, MEETING.summary);
    const unknownMethod = await postJson(`${w.url}/__svc/faults`, { match: { method: 'mcp.book_flight' }, error: 'backendError' });
    assert.equal(unknownMethod.status, 400);
  });
});
