// A tool runs the Calendar API's own handlers in process, as the caller: the same code answers
// `events.insert` over REST and `create_event` over MCP, so invitations and the outbox, sync
// tokens, watch notifications and free/busy see one state (docs/mcp.md "One state"). A tool
// maps its arguments to the method's query and body, and reads back the resource the handler
// rendered. A Google error the handler throws becomes a tool error carrying Google's envelope.

import type { App } from '../app/app.ts';
import { GoogleApiError, googleErrorBody } from '../api/google-error.ts';
import type { CalendarCaches, CalendarHandler } from '../calendar/context.ts';
import { CALENDAR_PREFIX, CALENDAR_ROUTES } from '../calendar/routes.ts';
import type { CalendarOperation } from '../calendar/scopes.ts';
import { emptyTrace } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import { ExpansionBudgetError } from '../domain/recurrence/expand.ts';
import { RecurrenceError } from '../domain/recurrence/rrule.ts';
import type { BearerAuth } from '../oauth/bearer.ts';
import type { Notifier } from '../push/delivery.ts';
import { ToolError } from './arguments.ts';

/** What every tool call shares: the App and its caches, the caller, the request it came in. */
export interface ToolContext {
  readonly app: App;
  readonly auth: BearerAuth;
  readonly caches: CalendarCaches;
  readonly notifier: Notifier;
  readonly baseUrl: string;
}

export interface ApiCall {
  /** Path parameters, as the route names them (calendarId, eventId). */
  params?: Record<string, string>;
  query?: Record<string, string | readonly string[] | undefined>;
  body?: unknown;
}

const HANDLERS = new Map<CalendarOperation, { path: string; method: string; handler: CalendarHandler }>(
  CALENDAR_ROUTES.map((route) => [route.operation, route]),
);

/** Runs `operation` as the caller and returns the JSON it answered (undefined for 204). */
export async function callApi(ctx: ToolContext, operation: CalendarOperation, call: ApiCall = {}): Promise<any> {
  const route = HANDLERS.get(operation);
  if (route === undefined) throw new Error(`no route for ${operation}`);
  const params = call.params ?? {};
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value === undefined) continue;
    for (const one of typeof value === 'string' ? [value] : value) query.append(name, one);
  }
  // The path only keys page tokens to their listing (src/calendar/events/list-query.ts); parameters come from `params`.
  const path = CALENDAR_PREFIX + route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const req: ApiRequest = {
    method: route.method,
    path,
    query,
    search: query.toString(),
    headers: {},
    body: call.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(call.body)),
    baseUrl: ctx.baseUrl,
    localPort: ctx.app.port,
    trace: emptyTrace(),
  };
  try {
    const result = await route.handler({ app: ctx.app, req, params, auth: ctx.auth, caches: ctx.caches, notifier: ctx.notifier });
    if (result.body === null) return undefined;
    const body = result.body;
    return JSON.parse((typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.concat(body)).toString('utf8'));
  } catch (error) {
    if (error instanceof GoogleApiError) throw new ToolError(`${error.detail.reason}: ${error.message}`, googleErrorBody(error.detail));
    // The calendar surface answers these 400 invalid too (calendar/routes.ts).
    if (error instanceof ExpansionBudgetError || error instanceof RecurrenceError) throw new ToolError(`invalid: ${error.message}`);
    throw error;
  }
}
