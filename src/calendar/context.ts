// What every calendar API handler receives: the authenticated caller with the parsed request.
// src/calendar/routes.ts authenticates and checks scopes before a handler runs.

import type { App } from '../app.ts';
import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import type { Params } from '../http/router.ts';
import type { BearerAuth } from '../oauth/bearer.ts';

export interface CalendarCall {
  app: App;
  req: ApiRequest;
  params: Params;
  auth: BearerAuth;
}

export type CalendarHandler = (call: CalendarCall) => Result | Promise<Result>;
