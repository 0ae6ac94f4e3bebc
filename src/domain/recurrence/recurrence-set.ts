// A series' recurrence set (RFC 5545 §3.8.5): its start, RRULEs and RDATEs, minus EXRULEs and
// EXDATEs, merged lazily in key order; and the set's first and last occurrence. Exception
// records (modified or cancelled instances) are not applied here (exceptions.ts).
//
// Choices (unconfirmed for Google, kept simple and documented):
// - The series start is always an occurrence and counts towards COUNT, even when the rule does
//   not produce it (§3.8.5.3; rule-iterate.ts withStartCounted).
// - A wall time that two rules, or a rule and an RDATE, give is one occurrence: the set is a
//   set. So is a DST gap giving two wall times one instant (02:30 and 03:30 on New York's
//   spring-forward day in an HOURLY rule), though COUNT counted both candidates, as
//   python-dateutil does.
// - UNTIL as a DATE on a timed series bounds through the end of that day in the series' zone;
//   a floating UNTIL is read in the series' zone; a UTC UNTIL bounds the instant. On an all-day
//   series any UNTIL is compared with the date as a floating midnight (rule-compile.ts).
// - EXDATE;VALUE=DATE on a timed series removes every occurrence on that local date; an RDATE
//   DATE on a timed series adds that date at the series' start time of day.
// - Occurrence keys, and so instance ids, are the real UTC instants (zones.ts wallMsToInstant).

import type { DateRef } from './rule.ts';
import type { OccurrenceKey, Series } from './series.ts';
import type { ExpansionBudget } from './cost.ts';
import { expansionBudget } from './cost.ts';
import type { CompiledRule } from './rule-compile.ts';
import { compileRule } from './rule-compile.ts';
import type { KeyClock } from './rule-iterate.ts';
import { MAX_WALL, ruleKeys, withStartCounted } from './rule-iterate.ts';
import { MS_PER_DAY, daysFromCivil, instantToWallMs, wallMsToInstant, wallToMs } from '../time/zones.ts';

interface CompiledSeries extends KeyClock {
  readonly startKey: number;
  readonly rules: readonly CompiledRule[];
  readonly exrules: readonly CompiledRule[];
  readonly rdates: readonly number[];
  readonly exdates: ReadonlySet<number>;
  readonly exLocalDays: ReadonlySet<number>;
}

const compiledCache = new WeakMap<Series, CompiledSeries>();

function dateRefKey(ref: DateRef, series: Series): { key: number } | { localDay: number } {
  const v = ref.value;
  if (series.kind === 'date') {
    // parseRecurrence refuses date-times for all-day series; read one as its date regardless.
    const d = v.kind === 'date' ? v.date : v.wall;
    return { key: daysFromCivil(d.year, d.month, d.day) * MS_PER_DAY };
  }
  if (v.kind === 'date') return { localDay: daysFromCivil(v.date.year, v.date.month, v.date.day) };
  const wall = wallToMs(v.wall);
  if (v.utc) return { key: wall };
  return { key: wallMsToInstant(wall, ref.tzid ?? series.timeZone) };
}

function compile(series: Series): CompiledSeries {
  const hit = compiledCache.get(series);
  if (hit !== undefined) return hit;
  let startKey: number;
  let dtWall: number;
  let toKey: (wall: number) => number;
  let keyToWall: (key: number) => number;
  if (series.kind === 'dateTime') {
    const zone = series.timeZone;
    startKey = series.start;
    dtWall = series.startWall;
    // The start's own wall time maps back to the start even in a repeated hour's second pass
    // (a start written with the later offset).
    toKey = (wall) => (wall === dtWall ? series.start : wallMsToInstant(wall, zone));
    keyToWall = (key) => instantToWallMs(key, zone);
  } else {
    const d = series.startDate;
    dtWall = daysFromCivil(d.year, d.month, d.day) * MS_PER_DAY;
    startKey = dtWall;
    toKey = (wall) => wall;
    keyToWall = (key) => key;
  }
  const rec = series.recurrence;
  const rdates: number[] = [];
  for (const r of rec.rdates) {
    const k = dateRefKey(r, series);
    // An RDATE DATE on a timed series: that date at the start's time of day.
    rdates.push('key' in k ? k.key : toKey(k.localDay * MS_PER_DAY + (dtWall - Math.floor(dtWall / MS_PER_DAY) * MS_PER_DAY)));
  }
  rdates.sort((a, b) => a - b);
  const exdates = new Set<number>();
  const exLocalDays = new Set<number>();
  for (const r of rec.exdates) {
    const k = dateRefKey(r, series);
    if ('key' in k) exdates.add(k.key);
    else exLocalDays.add(k.localDay);
  }
  const compiled: CompiledSeries = {
    startKey,
    toKey,
    keyToWall,
    rules: rec.rrules.map((r) => withStartCounted(compileRule(r, dtWall, series.kind))),
    exrules: rec.exrules.map((r) => compileRule(r, dtWall, series.kind)),
    rdates,
    exdates,
    exLocalDays,
  };
  compiledCache.set(series, compiled);
  return compiled;
}

