import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  civilFromDays,
  daysFromCivil,
  formatIsoUtc,
  formatRfc3339InZone,
  instantToWallMs,
  isValidTimeZone,
  msToWall,
  wallMsToInstant,
  wallToMs,
  weekdayOfDays,
} from '../../src/domain/time/zones.ts';
import { naiveOffset } from '../_helpers/naive-rrule.ts';
import { Rng } from '../_helpers/fuzz.ts';

/** Offset of `zone` at `instant`, read through the public conversion (local = UTC + offset). */
const offsetAt = (zone: string, instant: number): number => instantToWallMs(instant, zone) - instant;
const wall = (y: number, mo: number, d: number, h: number, mi = 0, s = 0) => ({ year: y, month: mo, day: d, hour: h, minute: mi, second: s, millisecond: 0 });
const utc = (iso: string): number => Date.parse(iso);

test('civil day arithmetic matches Date for a wide range, including years 0-99', () => {
  for (let days = -800_000; days <= 800_000; days += 997) {
    const d = civilFromDays(days);
    assert.equal(daysFromCivil(d.year, d.month, d.day), days);
    const js = new Date(days * 86_400_000);
    assert.deepEqual([d.year, d.month, d.day], [js.getUTCFullYear(), js.getUTCMonth() + 1, js.getUTCDate()]);
  }
  assert.equal(daysFromCivil(1970, 1, 1), 0);
  assert.equal(weekdayOfDays(daysFromCivil(1997, 9, 2)), 1); // a Tuesday
});

test('isValidTimeZone', () => {
  for (const z of ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Asia/Tokyo', 'UTC', 'Etc/GMT+5']) {
    assert.equal(isValidTimeZone(z), true, z);
  }
  for (const z of ['', 'Mars/Olympus_Mons', '+05:00', '-0500', 'america/new_york', 'America/New York', '../etc/passwd', 'x'.repeat(100)]) {
    assert.equal(isValidTimeZone(z), false, z);
  }
  assert.throws(() => instantToWallMs(0, 'Mars/Olympus_Mons'), /^TimeZoneError: Unknown time zone "Mars\/Olympus_Mons"$/);
});

test('instant to wall time', () => {
  assert.deepEqual(msToWall(instantToWallMs(utc('2026-10-19T01:00:00Z'), 'Asia/Tokyo')), wall(2026, 10, 19, 10));
  assert.deepEqual(msToWall(instantToWallMs(utc('2026-01-01T00:00:00Z'), 'Asia/Kathmandu')), wall(2026, 1, 1, 5, 45));
  // New York, 2026-11-01: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
  assert.deepEqual(msToWall(instantToWallMs(utc('2026-11-01T05:30:00Z'), 'America/New_York')), wall(2026, 11, 1, 1, 30));
  assert.deepEqual(msToWall(instantToWallMs(utc('2026-11-01T06:30:00Z'), 'America/New_York')), wall(2026, 11, 1, 1, 30));
  assert.equal(offsetAt('America/New_York', utc('2026-07-01T00:00:00Z')), -4 * 3_600_000);
  assert.equal(offsetAt('Australia/Lord_Howe', utc('2026-07-01T00:00:00Z')), 10.5 * 3_600_000);
  assert.equal(offsetAt('Australia/Lord_Howe', utc('2026-01-01T00:00:00Z')), 11 * 3_600_000);
  assert.equal(offsetAt('UTC', 123), 0);
});

