// The memory store's outbox (docs/invitations.md): the messages held, oldest first, each with its start
// (outbox-bounds.ts). A write drops a prefix and appends; its undo puts both back.

import { OUTBOX_PAGE_BYTES } from './outbox-bounds.ts';
import type { OutboxWrite, StoredOutboxMessage } from './outbox-bounds.ts';
import type { OutboxPage } from './store.ts';

export class MemoryOutbox {
  readonly #held: StoredOutboxMessage[] = [];

  /** Applies a planned write and returns its undo. */
  apply(write: OutboxWrite): () => void {
    const held = this.#held;
    const goes = (m: StoredOutboxMessage | undefined): boolean =>
      m !== undefined && (m.record.id < write.dropBeforeId || m.start < write.dropBeforeStart);
    let drop = 0;
    while (goes(held[drop])) drop++;
    const dropped = held.splice(0, drop);
    held.push(...write.add);
    return () => {
      held.length -= write.add.length;
      held.unshift(...dropped);
    };
  }

  read(afterId: number, limit: number): OutboxPage {
    const held = this.#held;
    const oldest = held[0];
    const newest = held.at(-1);
    if (oldest === undefined || newest === undefined) return { messages: [], last: 0 };
    // The ids held run without gaps, so `afterId` gives the first index to read.
    const from = Math.max(0, Math.min(held.length, afterId - oldest.record.id + 1));
    const end = (held[from]?.start ?? 0) + OUTBOX_PAGE_BYTES;
    const messages = [];
    for (let i = from; i < held.length && messages.length < limit && (held[i] as StoredOutboxMessage).start < end; i++) {
      messages.push({ ...(held[i] as StoredOutboxMessage).record });
    }
    return { messages, last: newest.record.id };
  }
}
