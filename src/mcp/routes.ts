// The MCP surface (docs/mcp.md): Google's Calendar MCP server at POST /mcp/v1, served when the
// service runs with --mcp. Streamable HTTP as the MCP specification (2025-11-25, "Transports")
// describes it, statelessly: no session id is issued, and GET (a server-sent stream) and DELETE
// (ending a session) answer 405. Each POST carries one JSON-RPC message, checked in this order:
//   1. Content-Type application/json (415), and an Accept that allows JSON or a server-sent
//      event (406): a body of another type never reaches a handler, as on /__svc/;
//   2. the bearer token of this service's OAuth server (401 with `WWW-Authenticate: Bearer`);
//   3. MCP-Protocol-Version, when sent, must name a version spoken here (400);
//   4. the message itself (400 with JSON-RPC -32700 or -32600), then the method: initialize,
//      ping, tools/list, tools/call (tool-call.ts); any other is -32601. A notification or a
//      client's response is accepted with 202 and no body.
// The answer is application/json, or one `message` event of text/event-stream when the client
// accepts only that. The body cap (1 MiB) is the HTTP layer's, as for every surface.
// The journal names each request `mcp.<method>`, and a tool call `mcp.<tool>`.

import type { App } from '../app/app.ts';
import { GoogleApiError } from '../api/google-error.ts';
import type { CalendarCaches } from '../calendar/context.ts';
import { packageVersion } from '../config/version.ts';
import type { FaultRules } from '../faults/rules.ts';
import { header, RequestError } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import { empty, json } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import { Router } from '../http/router.ts';
import type { Handler, Surface } from '../http/surface.ts';
import { authenticate, traceIdentity } from '../oauth/bearer.ts';
import type { BearerCache } from '../oauth/bearer.ts';
import type { Notifier } from '../push/delivery.ts';
import type { Usage } from '../usage/usage.ts';
import type { ToolContext } from './api-call.ts';
import { errorMessage, negotiate, parseMessage, PROTOCOL_VERSIONS, resultMessage, RPC, RpcError } from './protocol.ts';
import type { RpcId } from './protocol.ts';
import { callTool } from './tool-call.ts';
import { TOOLS } from './tools.ts';

export const MCP_PATH = '/mcp/v1';

const INSTRUCTIONS =
  "A local emulator of Google's Calendar MCP server: the same nine tools, over the same calendars the emulator's Calendar API serves.";

function listedTools(): object[] {
  return TOOLS.map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations }));
}

// RFC 9110 §8.3.1: type and subtype are case-insensitive; parameters may follow `;`.
const JSON_TYPE = /^application\/json[ \t]*(?:;|$)/i;

type Format = 'json' | 'event-stream';

/** What the client's Accept allows: JSON when it names JSON or nothing; a server-sent event when only that. */
function answerFormat(req: ApiRequest): Format | undefined {
  const accept = header(req, 'accept');
  if (accept === undefined) return 'json';
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
  if (types.some((type) => type === 'application/json' || type === 'application/*' || type === '*/*')) return 'json';
  if (types.includes('text/event-stream')) return 'event-stream';
  return undefined;
}

function write(format: Format, status: number, message: object, headers: Record<string, string> = {}): Result {
  if (format === 'json') return json(status, message, headers);
  return {
    status,
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', ...headers },
    body: `event: message\ndata: ${JSON.stringify(message)}\n\n`,
  };
}

function refusal(error: RpcError, format: Format = 'json'): Result {
  return write(format, error.httpStatus, errorMessage(error), error.headers);
}

