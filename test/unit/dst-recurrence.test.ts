// Recurrence across DST gaps and overlaps (RFC 5545 §3.3.5, §3.3.10): rules run on wall-clock
// time from DTSTART's wall time; only an occurrence whose wall time falls in a gap moves forward
// by the gap's length; a wall time shown twice means the earlier offset; keys and instance ids
// are the real UTC instants. Series are built as the API builds them, from stored event data
// (src/event-model/occurrences.ts seriesOf), so a start written as a local time inside a gap is
// covered end to end.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventSpan } from '../../src/event-model/occurrences.ts';
import { eventTimes, seriesOf } from '../../src/event-model/event-series.ts';
import { formatInstanceId } from '../../src/domain/recurrence/instance-id.ts';
import { occurrences } from '../../src/domain/recurrence/recurrence-set.ts';
import { isOccurrence } from '../../src/domain/recurrence/window.ts';
import { formatBasicUtc } from '../../src/domain/time/datetime.ts';
import { formatRfc3339InZone } from '../../src/domain/time/zones.ts';
import { parseRule } from '../_helpers/series.ts';
import type { TimedSeries } from '../_helpers/series.ts';
import { naiveExpand, naiveTransitions, naiveWallToInstant } from '../_helpers/naive-rrule.ts';
import { Rng } from '../_helpers/fuzz.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const NY = 'America/New_York';
const LORD_HOWE = 'Australia/Lord_Howe';
const iso = (t: number): string => new Date(t).toISOString().replace('.000', '');

/** `YYYY-MM-DDThh:mm:ss` of wall ms (civil fields read as UTC). */
const localText = (wall: number): string => iso(wall).slice(0, 19);

/** Stored data of a recurring event that starts at local time `start` in `zone`, lasting an hour. */
function stored(start: string, zone: string, rules: readonly string[]): Record<string, unknown> {
  const end = /[Zz]|[+-]\d\d:\d\d$/.test(start) ? new Date(Date.parse(start) + HOUR).toISOString() : localText(Date.parse(`${start}Z`) + HOUR);
  return { start: { dateTime: start, timeZone: zone }, end: { dateTime: end, timeZone: zone }, recurrence: rules.map((r) => `RRULE:${r}`) };
}

function series(start: string, zone: string, rules: readonly string[]): TimedSeries {
  const s = seriesOf(stored(start, zone, rules) as never, 'UTC');
  assert.ok(s !== undefined && s.kind === 'dateTime');
  return s;
}

/** Occurrences as RFC 3339 in the series' zone: the wall time and the offset it was read with. */
function shown(s: TimedSeries, n = 50, window: { from?: number; until?: number } = {}): string[] {
  const out: string[] = [];
  for (const k of occurrences(s, window)) {
    out.push(formatRfc3339InZone(k, s.timeZone));
    if (out.length >= n) break;
  }
  return out;
}

