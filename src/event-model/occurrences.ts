// Where events sit in time: the span stored with an event, the expansion of a calendar's events
// over a window (single events, series instances with their stored exceptions merged), and the
// instance an id names; an event's own times and series are event-series.ts's. events.list
// (singleEvents), events.instances, events.get of an instance id and freebusy.query all read
// time through here.
// It sits below the calendar API, beside event input, because it depends only on the store types
// and the domain, and record building and the fixture loader need the same spans and series.
//
// Cost: every window query starts from store.listEventsOverlapping, which answers from an index,
// and each series is expanded only over the window (src/domain/recurrence/expand.ts), with a
// limit, so the work follows the window and the page size, never the calendar's size or the
// length of a series.

import type { CalendarRecord, EventRecord, JsonObject, Store } from '../store/store.ts';
import {
  expansionBudget,
  instancesInWindow,
  isOccurrence,
  isUnexpandable,
  lastOccurrence,
  occurrenceSpan,
  parseInstanceId,
  seriesBounds,
} from '../domain/recurrence/expand.ts';
import type { ExpansionBudget, Instance, OccurrenceKey, Series } from '../domain/recurrence/expand.ts';
import { asException, eventTimes, instanceId, seriesOf } from './event-series.ts';
import type { StoredException } from './event-series.ts';

/**
 * Beyond this COUNT a series' end is not computed at write time (it would mean iterating every
 * occurrence); its stored span then runs to Number.MAX_SAFE_INTEGER, which is only a looser
 * index bound, never a wrong answer.
 */
const SPAN_COUNT_LIMIT = 5000;

/**
 * The [startMs, endMs) span stored with an event (Store.EventRecord): a single event's own times;
 * a master's first instance start to last instance end, Number.MAX_SAFE_INTEGER when unbounded
 * (or too long to count at write time).
 */
export function eventSpan(data: JsonObject, calendarZone: string): { startMs: number; endMs: number } {
  const times = eventTimes(data, calendarZone);
  const series = seriesOf(data, calendarZone);
  if (series === undefined) return { startMs: times.start, endMs: times.end };
  const counted = series.recurrence.rrules.some((r) => r.count !== undefined && r.count > SPAN_COUNT_LIMIT);
  if (counted || lastOccurrence(series) === Infinity) return { startMs: times.start, endMs: Number.MAX_SAFE_INTEGER };
  const bounds = seriesBounds(series, calendarZone);
  // An empty set (every occurrence excluded) keeps the declared first instance as its span.
  if (bounds === undefined) return { startMs: times.start, endMs: times.end };
  return { startMs: Math.min(bounds.start, times.start), endMs: Math.max(bounds.end, times.end) };
}

/** One item of an expanded window: a single event, or an instance of a series. */
export type Occurrence =
  | { readonly kind: 'single'; readonly record: EventRecord; readonly start: number; readonly end: number }
  | {
      readonly kind: 'instance';
      readonly master: EventRecord;
      readonly series: Series;
      readonly instance: Instance<StoredException>;
      readonly id: string;
      readonly start: number;
      readonly end: number;
    };

export function occurrenceId(o: Occurrence): string {
  return o.kind === 'single' ? o.record.id : o.id;
}

/** Whether an occurrence is cancelled (a deleted single event, a cancelled instance or series). */
export function occurrenceCancelled(o: Occurrence): boolean {
  if (o.kind === 'single') return o.record.status === 'cancelled';
  return o.instance.cancelled || o.master.status === 'cancelled';
}

/** The record whose data describes an occurrence (the exception when there is one). */
export function occurrenceRecord(o: Occurrence): EventRecord {
  return o.kind === 'single' ? o.record : (o.instance.exception?.record ?? o.master);
}

export class ExpansionLimitError extends Error {}

