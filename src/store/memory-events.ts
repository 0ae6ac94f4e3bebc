// One calendar's events in the memory store (memory.ts), with the indexes that make its reads
// follow the size of the answer rather than of the calendar:
// - by id (a Map);
// - by (seq, id): a chunked sorted list (listEventsChangedSince);
// - short events (span <= SHORT_EVENT_MAX_MS, not recurring) bucketed by the UTC day of their
//   start, long ones in one set (listEventsOverlapping);
// - exceptions by recurringEventId (listExceptions).
// Every index holds the stored (frozen) record objects.

import { compareBySeq, isLongEvent, SHORT_EVENT_MAX_MS } from './backend-rules.ts';
import { MultiIndex } from './multi-index.ts';
import { SortedList } from './sorted-list.ts';
import type { EventRecord } from './store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day an event starts on, counted from 1970-01-01. */
const dayOf = (e: EventRecord): number => Math.floor(e.startMs / DAY_MS);

/** One calendar's events with their indexes; every index holds the stored record objects. */
export class CalendarEvents {
  readonly byId = new Map<string, EventRecord>();
  readonly bySeq = new SortedList<EventRecord>(compareBySeq);
  /** Short events by the UTC day of their start (dayOf). */
  readonly byDay = new MultiIndex<number, EventRecord>();
  readonly long = new Set<EventRecord>();
  readonly exceptions = new MultiIndex<string, EventRecord>();

  /** Inserts e, or replaces the record with e's id; returns the replaced record. */
  put(e: EventRecord): EventRecord | undefined {
    const prev = this.byId.get(e.id);
    if (prev !== undefined) this.#unindex(prev);
    this.byId.set(e.id, e);
    this.#index(e);
    return prev;
  }

  /** A copy holding the same (frozen) records, indexed anew: a checkpoint's (Store.takeSnapshot). */
  copy(): CalendarEvents {
    const copy = new CalendarEvents();
    for (const e of this.byId.values()) copy.put(e);
    return copy;
  }

  /** Removes e, which must be the stored record object. */
  remove(e: EventRecord): void {
    this.byId.delete(e.id);
    this.#unindex(e);
  }

  /**
   * The events whose [startMs, endMs) overlaps [fromMs, toMs), and how many it looked at (the
   * store's overlapExamined).
   */
  overlapping(fromMs: number, toMs: number): { found: EventRecord[]; examined: number } {
    const found: EventRecord[] = [];
    let examined = 0;
    const consider = (e: EventRecord): void => {
      examined++;
      if (e.startMs < toMs && e.endMs > fromMs) found.push(e);
    };
    // A short event overlapping the window starts in [fromMs - SHORT_EVENT_MAX_MS, toMs).
    const firstDay = Math.floor((fromMs - SHORT_EVENT_MAX_MS) / DAY_MS);
    const lastDay = Math.floor(toMs / DAY_MS);
    if (lastDay - firstDay < this.byDay.keyCount) {
      for (let day = firstDay; day <= lastDay; day++) this.byDay.forEachAt(day, consider);
    } else {
      // A window wider than the number of occupied days: walk the days instead.
      for (const day of this.byDay.keys()) if (day >= firstDay && day <= lastDay) this.byDay.forEachAt(day, consider);
    }
    this.long.forEach(consider);
    return { found, examined };
  }

  #index(e: EventRecord): void {
    this.bySeq.insert(e);
    if (isLongEvent(e)) this.long.add(e);
    else this.byDay.add(dayOf(e), e);
    if (e.recurringEventId !== null) this.exceptions.add(e.recurringEventId, e);
  }

  #unindex(e: EventRecord): void {
    this.bySeq.delete(e);
    if (isLongEvent(e)) this.long.delete(e);
    else this.byDay.delete(dayOf(e), e);
    if (e.recurringEventId !== null) this.exceptions.delete(e.recurringEventId, e);
  }
}