// Expected values from python-dateutil 2.9 (rrulestr with a zoneinfo DTSTART, fold=0), one per
// distinct instant. DAILY, WEEKLY, MONTHLY and YEARLY; gaps (G) and overlaps (O) in seven zones,
// with one- and half-hour shifts, shifts at midnight (Santiago, Havana) and at 02:45 (Chatham).
const VECTORS: readonly (readonly [zone: string, start: string, rule: string, expected: readonly string[]])[] = [
  // G: the start itself in the gap: 03:30 that day, 02:30 on the following days.
  ['America/New_York', '2026-03-08T02:30:00', 'FREQ=DAILY;COUNT=3', ['2026-03-08T03:30:00-04:00', '2026-03-09T02:30:00-04:00', '2026-03-10T02:30:00-04:00']],
  ['America/New_York', '2026-03-01T02:30:00', 'FREQ=WEEKLY;COUNT=3', ['2026-03-01T02:30:00-05:00', '2026-03-08T03:30:00-04:00', '2026-03-15T02:30:00-04:00']],
  ['America/New_York', '2026-03-08T02:30:00', 'FREQ=YEARLY;BYMONTH=3;BYDAY=2SU;COUNT=3', ['2026-03-08T03:30:00-04:00', '2027-03-14T03:30:00-04:00', '2028-03-12T03:30:00-04:00']],
  // O: 01:30 on the fall-back day is the first one (EDT).
  ['America/New_York', '2026-11-01T01:30:00', 'FREQ=DAILY;COUNT=3', ['2026-11-01T01:30:00-04:00', '2026-11-02T01:30:00-05:00', '2026-11-03T01:30:00-05:00']],
  ['America/New_York', '2026-10-25T01:30:00', 'FREQ=WEEKLY;COUNT=3', ['2026-10-25T01:30:00-04:00', '2026-11-01T01:30:00-04:00', '2026-11-08T01:30:00-05:00']],
  ['America/New_York', '2026-11-01T01:30:00', 'FREQ=YEARLY;BYMONTH=11;BYDAY=1SU;COUNT=3', ['2026-11-01T01:30:00-04:00', '2027-11-07T01:30:00-04:00', '2028-11-05T01:30:00-04:00']],
  // Lord Howe: 30-minute gap 02:00-02:30 and overlap 01:30-02:00.
  ['Australia/Lord_Howe', '2026-10-04T02:15:00', 'FREQ=DAILY;COUNT=3', ['2026-10-04T02:45:00+11:00', '2026-10-05T02:15:00+11:00', '2026-10-06T02:15:00+11:00']],
  ['Australia/Lord_Howe', '2026-09-06T02:15:00', 'FREQ=MONTHLY;BYDAY=1SU;COUNT=3', ['2026-09-06T02:15:00+10:30', '2026-10-04T02:45:00+11:00', '2026-11-01T02:15:00+11:00']],
  ['Australia/Lord_Howe', '2026-04-05T01:45:00', 'FREQ=DAILY;COUNT=3', ['2026-04-05T01:45:00+11:00', '2026-04-06T01:45:00+10:30', '2026-04-07T01:45:00+10:30']],
  ['Australia/Lord_Howe', '2026-03-01T01:45:00', 'FREQ=MONTHLY;BYDAY=1SU;COUNT=3', ['2026-03-01T01:45:00+11:00', '2026-04-05T01:45:00+11:00', '2026-05-03T01:45:00+10:30']],
  // London: both in one monthly series; a yearly one on both change days.
  ['Europe/London', '2026-01-25T01:30:00', 'FREQ=MONTHLY;BYDAY=-1SU;COUNT=10', [
    '2026-01-25T01:30:00Z', '2026-02-22T01:30:00Z', '2026-03-29T02:30:00+01:00', '2026-04-26T01:30:00+01:00', '2026-05-31T01:30:00+01:00',
    '2026-06-28T01:30:00+01:00', '2026-07-26T01:30:00+01:00', '2026-08-30T01:30:00+01:00', '2026-09-27T01:30:00+01:00', '2026-10-25T01:30:00+01:00',
  ]],
  ['Europe/London', '2026-03-29T01:00:00', 'FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;COUNT=4', ['2026-03-29T02:00:00+01:00', '2026-10-25T01:00:00+01:00', '2027-03-28T02:00:00+01:00', '2027-10-31T01:00:00+01:00']],
  // Santiago: the gap is at midnight; the overlap repeats 23:00-24:00 of the day before.
  ['America/Santiago', '2026-09-06T00:30:00', 'FREQ=DAILY;COUNT=3', ['2026-09-06T01:30:00-03:00', '2026-09-07T00:30:00-03:00', '2026-09-08T00:30:00-03:00']],
  ['America/Santiago', '2026-03-28T23:30:00', 'FREQ=WEEKLY;COUNT=3', ['2026-03-28T23:30:00-03:00', '2026-04-04T23:30:00-03:00', '2026-04-11T23:30:00-04:00']],
  // Chatham: +12:45/+13:45, changing at 02:45 and 03:45.
  ['Pacific/Chatham', '2026-09-27T03:00:00', 'FREQ=YEARLY;BYMONTH=9;BYDAY=-1SU;COUNT=3', ['2026-09-27T04:00:00+13:45', '2027-09-26T04:00:00+13:45', '2028-09-24T04:00:00+13:45']],
  ['Pacific/Chatham', '2026-04-05T03:15:00', 'FREQ=YEARLY;BYMONTH=4;BYDAY=1SU;COUNT=3', ['2026-04-05T03:15:00+13:45', '2027-04-04T03:15:00+13:45', '2028-04-02T03:15:00+13:45']],
  ['Pacific/Chatham', '2026-08-27T02:50:00', 'FREQ=MONTHLY;BYMONTHDAY=27;COUNT=3', ['2026-08-27T02:50:00+12:45', '2026-09-27T03:50:00+13:45', '2026-10-27T02:50:00+13:45']],
  // A wall time in the gap lands after the wall times just past it: listed in instant order;
  // two wall times on one instant are one occurrence, though COUNT counted both.
  ['Pacific/Chatham', '2026-09-27T03:15:00', 'FREQ=DAILY;BYMINUTE=15,45;COUNT=4', ['2026-09-27T03:45:00+13:45', '2026-09-27T04:15:00+13:45', '2026-09-28T03:15:00+13:45', '2026-09-28T03:45:00+13:45']],
  ['America/New_York', '2026-03-08T02:00:00', 'FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30;COUNT=6', ['2026-03-08T03:00:00-04:00', '2026-03-08T03:30:00-04:00', '2026-03-09T02:00:00-04:00', '2026-03-09T02:30:00-04:00']],
  ['America/Havana', '2026-03-08T00:30:00', 'FREQ=DAILY;COUNT=2', ['2026-03-08T01:30:00-04:00', '2026-03-09T00:30:00-04:00']],
  ['Europe/Berlin', '2026-03-29T02:30:00', 'FREQ=WEEKLY;INTERVAL=30;COUNT=3', ['2026-03-29T03:30:00+02:00', '2026-10-25T02:30:00+02:00', '2027-05-23T02:30:00+02:00']],
];

