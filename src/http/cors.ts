// CORS for browser apps (docs/calendar-api.md#browser-apps, Fetch standard §3.2 "CORS protocol"): Google's API answers
// browsers, so a single-page app under test may call the calendar API and /userinfo from its own
// dev origin. Only those paths: /oauth/* and /__svc/ send no CORS headers, so a page on another
// origin can never read their answers.
//
// Any origin is allowed and echoed, never with Access-Control-Allow-Credentials: the API
// authenticates by bearer token, not cookies, so an allowed origin gains nothing the token it
// holds does not already give it.

import { header } from './request.ts';
import type { ApiRequest } from './request.ts';
import { empty } from './result.ts';
import type { Result } from './result.ts';

/** True for the paths that answer browsers from other origins. */
function servesBrowsers(path: string): boolean {
  return path === '/userinfo' || path.startsWith('/calendar/v3/');
}

/** The request's Origin when CORS applies to it: a browser's cross-origin request to an API path. */
export function corsOrigin(req: ApiRequest): string | undefined {
  return servesBrowsers(req.path) ? header(req, 'origin') : undefined;
}

/** A CORS preflight (Fetch §3.2.2): OPTIONS with Access-Control-Request-Method. */
export function isPreflight(req: ApiRequest): boolean {
  return req.method === 'OPTIONS' && header(req, 'access-control-request-method') !== undefined;
}

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';

// What Google's client libraries and browser apps send; any other requested header is left out of
// the answer, so the browser refuses the request rather than the service ignoring the header.
const ALLOWED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'content-type',
  'if-match',
  'if-none-match',
  'x-goog-api-client',
  'x-goog-api-key',
  'x-http-method-override',
  'x-requested-with',
]);

// Without these a script sees only the CORS-safelisted response headers: no ETag for If-Match, no
// Location, and no WWW-Authenticate or Retry-After to tell a 401 or 429 apart.
const EXPOSED_HEADERS = 'ETag, Content-Type, Location, Retry-After, WWW-Authenticate';

/** The 204 answer to a preflight from `origin`. */
export function preflightAnswer(req: ApiRequest, origin: string): Result {
  const requested = (header(req, 'access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => ALLOWED_HEADERS.has(name));
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Max-Age': '3600',
    // The answer depends on these request headers; a cache between must not mix them up.
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
  if (requested.length > 0) headers['Access-Control-Allow-Headers'] = [...new Set(requested)].join(', ');
  return empty(204, headers);
}

/** `result` readable by a script of `origin`, errors included (a browser app must see its 401). */
export function withCorsHeaders(result: Result, origin: string): Result {
  const vary = result.headers.Vary;
  return {
    ...result,
    headers: {
      ...result.headers,
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Expose-Headers': EXPOSED_HEADERS,
      Vary: vary === undefined ? 'Origin' : `${vary}, Origin`,
    },
  };
}