export interface WindowOptions {
  /** Include cancelled single events, cancelled instances and the instances of deleted series. */
  readonly showDeleted: boolean;
  /** Only occurrences ordered after this (start, id) position. */
  readonly after?: { readonly start: number; readonly id: string } | undefined;
  /** Stop after this many occurrences (earliest first); the page size plus one. */
  readonly limit: number;
  /**
   * Throw ExpansionLimitError rather than return more than `limit` (freeBusy, which cannot page).
   */
  readonly strict?: boolean;
  /** Inclusive lower bound (events.instances' timeMin) rather than the exclusive end > from. */
  readonly inclusiveStart?: boolean;
  /** Only this one series (events.instances). */
  readonly seriesId?: string;
  /**
   * Instances of series must start before this (default `to`): the horizon of a listing with no
   * timeMax (horizon.ts). Single events are bounded by `to` alone.
   */
  readonly seriesTo?: number;
  /** Keep a record as a candidate (q, extended-property filters); default all. */
  readonly accept?: (record: EventRecord) => boolean;
  /** The expansion steps every series of this call shares (default a fresh budget per call). */
  readonly budget?: ExpansionBudget;
  /**
   * Leave out a series that cannot be expanded (domain/recurrence/unexpandable.ts) and name it in
   * the answer's `unexpandable`, rather than fail the whole window: the inspector's view
   * (calendar/window-view.ts). Default: the error is thrown.
   */
  readonly skipUnexpandable?: boolean;
}

/** A series left out of a window because it cannot be expanded, and why. */
export interface UnexpandableSeries {
  readonly master: EventRecord;
  readonly reason: string;
}

/** What expandWindow finds: at most `limit` occurrences, and what the window read. */
export interface ExpandedWindow {
  readonly occurrences: Occurrence[];
  /** The largest change sequence among the records read: a sync watermark for the window. */
  readonly watermark: number;
  /** Series left out (only with skipUnexpandable), in the order they were met. */
  readonly unexpandable: readonly UnexpandableSeries[];
}