// RFC 5545 §3.3.5: nonexistent local times use the offset before the gap (moved forward by the
// gap's length); ambiguous ones mean the first occurrence.
const conversions: [string, string, [number, number, number, number, number], string][] = [
  // zone, case, local wall time, expected instant
  ['America/New_York', 'before gap', [2026, 3, 8, 1, 59], '2026-03-08T06:59:00Z'],
  ['America/New_York', 'in gap', [2026, 3, 8, 2, 30], '2026-03-08T07:30:00Z'], // = 03:30 EDT
  ['America/New_York', 'after gap', [2026, 3, 8, 3, 0], '2026-03-08T07:00:00Z'],
  ['America/New_York', 'overlap', [2026, 11, 1, 1, 30], '2026-11-01T05:30:00Z'], // EDT, first
  ['America/New_York', 'after overlap', [2026, 11, 1, 2, 0], '2026-11-01T07:00:00Z'],
  ['Europe/London', 'in gap', [2026, 3, 29, 1, 30], '2026-03-29T01:30:00Z'], // = 02:30 BST
  ['Europe/London', 'after gap', [2026, 3, 29, 2, 0], '2026-03-29T01:00:00Z'],
  ['Europe/London', 'overlap', [2026, 10, 25, 1, 30], '2026-10-25T00:30:00Z'], // BST, first
  ['Europe/London', 'after overlap', [2026, 10, 25, 2, 0], '2026-10-25T02:00:00Z'],
  // Lord Howe moves by 30 minutes: +10:30 standard, +11:00 summer.
  ['Australia/Lord_Howe', 'in gap', [2026, 10, 4, 2, 15], '2026-10-03T15:45:00Z'], // = 02:45 +11:00
  ['Australia/Lord_Howe', 'after gap', [2026, 10, 4, 2, 30], '2026-10-03T15:30:00Z'],
  ['Australia/Lord_Howe', 'overlap', [2026, 4, 5, 1, 45], '2026-04-04T14:45:00Z'], // +11:00, first
  ['Australia/Lord_Howe', 'after overlap', [2026, 4, 5, 2, 0], '2026-04-04T15:30:00Z'],
  ['Asia/Kathmandu', 'fixed +05:45', [2026, 3, 8, 2, 30], '2026-03-07T20:45:00Z'],
  ['Asia/Tokyo', 'no DST', [2026, 3, 8, 2, 30], '2026-03-07T17:30:00Z'],
  ['UTC', 'utc', [2026, 3, 8, 2, 30], '2026-03-08T02:30:00Z'],
];

for (const [zone, label, [y, mo, d, h, mi], expected] of conversions) {
  test(`wall time to instant: ${zone} ${label}`, () => {
    assert.equal(new Date(wallMsToInstant(wallToMs(wall(y, mo, d, h, mi)), zone)).toISOString(), new Date(expected).toISOString());
  });
}

test('wall -> instant -> wall round trips except in gaps, over a year of half hours', () => {
  for (const zone of ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Asia/Tokyo']) {
    for (let t = utc('2026-01-01T00:00:00Z'); t < utc('2027-01-01T00:00:00Z'); t += 1_800_000) {
      const w = instantToWallMs(t, zone);
      const back = wallMsToInstant(w, zone);
      // Either t itself or, in a repeated hour, the first of the two instants showing w.
      assert.ok(back === t || (back < t && instantToWallMs(back, zone) === w), `${zone} ${new Date(t).toISOString()}`);
    }
  }
});

test('RFC 3339 formatting with the zone offset, and Z for UTC', () => {
  const t = utc('2026-10-19T01:00:00Z');
  assert.equal(formatRfc3339InZone(t, 'Asia/Tokyo'), '2026-10-19T10:00:00+09:00');
  assert.equal(formatRfc3339InZone(t, 'Asia/Kathmandu'), '2026-10-19T06:45:00+05:45');
  assert.equal(formatRfc3339InZone(t, 'America/New_York'), '2026-10-18T21:00:00-04:00');
  assert.equal(formatRfc3339InZone(utc('2026-11-01T06:30:00Z'), 'America/New_York'), '2026-11-01T01:30:00-05:00');
  assert.equal(formatRfc3339InZone(t, 'UTC'), '2026-10-19T01:00:00Z');
  assert.equal(formatRfc3339InZone(t + 999, 'UTC'), '2026-10-19T01:00:00Z');
  assert.equal(formatRfc3339InZone(utc('2026-01-10T00:00:00Z'), 'Australia/Lord_Howe'), '2026-01-10T11:00:00+11:00');
});

test('formatters are cached: converting many instants builds at most one per zone', () => {
  const Original = Intl.DateTimeFormat;
  let built = 0;
  const Counting = new Proxy(Original, {
    construct(target, args: unknown[]) {
      built += 1;
      return Reflect.construct(target, args) as object;
    },
  });
  (Intl as { DateTimeFormat: unknown }).DateTimeFormat = Counting;
  try {
    const start = utc('2020-01-01T00:00:00Z');
    for (let i = 0; i < 200_000; i++) msToWall(instantToWallMs(start + i * 61_000, 'Europe/Paris'));
    for (let i = 0; i < 20_000; i++) wallMsToInstant(start + i * 3_600_000, 'Europe/Paris');
  } finally {
    (Intl as { DateTimeFormat: unknown }).DateTimeFormat = Original;
  }
  assert.ok(built <= 2, `built ${built} formatters`);
});

