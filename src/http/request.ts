// Turning a node:http request into the parsed value handlers see: method (with the Java client's
// X-HTTP-Method-Override), path segments, query, headers and a capped, decompressed body.

import type { IncomingMessage } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A request the HTTP layer itself refuses (body too large, malformed JSON, ...). Each API surface
 * renders it in its own error shape.
 */
export class RequestError extends Error {
  readonly status: number;
  readonly code: 'payloadTooLarge' | 'parseError' | 'unsupportedEncoding' | 'uriTooLong';
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
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The public base URL of the service (no trailing slash). */
  baseUrl: string;
}

export function header(req: ApiRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads the whole body, refusing more than MAX_BODY_BYTES before and after decompression. */
export async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const declared = Number(incoming.headers['content-length']);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  // No Content-Length and no Transfer-Encoding (or Content-Length: 0) frames an empty body
  // (RFC 9112 §6.3): most GETs skip the stream machinery below.
  if ((incoming.headers['content-length'] ?? '0') === '0' && incoming.headers['transfer-encoding'] === undefined) {
    incoming.resume();
    return Buffer.alloc(0);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks, size);
  return decode(raw, String(incoming.headers['content-encoding'] ?? 'identity').toLowerCase().trim());
}

// Google's Java client gzips request bodies (Content-Encoding: gzip).
function decode(raw: Buffer, encoding: string): Buffer {
  if (raw.length === 0 || encoding === 'identity' || encoding === '') return raw;
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
