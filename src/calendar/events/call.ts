// What every events.* handler reads off a call: the calendar it names (owned by the caller), the
// render context of its answer (`timeZone`, `maxAttendees`), and the event `eventId` names, as a
// target (write.ts) and as the list item it renders to.

import { googleErrors } from '../../api/google-error.ts';
import type { CalendarRecord } from '../../store/store.ts';
import { occurrenceTimes } from '../../event-model/occurrences.ts';
import type { CalendarCall } from '../context.ts';
import { resolveOwnedCalendar } from '../calendars.ts';
import { findTarget } from './write.ts';
import type { EventTarget } from './write.ts';
import { eventText, instanceText } from './list-items.ts';
import type { RenderContext } from './resource.ts';
import type { TextContext } from './list-items.ts';
import { integerParam, timeZoneParam } from '../params.ts';

export function calendarOf(call: CalendarCall): CalendarRecord {
  return resolveOwnedCalendar(call, call.params.calendarId as string);
}

export function renderContext(call: CalendarCall, calendar: CalendarRecord): RenderContext {
  const query = call.req.query;
  return {
    calendar,
    zone: timeZoneParam(query, 'timeZone') ?? calendar.timeZone,
    baseUrl: call.req.baseUrl,
    maxAttendees: integerParam(query, 'maxAttendees', { min: 1, max: Number.MAX_SAFE_INTEGER }),
  };
}

/** The event `eventId` names: a stored record or an untouched instance of a series; 404 when none. */
export function targetOf(call: CalendarCall, calendar: CalendarRecord): EventTarget {
  const target = findTarget(call.app.store, calendar, call.params.eventId as string);
  if (!target) throw googleErrors.notFound();
  return target;
}

/** The wire Event a target names, as a list item (list-items.ts). */
export function targetItem(target: EventTarget, tc: TextContext): Buffer {
  if (target.kind === 'record') return eventText(target.record, tc);
  const times = occurrenceTimes(target.series, target.key, tc.ctx.calendar.timeZone);
  const { master, series, key, id } = target;
  return instanceText({ master, series, key, id, times, cancelled: master.status === 'cancelled' }, tc);
}