test('cached offsets equal Intl\'s: around odd transitions by the half hour, and anywhere in every zone', () => {
  const sweeps: [string, string, string][] = [
    ['Pacific/Apia', '2011-12-28T00:00:00Z', '2012-01-02T00:00:00Z'], // skipped 30 December 2011
    ['Pacific/Kiritimati', '1994-12-29T00:00:00Z', '1995-01-03T00:00:00Z'], // skipped 31 December 1994
    ['Africa/Freetown', '1939-08-25T00:00:00Z', '1939-09-10T00:00:00Z'], // two changes four days apart
    ['America/Caracas', '2016-04-28T00:00:00Z', '2016-05-03T00:00:00Z'], // -04:30 to -04:00
    ['Australia/Lord_Howe', '2026-04-01T00:00:00Z', '2026-04-08T00:00:00Z'],
    ['Pacific/Chatham', '2026-09-24T00:00:00Z', '2026-09-30T00:00:00Z'],
    ['America/Santiago', '2026-09-03T00:00:00Z', '2026-09-09T00:00:00Z'],
  ];
  for (const [zone, from, to] of sweeps) {
    for (let t = utc(from); t < utc(to); t += 1_800_000) {
      for (const at of [t - 1000, t]) assert.equal(offsetAt(zone, at), naiveOffset(zone, at), `${zone} ${new Date(at).toISOString()}`);
    }
  }
  const rng = new Rng(1939);
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    for (let i = 0; i < 40; i++) {
      const at = rng.int(utc('1850-01-01T00:00:00Z') / 1000, utc('2150-01-01T00:00:00Z') / 1000) * 1000;
      assert.equal(offsetAt(zone, at), naiveOffset(zone, at), `${zone} ${new Date(at).toISOString()}`);
    }
  }
});

test('offsets are read from Intl per block of days, not per instant asked for', () => {
  const proto = Intl.DateTimeFormat.prototype;
  const original = proto.formatToParts;
  let reads = 0;
  proto.formatToParts = function counted(this: Intl.DateTimeFormat, date?: Date | number) {
    reads += 1;
    return original.call(this, date);
  };
  try {
    // Ten years of hourly wall times to instants and back: 87,600 conversions.
    const start = utc('2030-01-01T00:00:00Z');
    for (let i = 0; i < 87_600; i++) instantToWallMs(wallMsToInstant(start + i * 3_600_000, 'America/Halifax'), 'America/Halifax');
  } finally {
    proto.formatToParts = original;
  }
  // About 460 eight-day blocks of five probes, and a binary search for each of 20 transitions.
  assert.ok(reads < 4_000, `${reads} reads of Intl`);
});

test('formatIsoUtc writes what Date.prototype.toISOString writes, at the edges of its range and in between', () => {
  const iso = (instant: number): string => {
    try {
      return new Date(instant).toISOString();
    } catch (error) {
      return (error as Error).name;
    }
  };
  const ours = (instant: number): string => {
    try {
      return formatIsoUtc(instant);
    } catch (error) {
      return (error as Error).name;
    }
  };
  const edges = [0, -0.5, -1, -1.5, 1, 999, 1000.9, utc('2024-02-29T23:59:59.999Z'), utc('0000-01-01T00:00:00Z'), utc('0000-01-01T00:00:00Z') - 1, utc('9999-12-31T23:59:59.999Z'), utc('9999-12-31T23:59:59.999Z') + 1, 8.64e15, -8.64e15, 8.64e15 + 1, Number.NaN, Infinity];
  for (const instant of edges) assert.equal(ours(instant), iso(instant), String(instant));
  assert.equal(formatIsoUtc(utc('2026-10-19T01:02:03.004Z')), '2026-10-19T01:02:03.004Z');
  const rng = new Rng(7);
  for (let i = 0; i < 20_000; i++) {
    const instant = Math.floor((rng.next() - 0.5) * 2 * 2.6e14);
    assert.equal(ours(instant), iso(instant), String(instant));
  }
});
