// The request journal's management routes (CONTRACT §9): GET /__svc/requests reads it with
// filters, DELETE /__svc/requests empties it. The journal itself is src/journal/.

import { empty, jsonText } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';
import type { Journal, JournalQuery } from '../journal/journal.ts';
import { ManagementError } from './errors.ts';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;
const PARAMETERS = new Set(['since', 'operation', 'status', 'userId', 'limit']);

export function addRequestRoutes(routes: Router<Handler>, journal: Journal): Router<Handler> {
  return routes
    .add('GET', '/__svc/requests', (req) => jsonText(200, journal.read(journalQuery(req.query))))
    .add('DELETE', '/__svc/requests', () => {
      journal.clear();
      return empty(204);
    });
}

// Unknown and repeated parameters are refused rather than ignored: `?user=` silently showing
// everyone's requests would mislead more than a 400 does.
function journalQuery(params: URLSearchParams): JournalQuery {
  for (const name of params.keys()) {
    if (!PARAMETERS.has(name)) throw invalid(`Unknown parameter ${JSON.stringify(name)}; the filters are since, operation, status, userId and limit.`);
    if (params.getAll(name).length > 1) throw invalid(`The parameter ${name} is given more than once.`);
  }
  return {
    since: integer(params, 'since', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: integer(params, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT,
    status: integer(params, 'status', 100, 599),
    operation: text(params, 'operation'),
    userId: text(params, 'userId'),
  };
}

function integer(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw invalid(`${name} must be an integer from ${min} to ${max}.`);
  return value;
}

function text(params: URLSearchParams, name: string): string | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (raw === '') throw invalid(`${name} must not be empty.`);
  return raw;
}

function invalid(message: string): ManagementError {
  return new ManagementError(400, 'invalid_request', message);
}