function compareOccurrences(a: { start: number; id: string }, b: { start: number; id: string }): number {
  return a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function inWindow(start: number, end: number, from: number, to: number, inclusive: boolean): boolean {
  if (start >= to) return false;
  return inclusive ? end >= from : end > from || (end === start && start >= from);
}

/**
 * The occurrences of a calendar overlapping [from, to), ordered by start then id: single events
 * and the instances of every series with a stored exception merged (modified instances at their
 * own times, cancelled ones dropped or flagged). At most `limit` are returned.
 */
export function expandWindow(
  store: Store,
  calendar: CalendarRecord,
  from: number,
  to: number,
  options: WindowOptions,
): ExpandedWindow {
  const zone = calendar.timeZone;
  const after = options.after;
  const inclusive = options.inclusiveStart === true;
  const accept = options.accept ?? (() => true);
  const seriesTo = Math.min(to, options.seriesTo ?? to);
  const budget = options.budget ?? expansionBudget();
  const isAfter = (o: { start: number; id: string }): boolean => after === undefined || compareOccurrences(o, after) > 0;
  const out: Occurrence[] = [];
  const unexpandable: UnexpandableSeries[] = [];
  const masters = new Map<string, EventRecord>();
  let watermark = 0;
  const candidates = options.seriesId === undefined ? store.listEventsOverlapping(calendar.id, from, to) : [];
  if (options.seriesId !== undefined) {
    const master = store.getEvent(calendar.id, options.seriesId);
    if (master?.recurring) masters.set(master.id, master);
  }
  for (const record of candidates) {
    watermark = Math.max(watermark, record.seq);
    if (record.recurring) {
      masters.set(record.id, record);
    } else if (record.recurringEventId !== null) {
      // A moved exception can overlap the window while its series' span does not.
      if (!masters.has(record.recurringEventId)) {
        const master = store.getEvent(calendar.id, record.recurringEventId);
        if (master?.recurring) masters.set(master.id, master);
      }
    } else {
      if (record.status === 'cancelled' && !options.showDeleted) continue;
      if (!accept(record)) continue;
      if (!inWindow(record.startMs, record.endMs, from, to, inclusive)) continue;
      const o: Occurrence = { kind: 'single', record, start: record.startMs, end: record.endMs };
      if (isAfter({ start: o.start, id: record.id })) out.push(o);
    }
  }
  const byPosition = (a: Occurrence, b: Occurrence): number => {
    if (a.start !== b.start) return a.start - b.start;
    const x = occurrenceId(a);
    const y = occurrenceId(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  // Once `limit` occurrences are known, nothing starting after the last of them can be returned:
  // later series expand only up to that horizon, so a page costs about `limit` instances rather
  // than `limit` of every series (freeBusy, strict, must see them all to count them).
  let horizon = Infinity;
  const tighten = (): void => {
    if (options.strict === true || out.length <= options.limit) return;
    out.sort(byPosition);
    out.length = options.limit;
    horizon = (out[options.limit - 1] as Occurrence).start;
  };
  // A series' instances are added to `out` only once all of them are known, so a series that
  // fails leaves nothing of itself behind.
  const addSeries = (master: EventRecord): void => {
    const series = seriesOf(master.data, zone);
    if (series === undefined) return;
    const exceptions = store.listExceptions(calendar.id, master.id).map(asException);
    watermark = exceptions.reduce((max, e) => Math.max(max, e.record.seq), Math.max(watermark, master.seq));
    const make = (instance: Instance<StoredException>): Occurrence => {
      const id = instance.exception?.record.id ?? instanceId(master, series, instance.originalStart);
      return { kind: 'instance', master, series, instance, id, start: instance.start, end: instance.end };
    };
    const keep = (o: Occurrence & { kind: 'instance' }): boolean =>
      inWindow(o.start, o.end, from, seriesTo, inclusive) && isAfter({ start: o.start, id: o.id }) && accept(o.instance.exception?.record ?? o.master);
    if (!accept(master)) {
      // Only exceptions can pass a filter their series fails (a modified summary matching q):
      // never expand a rejected series, whatever its rule would produce.
      for (const e of exceptions) {
        if (e.cancelled && !options.showDeleted) continue;
        const o = make({ originalStart: e.originalStart, start: e.start, end: e.end, cancelled: e.cancelled, exception: e });
        if (o.kind === 'instance' && keep(o)) out.push(o);
      }
      return;
    }
    // The engine's window is exclusive at its start, so an inclusive one starts a millisecond
    // earlier; after a cursor, expansion starts at the cursor, so deep pages of a dense rule do
    // not re-expand everything before them.
    const engineFrom = Math.max(inclusive ? from - 1 : from, after === undefined ? -Infinity : after.start - 1);
    // Instances overlapping the cursor still come first, so ask for more until `limit` of them
    // lie after it or the window is exhausted.
    for (let want = options.limit + 1; ; want *= 2) {
      const instances = instancesInWindow(series, exceptions, engineFrom, Math.min(seriesTo, Math.max(horizon, engineFrom) + 1), {
        limit: want,
        allDayZone: zone,
        showCancelled: options.showDeleted,
        budget,
      });
      const kept = instances.map(make).filter((o) => o.kind === 'instance' && keep(o));
      if (instances.length < want || kept.length > options.limit) {
        out.push(...kept);
        return;
      }
    }
  };
  for (const master of masters.values()) {
    // Sorting after every series would cost more than it saves: tighten when `out` has doubled.
    if (out.length >= (horizon === Infinity ? options.limit + 1 : 2 * options.limit)) tighten();
    if (master.status === 'cancelled' && !options.showDeleted) continue;
    try {
      addSeries(master);
    } catch (error) {
      if (options.skipUnexpandable !== true || !isUnexpandable(error)) throw error;
      watermark = Math.max(watermark, master.seq);
      unexpandable.push({ master, reason: error.message });
    }
  }
  out.sort(byPosition);
  if (out.length > options.limit) {
    if (options.strict === true) throw new ExpansionLimitError(`more than ${options.limit} occurrences`);
    out.length = options.limit;
  }
  return { occurrences: out, watermark, unexpandable };
}

/** The instance an instance id names, when the id has that shape and the series produces it. */
export function findInstance(
  store: Store,
  calendar: CalendarRecord,
  id: string,
): { master: EventRecord; series: Series; key: OccurrenceKey; exception: EventRecord | undefined } | undefined {
  const parsed = parseInstanceId(id);
  if (parsed === undefined) return undefined;
  const master = store.getEvent(calendar.id, parsed.eventId);
  if (!master?.recurring) return undefined;
  const series = seriesOf(master.data, calendar.timeZone);
  if (series === undefined || series.kind !== parsed.kind || !isOccurrence(series, parsed.originalStart)) return undefined;
  return { master, series, key: parsed.originalStart, exception: store.getEvent(calendar.id, id) };
}

/** Start and end instants of the occurrence `key` of a series (all-day dates in the calendar's zone). */
export function occurrenceTimes(series: Series, key: OccurrenceKey, calendarZone: string): { start: number; end: number } {
  const span = occurrenceSpan(series, key, calendarZone);
  return { start: span.start, end: span.end };
}
