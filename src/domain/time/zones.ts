// IANA time-zone arithmetic on Intl alone (no tz database of our own).
//
// Two representations of time are used throughout the domain:
// - an *instant*: epoch milliseconds (UTC), what the store and the API compare;
// - a *wall time*: the civil fields a clock in some zone shows. Internally a wall time is also
//   kept as "wall milliseconds": the same fields read as if they were UTC, so that civil
//   arithmetic (add a day, compare two wall times) is plain number arithmetic.
//
// Intl only answers "instant -> wall fields in zone". The inverse (wall -> instant) is solved
// here with RFC 5545 §3.3.5's rules for the two awkward cases around offset transitions.

export interface WallTime {
  readonly year: number;
  readonly month: number; // 1-12
  readonly day: number; // 1-31
  readonly hour: number; // 0-23
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export const MS_PER_SECOND = 1000;
export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Proleptic Gregorian calendar arithmetic (days since 1970-01-01). Date.UTC is avoided because
// it maps years 0-99 to 1900-1999.
// Algorithm: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms" (days_from_civil).

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return MONTH_DAYS[month - 1] ?? 0;
}

/** ISO weekday index of a day number: 0 = Monday ... 6 = Sunday (1970-01-01 was a Thursday). */
export function weekdayOfDays(days: number): number {
  return (((days + 3) % 7) + 7) % 7;
}

export function wallToMs(w: WallTime): number {
  return (
    daysFromCivil(w.year, w.month, w.day) * MS_PER_DAY +
    w.hour * MS_PER_HOUR +
    w.minute * MS_PER_MINUTE +
    w.second * MS_PER_SECOND +
    w.millisecond
  );
}

export function msToWall(ms: number): WallTime {
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const hour = Math.floor(rest / MS_PER_HOUR);
  rest -= hour * MS_PER_HOUR;
  const minute = Math.floor(rest / MS_PER_MINUTE);
  rest -= minute * MS_PER_MINUTE;
  const second = Math.floor(rest / MS_PER_SECOND);
  return { year, month, day, hour, minute, second, millisecond: rest - second * MS_PER_SECOND };
}

// ---------------------------------------------------------------------------------------------
// Zone names.

const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'Etc/GMT', 'GMT', 'Etc/GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'Etc/Greenwich']);

// IANA names are ASCII letters, digits, '_', '-', '+' and '/' separated components. Intl also
// accepts offset strings such as "+05:00" on recent engines; Google's timeZone fields take
// zone names only, so those are refused here before Intl sees them.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

const validity = new Map<string, boolean>();

/** Whether `name` is an IANA zone name the runtime knows, spelled with its canonical case. */
export function isValidTimeZone(name: string): boolean {
  const known = validity.get(name);
  if (known !== undefined) return known;
  let ok = false;
  if (name.length <= 64 && ZONE_NAME.test(name)) {
    try {
      const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      // Intl matches names case-insensitively; a differently-cased spelling of the resolved
      // name ("america/new_york") is refused so stored names stay canonical. Aliases that
      // resolve to another name ("US/Eastern") are kept as given.
      ok = resolved === name || resolved.toLowerCase() !== name.toLowerCase();
    } catch {
      ok = false;
    }
  }
  if (validity.size > 10_000) validity.clear();
  validity.set(name, ok);
  return ok;
}

class TimeZoneError extends Error {
  readonly zone: string;
  constructor(zone: string) {
    super(`Unknown time zone "${zone}"`);
    this.name = 'TimeZoneError';
    this.zone = zone;
  }
}

// ---------------------------------------------------------------------------------------------
// Offsets. One formatter per zone (building one is far costlier than using it), and offsets read
// from it once per BLOCK of time: a block is probed every PROBE_STEP, and where two probes differ
// the transition between them is found to the second. A lookup is then a map read, whatever
// instants are asked for: a rule expanded over years asks for a new hour at nearly every
// occurrence, and reading Intl for each (about 10 µs) made such a series cost seconds.
//
// Probing every two days finds every transition as long as a zone never changes offset and back
// within two days; in the tz database the closest pair since 1900 is four days apart
// (Africa/Freetown, 1939), and wallMsToInstant below relies on the same spacing.

/** Offsets in force from each instant of `at` (ascending; the first is the block's start). */
type Block = number | { readonly at: readonly number[]; readonly offsets: readonly number[] };