async function dispatch(ctx: ToolContext, faults: FaultRules, usage: Usage, req: ApiRequest, id: RpcId, method: string, params: Record<string, unknown>): Promise<Result> {
  switch (method) {
    case 'initialize':
      if (typeof params.protocolVersion !== 'string') throw new RpcError(RPC.invalidParams, 'Invalid params: protocolVersion must be a string.', { id });
      return json(200, resultMessage(id, {
        protocolVersion: negotiate(params.protocolVersion),
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'local-calendar-emulator', version: packageVersion() },
        instructions: INSTRUCTIONS,
      }));
    case 'ping':
      return json(200, resultMessage(id, {}));
    case 'tools/list':
      // Nine tools fit one page: no nextCursor, whatever cursor is sent.
      return json(200, resultMessage(id, { tools: listedTools() }));
    case 'tools/call':
      return callTool(ctx, faults, usage, req, id, params);
    default:
      throw new RpcError(RPC.methodNotFound, `Method not found: ${method}`, { id });
  }
}

function post(app: App, bearers: BearerCache, caches: CalendarCaches, notifier: Notifier, faults: FaultRules, usage: Usage): Handler {
  return async (req) => {
    req.trace.operation = 'mcp';
    if (!JSON_TYPE.test((header(req, 'content-type') ?? '').trim())) {
      throw new RpcError(RPC.invalidRequest, 'The request body must be JSON: send Content-Type: application/json.', { httpStatus: 415 });
    }
    const format = answerFormat(req);
    if (format === undefined) throw new RpcError(RPC.invalidRequest, 'Not Acceptable: the client must accept application/json or text/event-stream.', { httpStatus: 406 });
    try {
      const auth = authenticate(app, bearers, req);
      traceIdentity(req, auth);
      const version = header(req, 'mcp-protocol-version');
      if (version !== undefined && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
        throw new RpcError(RPC.invalidRequest, `Unsupported MCP-Protocol-Version ${version}; this server speaks ${PROTOCOL_VERSIONS.join(', ')}.`, { httpStatus: 400 });
      }
      const message = parseMessage(req.body.toString('utf8'));
      if (message.kind !== 'request') {
        if (message.kind === 'notification') req.trace.operation = `mcp.${message.method}`;
        return empty(202);
      }
      req.trace.operation = `mcp.${message.method}`;
      const ctx: ToolContext = { app, auth, caches, notifier, baseUrl: req.baseUrl };
      const result = await dispatch(ctx, faults, usage, req, message.id, message.method, message.params as Record<string, unknown>);
      return format === 'json' ? result : write('event-stream', result.status, JSON.parse(String(result.body)) as object);
    } catch (error) {
      if (error instanceof RpcError) return refusal(error, format);
      throw error;
    }
  };
}

const notAllowed: Handler = () => json(405, errorMessage(new RpcError(RPC.invalidRequest, 'Method Not Allowed: this server keeps no session and opens no stream; POST one JSON-RPC message.')), { Allow: 'POST' });

/** The same App, caches, notifier, fault rules and usage counts as the calendar surface beside it (src/composition/service.ts). */
export function createMcpSurface(app: App, bearers: BearerCache, caches: CalendarCaches, notifier: Notifier, faults: FaultRules, usage: Usage): Surface {
  const routes = new Router<Handler>()
    .add('POST', MCP_PATH, post(app, bearers, caches, notifier, faults, usage))
    .add('GET', MCP_PATH, notAllowed)
    .add('DELETE', MCP_PATH, notAllowed);
  return {
    name: 'mcp',
    owns: (path) => path === MCP_PATH,
    routes,
    renderError: (error) => {
      if (error instanceof RpcError) return refusal(error);
      if (error instanceof GoogleApiError && error.detail.status === 401) {
        return refusal(new RpcError(RPC.unauthorized, 'Invalid Credentials: send Authorization: Bearer <access token> from this service\'s OAuth server.', { httpStatus: 401, headers: { 'WWW-Authenticate': 'Bearer' } }));
      }
      // Refused by the HTTP layer: a body over the cap (413), an encoding it cannot undo.
      if (error instanceof RequestError) return refusal(new RpcError(RPC.invalidRequest, error.message, { httpStatus: error.status }));
      app.log.error('internal error in the MCP surface', error);
      return refusal(new RpcError(RPC.internalError, 'Internal error', { httpStatus: 500 }));
    },
  };
}
