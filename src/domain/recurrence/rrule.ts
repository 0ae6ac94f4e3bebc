// Parsing and validation of an Event's `recurrence` lines: RRULE, EXRULE, RDATE and EXDATE
// (RFC 5545 §3.8.5.1-3, value grammar §3.3.10). DTSTART/DTEND lines are refused: the event's
// `start`/`end` play that part (Event.recurrence in the discovery document).
//
// Deliberate choices where RFC 5545 and Google leave room:
// - SECONDLY, MINUTELY and HOURLY are accepted for timed series (expanded in wall-clock time;
//   see rule-iterate.ts). Google's support for them is unconfirmed; they are refused for all-day
//   series, as are BYHOUR/BYMINUTE/BYSECOND, which a DATE start cannot carry.
// - UNTIL is accepted in all three forms (DATE, floating DATE-TIME, UTC DATE-TIME) whatever the
//   start, because Google's own examples pair a DATE UNTIL with timed series; recurrence-set.ts
//   says how each form bounds the series.
// - The RFC's MUST NOTs on part combinations (§3.3.10) are enforced with a message naming them.
// - A rule one period of which could build more than MAX_PERIOD_CANDIDATES candidates is
//   refused (cost.ts): it could not be expanded without stalling the service. So is an event
//   whose lines together pass one of cost.ts's per-event caps (lines, rule lines, listed dates,
//   candidates of one period of all its rules).

import type { BasicValue } from '../time/datetime.ts';
import { DateTimeError, parseBasic } from '../time/datetime.ts';
import { isValidTimeZone } from '../time/zones.ts';
import type { DateRef, Frequency, RRule, RecurrenceSet, WeekdayNum } from './rule.ts';
import { FREQUENCIES, WEEKDAYS } from './rule.ts';
import {
  MAX_PERIOD_CANDIDATES,
  MAX_RECURRENCE_DATES,
  MAX_RECURRENCE_LINES,
  MAX_RULE_LINES,
  MAX_SERIES_CANDIDATES,
  periodCandidateBound,
} from './cost.ts';

export class RecurrenceError extends Error {
  /** The rule part or property at fault (`BYDAY`, `UNTIL`, `EXDATE`, `TZID`, ...). */
  readonly part: string;
  constructor(part: string, reason: string) {
    super(`Invalid recurrence rule: ${reason}`);
    this.name = 'RecurrenceError';
    this.part = part;
  }
}

interface ParseOptions {
  /** The series starts on a DATE (all-day event). */
  readonly allDay: boolean;
}

const INTEGER = /^[+-]?\d{1,9}$/;

