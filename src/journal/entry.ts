// One journal entry as GET /__svc/requests shows it (docs/journal.md), serialized once when the
// request is recorded: the query and body with their secrets redacted (redact.ts, body.ts), the
// path with token-shaped runs scrubbed, and the error reason read from a non-2xx answer. Nothing
// of the request or its answer is kept past this point.

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

/** The entry's JSON text, its members in the order of docs/journal.md. */
export function entryText(req: ApiRequest, result: Result, recorded: Recorded): string {
  const { trace } = req;
  // Only a non-2xx answer names an error.
  const error = result.status >= 200 && result.status < 300 ? null : errorReason(result);
  // Written member by member rather than as JSON.stringify of an object built for the purpose,
  // which cost a good part of recording a request. Every string goes through JSON.stringify; the
  // numbers are finite (ids and statuses are integers, durationMs a difference of
  // performance.now() readings), so their text is what JSON.stringify would write.
  const query = req.query.size === 0 ? '{}' : JSON.stringify(queryFields(req.query));
  return (
    `{"id":${recorded.id},"at":"${formatIsoUtc(recorded.at)}","method":${JSON.stringify(req.method)},"path":${JSON.stringify(scrubTokens(req.path))}` +
    `,"query":${query},"operation":${jsonOrNull(trace.operation)},"userId":${jsonOrNull(trace.userId)},"clientId":${jsonOrNull(trace.clientId)}` +
    `,"connectionId":${jsonOrNull(trace.connectionId)},"status":${result.status},"durationMs":${Math.round(recorded.durationMs * 1000) / 1000}` +
    `,"body":${bodyText(req.body)},"error":${jsonOrNull(error)},"fault":${jsonOrNull(trace.fault)}}`
  );
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
