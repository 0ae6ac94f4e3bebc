// One journal entry as GET /__svc/requests shows it (docs/journal.md). What needs reading is read
// once, when the request is recorded: the query and body are redacted (redact.ts, body.ts) and
// kept as JSON text, the path has its token-shaped runs scrubbed, and the error reason is read
// from a non-2xx answer. The rest are values the request already holds, so the entry's text is
// written out from its parts when it is read, which parses nothing. Nothing else of the request
// or its answer is kept.

import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { formatIsoUtc } from '../domain/time/zones.ts';
import { bodyText } from './body.ts';
import { Budget, OverBudget } from './budget.ts';
import { redactFields, scrubTokens } from './redact.ts';

/** What the journal knows of a request besides the request and its answer. */
export interface Recorded {
  id: number;
  /** Service clock, when the answer was written. */
  at: number;
  durationMs: number;
}

export interface Entry {
  readonly id: number;
  readonly at: number;
  readonly method: string;
  /** Scrubbed of token-shaped runs. */
  readonly path: string;
  /** Redacted, as JSON text. */
  readonly query: string;
  readonly operation: string | null;
  readonly userId: string | null;
  readonly clientId: string | null;
  readonly connectionId: string | null;
  readonly status: number;
  readonly durationMs: number;
  /** Redacted, as JSON text. */
  readonly body: string;
  readonly error: string | null;
  readonly fault: string | null;
  /** At least the UTF-8 bytes of the entry's text, which the journal's bound counts. */
  readonly bytes: number;
}

// Besides its strings, an entry's text holds its member names and punctuation (143 bytes), the
// quotes of the method and path (4), "null" or the quotes of six more (24 at most), and an id,
// status, duration and time (68 at most): 239 in all.
const FIXED_BYTES = 256;

/**
 * The redacted JSON text of the query last recorded: a client polling for changes sends the same
 * one again and again, and redacting a sync token's query cost a microsecond.
 */
export class LastQuery {
  #search = '';
  #text = '{}';

  textOf(req: ApiRequest): string {
    if (req.search !== this.#search) {
      this.#text = req.query.size === 0 ? '{}' : JSON.stringify(queryFields(req.query));
      this.#search = req.search;
    }
    return this.#text;
  }
}

/** The request as the journal keeps it. */
export function entryOf(req: ApiRequest, result: Result, recorded: Recorded, lastQuery: LastQuery): Entry {
  const { trace } = req;
  // Only a non-2xx answer names an error.
  const error = result.status >= 200 && result.status < 300 ? null : errorReason(result);
  const path = scrubTokens(req.path);
  const query = lastQuery.textOf(req);
  const body = bodyText(req.body);
  // A string written through JSON.stringify takes at most 6 bytes a UTF-16 unit (a control
  // character becomes \u00XX); the query and body texts are counted as they are.
  const strings =
    req.method.length + path.length + lengthOf(trace.operation) + lengthOf(trace.userId) + lengthOf(trace.clientId) + lengthOf(trace.connectionId) + lengthOf(error) + lengthOf(trace.fault);
  return {
    id: recorded.id,
    at: recorded.at,
    method: req.method,
    path,
    query,
    operation: trace.operation,
    userId: trace.userId,
    clientId: trace.clientId,
    connectionId: trace.connectionId,
    status: result.status,
    durationMs: recorded.durationMs,
    body,
    error,
    fault: trace.fault,
    bytes: FIXED_BYTES + 6 * strings + Buffer.byteLength(query) + Buffer.byteLength(body),
  };
}

/** The entry's JSON text, its members in the order of docs/journal.md. */
export function entryText(entry: Entry): string {
  // Written member by member: every string goes through JSON.stringify; the numbers are finite
  // (ids and statuses are integers, durationMs a difference of performance.now() readings), so
  // their text is what JSON.stringify would write.
  return (
    `{"id":${entry.id},"at":"${formatIsoUtc(entry.at)}","method":${JSON.stringify(entry.method)},"path":${JSON.stringify(entry.path)}` +
    `,"query":${entry.query},"operation":${jsonOrNull(entry.operation)},"userId":${jsonOrNull(entry.userId)},"clientId":${jsonOrNull(entry.clientId)}` +
    `,"connectionId":${jsonOrNull(entry.connectionId)},"status":${entry.status},"durationMs":${Math.round(entry.durationMs * 1000) / 1000}` +
    `,"body":${entry.body},"error":${jsonOrNull(entry.error)},"fault":${jsonOrNull(entry.fault)}}`
  );
}

function lengthOf(text: string | null): number {
  return text === null ? 0 : text.length;
}

/** A string or null as JSON; most entries name no error and no fault, written without a call. */
function jsonOrNull(text: string | null): string {
  return text === null ? 'null' : JSON.stringify(text);
}

/** The query's fields, redacted like a form body's; one too costly to read is kept as its size. */
function queryFields(query: URLSearchParams): unknown {
  try {
    return redactFields(query, 0, new Budget());
  } catch (error) {
    if (error instanceof OverBudget) return { truncated: true, bytes: Buffer.byteLength(query.toString()) };
    throw error;
  }
}

/**
 * The reason a non-2xx answer names: Google's envelope `error.errors[0].reason`, the OAuth and
 * management `error`, the unrouted answer's `unsupportedFeature` (docs/calendar-api.md), or the `error` of a redirect back to the client
 * (RFC 6749 §4.1.2.1). Null when the answer names none (a 304, an HTML page).
 */
function errorReason(answer: Result): string | null {
  const location = answer.headers.Location;
  if (location !== undefined) {
    try {
      return new URL(location).searchParams.get('error');
    } catch {
      return null;
    }
  }
  if (answer.body === null || !(answer.headers['Content-Type'] ?? '').includes('json')) return null;
  const text = typeof answer.body === 'string' ? answer.body : Buffer.concat(Buffer.isBuffer(answer.body) ? [answer.body] : answer.body).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  const reason = (error as { errors?: Array<{ reason?: unknown }> } | undefined)?.errors?.[0]?.reason;
  return typeof reason === 'string' ? reason : null;
}
