// An API surface: a path prefix, its route table, and the one function that renders its errors.
// The service has four (OAuth, calendar, management, unrouted), each with its own error shape.

import type { ApiRequest } from './request.ts';
import type { Result } from './result.ts';
import type { Params, Router } from './router.ts';

export type Handler = (req: ApiRequest, params: Params) => Result | Promise<Result>;

export interface Surface {
  readonly name: string;
  owns(path: string): boolean;
  readonly routes: Router<Handler>;
  /** A check run before routing (the management Host check); a Result refuses the request. */
  admit?(req: ApiRequest): Result | undefined;
  /** Renders anything a handler of this surface throws, including RequestError and unknown faults. */
  renderError(error: unknown, req: ApiRequest): Result;
}
