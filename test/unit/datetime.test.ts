import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DateTimeError,
  daysBetween,
  formatBasicUtc,
  formatDate,
  parseBasic,
  parseDate,
  parseDateTimeWall,
  parseDateTimeWithZone,
  parseRfc3339,
  startOfDateInZone,
} from '../../src/domain/time/datetime.ts';

function rejects(fn: () => unknown, field: string, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof DateTimeError, String(e));
    assert.equal(e.field, field);
    assert.match(e.message, pattern);
    return true;
  });
}

test('parseRfc3339 accepts Z, offsets, lower case and fractions', () => {
  assert.equal(parseRfc3339('2026-10-19T10:00:00+09:00', 'timeMin'), Date.parse('2026-10-19T01:00:00Z'));
  assert.equal(parseRfc3339('2026-10-19T01:00:00Z', 'timeMin'), Date.parse('2026-10-19T01:00:00Z'));
  assert.equal(parseRfc3339('2026-10-19t01:00:00z', 'timeMin'), Date.parse('2026-10-19T01:00:00Z'));
  assert.equal(parseRfc3339('2026-10-19T01:00:00.5Z', 'timeMin'), Date.parse('2026-10-19T01:00:00.500Z'));
  assert.equal(parseRfc3339('2026-10-19T01:00:00.123456789-05:45', 'timeMin'), Date.parse('2026-10-19T06:45:00.123Z'));
  assert.equal(parseRfc3339('2024-02-29T23:59:59-00:00', 'timeMin'), Date.parse('2024-02-29T23:59:59Z'));
  assert.equal(parseRfc3339('0001-01-01T00:00:00Z', 'timeMin'), Date.parse('0001-01-01T00:00:00Z'));
});

test('parseRfc3339 rejections name the field and the part', () => {
  rejects(() => parseRfc3339('2026-10-19T10:00:00', 'timeMin'), 'timeMin', /no time zone offset/);
  rejects(() => parseRfc3339('2026-13-01T00:00:00Z', 'timeMax'), 'timeMax', /month 13 is out of range 1-12/);
  rejects(() => parseRfc3339('2026-02-29T00:00:00Z', 'timeMax'), 'timeMax', /day 29 is out of range 1-28/);
  rejects(() => parseRfc3339('2026-04-31T00:00:00Z', 'timeMax'), 'timeMax', /day 31 is out of range 1-30/);
  rejects(() => parseRfc3339('2026-01-01T24:00:00Z', 'timeMax'), 'timeMax', /hour 24/);
  rejects(() => parseRfc3339('2026-01-01T23:60:00Z', 'timeMax'), 'timeMax', /minute 60/);
  rejects(() => parseRfc3339('2026-01-01T23:59:60Z', 'timeMax'), 'timeMax', /second 60/);
  rejects(() => parseRfc3339('2026-01-01T23:59:00+24:00', 'timeMax'), 'timeMax', /offset hour 24/);
  rejects(() => parseRfc3339('2026-01-01 23:59:00Z', 'timeMax'), 'timeMax', /not an RFC 3339 date-time/);
  rejects(() => parseRfc3339('2026-1-01T23:59:00Z', 'timeMax'), 'timeMax', /not an RFC 3339 date-time/);
  rejects(() => parseRfc3339('', 'timeMax'), 'timeMax', /not an RFC 3339/);
  assert.match(new DateTimeError('x', 'y').message, /^Invalid value for x: y$/);
});

