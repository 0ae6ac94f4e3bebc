// The MCP surface's transport and protocol (docs/mcp.md): opt-in, Streamable HTTP POSTs of one
// JSON-RPC message, version negotiation, notifications, JSON-RPC errors, body rules and bearer
// auth, scopes per tool.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommandLine } from '../../src/config/config.ts';
import { post, rpc, startMcp, toolError } from '../_helpers/mcp.ts';
import { call, startService } from '../_helpers/service.ts';

const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } };

describe('MCP: opt-in', () => {
  test('without --mcp, /mcp/v1 stays unrouted (501)', async (t) => {
    const url = await startService(t);
    const answer = await call(`${url}/mcp/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(answer.status, 501);
    assert.equal(answer.json.error, 'unsupportedFeature');
  });

  test('--mcp and CALENDAR_MCP=1 turn it on', () => {
    const flag = parseCommandLine(['--mcp'], {});
    const env = parseCommandLine([], { CALENDAR_MCP: '1' });
    assert.equal(flag.kind === 'serve' && flag.options.mcp, true);
    assert.equal(env.kind === 'serve' && env.options.mcp, true);
    const off = parseCommandLine([], {});
    assert.equal(off.kind === 'serve' && off.options.mcp, false);
  });
});

describe('MCP: protocol', () => {
  test('initialize answers the version asked when spoken here, else the newest', async (t) => {
    const w = await startMcp(t);
    const token = await w.token();
    const same = await rpc(w.url, token, 'initialize', INIT);
    assert.equal(same.status, 200);
    assert.equal(same.json.result.protocolVersion, '2025-06-18');
    assert.deepEqual(same.json.result.capabilities, { tools: { listChanged: false } });
    assert.equal(same.json.result.serverInfo.name, 'local-calendar-emulator');
    const other = await rpc(w.url, token, 'initialize', { ...INIT, protocolVersion: '2024-11-05' });
    assert.equal(other.json.result.protocolVersion, '2025-11-25');
    const missing = await rpc(w.url, token, 'initialize', { capabilities: {} });
    assert.equal(missing.json.error.code, -32602);
  });

  test('notifications and client responses: 202 with no body; ping: an empty result', async (t) => {
    const w = await startMcp(t);
    const token = await w.token();
    const note = await post(w.url, token, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(note.status, 202);
    assert.equal(note.text, '');
    const reply = await post(w.url, token, { jsonrpc: '2.0', id: 7, result: {} });
    assert.equal(reply.status, 202);
    const ping = await rpc(w.url, token, 'ping');
    assert.deepEqual(ping.json.result, {});
  });

  test('JSON-RPC errors: unknown method -32601, parse error -32700, invalid request and batches -32600', async (t) => {
    const w = await startMcp(t);
    const token = await w.token();
    const unknown = await rpc(w.url, token, 'resources/list');
    assert.equal(unknown.status, 200);
    assert.equal(unknown.json.error.code, -32601);
    assert.equal(typeof unknown.json.id, 'number');
    const parse = await post(w.url, token, '{"jsonrpc":');
    assert.equal(parse.status, 400);
    assert.deepEqual([parse.json.id, parse.json.error.code], [null, -32700]);
    for (const bad of [{ id: 1, method: 'ping' }, { jsonrpc: '2.0', id: null, method: 'ping' }, { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }, 42]) {
      const answer = await post(w.url, token, bad);
      assert.equal(answer.status, 400, JSON.stringify(bad));
      assert.equal(answer.json.error.code, -32600, JSON.stringify(bad));
    }
    const batch = await post(w.url, token, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    assert.equal(batch.status, 400);
    assert.equal(batch.json.error.code, -32600);
  });

  test('an unknown MCP-Protocol-Version header is 400; GET and DELETE are 405', async (t) => {
    const w = await startMcp(t);
    const token = await w.token();
    const wrong = await rpc(w.url, token, 'ping', undefined, { 'mcp-protocol-version': '1999-01-01' });
    assert.equal(wrong.status, 400);
    const right = await rpc(w.url, token, 'ping', undefined, { 'mcp-protocol-version': '2025-06-18' });
    assert.equal(right.status, 200);
    for (const method of ['GET', 'DELETE']) {
      const answer = await call(`${w.url}/mcp/v1`, { method, headers: { authorization: `Bearer ${token}` } });
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.get('allow'), 'POST');
    }
  });

  test('a client accepting only text/event-stream gets one message event; one accepting neither, 406', async (t) => {
    const w = await startMcp(t);
    const token = await w.token();
    const sse = await rpc(w.url, token, 'ping', undefined, { accept: 'text/event-stream' });
    assert.equal(sse.status, 200);
    assert.match(sse.headers.get('content-type') ?? '', /^text\/event-stream/);
    const data = /^event: message\ndata: (.*)\n\n$/.exec(sse.text);
    assert.ok(data, sse.text);
    assert.deepEqual(JSON.parse(data[1] as string).result, {});
    const refused = await rpc(w.url, token, 'ping', undefined, { accept: 'text/html' });
    assert.equal(refused.status, 406);
  });
});

describe('MCP: body rules', () => {
  test('JSON only (415), the 1 MiB cap (413), nesting depth (400)', async (t) => {
    const w = await startMcp(t);
    const token = await w.token();
    const text = await post(w.url, token, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'content-type': 'text/plain' });
    assert.equal(text.status, 415);
    assert.equal(text.json.error.code, -32600);
    const large = await post(w.url, token, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } }));
    assert.equal(large.status, 413);
    assert.equal(large.json.jsonrpc, '2.0');
    const deep = await post(w.url, token, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(100)}${']'.repeat(100)}}}`);
    assert.equal(deep.status, 400);
    assert.equal(deep.json.error.code, -32600);
  });
});

describe('MCP: auth', () => {
  test('no token or a bad one: 401 with WWW-Authenticate: Bearer', async (t) => {
    const w = await startMcp(t);
    for (const token of [undefined, 'not-a-token']) {
      const answer = await rpc(w.url, token, 'tools/list');
      assert.equal(answer.status, 401);
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
      assert.equal(answer.json.jsonrpc, '2.0');
    }
  });

  test('a tool needing a scope the token lacks is a tool error naming the scope', async (t) => {
    const w = await startMcp(t);
    const listOnly = await w.token('user-aiko', 'calendar.calendarlist.readonly');
    assert.match(await toolError(w.url, listOnly, 'list_events'), /calendar\.events\.readonly/);
    assert.match(await toolError(w.url, listOnly, 'suggest_time', { attendeeEmails: ['primary'], startTime: '2026-10-20', endTime: '2026-10-21' }), /calendar\.events\.freebusy/);
    const readOnly = await w.token('user-aiko', 'calendar.readonly');
    assert.match(await toolError(w.url, readOnly, 'create_event', { summary: 's', startTime: '2026-10-20T10:00:00', endTime: '2026-10-20T11:00:00', timeZone: 'UTC' }), /https:\/\/www\.googleapis\.com\/auth\/calendar\.events /);
    const eventsOnly = await w.token('user-aiko', 'calendar.events');
    assert.match(await toolError(w.url, eventsOnly, 'list_calendars'), /calendar\.calendarlist\.readonly/);
  });
});
