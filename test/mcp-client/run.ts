// The MCP surface driven by the official MCP TypeScript SDK client (README "MCP"), as .ci/run
// does after test/mcp-client/install.sh: tokens from the real consent flow (the `token`
// command's client), connect over Streamable HTTP, list the tools, create an event with an
// invitee, see it through events.list on both calendars and in the outbox, answer as the invitee,
// and suggest a time that avoids it. Without the SDK installed it prints why and skips (exit 0);
// any other failure exits 1.
//
//   node --experimental-strip-types test/mcp-client/run.ts

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { expandScopes, requestToken } from '../../src/handle/consent.ts';
import { start } from '../../src/index.ts';

const CLIENT_DIR = process.env.MCP_CLIENT_DIR ?? `${process.env.HOME ?? '/tmp'}/.cache/local-calendar-emulator/mcp-client`;
const SDK = `${CLIENT_DIR}/node_modules/@modelcontextprotocol/sdk/dist/esm/client`;
const BEN = 'ben.clarke@example.com';
const SCOPES = expandScopes(['calendar.events', 'calendar.calendarlist.readonly']);

if (!existsSync(`${SDK}/index.js`)) {
  console.log(`skipped: @modelcontextprotocol/sdk is not installed in ${CLIENT_DIR} (test/mcp-client/install.sh could not install it)`);
  process.exit(0);
}

const { Client } = await import(pathToFileURL(`${SDK}/index.js`).href);
const { StreamableHTTPClientTransport } = await import(pathToFileURL(`${SDK}/streamableHttp.js`).href);

async function connect(url: string, token: string) {
  const client = new Client({ name: 'local-calendar-emulator-ci', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp/v1`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

async function structured(client: any, name: string, args: object): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

async function rest(url: string, token: string, path: string): Promise<any> {
  const answer = await fetch(`${url}/calendar/v3/${path}`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(answer.status, 200, path);
  return answer.json();
}

const service = await start({ port: 0, mcp: true });
try {
  const aiko = (await requestToken({ baseUrl: service.url, user: 'user-aiko', scopes: SCOPES })).access_token;
  const ben = (await requestToken({ baseUrl: service.url, user: 'user-ben', scopes: SCOPES })).access_token;
  const organizer = await connect(service.url, aiko);
  const { tools } = await organizer.listTools();
  assert.deepEqual(tools.map((tool: { name: string }) => tool.name).sort(), [
    'create_event', 'delete_event', 'get_event', 'list_calendars', 'list_events', 'respond_to_event', 'search_events', 'suggest_time', 'update_event',
  ]);
  const event = await structured(organizer, 'create_event', {
    summary: 'MCP planning', startTime: '2026-10-21T09:00:00', endTime: '2026-10-21T10:00:00', timeZone: 'Europe/London', attendeeEmails: [BEN],
  });
  for (const token of [aiko, ben]) {
    const listed = await rest(service.url, token, 'calendars/primary/events');
    assert.ok(listed.items.some((item: { id: string }) => item.id === event.id), 'events.list on both calendars');
  }
  const outbox = (await (await fetch(`${service.url}/__svc/outbox`)).json()) as { messages: Array<{ to: string; kind: string; eventId: string }> };
  assert.ok(outbox.messages.some((m) => m.to === BEN && m.kind === 'invitation' && m.eventId === event.id), 'the invitation is in the outbox');

  const invitee = await connect(service.url, ben);
  await structured(invitee, 'respond_to_event', { eventId: event.id, responseStatus: 'accepted' });
  const seen = await rest(service.url, aiko, `calendars/primary/events/${event.id}`);
  assert.equal(seen.attendees.find((a: { email: string }) => a.email === BEN).responseStatus, 'accepted', 'the organizer sees the answer');

  const suggested = await structured(organizer, 'suggest_time', {
    attendeeEmails: ['primary', BEN], startTime: '2026-10-21T08:00:00Z', endTime: '2026-10-21T10:00:00Z', durationMinutes: 60, timeZone: 'Europe/London',
    preferences: { startHour: '09:00', endHour: '11:00' },
  });
  assert.deepEqual(suggested.timeSlots, [{ startTime: '2026-10-21T10:00:00+01:00', endTime: '2026-10-21T11:00:00+01:00' }], 'the suggestion avoids the meeting');
  await organizer.close();
  await invitee.close();
  console.log('MCP client (@modelcontextprotocol/sdk): 1 passed, 0 failed');
} catch (error) {
  console.error('MCP client run failed:', error);
  process.exitCode = 1;
} finally {
  await service.close();
}
