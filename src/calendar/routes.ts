// The calendar API surface: everything under /calendar/v3/. One route table, read top to bottom:
// HTTP method, path under /calendar/v3/, Google's method id, handler. Before a handler runs, every
// route does the same three steps, in Google's order:
//   1. bearer authentication (401 authError, docs/calendar-api.md): the Authorization header or, without
//      one, `access_token` or `oauth_token` in the query (docs/calendar-api.md#browser-apps);
//   2. the scope check, from docs/calendar-api.md's table in scopes.ts (403 insufficientPermissions);
//   3. the system parameters (https://developers.google.com/workspace/calendar/api/v3/reference): `alt` must be json, `fields` must parse and name
//      only members of the method's response (fields.ts);
//      `prettyPrint`, `quotaUser`, `userIp` and `key` never fail, and `key` never stands in for
//      the bearer token (spec, "Calendar API").
// Each authenticated request counts against the usage limits (docs/usage-limits.md, src/usage/), and one
// over a limit is refused there. Then the fault rules (docs/faults.md) may answer in the handler's
// place, so a faulted or refused request changes nothing.
// Paths and methods missing from the table (events.import, events.move, calendars.insert, acl.*,
// colors.get, settings.*) answer 501 from the router (docs/calendar-api.md), before authentication.
// The watch routes come before the `:calendarId` and `:eventId` routes of the same depth.

import type { App } from '../app/app.ts';
import { GoogleApiError, googleErrors, renderGoogleError } from '../api/google-error.ts';
import type { ApiRequest } from '../http/request.ts';
import { Router } from '../http/router.ts';
import type { Params } from '../http/router.ts';
import type { Handler, Surface } from '../http/surface.ts';
import { isUnexpandable } from '../domain/recurrence/expand.ts';
import { faulted } from '../faults/intercept.ts';
import type { FaultRules } from '../faults/rules.ts';
import { authenticate, traceIdentity } from '../oauth/bearer.ts';
import type { BearerCache } from '../oauth/bearer.ts';
import type { Notifier } from '../push/delivery.ts';
import type { Usage } from '../usage/usage.ts';
import { calendarListHandlers } from './calendar-list.ts';
import { getCalendar } from './calendars.ts';
import type { CalendarCaches, CalendarHandler } from './context.ts';
import { eventHandlers } from './events/handlers.ts';
import { checkFieldsParam } from './fields.ts';
import { freebusyQuery } from './freebusy.ts';
import { stringParam } from './params.ts';
import { scopeAllows } from './scopes.ts';
import type { CalendarOperation } from './scopes.ts';
import { calendarListWatch, channelsStop, eventsWatch } from './watch.ts';

export const CALENDAR_PREFIX = '/calendar/v3/';

export interface CalendarRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under /calendar/v3/; `:name` segments are path parameters, percent-decoded once. */
  path: string;
  operation: CalendarOperation;
  handler: CalendarHandler;
}