interface ZoneCache {
  readonly fixed: number | undefined;
  readonly formatter: Intl.DateTimeFormat | undefined;
  readonly blocks: Map<number, Block>;
}

const zones = new Map<string, ZoneCache>();
const PROBE_STEP = 2 * MS_PER_DAY;
const BLOCK = 8 * MS_PER_DAY;
/** Blocks kept per zone (about 2,200 years); the cache starts over when full. */
const BLOCK_CACHE_LIMIT = 100_000;

function zoneCache(zone: string): ZoneCache {
  let c = zones.get(zone);
  if (c !== undefined) return c;
  if (!isValidTimeZone(zone)) throw new TimeZoneError(zone);
  if (UTC_NAMES.has(zone)) {
    c = { fixed: 0, formatter: undefined, blocks: new Map() };
  } else {
    const formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    c = { fixed: undefined, formatter, blocks: new Map() };
  }
  zones.set(zone, c);
  return c;
}

function offsetFromFormatter(f: Intl.DateTimeFormat, instant: number): number {
  // Only whole seconds matter: tz offsets are whole seconds, and Intl drops milliseconds.
  const at = Math.floor(instant / MS_PER_SECOND) * MS_PER_SECOND;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const p of f.formatToParts(at)) {
    switch (p.type) {
      case 'year': year = Number(p.value); break;
      case 'month': month = Number(p.value); break;
      case 'day': day = Number(p.value); break;
      case 'hour': hour = Number(p.value); break;
      case 'minute': minute = Number(p.value); break;
      case 'second': second = Number(p.value); break;
      case 'era': bc = p.value === 'BC' || p.value === 'B'; break;
      default: break;
    }
  }
  if (bc) year = 1 - year;
  const wall = daysFromCivil(year, month, day) * MS_PER_DAY + hour * MS_PER_HOUR + minute * MS_PER_MINUTE + second * MS_PER_SECOND;
  return wall - at;
}

/** The offsets of block `index` ([index * BLOCK, (index + 1) * BLOCK)), read from Intl. */
function readBlock(f: Intl.DateTimeFormat, index: number): Block {
  const start = index * BLOCK;
  const end = start + BLOCK;
  const first = offsetFromFormatter(f, start);
  const at = [start];
  const offsets = [first];
  let lo = start;
  let before = first;
  for (let probe = start + PROBE_STEP; probe <= end; probe += PROBE_STEP) {
    const after = offsetFromFormatter(f, probe);
    if (after !== before) {
      // The first second in (lo, probe] with the new offset.
      let hi = probe;
      while (hi - lo > MS_PER_SECOND) {
        const mid = lo + Math.floor((hi - lo) / (2 * MS_PER_SECOND)) * MS_PER_SECOND;
        if (offsetFromFormatter(f, mid) === before) lo = mid;
        else hi = mid;
      }
      if (hi < end) {
        at.push(hi);
        offsets.push(after);
      }
    }
    lo = probe;
    before = after;
  }
  return at.length === 1 ? first : { at, offsets };
}

/** Offset of `zone` from UTC at `instant`, in milliseconds (local = UTC + offset). */
function offsetAt(zone: string, instant: number): number {
  const c = zoneCache(zone);
  if (c.fixed !== undefined) return c.fixed;
  const index = Math.floor(instant / BLOCK);
  let block = c.blocks.get(index);
  if (block === undefined) {
    block = readBlock(c.formatter as Intl.DateTimeFormat, index);
    if (c.blocks.size >= BLOCK_CACHE_LIMIT) c.blocks.clear();
    c.blocks.set(index, block);
  }
  if (typeof block === 'number') return block;
  let i = block.at.length - 1;
  while (i > 0 && (block.at[i] as number) > instant) i--;
  return block.offsets[i] as number;
}

/** Wall milliseconds (civil fields read as UTC) of `instant` in `zone`. */
export function instantToWallMs(instant: number, zone: string): number {
  return instant + offsetAt(zone, instant);
}

/**
 * The instant at which a clock in `zone` shows `wallMs` (civil fields read as UTC).
 * RFC 5545 §3.3.5: a local time that occurs twice (clocks set back) means its first
 * occurrence; a local time that does not occur (clocks set forward) is read with the offset in
 * force before the gap, which moves it forward by the length of the gap (02:30 on a spring-
 * forward day in New York becomes 03:30 EDT).
 */
