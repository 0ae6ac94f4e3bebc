// The one way a calendar handler turns a resource value into a Result, so the system parameters
// and conditional reads behave the same on every method:
// - `ETag` header: the value's `etag`, when it has one (https://developers.google.com/workspace/calendar/api/guides/version-resources);
// - `If-None-Match` on a GET naming the current etag: 304 with no body (https://developers.google.com/workspace/calendar/api/guides/version-resources);
// - `fields`: the partial-response selector (fields.ts);
// - `prettyPrint`: Google indents by default; this service answers compact JSON unless the
//   request says `prettyPrint=true`. Both parse the same, and compact is what Google's own Go
//   client asks for (`prettyPrint=false`, docs/quickstarts.md).

import { empty, json, jsonText } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import type { JsonObject } from '../store/store.ts';
import type { CalendarCall } from './context.ts';
import { isNotModified } from './etag.ts';
import { applyFieldSelector, fieldsParam } from './fields.ts';

export function respond(call: CalendarCall, value: { readonly etag?: unknown }, status = 200): Result {
  const headers: Record<string, string> = {};
  const etag = typeof value.etag === 'string' ? value.etag : undefined;
  if (etag !== undefined) {
    headers.ETag = etag;
    if (call.req.method === 'GET' && isNotModified(call.req, etag)) return empty(304, headers);
  }
  const selector = fieldsParam(call.req.query);
  const body = selector === undefined ? value : applyFieldSelector(value, selector);
  const result = json(status, body, headers);
  return call.req.query.get('prettyPrint') === 'true' ? { ...result, body: JSON.stringify(body, null, 2) } : result;
}

/**
 * respond() for a value already serialised (a cached rendering, or a list page as its parts)
 * whose etag is `etag` (undefined for a value without one): the text goes out as it is
 * unless `fields` or `prettyPrint` need the value, which is then parsed back.
 */
export function respondText(call: CalendarCall, etag: string | undefined, text: string | Buffer | readonly Buffer[]): Result {
  const query = call.req.query;
  if (fieldsParam(query) !== undefined || query.get('prettyPrint') === 'true') {
    const whole = typeof text === 'string' ? text : (Buffer.isBuffer(text) ? text : Buffer.concat(text)).toString('utf8');
    return respond(call, JSON.parse(whole) as JsonObject);
  }
  if (etag === undefined) return jsonText(200, text);
  if (call.req.method === 'GET' && isNotModified(call.req, etag)) return empty(304, { ETag: etag });
  return jsonText(200, text, { ETag: etag });
}

/** A successful delete: 204 with an empty body (https://developers.google.com/workspace/calendar/api/v3/reference/events/delete). */
export function noContent(): Result {
  return empty(204);
}