function parseIntList(part: string, raw: string, min: number, max: number, allowNegative: boolean): number[] {
  const out: number[] = [];
  for (const item of raw.split(',')) {
    if (!INTEGER.test(item)) throw new RecurrenceError(part, `${part} value "${item}" is not an integer`);
    const n = Number(item);
    const abs = Math.abs(n);
    if (n < 0 && !allowNegative) throw new RecurrenceError(part, `${part} value "${item}" must not be negative`);
    if (abs < min || abs > max || (allowNegative && n === 0)) {
      const range = allowNegative ? `${min} to ${max} or -${max} to -${min}` : `${min} to ${max}`;
      throw new RecurrenceError(part, `${part} value "${item}" is out of range (${range})`);
    }
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

function parseWeekday(part: string, raw: string): number {
  const i = (WEEKDAYS as readonly string[]).indexOf(raw);
  if (i < 0) throw new RecurrenceError(part, `${part} value "${raw}" is not a weekday`);
  return i;
}

const WEEKDAY_NUM = /^([+-]?\d{1,2})?([A-Z]{2})$/;

function parseByDay(raw: string): WeekdayNum[] {
  const out: WeekdayNum[] = [];
  for (const item of raw.split(',')) {
    const m = WEEKDAY_NUM.exec(item);
    const code = m?.[2];
    if (m === null || code === undefined || !(WEEKDAYS as readonly string[]).includes(code)) {
      throw new RecurrenceError('BYDAY', `BYDAY value "${item}" is not a weekday`);
    }
    const ordinal = m[1] === undefined ? 0 : Number(m[1]);
    if (m[1] !== undefined && (ordinal === 0 || Math.abs(ordinal) > 53)) {
      throw new RecurrenceError('BYDAY', `BYDAY value "${item}" has ordinal ${ordinal}; it must be 1 to 53 or -53 to -1`);
    }
    const weekday = parseWeekday('BYDAY', code);
    if (!out.some((w) => w.weekday === weekday && w.ordinal === ordinal)) out.push({ weekday, ordinal });
  }
  return out;
}

type ListPart = 'BYSECOND' | 'BYMINUTE' | 'BYHOUR' | 'BYMONTHDAY' | 'BYYEARDAY' | 'BYWEEKNO' | 'BYMONTH' | 'BYSETPOS';

/** The integer-list parts (§3.3.10): their range, and whether a negative value counts from the end. */
const LIST_PARTS: Readonly<Record<ListPart, readonly [min: number, max: number, fromEnd: boolean]>> = {
  // §3.3.10 admits 60 for a leap second, which epoch milliseconds cannot represent.
  BYSECOND: [0, 59, false],
  BYMINUTE: [0, 59, false],
  BYHOUR: [0, 23, false],
  BYMONTHDAY: [1, 31, true],
  BYYEARDAY: [1, 366, true],
  BYWEEKNO: [1, 53, true],
  BYMONTH: [1, 12, false],
  BYSETPOS: [1, 366, true],
};

const isListPart = (name: string): name is ListPart => Object.hasOwn(LIST_PARTS, name);

/** Parses the value of an RRULE or EXRULE line (`FREQ=WEEKLY;BYDAY=MO`). */
function parseRRule(value: string, options: ParseOptions): RRule {
  if (value.length === 0) throw new RecurrenceError('RRULE', 'the rule is empty');
  const seen = new Set<string>();
  let freq: Frequency | undefined;
  let interval = 1;
  let count: number | undefined;
  let until: BasicValue | undefined;
  const lists = new Map<ListPart, number[]>();
  const list = (part: ListPart): number[] => lists.get(part) ?? [];
  let byDay: WeekdayNum[] = [];
  let wkst = 0; // §3.3.10: WKST defaults to MO

  for (const piece of value.split(';')) {
    const eq = piece.indexOf('=');
    if (eq <= 0) throw new RecurrenceError('RRULE', `"${piece}" is not a NAME=VALUE rule part`);
    // Rule part names are case-insensitive (§3.3.10 via §2); values are upper-cased too so
    // weekday codes and frequencies compare simply.
    const name = piece.slice(0, eq).toUpperCase();
    const raw = piece.slice(eq + 1).toUpperCase();
    if (seen.has(name)) throw new RecurrenceError(name, `${name} appears more than once`);
    seen.add(name);
    if (raw.length === 0) throw new RecurrenceError(name, `${name} has an empty value`);
    switch (name) {
      case 'FREQ':
        if (!(FREQUENCIES as readonly string[]).includes(raw)) {
          throw new RecurrenceError('FREQ', `FREQ value "${raw}" is not one of ${FREQUENCIES.join(', ')}`);
        }
        // The table's own string, so the rule modules' comparisons with literals stay cheap.
        freq = FREQUENCIES.find((f) => f === raw);
        break;
      case 'INTERVAL': {
        const [n] = parseIntList('INTERVAL', raw, 1, 1_000_000, false);
        if (n === undefined || raw.includes(',')) throw new RecurrenceError('INTERVAL', `INTERVAL value "${raw}" is not a positive integer`);
        interval = n;
        break;
      }
      case 'COUNT': {
        const [n] = parseIntList('COUNT', raw, 1, 1_000_000_000, false);
        if (n === undefined || raw.includes(',')) throw new RecurrenceError('COUNT', `COUNT value "${raw}" is not a positive integer`);
        count = n;
        break;
      }
      case 'UNTIL':
        try {
          until = parseBasic(raw, 'UNTIL');
        } catch (e) {
          if (e instanceof DateTimeError) throw new RecurrenceError('UNTIL', `UNTIL ${e.message.replace(/^Invalid value for UNTIL: /, '')}`);
          throw e;
        }
        break;
      case 'BYDAY':
        byDay = parseByDay(raw);
        break;
      case 'WKST':
        wkst = parseWeekday('WKST', raw);
        break;
      default: {
        if (!isListPart(name)) throw new RecurrenceError(name, `unknown rule part "${name}"`);
        const [min, max, fromEnd] = LIST_PARTS[name];
        lists.set(name, parseIntList(name, raw, min, max, fromEnd));
      }
    }
  }

  if (freq === undefined) throw new RecurrenceError('FREQ', 'FREQ is required');
  if (count !== undefined && until !== undefined) {
    throw new RecurrenceError('UNTIL', 'UNTIL and COUNT must not both be given');
  }
  // §3.3.10 restrictions on which parts go with which frequency.
  if (lists.has('BYWEEKNO') && freq !== 'YEARLY') {
    throw new RecurrenceError('BYWEEKNO', `BYWEEKNO is only allowed with FREQ=YEARLY, not ${freq}`);
  }
  if (lists.has('BYYEARDAY') && (freq === 'DAILY' || freq === 'WEEKLY' || freq === 'MONTHLY')) {
    throw new RecurrenceError('BYYEARDAY', `BYYEARDAY is not allowed with FREQ=${freq}`);
  }
  if (lists.has('BYMONTHDAY') && freq === 'WEEKLY') {
    throw new RecurrenceError('BYMONTHDAY', 'BYMONTHDAY is not allowed with FREQ=WEEKLY');
  }
  const ordinal = byDay.find((w) => w.ordinal !== 0);
  if (ordinal !== undefined) {
    const text = `${ordinal.ordinal}${WEEKDAYS[ordinal.weekday] ?? ''}`;
    if (freq !== 'MONTHLY' && freq !== 'YEARLY') {
      throw new RecurrenceError('BYDAY', `BYDAY value "${text}" has an ordinal, which is only allowed with FREQ=MONTHLY or YEARLY`);
    }
    if (freq === 'YEARLY' && lists.has('BYWEEKNO')) {
      throw new RecurrenceError('BYDAY', `BYDAY value "${text}" has an ordinal, which is not allowed together with BYWEEKNO`);
    }
  }
  if (lists.has('BYSETPOS')) {
    if (byDay.length === 0 && lists.size === 1) {
      throw new RecurrenceError('BYSETPOS', 'BYSETPOS must be used together with another BYxxx rule part');
    }
  }
  if (options.allDay) {
    if (freq === 'HOURLY' || freq === 'MINUTELY' || freq === 'SECONDLY') {
      throw new RecurrenceError('FREQ', `FREQ=${freq} is not allowed for an all-day event`);
    }
    for (const part of ['BYHOUR', 'BYMINUTE', 'BYSECOND'] as const) {
      if (lists.has(part)) throw new RecurrenceError(part, `${part} is not allowed for an all-day event`);
    }
  }

  const sorted = (l: number[]): number[] => l.sort((a, b) => a - b);
  const rule: RRule = {
    freq,
    interval,
    count,
    until,
    bySecond: sorted(list('BYSECOND')),
    byMinute: sorted(list('BYMINUTE')),
    byHour: sorted(list('BYHOUR')),
    byDay,
    byMonthDay: list('BYMONTHDAY'),
    byYearDay: list('BYYEARDAY'),
    byWeekNo: list('BYWEEKNO'),
    byMonth: sorted(list('BYMONTH')),
    bySetPos: list('BYSETPOS'),
    wkst,
  };
  const candidates = periodCandidateBound(rule);
  if (candidates > MAX_PERIOD_CANDIDATES) {
    throw new RecurrenceError(
      'RRULE',
      `one ${freq} period of this rule can hold ${candidates} candidate occurrences ` +
        `(its days times BYHOUR x BYMINUTE x BYSECOND); the limit is ${MAX_PERIOD_CANDIDATES} per period`,
    );
  }
  return rule;
}

function parseDateList(name: string, params: ReadonlyMap<string, string>, value: string, options: ParseOptions): DateRef[] {
  const valueType = params.get('VALUE');
  if (valueType !== undefined && valueType !== 'DATE' && valueType !== 'DATE-TIME') {
    const reason = valueType === 'PERIOD' ? 'PERIOD values are not supported' : `VALUE=${valueType} is not DATE or DATE-TIME`;
    throw new RecurrenceError(name, `${name} ${reason}`);
  }
  const tzid = params.get('TZID');
  if (tzid !== undefined) {
    if (!isValidTimeZone(tzid)) throw new RecurrenceError('TZID', `${name} TZID "${tzid}" is not a known IANA time zone`);
    if (valueType === 'DATE') throw new RecurrenceError('TZID', `${name} TZID cannot qualify VALUE=DATE values`);
  }
  if (value.length === 0) throw new RecurrenceError(name, `${name} has no value`);
  const out: DateRef[] = [];
  for (const item of value.split(',')) {
    let v: BasicValue;
    try {
      v = parseBasic(item, name);
    } catch (e) {
      if (e instanceof DateTimeError) throw new RecurrenceError(name, e.message.replace(/^Invalid value for /, ''));
      throw e;
    }
    if (valueType === 'DATE' && v.kind !== 'date') {
      throw new RecurrenceError(name, `${name} value "${item}" is not a DATE (YYYYMMDD) although VALUE=DATE`);
    }
    if (valueType === 'DATE-TIME' && v.kind !== 'dateTime') {
      throw new RecurrenceError(name, `${name} value "${item}" is not a DATE-TIME (YYYYMMDDThhmmss)`);
    }
    // §3.2.19: TZID must not be applied to UTC times.
    if (v.kind === 'dateTime' && v.utc && tzid !== undefined) {
      throw new RecurrenceError('TZID', `${name} value "${item}" is in UTC and cannot also carry TZID`);
    }
    if (v.kind === 'date' && tzid !== undefined) {
      throw new RecurrenceError('TZID', `${name} TZID cannot qualify DATE value "${item}"`);
    }
    // Google: EXDATE/RDATE must be dates for all-day series (https://developers.google.com/workspace/calendar/api/concepts/events-calendars, https://developers.google.com/workspace/calendar/api/guides/recurringevents).
    if (options.allDay && v.kind !== 'date') {
      throw new RecurrenceError(name, `${name} value "${item}" must be a DATE (YYYYMMDD) for an all-day event`);
    }
    out.push({ value: v, tzid });
  }
  return out;
}

// §3.1: NAME *(";" param) ":" value. Parameter values may be quoted (§3.1 param-value).
const PARAM = /^([A-Za-z0-9-]+)=("[^"]*"|[^";:,]*)$/;

