// The parsed form of an Event's `recurrence` lines (RFC 5545 §3.8.5, rule grammar §3.3.10): the
// types rrule.ts produces, cost.ts bounds and the rule modules (rule-*.ts) evaluate. Kept apart
// from the parser so that the cost bound and the evaluator depend on the data, not on parsing.

import type { BasicValue } from '../time/datetime.ts';

/** The frequencies of §3.3.10, finest first. */
export const FREQUENCIES = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** RFC 5545 weekday codes; index 0 = Monday, matching zones.ts weekdayOfDays. */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

export interface WeekdayNum {
  readonly weekday: number; // 0 = MO ... 6 = SU
  /** nth occurrence within the month or year (negative: from the end); 0 = every one. */
  readonly ordinal: number;
}

export interface RRule {
  readonly freq: Frequency;
  readonly interval: number;
  readonly count: number | undefined;
  readonly until: BasicValue | undefined;
  readonly bySecond: readonly number[];
  readonly byMinute: readonly number[];
  readonly byHour: readonly number[];
  readonly byDay: readonly WeekdayNum[];
  readonly byMonthDay: readonly number[];
  readonly byYearDay: readonly number[];
  readonly byWeekNo: readonly number[];
  readonly byMonth: readonly number[];
  readonly bySetPos: readonly number[];
  readonly wkst: number;
}

/** One RDATE/EXDATE value with the TZID that qualifies it (undefined: UTC, floating or DATE). */
export interface DateRef {
  readonly value: BasicValue;
  readonly tzid: string | undefined;
}

export interface RecurrenceSet {
  readonly rrules: readonly RRule[];
  readonly exrules: readonly RRule[];
  readonly rdates: readonly DateRef[];
  readonly exdates: readonly DateRef[];
}
