// One journal entry as GET /__svc/requests shows it (CONTRACT §9), built from what the ring
// keeps: the query and body as objects with their secrets redacted (redact.ts), and the error
// reason read from a non-2xx answer.

import type { RequestTrace } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { isSecretName, REDACTED, redactJson } from './redact.ts';

/** What journal.ts keeps of a request: pieces it already had, nothing parsed. */
// The journal names the rule that acted (`fault`); how a rule shaped an answer is the answer's business.
export interface Recorded extends Omit<RequestTrace, 'shape'> {
  id: number;
  /** Service clock, when the answer was written. */
  at: number;
  method: string;
  path: string;
  /** Undefined for an empty query. */
  query: URLSearchParams | undefined;
  status: number;
  durationMs: number;
  /** The decoded body as text, its size in bytes when over the journal's limit, or null when empty. */
  body: string | number | null;
  contentType: string | undefined;
  /** The answer, for a non-2xx status only. */
  answer: Result | undefined;
}

type Fields = Record<string, string | string[]>;

export interface JournalEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  query: Fields;
  operation: string | null;
  userId: string | null;
  clientId: string | null;
  connectionId: string | null;
  status: number;
  durationMs: number;
  body: unknown;
  error: string | null;
  fault: string | null;
}

/** JSON bodies nested deeper than this are shown as truncated, like oversized ones. */
const MAX_BODY_DEPTH = 100;

export function toEntry(recorded: Recorded): JournalEntry {
  return {
    id: recorded.id,
    at: new Date(recorded.at).toISOString(),
    method: recorded.method,
    path: recorded.path,
    query: recorded.query === undefined ? {} : fieldsOf(recorded.query),
    operation: recorded.operation,
    userId: recorded.userId,
    clientId: recorded.clientId,
    connectionId: recorded.connectionId,
    status: recorded.status,
    durationMs: Math.round(recorded.durationMs * 1000) / 1000,
    body: bodyOf(recorded),
    error: recorded.answer === undefined ? null : errorReason(recorded.answer),
    fault: recorded.fault,
  };
}

/**
 * A query or form as an object: a name sent once maps to its string, a name repeated to the
 * array of its values in order. Secret values are redacted.
 */
function fieldsOf(params: URLSearchParams): Fields {
  const fields = new Map<string, string | string[]>();
  for (const [name, raw] of params) {
    const value = isSecretName(name) ? REDACTED : raw;
    const seen = fields.get(name);
    if (seen === undefined) fields.set(name, value);
    else if (typeof seen === 'string') fields.set(name, [seen, value]);
    else seen.push(value);
  }
  // fromEntries defines own properties, so a field named __proto__ stays a field.
  return Object.fromEntries(fields);
}

/**
 * The body as the service read it: a form where the content type says so, or on an OAuth
 * endpoint (those read a form whatever the Content-Type says); otherwise JSON when it parses.
 * Anything else is null, rather than raw text whose secrets could not be found.
 */
function bodyOf(recorded: Recorded): unknown {
  const { body } = recorded;
  if (body === null) return null;
  if (typeof body === 'number') return truncated(body);
  const type = (recorded.contentType ?? '').toLowerCase();
  const isForm = type.startsWith('application/x-www-form-urlencoded') || (!type.includes('json') && recorded.operation?.startsWith('oauth.') === true);
  if (isForm) return fieldsOf(new URLSearchParams(body));
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  return redactJson(value, MAX_BODY_DEPTH) ? value : truncated(Buffer.byteLength(body));
}

function truncated(bytes: number): { truncated: true; bytes: number } {
  return { truncated: true, bytes };
}

/**
 * The reason a non-2xx answer names: Google's envelope `error.errors[0].reason`, the OAuth and
 * management `error`, §6's `unsupportedFeature`, or the `error` of a redirect back to the client
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