function* fromList(list: readonly number[], fromKey: number): Generator<number, void, undefined> {
  for (const k of list) if (k >= fromKey) yield k;
}

interface Head {
  readonly it: Iterator<number, void, undefined>;
  value: number;
}

function heads(its: Iterator<number, void, undefined>[]): Head[] {
  const out: Head[] = [];
  for (const it of its) {
    const r = it.next();
    if (r.done !== true) out.push({ it, value: r.value });
  }
  return out;
}

export interface IterateOptions {
  /** Yield only keys at or after this key (an instant; for all-day series a date key). */
  readonly from?: OccurrenceKey;
  /** Stop once keys pass this one (lets empty stretches of a rule end early). */
  readonly until?: OccurrenceKey;
  /** Default: a fresh budget of cost.ts MAX_EXPANSION_STEPS for this iteration. */
  readonly budget?: ExpansionBudget;
}

/** The series' occurrence keys in ascending order, lazily; infinite for unbounded rules. */
export function* occurrences(series: Series, options: IterateOptions = {}): Generator<OccurrenceKey, void, undefined> {
  const c = compile(series);
  const fromKey = options.from ?? -Infinity;
  const stopKey = options.until ?? Infinity;
  // Wall-time bounds with a day of slack either side for zone offsets.
  const fromWall = Number.isFinite(fromKey) ? c.keyToWall(fromKey) - MS_PER_DAY : -Infinity;
  const stopWall = Number.isFinite(stopKey) ? c.keyToWall(stopKey) + MS_PER_DAY : Infinity;
  const budget = options.budget ?? expansionBudget();
  const sources = heads([fromList([c.startKey], fromKey), fromList(c.rdates, fromKey), ...c.rules.map((r) => ruleKeys(r, c, fromWall, stopWall, budget))]);
  const ex = heads(c.exrules.map((r) => ruleKeys(r, c, fromWall, stopWall, budget)));
  let last = -Infinity;
  for (;;) {
    let min: Head | undefined;
    for (const h of sources) if (min === undefined || h.value < min.value) min = h;
    if (min === undefined) return;
    const key = min.value;
    const r = min.it.next();
    if (r.done === true) sources.splice(sources.indexOf(min), 1);
    else min.value = r.value;
    if (key === last || key < fromKey) continue;
    if (key > stopKey) return;
    last = key;
    if (c.exdates.has(key)) continue;
    if (c.exLocalDays.size > 0 && c.exLocalDays.has(Math.floor(c.keyToWall(key) / MS_PER_DAY))) continue;
    let excluded = false;
    for (let i = ex.length - 1; i >= 0; i--) {
      const h = ex[i] as Head;
      while (h.value < key) {
        const n = h.it.next();
        if (n.done === true) {
          h.value = Infinity;
          break;
        }
        h.value = n.value;
      }
      if (h.value === key) excluded = true;
    }
    if (!excluded) yield key;
  }
}

/** The first occurrence's key, or undefined when exclusions remove every occurrence. */
export function firstOccurrence(series: Series): OccurrenceKey | undefined {
  for (const k of occurrences(series)) return k;
  return undefined;
}

/**
 * The last occurrence's key: Infinity when some RRULE has neither COUNT nor UNTIL, undefined
 * when the set is empty.
 */
export function lastOccurrence(series: Series): OccurrenceKey | undefined {
  const c = compile(series);
  if (c.rules.some((r) => r.rule.count === undefined && r.rule.until === undefined)) return Infinity;
  if (c.rules.some((r) => r.rule.count !== undefined)) {
    let last: number | undefined;
    for (const k of occurrences(series)) last = k;
    return last;
  }
  // UNTIL only: search backwards from the latest possible key in widening windows, on one budget.
  const budget = expansionBudget();
  let upper = Math.max(c.startKey, ...c.rdates);
  for (const r of c.rules) {
    const u = r.untilInstant ?? (r.untilWall === undefined ? undefined : c.toKey(Math.min(r.untilWall, MAX_WALL)));
    if (u !== undefined) upper = Math.max(upper, u + MS_PER_DAY);
  }
  for (let span = 32 * MS_PER_DAY; ; span *= 4) {
    const from = upper - span;
    let last: number | undefined;
    for (const k of occurrences(series, { from, until: upper, budget })) last = k;
    if (last !== undefined) return last;
    if (from <= c.startKey) return undefined;
  }
}
