// The error surface of the calendar API and /userinfo: Google's JSON envelope (docs/calendar-api.md,
// https://developers.google.com/workspace/calendar/api/guides/errors). Handlers throw GoogleApiError; renderGoogleError is the only writer.

import type { Logger } from '../http/log.ts';
import { RequestError } from '../http/request.ts';
import { json } from '../http/result.ts';
import type { Result } from '../http/result.ts';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  410: 'FAILED_PRECONDITION',
  412: 'FAILED_PRECONDITION',
  413: 'INVALID_ARGUMENT',
  414: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
};

export interface GoogleErrorDetail {
  status: number;
  reason: string;
  /** The item message (errors[0].message). */
  message: string;
  domain?: string;
  /** The top-level message when Google words it differently from the item's. */
  topMessage?: string;
  location?: string;
  locationType?: 'parameter' | 'header';
  headers?: Record<string, string>;
}

export class GoogleApiError extends Error {
  readonly detail: GoogleErrorDetail;
  constructor(detail: GoogleErrorDetail) {
    super(detail.message);
    this.detail = detail;
  }
}

// The catalogue of https://developers.google.com/workspace/calendar/api/guides/errors and docs/calendar-api.md, as constructors.
export const googleErrors = {
  authError: () =>
    new GoogleApiError({
      status: 401,
      reason: 'authError',
      message: 'Invalid Credentials',
      location: 'Authorization',
      locationType: 'header',
      headers: { 'WWW-Authenticate': 'Bearer' },
    }),
  insufficientPermissions: () =>
    new GoogleApiError({
      status: 403,
      reason: 'insufficientPermissions',
      message: 'Insufficient Permission',
      topMessage: 'Request had insufficient authentication scopes.',
    }),
  notFound: () => new GoogleApiError({ status: 404, reason: 'notFound', message: 'Not Found' }),
  invalid: (message: string, location?: string) =>
    new GoogleApiError({ status: 400, reason: 'invalid', message, ...(location ? { location, locationType: 'parameter' as const } : {}) }),
  required: (message: string, location?: string) =>
    new GoogleApiError({ status: 400, reason: 'required', message, ...(location ? { location, locationType: 'parameter' as const } : {}) }),
  badRequest: (message: string) => new GoogleApiError({ status: 400, reason: 'badRequest', message }),
  timeRangeEmpty: (location = 'timeMax') =>
    new GoogleApiError({
      status: 400,
      domain: 'calendar',
      reason: 'timeRangeEmpty',
      message: 'The specified time range is empty.',
      location,
      locationType: 'parameter',
    }),
  duplicate: () => new GoogleApiError({ status: 409, reason: 'duplicate', message: 'The requested identifier already exists.' }),
  deleted: () => new GoogleApiError({ status: 410, reason: 'deleted', message: 'Resource has been deleted' }),
  fullSyncRequired: () =>
    new GoogleApiError({
      status: 410,
      domain: 'calendar',
      reason: 'fullSyncRequired',
      message: 'Sync token is no longer valid, a full sync is required.',
      location: 'syncToken',
      locationType: 'parameter',
    }),
  conditionNotMet: () =>
    new GoogleApiError({
      status: 412,
      reason: 'conditionNotMet',
      message: 'Precondition Failed',
      location: 'If-Match',
      locationType: 'header',
    }),
  forbidden: (reason: string, message: string) => new GoogleApiError({ status: 403, reason, message }),
};

export function googleErrorBody(detail: GoogleErrorDetail): object {
  const item: Record<string, string> = { domain: detail.domain ?? 'global', reason: detail.reason, message: detail.message };
  if (detail.location) {
    item.locationType = detail.locationType ?? 'parameter';
    item.location = detail.location;
  }
  return {
    error: {
      code: detail.status,
      message: detail.topMessage ?? detail.message,
      errors: [item],
      status: STATUS_NAMES[detail.status] ?? 'UNKNOWN',
    },
  };
}

/** The one renderer of this surface: typed errors as they are, HTTP-layer refusals mapped, anything else a 500 that leaks nothing. */
export function renderGoogleError(error: unknown, log: Logger): Result {
  let detail: GoogleErrorDetail;
  if (error instanceof GoogleApiError) {
    detail = error.detail;
  } else if (error instanceof RequestError) {
    detail = { status: error.status, reason: error.code, message: error.message };
  } else {
    log.error('internal error in the calendar API', error);
    detail = { status: 500, reason: 'backendError', message: 'Backend Error' };
  }
  return json(detail.status, googleErrorBody(detail), detail.headers ?? {});
}