test('local date-times and dateTime + timeZone pairs', () => {
  // No offset: read in the zone; a nonexistent time moves forward by the gap (RFC 5545 §3.3.5).
  assert.equal(parseDateTimeWithZone('2026-03-08T02:30:00', 'America/New_York', 'start.dateTime'), Date.parse('2026-03-08T07:30:00Z'));
  assert.equal(parseDateTimeWithZone('2026-11-01T01:30:00', 'America/New_York', 'start.dateTime'), Date.parse('2026-11-01T05:30:00Z'));
  // An offset fixes the instant; the zone only names the display/expansion zone.
  assert.equal(parseDateTimeWithZone('2026-11-01T01:30:00-05:00', 'America/New_York', 'start.dateTime'), Date.parse('2026-11-01T06:30:00Z'));
  assert.equal(parseDateTimeWithZone('2026-11-01T01:30:00Z', undefined, 'start.dateTime'), Date.parse('2026-11-01T01:30:00Z'));
  rejects(() => parseDateTimeWithZone('2026-11-01T01:30:00', undefined, 'start.dateTime'), 'start.dateTime', /no timeZone/);
  rejects(() => parseDateTimeWithZone('2026-11-01T01:30:00', 'Nowhere/City', 'start.dateTime', 'start.timeZone'), 'start.timeZone', /not a known IANA time zone/);
});

test('parseDateTimeWall: the wall time a recurring start names (its DTSTART)', () => {
  const wall = (s: string): number => Date.parse(`${s}Z`); // wall ms: the civil fields read as UTC
  // A local time in New York's spring-forward gap keeps its wall time, although its instant is 03:30 EDT.
  assert.equal(parseDateTimeWall('2026-03-08T02:30:00', 'America/New_York', 'start.dateTime'), wall('2026-03-08T02:30:00'));
  assert.equal(parseDateTimeWall('2026-10-04T02:15:00', 'Australia/Lord_Howe', 'start.dateTime'), wall('2026-10-04T02:15:00'));
  // An offset fixes the instant: the wall time is what the zone's clock shows then.
  assert.equal(parseDateTimeWall('2026-03-08T02:30:00-05:00', 'America/New_York', 'start.dateTime'), wall('2026-03-08T03:30:00'));
  assert.equal(parseDateTimeWall('2026-11-01T06:30:00Z', 'America/New_York', 'start.dateTime'), wall('2026-11-01T01:30:00'));
  assert.equal(parseDateTimeWall('2026-10-19T10:00:00+09:00', 'Europe/London', 'start.dateTime'), wall('2026-10-19T02:00:00'));
  rejects(() => parseDateTimeWall('2026-03-08T02:30', 'America/New_York', 'start.dateTime'), 'start.dateTime', /not an RFC 3339/);
  rejects(() => parseDateTimeWall('2026-03-08T02:30:00', 'Nowhere/City', 'start.dateTime'), 'timeZone', /not a known IANA time zone/);
});

test('all-day dates', () => {
  assert.deepEqual(parseDate('2024-02-29', 'start.date'), { year: 2024, month: 2, day: 29 });
  rejects(() => parseDate('2026-02-29', 'start.date'), 'start.date', /day 29 is out of range 1-28/);
  rejects(() => parseDate('2026-00-10', 'start.date'), 'start.date', /month 0/);
  rejects(() => parseDate('2026-01-10T00:00:00Z', 'start.date'), 'start.date', /not a date/);
  assert.equal(formatDate({ year: 987, month: 1, day: 1 }), '0987-01-01');
  assert.equal(daysBetween({ year: 2024, month: 2, day: 28 }, { year: 2024, month: 3, day: 1 }), 2);
  assert.equal(startOfDateInZone({ year: 2026, month: 10, day: 19 }, 'Asia/Tokyo'), Date.parse('2026-10-18T15:00:00Z'));
});

test('RFC 5545 basic forms', () => {
  assert.deepEqual(parseBasic('20261225', 'RDATE'), { kind: 'date', date: { year: 2026, month: 12, day: 25 } });
  assert.deepEqual(parseBasic('20261109T090000', 'EXDATE'), { kind: 'dateTime', wall: { year: 2026, month: 11, day: 9, hour: 9, minute: 0, second: 0, millisecond: 0 }, utc: false });
  assert.equal(parseBasic('20261109T090000Z', 'EXDATE').kind, 'dateTime');
  rejects(() => parseBasic('20261301', 'RDATE'), 'RDATE', /month 13/);
  rejects(() => parseBasic('2026-12-25', 'RDATE'), 'RDATE', /not an RFC 5545 DATE/);
  assert.equal(formatBasicUtc(Date.parse('2022-01-31T17:00:00.250Z')), '20220131T170000Z');
});