test('DST vectors (python-dateutil) in seven zones: DAILY, WEEKLY, MONTHLY, YEARLY over gaps and overlaps', () => {
  for (const [zone, start, rule, expected] of VECTORS) {
    const s = series(start, zone, [rule]);
    const label = `${zone} ${start} ${rule}`;
    assert.deepEqual(shown(s), expected, label);
    for (const text of expected) {
      // Keys, and so instance ids, are the instants the offsets above denote.
      const key = Date.parse(text);
      assert.ok(isOccurrence(s, key), `${label}: ${text}`);
      assert.equal(formatInstanceId('ev', 'dateTime', key), `ev_${formatBasicUtc(key)}`);
    }
  }
});

test('a series starting 02:30 on New York\'s spring-forward day: 03:30 that day, 02:30 after', () => {
  const s = series('2026-03-08T02:30:00', NY, ['FREQ=DAILY']);
  const keys = [...occurrences(s, { until: Date.parse('2026-03-11T00:00:00Z') })];
  assert.deepEqual(keys.map(iso), ['2026-03-08T07:30:00Z', '2026-03-09T06:30:00Z', '2026-03-10T06:30:00Z']);
  assert.deepEqual(keys.map((k) => formatInstanceId('ev', 'dateTime', k)), ['ev_20260308T073000Z', 'ev_20260309T063000Z', 'ev_20260310T063000Z']);
  // 03:30 EDT on the following days is not an occurrence (the wall time stays 02:30).
  assert.equal(isOccurrence(s, Date.parse('2026-03-09T07:30:00Z')), false);
  // A window that starts after the first day finds the same wall time.
  assert.deepEqual(shown(s, 50, { from: Date.parse('2027-03-13T00:00:00Z'), until: Date.parse('2027-03-16T00:00:00Z') }), [
    '2027-03-13T02:30:00-05:00',
    '2027-03-14T03:30:00-04:00',
    '2027-03-15T02:30:00-04:00',
  ]);

  // Lord Howe's 30-minute gap, the same way.
  const lh = series('2026-10-04T02:15:00', LORD_HOWE, ['FREQ=WEEKLY;BYDAY=SU,MO']);
  assert.deepEqual(shown(lh, 4), ['2026-10-04T02:45:00+11:00', '2026-10-05T02:15:00+11:00', '2026-10-11T02:15:00+11:00', '2026-10-12T02:15:00+11:00']);
});

test('a start written with an offset fixes the instant; its wall time in the zone is the rule\'s', () => {
  // 01:30 EST is the second 01:30 of the fall-back day: that instant starts the series.
  const second = series('2026-11-01T01:30:00-05:00', NY, ['FREQ=DAILY;COUNT=3']);
  assert.deepEqual([...occurrences(second)].map(iso), ['2026-11-01T06:30:00Z', '2026-11-02T06:30:00Z', '2026-11-03T06:30:00Z']);
  // 02:30 with the pre-gap offset is the instant 03:30 EDT; the series keeps 03:30.
  const shifted = series('2026-03-08T02:30:00-05:00', NY, ['FREQ=DAILY;COUNT=2']);
  assert.deepEqual(shown(shifted), ['2026-03-08T03:30:00-04:00', '2026-03-09T03:30:00-04:00']);
});

