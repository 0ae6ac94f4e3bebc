// The query parameters of the management API's paged reads (GET /__svc/requests, docs/journal.md;
// GET /__svc/outbox, docs/invitations.md): one allow-list per route, each parameter at most once, integers in
// a named range. Unknown and repeated parameters are refused rather than ignored: `?user=`
// silently showing everyone's requests would mislead more than a 400 does.

import { ManagementError } from './errors.ts';

/** A page's `limit`: 100 unless given, at most 1,000 (docs/journal.md, docs/invitations.md). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1_000;

/** Refuses a parameter not in `allowed` (listed as `what` in the message) or given twice. */
export function checkParameters(params: URLSearchParams, allowed: readonly string[], what: string): void {
  for (const name of params.keys()) {
    if (!allowed.includes(name)) throw invalid(`Unknown parameter ${JSON.stringify(name)}; ${what} ${list(allowed)}.`);
    if (params.getAll(name).length > 1) throw invalid(`The parameter ${name} is given more than once.`);
  }
}

export function integer(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw invalid(`${name} must be an integer from ${min} to ${max}.`);
  return value;
}

export function text(params: URLSearchParams, name: string): string | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (raw === '') throw invalid(`${name} must not be empty.`);
  return raw;
}

/** `since` (default 0) and `limit` of a paged read. */
export function page(params: URLSearchParams): { since: number; limit: number } {
  return {
    since: integer(params, 'since', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: integer(params, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT,
  };
}

function list(names: readonly string[]): string {
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} and ${names.at(-1) as string}`;
}

function invalid(message: string): ManagementError {
  return new ManagementError(400, 'invalid_request', message);
}
