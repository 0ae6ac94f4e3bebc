// What both Store backends (memory.ts, sqlite.ts) must decide the same way, kept apart from
// either so that neither imports the other: which events are "long" (indexed apart from the
// rest), and the refusal of an asynchronous function in Store.transaction.

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
 * Store.transaction runs a synchronous function: a promise would let other requests' writes
 * interleave with the rest of it, outside the transaction.
 */
export function refuseThenable(result: unknown): void {
  if (typeof result === 'object' && result !== null && typeof (result as { then?: unknown }).then === 'function') {
    throw new TypeError('Store.transaction needs a synchronous function');
  }
}
