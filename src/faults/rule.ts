// A fault rule as POST /__svc/faults takes it (docs/faults.md), checked member by member: each
// refusal names the member and the rule it breaks, so a test author sees at once what to fix.
// Besides the types and ranges, a rule must make sense as a whole: its `error` must fit its
// method (invalid_grant on oauth.token only, the webhook answers on push.delivery only), and
// each narrowing member must be one the method's requests can be told apart by before the
// fault acts, so that no rule is stored that could never match.

import { assertBoolean, assertEnum, assertInteger, assertObject, assertString } from '../validation/validation.ts';
import type { Fail, JsonRecord } from '../validation/validation.ts';
import { ruleText } from '../validation/validation.ts';
import { ANY_METHOD, FAULT_ERRORS, misfit, OAUTH_METHODS, PUSH_DELIVERY, RETRY_AFTER_ERROR, STATUS_ERROR } from './catalogue.ts';

/** A refused rule; the management API answers it 400 invalid_fault. */
export class FaultRuleError extends Error {}

export interface FaultMatch {
  method: string;
  calendarId?: string;
  userId?: string;
  clientId?: string;
  syncToken?: boolean;
  grantType?: string;
  channelId?: string;
}

/** A rule as validated, its defaults filled in. */
export interface FaultRuleSpec {
  match: FaultMatch;
  error?: string;
  /** Matching requests acted on; 0 for every one until the rule is deleted. */
  times: number;
  /** Matching requests let through before the rule acts. */
  afterMatches: number;
  /** Real milliseconds every acted-on answer waits. */
  delayMs: number;
  retryAfterSeconds?: number;
  /** The status recorded for a webhookStatus delivery. */
  status?: number;
}

type Narrowing = Exclude<keyof FaultMatch, 'method'>;

// Which members narrow which requests: those each request states before the fault acts. An
// oauth.token request names its client (authenticated first) and grant type, but its user is
// known only once the grant runs; oauth.revoke authenticates no one; a webhook POST belongs to
// a channel, its calendar and the connection that opened it.
const CALENDAR_NARROWING: readonly Narrowing[] = ['calendarId', 'userId', 'clientId', 'syncToken'];
const NARROWING: Readonly<Record<string, readonly Narrowing[]>> = {
  [ANY_METHOD]: CALENDAR_NARROWING,
  'oauth.token': ['clientId', 'grantType'],
  'oauth.revoke': [],
  'oauth.userinfo': ['userId', 'clientId'],
  [PUSH_DELIVERY]: ['calendarId', 'userId', 'clientId', 'channelId'],
};

const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const RULE_MEMBERS = ['match', 'error', 'times', 'afterMatches', 'delayMs', 'retryAfterSeconds', 'status'];
const MATCH_MEMBERS = ['method', 'calendarId', 'userId', 'clientId', 'syncToken', 'grantType', 'channelId'];
const MAX_DELAY_MS = 30_000;
const MAX_RETRY_AFTER_SECONDS = 86_400;
const COUNT = { min: 0, max: Number.MAX_SAFE_INTEGER };

const fail: Fail = (path, rule) => new FaultRuleError(`${path} ${ruleText(rule)}.`);

function refuse(message: string): never {
  throw new FaultRuleError(message);
}

