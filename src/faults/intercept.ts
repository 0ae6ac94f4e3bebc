// The fault hook of the HTTP surfaces (docs/faults.md): each surface calls faulted() at the point
// where the request is known (method, identity, calendar) and nothing has changed yet, with the
// work that would answer it. A rule that acts marks the request's trace, waits its delay, and
// answers in the work's place when it has an error; a delay-only rule then lets the work run.
// Without any rule acting, the work runs at once, on the same turn: no promise, no cost.

import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { CONFERENCE_PENDING, faultAnswer } from './catalogue.ts';
import type { FaultRules, FaultSubject } from './rules.ts';

/** What the surface adds to the request's trace: its calendar, the user's primary calendar, its grant type. */
export type RequestDetails = Pick<FaultSubject, 'calendarId' | 'primaryCalendarId' | 'grantType'>;

export function faulted(
  faults: FaultRules,
  req: ApiRequest,
  details: RequestDetails,
  work: () => Result | Promise<Result>,
): Result | Promise<Result> {
  const { operation, userId, clientId } = req.trace;
  // The common case, no rule for this method: no subject is built.
  if (operation === null || !faults.names(operation)) return work();
  const decision = faults.decide({ operation, userId, clientId, syncToken: req.query.has('syncToken'), ...details });
  if (decision === undefined) return work();
  req.trace.fault = decision.ruleId;
  const { error, retryAfterSeconds, delayMs } = decision.spec;
  // An error that shapes the answer rather than replacing it: the work runs and reads it off the trace.
  if (error === CONFERENCE_PENDING) req.trace.shape = error;
  const answer = () => (error === undefined || error === CONFERENCE_PENDING ? work() : faultAnswer(error, retryAfterSeconds));
  return delayMs > 0 ? faults.delay(delayMs).then(answer) : answer();
}
