// The refusal of an Event body, independent of any surface: an EventInputError carries a reason
// and the offending path; the calendar API renders it in Google's envelope (src/calendar/events/write.ts), the
// fixture loader as invalid_fixture with the path. EVENT_WORDING is the one table of Google's
// wordings for refused Event bodies (https://developers.google.com/workspace/calendar/api/guides/errors and captured responses), so every check in
// src/event-model/ words a refusal as Google does.

import type { Fail } from '../validation/validation.ts';

export type EventInputReason =
  | 'invalid'
  | 'required'
  | 'timeRangeEmpty'
  | 'duplicate'
  // Google's reasons for refused reminders, both in the `calendar` domain: the first as seen in
  // https://github.com/openclaw/gogcli/issues/97, the second as reported by client code that
  // hit it (the sixth override); its message is not published, so the one here is a choice.
  | 'cannotUseDefaultRemindersAndSpecifyOverride'
  | 'eventRemindersCountExceedsLimit'
  // A write an event type does not allow (src/event-model/event-types.ts), in the `calendar` domain.
  | 'eventTypeRestriction';

/** The reasons Google files under the `calendar` error domain rather than `global`. */
export const CALENDAR_DOMAIN_REASONS: ReadonlySet<EventInputReason> = new Set([
  'timeRangeEmpty',
  'cannotUseDefaultRemindersAndSpecifyOverride',
  'eventRemindersCountExceedsLimit',
  'eventTypeRestriction',
]);

/** A refused Event body; `field` is the offending path (`start.dateTime`), used by fixture errors. */
export class EventInputError extends Error {
  readonly field: string | undefined;
  readonly reason: EventInputReason;
  constructor(reason: EventInputReason, message: string, field?: string) {
    super(message);
    this.name = 'EventInputError';
    this.reason = reason;
    this.field = field;
  }
}

type Moment = 'start' | 'end';

const moment = (name: Moment): string => (name === 'start' ? 'start time' : 'end time');

/** Google's wordings for refused Event bodies (https://developers.google.com/workspace/calendar/api/guides/errors, captured responses). */
export const EVENT_WORDING = {
  invalidValue: (path: string) => `Invalid value for ${path}.`,
  notAnObject: 'The event must be a JSON object.',
  duplicateId: 'The requested identifier already exists.',
  invalidId: 'Invalid resource id value.',
  missingTime: (name: Moment) => `Missing ${moment(name)}.`,
  invalidTime: (name: Moment) => `Invalid ${moment(name)}.`,
  invalidZone: (name: Moment) => `Invalid time zone definition for ${moment(name)}.`,
  missingZone: (name: Moment) => `Missing time zone definition for ${moment(name)}.`,
  mixedTimes: 'Start and end times must either both be date or both be dateTime.',
  emptyRange: 'The specified time range is empty.',
  recurrenceNotArray: 'Invalid recurrence rule: recurrence must be an array of strings',
  instanceRecurrence: 'An instance of a recurring event cannot have a recurrence of its own.',
  sequenceBelow: 'Invalid sequence value. The specified sequence number is below the current sequence number of the resource.',
  eventTypeChanged: 'The event type cannot be changed.',
  missingAttendeeEmail: 'Missing attendee email.',
  invalidAttendeeEmail: 'Invalid attendee email.',
  remindersBoth: 'Cannot specify both default reminders and overrides at the same time.',
  tooManyOverrides: 'The number of reminder overrides exceeds the limit of 5.',
  missingReminderMethod: 'Missing reminder method.',
  missingReminderMinutes: 'Missing reminder minutes.',
  reminderMinutes: 'Reminder minutes must be an integer from 0 to 40320.',
  invalidConferenceType: 'Invalid conference type value.',
  invalidConference: 'Invalid conference data.',
} as const;

export function invalid(field: string, message = EVENT_WORDING.invalidValue(field)): EventInputError {
  return new EventInputError('invalid', message, field);
}

/** The factory the validation primitives use here: Google's "Invalid value for <path>." */
export const invalidValue: Fail = (path) => invalid(path);

/** The same, with one fixed message for every path it is asked about. */
export function invalidWith(message: string): Fail {
  return (path) => invalid(path, message);
}
