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

test('date-times are read exactly as the RFC 3339 regular expression read them', () => {
  // The reading before it was done by character: the expression's captures, then the same checks.
  const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/;
  const expected = (text: string): string => {
    const m = RFC3339.exec(text);
    if (m === null) return 'malformed';
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return 'out of range';
    const zone = m[8];
    if (zone !== undefined && zone.length === 6 && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return 'out of range';
    const ms = m[7] === undefined ? 0 : Number(m[7].slice(1, 4).padEnd(3, '0'));
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    const wall = date.setUTCHours(hour, minute, second, ms);
    if (zone === undefined) return `floating ${wall}`;
    const offset = zone.length === 1 ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 3_600_000 + Number(zone.slice(4, 6)) * 60_000);
    return `at ${wall - offset}`;
  };
  const actual = (text: string): string => {
    try {
      const instant = parseDateTimeWithZone(text, 'UTC', 'f');
      try {
        return `at ${parseRfc3339(text, 'f')}` === `at ${instant}` ? `at ${instant}` : 'mismatch';
      } catch {
        return `floating ${instant}`;
      }
    } catch (error) {
      assert.ok(error instanceof DateTimeError);
      return /not an RFC 3339 date-time/.test(error.message) ? 'malformed' : 'out of range';
    }
  };
  const seeds = ['2026-10-19T10:00:00+09:00', '2026-10-19t01:00:00.123456z', '0001-01-01T00:00:00', '2024-02-29T23:59:59-00:00', '9999-12-31T23:59:59.9+23:59'];
  const alphabet = ['0', '1', '2', '5', '9', '-', ':', 'T', 't', 'Z', 'z', '+', '.', ' ', 'x', '\u0661', '\n', ''];
  const outcomes = new Set<string>();
  let seed = 11;
  const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  for (let i = 0; i < 20_000; i++) {
    let text = seeds[random(seeds.length)] as string;
    for (let edits = random(4); edits > 0; edits--) {
      const at = random(text.length + 1);
      const char = alphabet[random(alphabet.length)] as string;
      const kind = random(3);
      text = kind === 0 ? text.slice(0, at) + char + text.slice(at + 1) : kind === 1 ? text.slice(0, at) + char + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
    }
    const outcome = expected(text);
    assert.equal(actual(text), outcome, JSON.stringify(text));
    outcomes.add(outcome.split(' ')[0] as string);
  }
  assert.deepEqual([...outcomes].sort(), ['at', 'floating', 'malformed', 'out']);
});