/** `calendarMethods`: the Google method ids of the calendar route table. */
export function parseFaultRule(body: unknown, calendarMethods: readonly string[]): FaultRuleSpec {
  assertObject(body, 'The body', () => new FaultRuleError('The body must be a JSON object with match and error or delayMs.'));
  rejectUnknown(body, RULE_MEMBERS, '');
  const match = parseMatch(body.match, calendarMethods);
  const spec: FaultRuleSpec = { match, times: 1, afterMatches: 0, delayMs: 0 };
  if (body.error !== undefined) {
    assertEnum(body.error, FAULT_ERRORS, 'error', fail);
    const reason = misfit(body.error, match.method);
    if (reason !== undefined) refuse(`error ${body.error} does not fit match.method ${match.method}: ${reason}.`);
    spec.error = body.error;
  }
  if (body.times !== undefined) {
    assertInteger(body.times, COUNT, 'times', fail);
    spec.times = body.times;
  }
  if (body.afterMatches !== undefined) {
    assertInteger(body.afterMatches, COUNT, 'afterMatches', fail);
    spec.afterMatches = body.afterMatches;
  }
  if (body.delayMs !== undefined) {
    assertInteger(body.delayMs, { min: 0, max: MAX_DELAY_MS }, 'delayMs', fail);
    spec.delayMs = body.delayMs;
  }
  if (spec.error === undefined && spec.delayMs === 0) refuse('A rule needs error, delayMs (above 0) or both.');
  if (body.retryAfterSeconds !== undefined) {
    if (spec.error !== RETRY_AFTER_ERROR) refuse(`retryAfterSeconds applies to error ${RETRY_AFTER_ERROR} only.`);
    assertInteger(body.retryAfterSeconds, { min: 0, max: MAX_RETRY_AFTER_SECONDS }, 'retryAfterSeconds', fail);
    spec.retryAfterSeconds = body.retryAfterSeconds;
  }
  if (spec.error === STATUS_ERROR) {
    if (body.status === undefined) refuse(`status is required with error ${STATUS_ERROR}: the HTTP status to record for the delivery.`);
    assertInteger(body.status, { min: 100, max: 599 }, 'status', fail);
    spec.status = body.status;
  } else if (body.status !== undefined) {
    refuse(`status applies to error ${STATUS_ERROR} only.`);
  }
  return spec;
}

function parseMatch(value: unknown, calendarMethods: readonly string[]): FaultMatch {
  if (value === undefined) refuse('match is required: an object with at least match.method.');
  assertObject(value, 'match', fail);
  rejectUnknown(value, MATCH_MEMBERS, 'match.');
  if (value.method === undefined) refuse('match.method is required.');
  const methods = [...calendarMethods, ...OAUTH_METHODS, PUSH_DELIVERY, ANY_METHOD];
  if (typeof value.method !== 'string' || !methods.includes(value.method)) {
    refuse(`match.method must be a Google method id of the calendar API (${calendarMethods.join(', ')}), or ${OAUTH_METHODS.join(', ')}, ${PUSH_DELIVERY} or ${ANY_METHOD}.`);
  }
  const match: FaultMatch = { method: value.method };
  const allowed = NARROWING[value.method] ?? CALENDAR_NARROWING;
  for (const member of MATCH_MEMBERS) {
    if (member === 'method' || value[member] === undefined) continue;
    if (!(allowed as readonly string[]).includes(member)) {
      refuse(`match.${member} cannot narrow ${value.method}: ${allowed.length === 0 ? 'it takes no narrowing member' : `it takes ${allowed.map((m) => `match.${m}`).join(', ')}`}.`);
    }
  }
  for (const member of ['calendarId', 'userId', 'clientId', 'channelId'] as const) {
    const text = value[member];
    if (text === undefined) continue;
    assertString(text, `match.${member}`, fail);
    if (text === '') refuse(`match.${member} must not be empty.`);
    match[member] = text;
  }
  if (value.syncToken !== undefined) {
    assertBoolean(value.syncToken, 'match.syncToken', fail);
    match.syncToken = value.syncToken;
  }
  if (value.grantType !== undefined) {
    assertEnum(value.grantType, GRANT_TYPES, 'match.grantType', fail);
    match.grantType = value.grantType;
  }
  return match;
}

function rejectUnknown(value: JsonRecord, known: readonly string[], prefix: string): void {
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined) refuse(`${prefix}${unknown} is not a member of a fault rule; the members are ${known.map((k) => prefix + k).join(', ')}.`);
}
