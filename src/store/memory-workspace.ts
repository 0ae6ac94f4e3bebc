// The collections one memory store holds (memory.ts), and their copy for a checkpoint: the maps
// and indexes of every record kind. clearWorkspace swaps in a fresh one, and undo swaps it back.

import { CalendarEvents } from './memory-events.ts';
import { compareByExpiry } from './memory-records.ts';
import { MemoryOutbox } from './memory-outbox.ts';
import { SharedCopies } from './memory-shared-copies.ts';
import { MultiIndex } from './multi-index.ts';
import { SortedList } from './sorted-list.ts';
import type { AccessTokenRecord, CalendarListEntryRecord, CalendarRecord, ChannelRecord, ClientRecord, ConnectionRecord, RefreshTokenRecord, UserRecord } from './store.ts';

/** The workspace collections; clearWorkspace swaps in a fresh one (and undo swaps it back). */
export class Workspace {
  readonly clients = new Map<string, ClientRecord>();
  readonly users = new Map<string, UserRecord>();
  readonly calendars = new Map<string, CalendarRecord>();
  /** userId -> calendarId -> entry */
  readonly entries = new Map<string, Map<string, CalendarListEntryRecord>>();
  readonly events = new Map<string, CalendarEvents>();
  sharedCopies = new SharedCopies();
  readonly connections = new Map<string, ConnectionRecord>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly accessByConnection = new MultiIndex<string, string>();
  readonly accessByExpiry = new SortedList<AccessTokenRecord>(compareByExpiry);
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly refreshByConnection = new MultiIndex<string, string>();
  readonly channels = new Map<string, ChannelRecord>();
  /** Insertion order is age: the first is the oldest. */
  channelIds = new Set<string>();
  outbox = new MemoryOutbox();

  /**
   * A copy for a checkpoint (Store.takeSnapshot), sharing `kept.outbox` and `kept.channelIds`
   * instead of copying them (neither is part of a checkpoint: the outbox is not data, and a
   * channel id once used stays spent). Stored records are never changed in place (a write puts
   * a new one), so the copy shares them and builds only its own maps and indexes.
   */
  copy(kept: { outbox: MemoryOutbox; channelIds: Set<string> }): Workspace {
    const to = new Workspace();
    copyInto(this.clients, to.clients);
    copyInto(this.users, to.users);
    copyInto(this.calendars, to.calendars);
    for (const [userId, entries] of this.entries) to.entries.set(userId, new Map(entries));
    for (const [calendarId, events] of this.events) to.events.set(calendarId, events.copy());
    to.sharedCopies = this.sharedCopies.copy();
    copyInto(this.connections, to.connections);
    for (const token of this.accessTokens.values()) {
      to.accessTokens.set(token.hash, token);
      to.accessByConnection.add(token.connectionId, token.hash);
      to.accessByExpiry.insert(token);
    }
    for (const token of this.refreshTokens.values()) {
      to.refreshTokens.set(token.hash, token);
      to.refreshByConnection.add(token.connectionId, token.hash);
    }
    copyInto(this.channels, to.channels);
    to.outbox = kept.outbox;
    to.channelIds = kept.channelIds;
    return to;
  }

  /** Stored events: each calendar's own, and each shared copy once. */
  countEvents(): number {
    let count = this.sharedCopies.size;
    for (const events of this.events.values()) count += events.byId.size;
    return count;
  }
}

function copyInto<K, V>(from: ReadonlyMap<K, V>, to: Map<K, V>): void {
  for (const [key, value] of from) to.set(key, value);
}
