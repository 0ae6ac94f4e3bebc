// JSON-RPC 2.0 as MCP's Streamable HTTP transport carries it (MCP specification 2025-11-25,
// "Basic" and "Transports"): one message per POST, its parsing into a request, a notification or
// a client's response, and the one error type of this surface, rendered as a JSON-RPC error
// object. The transport rules that are HTTP (status codes, Accept, Content-Type) live in
// routes.ts; this file knows nothing of HTTP.

// JSON-RPC 2.0 §5.1 codes, and the server range MCP uses for a refused credential.
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  unauthorized: -32001,
} as const;

/** Versions this server speaks, newest first. Both left JSON-RPC batches out of MCP. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'] as const;

export type RpcId = string | number;

/** A refusal of this surface: a JSON-RPC error with the HTTP status the transport answers it with. */
export class RpcError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly id: RpcId | null;
  readonly headers: Record<string, string>;
  constructor(code: number, message: string, options: { httpStatus?: number; id?: RpcId | null; headers?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.httpStatus = options.httpStatus ?? 200;
    this.id = options.id ?? null;
    this.headers = options.headers ?? {};
  }
}

export type Message =
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string }
  | { kind: 'response' };

// Deeper JSON than this is refused before it is walked: no real MCP message comes near it.
const MAX_DEPTH = 64;

/** Parses one POST body into one message; RpcError (HTTP 400) when it is not one. */
export function parseMessage(text: string): Message {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RpcError(RPC.parseError, 'Parse error: the body is not JSON.', { httpStatus: 400 });
  }
  if (nestedDeeperThan(value, MAX_DEPTH)) throw new RpcError(RPC.invalidRequest, `Invalid Request: JSON nested deeper than ${MAX_DEPTH} levels.`, { httpStatus: 400 });
  // Protocol versions 2025-06-18 and later removed batching: an array is not a message.
  if (Array.isArray(value)) throw new RpcError(RPC.invalidRequest, 'Invalid Request: JSON-RPC batches are not part of MCP since 2025-06-18; send one message per request.', { httpStatus: 400 });
  if (typeof value !== 'object' || value === null) throw invalid('the body must be a JSON-RPC message object');
  const message = value as Record<string, unknown>;
  const id = message.id;
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  if (message.jsonrpc !== '2.0') throw invalid('jsonrpc must be "2.0"', validId ? (id as RpcId) : null);
  if (typeof message.method === 'string') {
    if (id === undefined) return { kind: 'notification', method: message.method };
    // MCP: a request id is a string or a number, never null.
    if (!validId) throw invalid('id must be a string or a number');
    if (message.params !== undefined && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) {
      throw invalid('params must be an object', id as RpcId);
    }
    return { kind: 'request', id: id as RpcId, method: message.method, params: message.params ?? {} };
  }
  if (validId && ('result' in message || 'error' in message)) return { kind: 'response' };
  throw invalid('a message needs a method, or a result or an error', validId ? (id as RpcId) : null);
}

function invalid(why: string, id: RpcId | null = null): RpcError {
  return new RpcError(RPC.invalidRequest, `Invalid Request: ${why}.`, { httpStatus: 400, id });
}

function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Version negotiation: the client's version when spoken here, else the newest this server speaks. */
export function negotiate(requested: unknown): string {
  return (PROTOCOL_VERSIONS as readonly unknown[]).includes(requested) ? (requested as string) : PROTOCOL_VERSIONS[0];
}

export function resultMessage(id: RpcId, result: unknown): object {
  return { jsonrpc: '2.0', id, result };
}

export function errorMessage(error: RpcError): object {
  return { jsonrpc: '2.0', id: error.id, error: { code: error.code, message: error.message } };
}
