// What both Store backends (memory.ts, sqlite.ts) must decide the same way, kept apart from
// either so that neither imports the other: which events are "long" (indexed apart from the
// rest), how a calendar's own changes and the shared copies it holds make one page of changes,
// how many used channel ids are remembered, and the refusal of an asynchronous function in
// Store.transaction.

import type { EventRecord } from './store.ts';

/**
 * Events spanning at most this long (and not recurring) are "short": listEventsOverlapping finds
 * them from the start of their span, looking back this far from the window start. Longer events
 * and series masters are "long" and checked one by one; there are few.
 */
export const SHORT_EVENT_MAX_MS = 7 * 24 * 60 * 60 * 1000;

export function isLongEvent(e: Pick<EventRecord, 'recurring' | 'startMs' | 'endMs'>): boolean {
  return e.recurring || e.endMs - e.startMs > SHORT_EVENT_MAX_MS;
}

/**
 * Used channel ids a workspace remembers (Store.rememberChannelId), the oldest forgotten first:
 * every watch adds one, so the set needs a bound. Ids are at most 64 ASCII characters, so this
 * holds at most about 6.4 MB.
 */
export const CHANNEL_IDS_KEPT = 100_000;

/**
 * Store.transaction runs a synchronous function: a promise would let other requests' writes
 * interleave with the rest of it, outside the transaction.
 */
export function refuseThenable(result: unknown): void {
  if (typeof result === 'object' && result !== null && typeof (result as { then?: unknown }).then === 'function') {
    throw new TypeError('Store.transaction needs a synchronous function');
  }
}

/** Orders events as listEventsChangedSince does: by seq, then id. */
export function compareBySeq(a: EventRecord, b: EventRecord): number {
  return a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * One page of listEventsChangedSince from pages in its order (a calendar's own events, the
 * shared copies it holds), each already cut at `limit`: the first `limit` of them all.
 */
export function mergeChanges(pages: readonly EventRecord[][], limit: number): EventRecord[] {
  const nonEmpty = pages.filter((page) => page.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? [];
  return nonEmpty.flat().sort(compareBySeq).slice(0, limit);
}
