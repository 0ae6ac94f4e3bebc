// Which OAuth scope allows which calendar operation: docs/oauth.md's "Supported scopes" table, as data
// (one route table per surface, readable top to bottom). Operations are named by Google's method ids (`calendar.events.insert`),
// the same names the route table in routes.ts uses. A token passes when any one of its scopes
// lists the operation; otherwise 403 insufficientPermissions (docs/calendar-api.md).

import { SCOPE_PREFIX } from '../oauth/scopes.ts';

export const CALENDAR_OPERATIONS = [
  'calendar.calendarList.list',
  'calendar.calendarList.get',
  'calendar.calendarList.insert',
  'calendar.calendarList.patch',
  'calendar.calendarList.update',
  'calendar.calendarList.delete',
  'calendar.calendarList.watch',
  'calendar.calendars.get',
  'calendar.events.list',
  'calendar.events.get',
  'calendar.events.instances',
  'calendar.events.insert',
  'calendar.events.update',
  'calendar.events.patch',
  'calendar.events.delete',
  'calendar.events.watch',
  'calendar.channels.stop',
  'calendar.freebusy.query',
] as const;

export type CalendarOperation = (typeof CALENDAR_OPERATIONS)[number];


const CALENDAR_LIST_READ = ['calendar.calendarList.list', 'calendar.calendarList.get', 'calendar.calendarList.watch'] as const;
const CALENDAR_LIST_WRITE = [
  'calendar.calendarList.insert',
  'calendar.calendarList.patch',
  'calendar.calendarList.update',
  'calendar.calendarList.delete',
] as const;
const EVENTS_READ = ['calendar.events.list', 'calendar.events.get', 'calendar.events.instances', 'calendar.events.watch'] as const;
const EVENTS_WRITE = ['calendar.events.insert', 'calendar.events.update', 'calendar.events.patch', 'calendar.events.delete'] as const;

/** Spec, "Supported scopes", calendar table: scope suffix → operations it allows. */
export const CALENDAR_SCOPE_TABLE: ReadonlyMap<string, readonly CalendarOperation[]> = new Map(Object.entries({
  'calendar': CALENDAR_OPERATIONS,
  'calendar.readonly': [...CALENDAR_LIST_READ, 'calendar.calendars.get', ...EVENTS_READ, 'calendar.channels.stop', 'calendar.freebusy.query'],
  'calendar.events': [...EVENTS_READ, ...EVENTS_WRITE, 'calendar.channels.stop', 'calendar.freebusy.query'],
  'calendar.events.readonly': [...EVENTS_READ, 'calendar.channels.stop', 'calendar.freebusy.query'],
  'calendar.calendarlist': [...CALENDAR_LIST_READ, ...CALENDAR_LIST_WRITE, 'calendar.channels.stop'],
  'calendar.calendarlist.readonly': [...CALENDAR_LIST_READ, 'calendar.channels.stop'],
  'calendar.calendars.readonly': ['calendar.calendars.get'],
  'calendar.freebusy': ['calendar.freebusy.query'],
  'calendar.events.freebusy': ['calendar.freebusy.query'],
} satisfies Record<string, readonly CalendarOperation[]>));

/**
 * The operations a grant allows, by the grant's list: a token's scopes are one frozen list that
 * every request on it shares (the connection record), so the table is read once per grant, not on
 * every request.
 */
const allowedByGrant = new WeakMap<readonly string[], ReadonlySet<CalendarOperation>>();

/** Whether a token holding `granted` (full scope URLs) may run `operation`. */
export function scopeAllows(granted: readonly string[], operation: CalendarOperation): boolean {
  let allowed = allowedByGrant.get(granted);
  if (allowed === undefined) {
    allowed = new Set(granted.flatMap((scope) => (scope.startsWith(SCOPE_PREFIX) ? (CALENDAR_SCOPE_TABLE.get(scope.slice(SCOPE_PREFIX.length)) ?? []) : [])));
    // Only a frozen list cannot change under its entry.
    if (Object.isFrozen(granted)) allowedByGrant.set(granted, allowed);
  }
  return allowed.has(operation);
}
