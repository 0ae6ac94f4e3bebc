// One compiled rule's occurrence keys, in instant order, lazily (RFC 5545 §3.3.10): the jump to
// the window, COUNT and UNTIL, and the DST gap (§3.3.5). Candidates are built in wall-clock time
// of the series' zone (rule-periods.ts) and only then turned into instants, so a weekly 09:00
// New York meeting stays at 09:00 across a DST change.
//
// DST (as python-dateutil and Google do it): only an occurrence whose wall time falls in a gap
// moves, forward by the gap's length; every other occurrence keeps the wall time. A wall time
// that occurs twice means its first occurrence (the earlier offset).
//
// Cost depends on the window, not on the series' age: without COUNT the iteration jumps straight
// to the period holding the window start. With COUNT every earlier occurrence must be counted
// (by wall time alone, without reading the zone); DAILY and WEEKLY rules whose periods all hold
// the same number of candidates skip ahead by arithmetic, others count period by period. Every
// period is a step of the request's budget (cost.ts), charged before its candidates are built.

import type { CompiledRule } from './rule-compile.ts';
import type { ExpansionBudget } from './cost.ts';
import { ExpansionBudgetError, expansionBudget } from './cost.ts';
import { nextDayIndex, periodCandidates, periodIndexOf, periodStart } from './rule-periods.ts';
import { subDailyDayMatches } from './rule-days.ts';
import { MS_PER_DAY, daysFromCivil } from '../time/zones.ts';

/** A rule that yields nothing for 400 years (one full Gregorian cycle) is treated as ended. */
const EMPTY_SPAN = 146_097 * MS_PER_DAY;
/** No wall time at or after 10000-01-01 is produced. */
export const MAX_WALL = daysFromCivil(10_000, 1, 1) * MS_PER_DAY;

/** How a series maps wall times (wall ms in its zone) to occurrence keys and back. */
export interface KeyClock {
  readonly toKey: (wall: number) => number;
  readonly keyToWall: (key: number) => number;
}

/**
 * `c` as an RRULE of a series whose start is always an occurrence and counts towards COUNT
 * (§3.8.5.3: "The DTSTART property value always counts as the first occurrence"): when the
 * rule does not itself produce the start, it has one occurrence fewer to give. Compiled series
 * are cached across requests, so this one period (at most MAX_PERIOD_CANDIDATES) is charged to
 * a budget of its own.
 */
export function withStartCounted(c: CompiledRule): CompiledRule {
  if (c.count === undefined || periodCandidates(c, 0, expansionBudget()).includes(c.dtWall)) return c;
  return { ...c, count: c.count - 1 };
}

/**
 * Occurrence keys of one rule, ascending, at or after wall time `fromWall` (earlier ones are
 * still counted for COUNT). Stops at COUNT/UNTIL, after `stopWall`, or after an empty 400 years.
 */
export function* ruleKeys(c: CompiledRule, clock: KeyClock, fromWall: number, stopWall: number, budget: ExpansionBudget): Generator<number, void, undefined> {
  let idx = 0;
  let emitted = 0;
  const target = fromWall <= c.dtWall ? 0 : Math.floor(periodIndexOf(c, fromWall) / c.interval) * c.interval;
  if (c.count === undefined) {
    idx = target;
  } else if (c.uniform !== undefined && c.uniform > 0 && target > c.interval) {
    // COUNT with uniform periods: count period 0 (it may begin before the start), then skip
    // whole periods arithmetically, leaving at least one occurrence to find by iteration.
    emitted = periodCandidates(c, 0, budget).filter((w) => w >= c.dtWall).length;
    const remaining = c.count - emitted;
    const maxSkip = target / c.interval - 1;
    const skip = remaining > 0 ? Math.min(maxSkip, Math.floor((remaining - 1) / c.uniform)) : 0;
    emitted += skip * c.uniform;
    idx = (skip + 1) * c.interval;
  }
  // Candidates come in wall-time order, which is instant order except in a DST gap: a wall time
  // there moves forward by the gap's length, past the instants of the wall times just after the
  // gap (Chatham skips 02:45-03:45, so 03:15 is 04:15 and comes after 03:45). Such keys wait
  // here, ascending, until a later key passes them. COUNT and UNTIL still go by candidate order,
  // as python-dateutil counts and stops.
  const moved: number[] = [];
  let lastFound = Math.max(c.dtWall, periodStart(c, idx));
  const bound = Math.min(stopWall, MAX_WALL, c.untilWall ?? Infinity, c.untilInstant === undefined ? Infinity : c.untilInstant + 2 * MS_PER_DAY);
  periods: for (;;) {
    if (--budget.remaining < 0) throw new ExpansionBudgetError();
    const ps = periodStart(c, idx);
    if (ps > bound || ps - lastFound > EMPTY_SPAN) break;
    if (c.subDaily && !subDailyDayMatches(c, Math.floor(ps / MS_PER_DAY))) {
      // Sub-daily rule on a day the day-level parts exclude: skip the rest of that day.
      idx = nextDayIndex(c, idx);
      continue;
    }
    const cands = periodCandidates(c, idx, budget);
    for (const w of cands) {
      if (w < c.dtWall) continue;
      if (c.untilWall !== undefined && w > c.untilWall) break periods;
      if (c.count !== undefined && emitted >= c.count) break periods;
      emitted += 1;
      lastFound = w;
      // Before the window a candidate is only counted (COUNT goes by wall times), unless a UTC
      // UNTIL needs its instant: reading the zone's offset is the costly part of a candidate.
      if (w < fromWall && c.untilInstant === undefined) continue;
      const key = clock.toKey(w);
      if (c.untilInstant !== undefined && key > c.untilInstant) break periods;
      if (w < fromWall) continue;
      if (clock.keyToWall(key) !== w) {
        let at = moved.length;
        while (at > 0 && (moved[at - 1] as number) > key) at--;
        moved.splice(at, 0, key);
        continue;
      }
      while (moved.length > 0 && (moved[0] as number) < key) yield moved.shift() as number;
      yield key;
    }
    idx += c.interval;
  }
  yield* moved;
}
