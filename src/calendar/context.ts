// What every calendar API handler receives: the authenticated caller with the parsed request.
// src/calendar/routes.ts authenticates and checks scopes before a handler runs.

import type { App } from '../app/app.ts';
import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import type { Params } from '../http/router.ts';
import type { BearerAuth } from '../oauth/bearer.ts';
import type { Notifier } from '../push/delivery.ts';
import type { RenderCache } from './events/list-items.ts';
import type { WindowCache } from './window-cache.ts';

/**
 * The read caches of one App, made once by the composition root (src/index.ts) with
 * createRenderCache and createWindowCache, which also subscribe them to the App's workspace
 * resets; handlers reach them as a field of the call, with no lookup per request.
 */
export interface CalendarCaches {
  readonly renders: RenderCache;
  readonly windows: WindowCache;
}

export interface CalendarCall {
  app: App;
  req: ApiRequest;
  params: Params;
  auth: BearerAuth;
  caches: CalendarCaches;
  /** The App's push notifier (src/push/service.ts startPush), for the watch methods. */
  notifier: Notifier;
}

export type CalendarHandler = (call: CalendarCall) => Result | Promise<Result>;