export const CALENDAR_ROUTES: readonly CalendarRoute[] = [
  { method: 'GET', path: 'users/me/calendarList', operation: 'calendar.calendarList.list', handler: calendarListHandlers.list },
  { method: 'POST', path: 'users/me/calendarList', operation: 'calendar.calendarList.insert', handler: calendarListHandlers.insert },
  { method: 'POST', path: 'users/me/calendarList/watch', operation: 'calendar.calendarList.watch', handler: calendarListWatch },
  { method: 'GET', path: 'users/me/calendarList/:calendarId', operation: 'calendar.calendarList.get', handler: calendarListHandlers.get },
  { method: 'PUT', path: 'users/me/calendarList/:calendarId', operation: 'calendar.calendarList.update', handler: calendarListHandlers.update },
  { method: 'PATCH', path: 'users/me/calendarList/:calendarId', operation: 'calendar.calendarList.patch', handler: calendarListHandlers.patch },
  { method: 'DELETE', path: 'users/me/calendarList/:calendarId', operation: 'calendar.calendarList.delete', handler: calendarListHandlers.delete },
  { method: 'GET', path: 'calendars/:calendarId', operation: 'calendar.calendars.get', handler: getCalendar },
  { method: 'GET', path: 'calendars/:calendarId/events', operation: 'calendar.events.list', handler: eventHandlers.list },
  { method: 'POST', path: 'calendars/:calendarId/events', operation: 'calendar.events.insert', handler: eventHandlers.insert },
  { method: 'POST', path: 'calendars/:calendarId/events/watch', operation: 'calendar.events.watch', handler: eventsWatch },
  { method: 'GET', path: 'calendars/:calendarId/events/:eventId', operation: 'calendar.events.get', handler: eventHandlers.get },
  { method: 'PUT', path: 'calendars/:calendarId/events/:eventId', operation: 'calendar.events.update', handler: eventHandlers.update },
  { method: 'PATCH', path: 'calendars/:calendarId/events/:eventId', operation: 'calendar.events.patch', handler: eventHandlers.patch },
  { method: 'DELETE', path: 'calendars/:calendarId/events/:eventId', operation: 'calendar.events.delete', handler: eventHandlers.delete },
  { method: 'GET', path: 'calendars/:calendarId/events/:eventId/instances', operation: 'calendar.events.instances', handler: eventHandlers.instances },
  { method: 'POST', path: 'channels/stop', operation: 'calendar.channels.stop', handler: channelsStop },
  { method: 'POST', path: 'freeBusy', operation: 'calendar.freebusy.query', handler: freebusyQuery },
];

/** https://developers.google.com/workspace/calendar/api/v3/reference: `json` is the only response format. */
function checkSystemParameters(query: URLSearchParams, operation: CalendarOperation): void {
  const alt = stringParam(query, 'alt');
  if (alt !== undefined && alt !== 'json') throw googleErrors.invalid('alt must be json', 'alt');
  checkFieldsParam(query, operation);
}

function guarded(app: App, bearers: BearerCache, caches: CalendarCaches, notifier: Notifier, faults: FaultRules, usage: Usage, route: CalendarRoute): Handler {
  return (req: ApiRequest, params: Params) => {
    req.trace.operation = route.operation;
    const auth = authenticate(app, bearers, req);
    traceIdentity(req, auth);
    const overLimit = usage.admit({ operation: route.operation, clientId: auth.connection.clientId, userId: auth.user.id });
    if (overLimit !== undefined) throw new GoogleApiError(overLimit);
    if (!scopeAllows(auth.scopes, route.operation)) throw googleErrors.insufficientPermissions();
    checkSystemParameters(req.query, route.operation);
    const details = { calendarId: params.calendarId, primaryCalendarId: auth.user.email };
    return faulted(faults, req, details, () => route.handler({ app, req, params, auth, caches, notifier }));
  };
}

/**
 * `bearers` is the App's cache of authentications, shared with /userinfo; `caches` its read
 * caches, `notifier` its push notifier, `faults` its fault rules and `usage` its usage counts,
 * one each per App, made by src/composition/service.ts.
 */
export function createCalendarSurface(app: App, bearers: BearerCache, caches: CalendarCaches, notifier: Notifier, faults: FaultRules, usage: Usage): Surface {
  const routes = new Router<Handler>();
  for (const route of CALENDAR_ROUTES) routes.add(route.method, CALENDAR_PREFIX + route.path, guarded(app, bearers, caches, notifier, faults, usage, route));
  return {
    name: 'calendar',
    owns: (path) => path === '/calendar/v3' || path.startsWith(CALENDAR_PREFIX),
    routes,
    // A recurrence too costly to expand (a cap on the work one request can cause) is the
    // caller's 400, wherever in the request it was met; so is a stored rule that a newer limit
    // refuses when it is compiled (a database written before the per-period cap).
    renderError: (error) =>
      renderGoogleError(
        isUnexpandable(error) ? googleErrors.invalid(error.message) : error,
        app.log,
      ),
  };
}
