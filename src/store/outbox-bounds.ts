// The outbox's bounds (docs/invitations.md), which both Store backends (memory.ts, sqlite.ts) apply the
// same way: the newest 10,000 messages, at most 16 MiB in all, the oldest dropped first, in the
// write that adds messages (so a refused write, rolled back, drops none either).
//
// Trimming must not cost a count of the whole outbox on every write. So every message is stored
// with `start`, the bytes of all the messages recorded before it since numbering began, and meta
// `outbox` keeps where numbering stands (the last id, the bytes recorded). Ids go up by one per
// message and starts grow with them, so what a write drops is always a prefix: the messages with
// an id or a start below two thresholds this module computes, found from the oldest end.

import type { NewOutboxMessage, OutboxMessageRecord } from './store.ts';

export const OUTBOX_MAX_MESSAGES = 10_000;
export const OUTBOX_MAX_BYTES = 16 * 1024 * 1024;
/**
 * A page of the outbox ends before the first message starting this many bytes after its first
 * message does (one message is always read): docs/invitations.md's 250 ms for a read holds for pages of
 * a few MiB, not for the whole 16 MiB of 1,000 large messages.
 */
export const OUTBOX_PAGE_BYTES = 4 * 1024 * 1024;

/** The meta key of OutboxCounters, as `<lastId> <bytes>`. */
export const OUTBOX_META = 'outbox';

/** The numbers (id, at) count as 8 bytes each, as SQLite stores them. */
const NUMBER_BYTES = 8;

/** A message's size: the UTF-8 bytes of its text fields and 8 bytes per number. */
export function messageBytes(m: NewOutboxMessage): number {
  const text = [m.to, m.kind, m.eventId, m.calendarId, m.fromUserId, m.summary ?? ''];
  return text.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 2 * NUMBER_BYTES);
}

/** Where numbering stands: the last id given, and the bytes of every message recorded so far. */
export interface OutboxCounters {
  lastId: number;
  bytes: number;
}

export function parseCounters(meta: string | undefined): OutboxCounters {
  const [lastId = 0, bytes = 0] = (meta ?? '').split(' ').map(Number);
  return { lastId, bytes };
}

export function formatCounters(c: OutboxCounters): string {
  return `${c.lastId} ${c.bytes}`;
}

/** A message as stored: the record and its start (this module's header). */
export interface StoredOutboxMessage {
  record: OutboxMessageRecord;
  start: number;
}

/** What one write does to the outbox. */
export interface OutboxWrite {
  /** The messages to store, oldest first: the write's own that the bounds let stay. */
  add: StoredOutboxMessage[];
  /** Meta `outbox` after the write. */
  counters: OutboxCounters;
  /** Messages held before the write go when their id is below this... */
  dropBeforeId: number;
  /** ...or their start is below this. */
  dropBeforeStart: number;
}

/**
 * Numbers a write's messages on from `counters` and says what the outbox drops. The newest of
 * them stay as far as the bounds allow; when even they do not all fit, the older ones of the
 * write are never stored (a 300 KB summary sent to 2,000 guests is not written 2,000 times only
 * to be deleted), and every message held before goes.
 */
export function planOutboxWrite(counters: OutboxCounters, messages: readonly NewOutboxMessage[]): OutboxWrite {
  const sizes: number[] = [];
  let bytes = 0;
  let first = messages.length;
  while (first > 0 && sizes.length < OUTBOX_MAX_MESSAGES) {
    const size = messageBytes(messages[first - 1] as NewOutboxMessage);
    if (bytes + size > OUTBOX_MAX_BYTES) break;
    bytes += size;
    sizes.push(size);
    first--;
  }
  const add: StoredOutboxMessage[] = [];
  let { lastId, bytes: start } = counters;
  for (let i = first; i < messages.length; i++) {
    add.push({ record: { ...(messages[i] as NewOutboxMessage), id: ++lastId }, start });
    start += sizes[messages.length - 1 - i] as number;
  }
  return {
    add,
    counters: { lastId, bytes: start },
    dropBeforeId: first > 0 ? counters.lastId + 1 : lastId - OUTBOX_MAX_MESSAGES + 1,
    dropBeforeStart: start - OUTBOX_MAX_BYTES,
  };
}
