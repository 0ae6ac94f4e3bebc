// The answers a fault rule can give (docs/faults.md): each `error` name, the methods it fits, and the
// exact answer it stands for. The HTTP answers are Google's: the envelope of docs/calendar-api.md with the
// domain, reason and message of https://developers.google.com/workspace/calendar/api/guides/errors, or the OAuth body Google's token endpoint sends
// for a refresh token it revoked. The webhook answers (drop, webhookStatus, duplicate) are not
// HTTP answers of the service; src/push/ acts them out on the real delivery path.

import { googleErrorBody, googleErrors } from '../api/google-error.ts';
import type { GoogleErrorDetail } from '../api/google-error.ts';
import { json } from '../http/result.ts';
import type { Result } from '../http/result.ts';

/** The service's own webhook POSTs, as fault rules name them. */
export const PUSH_DELIVERY = 'push.delivery';
export const OAUTH_TOKEN = 'oauth.token';
/** The OAuth operations fault rules can name; the consent page and form are never faulted. */
export const OAUTH_METHODS = [OAUTH_TOKEN, 'oauth.revoke', 'oauth.userinfo'] as const;
/** Every calendar and OAuth request (not the webhook POSTs). */
export const ANY_METHOD = '*';

// https://developers.google.com/workspace/calendar/api/guides/errors rows, and docs/calendar-api.md for authError (its WWW-Authenticate: Bearer included).
const GOOGLE_ANSWERS: Readonly<Record<string, () => GoogleErrorDetail>> = {
  rateLimitExceeded: () => ({ status: 403, domain: 'usageLimits', reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' }),
  tooManyRequests: () => ({ status: 429, domain: 'usageLimits', reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' }),
  userRateLimitExceeded: () => ({ status: 403, domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' }),
  quotaExceeded: () => ({ status: 403, domain: 'usageLimits', reason: 'quotaExceeded', message: 'Calendar usage limits exceeded.' }),
  backendError: () => ({ status: 500, reason: 'backendError', message: 'Backend Error' }),
  serviceUnavailable: () => ({ status: 503, reason: 'backendError', message: 'The service is currently unavailable.' }),
  authError: () => googleErrors.authError().detail,
  fullSyncRequired: () => googleErrors.fullSyncRequired().detail,
  // https://developers.google.com/workspace/calendar/api/guides/errors (410 Gone): an
  // `updatedMin` older than Google keeps changes for. Google does not publish that window, so
  // the service answers it only when a rule asks.
  updatedMinTooLongAgo: () => ({
    status: 410,
    domain: 'calendar',
    reason: 'updatedMinTooLongAgo',
    message: 'The requested minimum modification time lies too far in the past.',
    location: 'updatedMin',
    locationType: 'parameter',
  }),
  notFound: () => googleErrors.notFound().detail,
};

/** What Google's token endpoint answers for a refresh token that was revoked or expired. */
const INVALID_GRANT = 'invalid_grant';
const INVALID_GRANT_BODY = { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' };
// RFC 6749 §5.1 and §5.2: token endpoint answers, errors included, are not cached.
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export const WEBHOOK_ERRORS = ['drop', 'webhookStatus', 'duplicate'] as const;
export type WebhookError = (typeof WEBHOOK_ERRORS)[number];

/**
 * `conferencePending`: the write runs, and its answer shows the Meet conference it asked for as
 * `createRequest.status.statusCode: "pending"`, without entry points, as Google answers a create
 * that has not finished (https://developers.google.com/workspace/calendar/api/v3/reference/events: "pending" — the request is still being processed); a
 * later read shows the conference as `success`, so a client's polling can be tested. It acts on
 * the writes that can carry `conferenceData.createRequest`; one without a create request is
 * answered as usual (the rule still counts it).
 */
export const CONFERENCE_PENDING = 'conferencePending';
const CONFERENCE_WRITES = ['calendar.events.insert', 'calendar.events.update', 'calendar.events.patch'];

export const FAULT_ERRORS: readonly string[] = [...Object.keys(GOOGLE_ANSWERS), INVALID_GRANT, CONFERENCE_PENDING, ...WEBHOOK_ERRORS];

/** The error that takes `retryAfterSeconds`, and the one that takes `status`. */
export const RETRY_AFTER_ERROR = 'tooManyRequests';
export const STATUS_ERROR: WebhookError = 'webhookStatus';

/** Why `error` cannot answer requests of `method`, or undefined when it fits. */
export function misfit(error: string, method: string): string | undefined {
  if ((WEBHOOK_ERRORS as readonly string[]).includes(error)) {
    return method === PUSH_DELIVERY ? undefined : `${error} applies to push.delivery only`;
  }
  if (error === INVALID_GRANT) return method === OAUTH_TOKEN ? undefined : `${error} applies to oauth.token only`;
  if (error === CONFERENCE_PENDING) return CONFERENCE_WRITES.includes(method) ? undefined : `${error} applies to ${CONFERENCE_WRITES.join(', ')} only`;
  return method === PUSH_DELIVERY ? `${error} is an HTTP answer of the service; push.delivery takes drop, webhookStatus or duplicate` : undefined;
}

/** The HTTP answer of an `error` that is not a webhook one (misfit() has ruled those out). */
export function faultAnswer(error: string, retryAfterSeconds: number | undefined): Result {
  if (error === INVALID_GRANT) return json(400, INVALID_GRANT_BODY, NO_STORE);
  const make = GOOGLE_ANSWERS[error];
  if (make === undefined) throw new Error(`fault error ${error} has no HTTP answer`);
  const detail = make();
  const headers = { ...detail.headers, ...(retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) }) };
  return json(detail.status, googleErrorBody(detail), headers);
}