export function wallMsToInstant(wallMs: number, zone: string): number {
  const c = zoneCache(zone);
  if (c.fixed !== undefined) return wallMs - c.fixed;
  // Offsets a day either side bracket any transition near this wall time (transitions are
  // far more than two days apart in every zone).
  const before = offsetAt(zone, wallMs - MS_PER_DAY);
  const after = offsetAt(zone, wallMs + MS_PER_DAY);
  const t1 = wallMs - before;
  const ok1 = offsetAt(zone, t1) === before;
  if (before === after) {
    if (ok1) return t1;
    // Rare: a transition and its reversal within two days; fall back to a direct probe.
    const o = offsetAt(zone, wallMs - offsetAt(zone, wallMs));
    return wallMs - o;
  }
  const t2 = wallMs - after;
  const ok2 = offsetAt(zone, t2) === after;
  if (ok1 && ok2) return Math.min(t1, t2); // ambiguous: the first occurrence
  if (ok1) return t1;
  if (ok2) return t2;
  return t1; // nonexistent: offset before the gap
}

// ---------------------------------------------------------------------------------------------
// RFC 3339 output.

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

// Two-digit fields without padStart: timestamps are formatted by the thousand in list and
// freeBusy answers.
function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

function formatWallFields(w: WallTime): string {
  return `${pad(w.year, 4)}-${pad2(w.month)}-${pad2(w.day)}T${pad2(w.hour)}:${pad2(w.minute)}:${pad2(w.second)}`;
}

/** `±hh:mm` for an offset in milliseconds (seconds of historic LMT offsets are dropped). */
function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.floor(Math.abs(offsetMs) / MS_PER_MINUTE);
  return `${sign}${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`;
}

/** RFC 3339 §5.6 timestamp in UTC (`2026-10-19T01:00:00Z`); milliseconds are dropped. */
function formatRfc3339Utc(instant: number): string {
  return `${formatWallFields(msToWall(instant))}Z`;
}

/**
 * What `new Date(instant).toISOString()` gives (`2026-10-19T01:00:00.000Z`), for the instants it
 * formats on every request (the journal's `at`, an event's `updated`): building a Date and asking
 * it costs about a microsecond, most of it V8 reading the local zone's offset, which the UTC text
 * never needs. Years outside 0000–9999 (written with a sign and six digits) go to Date itself.
 */
export function formatIsoUtc(instant: number): string {
  // A Date holds whole milliseconds, truncated toward zero (ECMA-262 TimeClip).
  const w = msToWall(Math.trunc(instant));
  // Negated, so that NaN (an invalid date, which Date refuses with a RangeError) goes to Date too.
  if (!(w.year >= 0 && w.year <= 9999)) return new Date(instant).toISOString();
  const ms = w.millisecond;
  return `${formatWallFields(w)}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/**
 * RFC 3339 timestamp with `zone`'s offset at that instant (`2026-10-19T10:00:00+09:00`).
 * UTC zones render `Z`, as Google does for calendars in UTC (https://developers.google.com/workspace/calendar/api/v3/reference/events).
 */
export function formatRfc3339InZone(instant: number, zone: string): string {
  const c = zoneCache(zone);
  if (c.fixed === 0 && UTC_NAMES.has(zone)) return formatRfc3339Utc(instant);
  // Truncate to whole seconds first so the offset is the one shown on the printed second.
  const at = Math.floor(instant / MS_PER_SECOND) * MS_PER_SECOND;
  const offset = offsetAt(zone, at);
  // The printed offset is whole minutes; print the wall time that offset implies so the
  // string denotes the instant exactly even for LMT offsets with seconds.
  const shownOffset = Math.trunc(offset / MS_PER_MINUTE) * MS_PER_MINUTE;
  // A zero offset is written `Z` whatever the zone (Europe/London in winter as UTC): Google's
  // JSON dates come from one RFC 3339 writer that spells a zero shift `Z`
  // (https://github.com/googleapis/google-http-java-client, DateTime.toStringRfc3339), and a
  // UTC calendar's events read `…T21:30:00Z` (https://developers.google.com/workspace/calendar/api/v3/reference/events). For a named zone other than
  // UTC this is a choice: no capture of a London-winter event was found.
  if (shownOffset === 0) return formatRfc3339Utc(at);
  return formatWallFields(msToWall(at + shownOffset)) + formatOffset(shownOffset);
}
