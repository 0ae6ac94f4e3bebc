// docs/oauth.md's "Supported scopes": every scope an authorization request may ask for. Requesting
// anything else is 400 invalid_scope. The per-operation calendar table lives in
// src/calendar/scopes.ts; this file only says which strings exist and which open /userinfo.

/** docs/oauth.md's `{scope_prefix}` with the provider host googleapis.com. */
export const SCOPE_PREFIX = 'https://www.googleapis.com/auth/';

/** Calendar scope suffixes (docs/oauth.md, "Calendar scopes"). */
export const CALENDAR_SCOPE_SUFFIXES = [
  'calendar',
  'calendar.readonly',
  'calendar.events',
  'calendar.events.readonly',
  'calendar.calendarlist',
  'calendar.calendarlist.readonly',
  'calendar.calendars.readonly',
  'calendar.freebusy',
  'calendar.events.freebusy',
] as const;

/** Profile scopes that add the e-mail claims to /userinfo. */
export const EMAIL_SCOPES: readonly string[] = ['email', `${SCOPE_PREFIX}userinfo.email`];
/** Profile scopes that add the `name` claim to /userinfo. */
export const PROFILE_SCOPES: readonly string[] = ['profile', `${SCOPE_PREFIX}userinfo.profile`];
/** Any of these allows GET /userinfo; `openid` alone gives `{sub, id}`. */
export const USERINFO_SCOPES: readonly string[] = ['openid', ...EMAIL_SCOPES, ...PROFILE_SCOPES];

export const SUPPORTED_SCOPES: ReadonlySet<string> = new Set([
  ...CALENDAR_SCOPE_SUFFIXES.map((suffix) => SCOPE_PREFIX + suffix),
  ...USERINFO_SCOPES,
]);

export function isSupportedScope(scope: string): boolean {
  return SUPPORTED_SCOPES.has(scope);
}

/**
 * Splits a space-separated scope parameter (RFC 6749 §3.3) into scopes, de-duplicated in request
 * order (docs/oauth.md: the granted scope string is the requested scopes, de-duplicated, in order).
 */
export function parseScopeParameter(value: string): string[] {
  return [...new Set(value.split(' ').filter((scope) => scope !== ''))];
}
