// suggest_time: the attendees' busy times from the Calendar API's freeBusy.query (so it sees
// exactly what free/busy sees: invitations, declines, transparency), their working hours, and up
// to five slots where all of them are free for the duration asked. Working hours are 09:00-17:00
// on each attendee's own clock (their primary calendar's zone) unless `preferences` name hours,
// which are then read in the request's zone for everyone. An address that is no test user's
// calendar has no free/busy here and is taken as free, as Google does for an external guest
// whose calendar it cannot read.

import { callApi } from './api-call.ts';
import type { ToolContext } from './api-call.ts';
import { booleanArg, integerArg, stringArg, stringsArg, ToolError } from './arguments.ts';
import type { Arguments } from './arguments.ts';
import type { ToolHandler } from './event-tools.ts';
import { firstSlots, intersect, subtract, workingIntervals } from './free-slots.ts';
import type { Interval, WorkingHours } from './free-slots.ts';
import { instantArg, zoneArg } from './times.ts';
import { formatRfc3339InZone, MS_PER_MINUTE } from '../domain/time/zones.ts';

const SLOTS = 5;
const DEFAULT_DURATION_MINUTES = 30;
const WORKDAY = { start: 9 * 60, end: 17 * 60 };
const HOUR_MINUTE = /^([01]\d|2[0-4]):([0-5]\d)$/;

function minuteOfDay(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  const match = HOUR_MINUTE.exec(text);
  const minutes = match === null ? NaN : Number(match[1]) * 60 + Number(match[2]);
  if (!(minutes <= 24 * 60)) throw new ToolError(`preferences.${name} must be a time of day written HH:MM, such as 09:00.`);
  return minutes;
}

/** The zone of a test user's primary calendar, by address ('primary': the caller's). */
function zoneOfAttendee(ctx: ToolContext, id: string): string | undefined {
  const { store } = ctx.app;
  const owner = id === 'primary' ? ctx.auth.user : undefined;
  const calendar = owner ? store.listCalendarsByOwner(owner.id).find((c) => c.primary) : store.getCalendar(id);
  return calendar?.timeZone;
}

export const suggestTime: ToolHandler = async (ctx, args) => {
  const ids = [...new Set(stringsArg(args, 'attendeeEmails'))];
  if (ids.length === 0) throw new ToolError('attendeeEmails must name at least one attendee.');
  const zone = zoneArg(stringArg(args, 'timeZone')) ?? zoneOfAttendee(ctx, 'primary') ?? 'UTC';
  const from = instantArg(stringArg(args, 'startTime') as string, zone, 'startTime');
  const to = instantArg(stringArg(args, 'endTime') as string, zone, 'endTime');
  if (to <= from) throw new ToolError('endTime must be after startTime.');
  const duration = integerArg(args, 'durationMinutes') ?? DEFAULT_DURATION_MINUTES;
  if (duration < 1 || duration > 24 * 60) throw new ToolError('durationMinutes must be from 1 to 1440.');
  const preferences = (args.preferences ?? {}) as Arguments;
  const ownHours = preferences.startHour === undefined && preferences.endHour === undefined;
  const startMinute = minuteOfDay(stringArg(preferences, 'startHour'), 'startHour', WORKDAY.start);
  const endMinute = minuteOfDay(stringArg(preferences, 'endHour'), 'endHour', WORKDAY.end);
  if (endMinute <= startMinute) throw new ToolError('preferences.endHour must be after preferences.startHour.');
  const excludeWeekends = booleanArg(preferences, 'excludeWeekends') === true;

  const answer = await callApi(ctx, 'calendar.freebusy.query', {
    body: { timeMin: new Date(from).toISOString(), timeMax: new Date(to).toISOString(), items: ids.map((id) => ({ id })) },
  });
  let free: Interval[] = [[from, to]];
  const busy: Interval[] = [];
  for (const id of ids) {
    const entry = answer.calendars[id] as { busy?: Array<{ start: string; end: string }>; errors?: Array<{ reason: string }> };
    const reason = entry.errors?.[0]?.reason;
    if (reason !== undefined && reason !== 'notFound') throw new ToolError(`${reason}: free/busy of ${id} could not be read.`);
    for (const b of entry.busy ?? []) busy.push([Date.parse(b.start), Date.parse(b.end)]);
    const hours: WorkingHours = { zone: ownHours ? (zoneOfAttendee(ctx, id) ?? zone) : zone, startMinute, endMinute, excludeWeekends };
    free = intersect(free, workingIntervals(hours, from, to));
  }
  const slots = firstSlots(subtract(free, busy), duration * MS_PER_MINUTE, SLOTS);
  return {
    timeZone: zone,
    timeSlots: slots.map(([start, end]) => ({ startTime: formatRfc3339InZone(start, zone), endTime: formatRfc3339InZone(end, zone) })),
  };
};
