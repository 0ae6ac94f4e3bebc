// Turning a node:http request into the parsed value handlers see: method (with the Java client's
// X-HTTP-Method-Override), path segments, query, headers, a capped, decompressed body, and the
// bearer token it presents.

import type { IncomingMessage } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A request the HTTP layer itself refuses (body too large, malformed JSON, ...). Each API surface
 * renders it in its own error shape.
 */
export class RequestError extends Error {
  readonly status: number;
  readonly code: 'badRequest' | 'payloadTooLarge' | 'parseError' | 'unsupportedEncoding' | 'uriTooLong';
  constructor(status: number, code: RequestError['code'], message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface ApiRequest {
  method: string;
  /** The raw path, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  /** The text `query` was read from, after the `?`, still percent-encoded; '' when none. */
  search: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The public base URL of the service (no trailing slash), a workspace's prefix included (docs/workspaces.md). */
  baseUrl: string;
  /** The workspace prefix stripped from the path (`/w/{id}`), '' at the root and on a workspace's own port. */
  prefix?: string;
  /** The port the request arrived on: the service's own (the own-origin rule of docs/management-api.md). */
  localPort: number;
  /** What the surfaces learn while answering, for the request journal and fault rules. */
  trace: RequestTrace;
}

/**
 * Who made a request and what it asked for, filled in by the surface that answers it: the
 * operation as soon as the route is known, the identity once authentication succeeds. Read by
 * the request journal (docs/journal.md) after the answer, and by fault rules (docs/faults.md) before it.
 */
export interface RequestTrace {
  /** Google's method id (`calendar.events.list`) or `oauth.token` and its kin; null when unrouted. */
  operation: string | null;
  userId: string | null;
  clientId: string | null;
  connectionId: string | null;
  /** The id of the fault rule that answered or delayed the request. */
  fault: string | null;
  /** A fault that shapes the answer the work gives (`conferencePending`), set before the work runs. */
  shape: string | null;
}

export function emptyTrace(): RequestTrace {
  return { operation: null, userId: null, clientId: null, connectionId: null, fault: null, shape: null };
}

export function header(req: ApiRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

// RFC 6750 §2.1: `Bearer` then the b64token; the query forms hold a b64token too.
const B64TOKEN = '[A-Za-z0-9\\-._~+/]+=*';
const BEARER_HEADER = new RegExp(`^Bearer +(${B64TOKEN}) *$`, 'i');
const QUERY_TOKEN = new RegExp(`^${B64TOKEN}$`);

/**
 * The bearer token the request presents, or undefined for none (or a malformed one). The
 * Authorization header (RFC 6750 §2.1) when sent, and then it alone counts; otherwise the query's
 * `access_token` (RFC 6750 §2.3) or `oauth_token`, Google's older name for it (docs/calendar-api.md#browser-apps).
 * Several query values that disagree present no token: which one was meant is not ours to guess.
 * `key=` is an API key, never a token.
 */
export function bearerToken(req: ApiRequest): string | undefined {
  const authorization = header(req, 'authorization');
  if (authorization !== undefined) return BEARER_HEADER.exec(authorization)?.[1];
  const values = [...req.query.getAll('access_token'), ...req.query.getAll('oauth_token')];
  const token = values[0];
  if (token === undefined || values.some((value) => value !== token)) return undefined;
  return QUERY_TOKEN.test(token) ? token : undefined;
}

/** The body of a request without one; a zero-length buffer, which nothing can change, so one serves all. */
export const NO_BODY: Buffer = Buffer.alloc(0);

/**
 * Reads the whole body, refusing more than MAX_BODY_BYTES before and after decompression. An
 * empty body is answered at once, not as a promise: most GETs then take no turn of the
 * microtask queue for it.
 */
export function readBody(incoming: IncomingMessage): Buffer | Promise<Buffer> {
  const declared = Number(incoming.headers['content-length']);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  // Most GETs skip the stream machinery below.
  if (!framesBody(incoming)) {
    incoming.resume();
    return NO_BODY;
  }
  return readStream(incoming);
}

/**
 * Whether the request has a body to read: no Content-Length and no Transfer-Encoding (or
 * Content-Length: 0) frames an empty one (RFC 9112 §6.3).
 */
export function framesBody(incoming: IncomingMessage): boolean {
  return (incoming.headers['content-length'] ?? '0') !== '0' || incoming.headers['transfer-encoding'] !== undefined;
}

/**
 * The body's chunks gathered by listeners rather than `for await`: an async iterator over the
 * stream cost a few microseconds of every POST. What the loop did is kept: more than
 * MAX_BODY_BYTES refuses the request, the rest flowing away unread until the answer (413,
 * `Connection: close`) ends the connection; a stream error is the error; and a stream closed
 * before its end is ERR_STREAM_PREMATURE_CLOSE.
 */
function readStream(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void): void => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      try {
        outcome();
      } catch (error) {
        reject(error);
      }
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else
        settle(() => {
          incoming.resume();
          reject(tooLarge());
        });
    };
    const onEnd = (): void => settle(() => resolve(decode(Buffer.concat(chunks, size), String(incoming.headers['content-encoding'] ?? 'identity').toLowerCase().trim())));
    const onError = (error: Error): void => settle(() => reject(error));
    const onClose = (): void => settle(() => reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

// Google's Java client gzips request bodies (Content-Encoding: gzip). node:zlib loads with the
// first such body, not with every start (docs/performance.md "Start-up").
function decode(raw: Buffer, encoding: string): Buffer {
  if (raw.length === 0 || encoding === 'identity' || encoding === '') return raw;
  const { gunzipSync, inflateSync } = process.getBuiltinModule('node:zlib');
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(raw, { maxOutputLength: MAX_BODY_BYTES });
    if (encoding === 'deflate') return inflateSync(raw, { maxOutputLength: MAX_BODY_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new RequestError(400, 'parseError', `The request body is not valid ${encoding} data.`);
  }
  throw new RequestError(415, 'unsupportedEncoding', `Content-Encoding ${encoding} is not supported.`);
}

function tooLarge(): RequestError {
  return new RequestError(413, 'payloadTooLarge', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
}

/** The body as JSON; an empty body is an empty object only when `emptyAllowed`. */
export function jsonBody(req: ApiRequest, emptyAllowed = false): unknown {
  const text = req.body.toString('utf8');
  if (text.trim() === '') {
    if (emptyAllowed) return {};
    throw new RequestError(400, 'parseError', 'The request body is empty; a JSON object is required.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(400, 'parseError', 'The request body is not valid JSON.');
  }
}

/** The body as an application/x-www-form-urlencoded form, whatever the Content-Type says. */
export function formBody(req: ApiRequest): URLSearchParams {
  return new URLSearchParams(req.body.toString('utf8'));
}
