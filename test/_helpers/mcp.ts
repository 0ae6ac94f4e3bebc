// Driving the MCP surface (docs/mcp.md) over HTTP in tests: a service started with mcp on,
// tokens from the real consent flow, and JSON-RPC calls.

import assert from 'node:assert/strict';
import type { StartOptions } from '../../src/index.ts';
import { obtainToken } from './oauth.ts';
import { call, startService } from './service.ts';
import type { Answer } from './service.ts';

export const MCP_SCOPES = ['calendar.events', 'calendar.calendarlist.readonly'];

export interface McpWorld {
  url: string;
  /** A token of `user` (default user-aiko) with `scope` (default MCP_SCOPES). */
  token(user?: string, scope?: string | string[]): Promise<string>;
}

export async function startMcp(t: { after(fn: () => unknown): void }, options: StartOptions = {}): Promise<McpWorld> {
  const url = await startService(t, { mcp: true, ...options });
  return {
    url,
    token: async (user = 'user-aiko', scope = MCP_SCOPES) => (await obtainToken(url, { user, scope })).access_token,
  };
}

let nextId = 1;

/** POSTs `body` (an object is sent as JSON text) to /mcp/v1 with the token and headers given. */
export function post(url: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`${url}/mcp/v1`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** One JSON-RPC request; the whole answer. */
export function rpc(url: string, token: string | undefined, method: string, params?: object, headers?: Record<string, string>): Promise<Answer> {
  return post(url, token, { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }, headers);
}

/** tools/call, asserting a JSON-RPC result (a tool error is still a result): the CallToolResult. */
export async function callTool(url: string, token: string, name: string, args: object = {}): Promise<{ isError?: boolean; structuredContent?: any; content: Array<{ type: string; text: string }> }> {
  const answer = await rpc(url, token, 'tools/call', { name, arguments: args });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.error, undefined, answer.text);
  return answer.json.result;
}

/** tools/call that must succeed: its structuredContent. */
export async function tool(url: string, token: string, name: string, args: object = {}): Promise<any> {
  const result = await callTool(url, token, name, args);
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.deepEqual(JSON.parse(result.content[0]?.text ?? ''), result.structuredContent, 'the text rendering is the structured result');
  return result.structuredContent;
}

/** tools/call that must fail as a tool error: its text. */
export async function toolError(url: string, token: string, name: string, args: object = {}): Promise<string> {
  const result = await callTool(url, token, name, args);
  assert.equal(result.isError, true, JSON.stringify(result));
  return result.content[0]?.text ?? '';
}

/** A Calendar API call with a bearer token. */
export function api(url: string, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return call(`${url}/calendar/v3/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