/** Parses an Event's `recurrence` array. */
export function parseRecurrence(lines: readonly string[], options: ParseOptions): RecurrenceSet {
  if (lines.length > MAX_RECURRENCE_LINES) {
    throw new RecurrenceError('recurrence', `the event has ${lines.length} recurrence lines; the limit is ${MAX_RECURRENCE_LINES} lines per event`);
  }
  const rrules: RRule[] = [];
  const exrules: RRule[] = [];
  const rdates: DateRef[] = [];
  const exdates: DateRef[] = [];
  for (const line of lines) {
    if (typeof line !== 'string') throw new RecurrenceError('recurrence', 'each recurrence entry must be a string');
    const colon = line.indexOf(':');
    if (colon <= 0) throw new RecurrenceError('recurrence', `"${line}" is not a NAME:VALUE line`);
    const head = line.slice(0, colon).split(';');
    const name = (head[0] ?? '').toUpperCase();
    const value = line.slice(colon + 1);
    const params = new Map<string, string>();
    for (const p of head.slice(1)) {
      const m = PARAM.exec(p);
      if (m === null || m[1] === undefined || m[2] === undefined) {
        throw new RecurrenceError(name, `${name} parameter "${p}" is not NAME=VALUE`);
      }
      const pname = m[1].toUpperCase();
      if (pname !== 'TZID' && pname !== 'VALUE') throw new RecurrenceError(name, `${name} parameter ${pname} is not supported`);
      if (params.has(pname)) throw new RecurrenceError(name, `${name} parameter ${pname} appears more than once`);
      const pv = m[2].startsWith('"') ? m[2].slice(1, -1) : m[2];
      params.set(pname, pname === 'VALUE' ? pv.toUpperCase() : pv);
    }
    switch (name) {
      case 'RRULE':
      case 'EXRULE':
        if (params.size > 0) throw new RecurrenceError(name, `${name} takes no parameters`);
        (name === 'RRULE' ? rrules : exrules).push(parseRRule(value, options));
        break;
      case 'RDATE':
        rdates.push(...parseDateList('RDATE', params, value, options));
        break;
      case 'EXDATE':
        exdates.push(...parseDateList('EXDATE', params, value, options));
        break;
      case 'DTSTART':
      case 'DTEND':
        throw new RecurrenceError(name, `${name} lines are not allowed; the event's start and end give the first instance`);
      default:
        throw new RecurrenceError(name, `"${name}" is not RRULE, EXRULE, RDATE or EXDATE`);
    }
  }
  const set = { rrules, exrules, rdates, exdates };
  checkSeriesCost(set);
  return set;
}

/** The per-event caps of cost.ts, each named in the refusal. */
function checkSeriesCost(set: RecurrenceSet): void {
  const rules = [...set.rrules, ...set.exrules];
  if (rules.length > MAX_RULE_LINES) {
    throw new RecurrenceError('RRULE', `the event has ${rules.length} RRULE and EXRULE lines; the limit is ${MAX_RULE_LINES} rule lines per event`);
  }
  const dates = set.rdates.length + set.exdates.length;
  if (dates > MAX_RECURRENCE_DATES) {
    throw new RecurrenceError('RDATE', `the event's RDATE and EXDATE lines list ${dates} dates; the limit is ${MAX_RECURRENCE_DATES} dates per event`);
  }
  const candidates = rules.reduce((sum, rule) => sum + periodCandidateBound(rule), 0);
  if (candidates > MAX_SERIES_CANDIDATES) {
    throw new RecurrenceError(
      'RRULE',
      `one period of each of the event's RRULE and EXRULE lines can hold ${candidates} candidate occurrences in all; ` +
        `the limit is ${MAX_SERIES_CANDIDATES} per period for all the lines of an event together`,
    );
  }
}