test('a single event whose wall time falls in a gap resolves as a series\' occurrence does', () => {
  for (const [zone, start] of [[NY, '2026-03-08T02:30:00'], [LORD_HOWE, '2026-10-04T02:15:00'], ['America/Santiago', '2026-09-06T00:30:00']] as const) {
    const single = stored(start, zone, []);
    delete single.recurrence;
    const first = occurrences(series(start, zone, ['FREQ=DAILY'])).next().value;
    assert.equal(eventTimes(single as never, 'UTC').start, first, `${zone} ${start}`);
    assert.equal(eventSpan(single as never, 'UTC').startMs, first);
  }
  // And in an overlap, the earlier offset.
  assert.equal(eventTimes(stored('2026-11-01T01:30:00', NY, []) as never, 'UTC').start, Date.parse('2026-11-01T05:30:00Z'));
});

// ---------------------------------------------------------------------------------------------
// Property: for DST zones and starts inside or beside gaps and overlaps, the expansion equals a
// naive wall-clock evaluation (naive-rrule.ts, day by day) whose wall times are then read in the
// zone straight from Intl, duplicates (two wall times, one instant) dropped.

const ZONES = ['America/New_York', 'Australia/Lord_Howe', 'Europe/London', 'America/Santiago', 'Pacific/Chatham', 'America/Havana', 'Australia/Sydney'];

function randomRule(rnd: () => number, gapHours: readonly number[]): string {
  const pick = <T>(l: readonly T[]): T => l[Math.floor(rnd() * l.length)] as T;
  const freq = pick(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const);
  const parts = [`FREQ=${freq}`];
  if (rnd() < 0.3) parts.push(`INTERVAL=${pick([2, 3, 5])}`);
  if (rnd() < 0.5) parts.push(`COUNT=${1 + Math.floor(rnd() * 30)}`);
  if (freq === 'WEEKLY' && rnd() < 0.5) parts.push(`BYDAY=${pick(['SU', 'SA,SU', 'MO,SU', 'FR,SA'])}`);
  if (freq === 'MONTHLY' && rnd() < 0.6) parts.push(pick(['BYDAY=1SU', 'BYDAY=-1SU', 'BYDAY=SU', 'BYMONTHDAY=1,15,-1', 'BYDAY=SA,SU;BYSETPOS=1,-1']));
  if (freq === 'YEARLY' && rnd() < 0.6) parts.push(pick(['BYMONTH=3,4,9,10,11;BYDAY=1SU,-1SU', 'BYMONTH=4,10;BYDAY=SU', 'BYWEEKNO=13,14,40,44;BYDAY=SU', 'BYYEARDAY=60,88,95,270,280,305']));
  if (rnd() < 0.3) parts.push(`BYHOUR=${[...new Set([pick(gapHours), pick([0, 1, 2, 3, 9, 23])])].sort((a, b) => a - b).join(',')}`);
  if (rnd() < 0.2) parts.push(`BYMINUTE=${pick(['0,30', '15,45', '0'])}`);
  return parts.join(';');
}

test('property: DST expansion equals a naive wall-clock evaluation read in the zone (seeded, 350 series)', () => {
  const rng = new Rng(20260308);
  const rnd = (): number => rng.next();
  const transitions = new Map(ZONES.map((z) => [z, naiveTransitions(z, 2025, 2026)]));
  for (let i = 0; i < 350; i++) {
    const zone = ZONES[i % ZONES.length] as string;
    const changes = transitions.get(zone) ?? [];
    const change = changes[Math.floor(rnd() * changes.length)];
    assert.ok(change !== undefined, `${zone} has no DST changes`);
    // Start inside the gap or overlap, at its edges, or up to a few weeks before it, at a minute
    // of the affected hour.
    const minute = Math.floor(rnd() * 4) * 15 * 60_000;
    const inside = change.from + (Math.floor((change.to - change.from) / 900_000 * rnd()) * 900_000);
    const startWall = rnd() < 0.6 ? inside : Math.floor(change.from / HOUR) * HOUR + minute - Math.floor(rnd() * 40) * DAY;
    const gapHours = [Math.floor((change.from % DAY) / HOUR), Math.floor(((change.to - 1) % DAY) / HOUR)];
    const text = randomRule(rnd, gapHours);
    const s = series(localText(startWall), zone, [text]);
    const horizonWall = startWall + 3 * 366 * DAY;
    const horizon = naiveWallToInstant(horizonWall, zone);
    const expected = [...new Set(naiveExpand(parseRule(text), startWall, horizonWall, false).map((w) => naiveWallToInstant(w, zone)))].sort((a, b) => a - b);
    const got: number[] = [];
    for (const k of occurrences(s)) {
      if (k >= horizon) break;
      got.push(k);
    }
    assert.deepEqual(got.map(iso), expected.map(iso), `${zone} ${localText(startWall)} ${change.gap ? 'gap' : 'overlap'} ${text}`);
  }
});
