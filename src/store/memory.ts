// The in-memory backend of the Store interface: the same behaviour as sqlite.ts, in Maps. Its
// collections are memory-workspace.ts's; the records it keeps (frozen or copied),
// memory-records.ts; one calendar's events with their indexes, memory-events.ts.
//
// Atomicity: inside transaction(), every mutation pushes its inverse onto an undo log; when fn
// throws, the log is replayed backwards to the mark taken when that (possibly nested) call
// began, like a SAVEPOINT. Outside a transaction each method is one synchronous step, and the
// multi-step ones (cascades, clearWorkspace) wrap themselves in transaction().
//
// The class stays one file, as sqlite.ts does: every method writes through its undo log.
//
// Indexes, so that reads follow the size of the answer rather than of the calendar: the events'
// (memory-events.ts) and the shared copies' (memory-shared-copies.ts); access and refresh tokens
// by connection, access tokens by expiry (the purge takes the soonest expired first). Users,
// calendars, connections and channels are few, so their lists scan and sort.

import { CHANNEL_IDS_KEPT, mergeChanges, refuseThenable } from './backend-rules.ts';
import { CalendarEvents } from './memory-events.ts';
import { byCreation, compareStrings, copyAccessToken, copyChannel, copyClient,
  copyConnection, copyRefreshToken, copyUser, resourceKey, storedCalendar, storedEntry, storedEvent } from './memory-records.ts';
import { MemoryOutbox } from './memory-outbox.ts';
import { Workspace } from './memory-workspace.ts';
import { formatCounters, OUTBOX_META, parseCounters, planOutboxWrite } from './outbox-bounds.ts';
import type { AccessTokenRecord, CalendarListEntryRecord, CalendarRecord, ChannelRecord, ChannelResource,
  ClientRecord, ConnectionRecord, EventRecord, NewOutboxMessage, OutboxPage, RefreshTokenRecord, SharedCopyRecord, Store, MetaEntry, UserRecord, WorkspaceSizes } from './store.ts';

export class MemoryStore implements Store {
  readonly backend = 'memory' as const;
  #ws = new Workspace();
  readonly #meta = new Map<string, string>();
  #seq = 0;
  #depth = 0;
  /** Checkpoints' copies of the workspace (takeSnapshot), by id; their outbox is never read. */
  readonly #snapshots = new Map<number, Workspace>();
  #nextSnapshot = 1;
  readonly #undo: (() => void)[] = [];

  /**
   * How many stored events the last listEventsOverlapping call looked at. Tests use it to check
   * that the cost follows the window; nothing else should read it.
   */
  overlapExamined = 0;

  transaction<T>(fn: () => T): T {
    const mark = this.#undo.length;
    this.#depth++;
    try {
      const result = fn();
      refuseThenable(result);
      return result;
    } catch (err) {
      while (this.#undo.length > mark) (this.#undo.pop() as () => void)();
      throw err;
    } finally {
      this.#depth--;
      if (this.#depth === 0) this.#undo.length = 0;
    }
  }

  /** Nothing outlives the process here, so a write is as durable as it gets when it returns. */
  durable(): undefined {
    return undefined;
  }

  close(): void {
    // Nothing to release; the data goes with the object.
  }

  /** Nobody else writes to this store. */
  othersCommitted(): number {
    return 0;
  }

  releaseMemory(): void {
    // Every record is the data itself: there is no cache to give back.
  }

  #log(undo: () => void): void {
    if (this.#depth > 0) this.#undo.push(undo);
  }

  #set<K, V>(map: Map<K, V>, key: K, value: V): void {
    const prev = map.get(key);
    map.set(key, value);
    this.#log(prev === undefined ? () => map.delete(key) : () => map.set(key, prev));
  }

  #delete<K, V>(map: Map<K, V>, key: K): V | undefined {
    const prev = map.get(key);
    if (prev === undefined) return undefined;
    map.delete(key);
    this.#log(() => map.set(key, prev));
    return prev;
  }

  getMeta(key: string): string | undefined {
    return this.#meta.get(key);
  }
  setMeta(key: string, value: string): void {
    this.#set(this.#meta, key, value);
  }
  deleteMeta(key: string): void {
    this.#delete(this.#meta, key);
  }
  listMeta(prefix: string): MetaEntry[] {
    const keys = [...this.#meta.keys()].filter((key) => key.startsWith(prefix)).sort();
    return keys.map((key) => ({ key, value: this.#meta.get(key) as string }));
  }
  nextSeq(): number {
    const prev = this.#seq;
    this.#seq = prev + 1;
    this.#log(() => (this.#seq = prev));
    return this.#seq;
  }

  clearWorkspace(): void {
    const prev = this.#ws;
    this.#ws = new Workspace();
    this.#log(() => (this.#ws = prev));
  }

  takeSnapshot(): number {
    const id = this.#nextSnapshot++;
    this.#snapshots.set(id, this.#ws.copy({ outbox: new MemoryOutbox(), channelIds: new Set() }));
    return id;
  }
  restoreSnapshot(id: number): void {
    const snapshot = this.#snapshots.get(id);
    if (snapshot === undefined) throw new Error(`no snapshot ${id}`);
    const prev = this.#ws;
    // A copy again, so that the snapshot can be restored once more.
    this.#ws = snapshot.copy(prev);
    this.#log(() => (this.#ws = prev));
  }
  dropSnapshot(id: number): void {
    this.#snapshots.delete(id);
  }
  countEvents(): number {
    return this.#ws.countEvents();
  }
  sizes(): WorkspaceSizes {
    return { users: this.#ws.users.size, events: this.#ws.countEvents() };
  }

  putClient(client: ClientRecord): void {
    this.#set(this.#ws.clients, client.id, copyClient(client));
  }
  getClient(id: string): ClientRecord | undefined {
    return copied(this.#ws.clients.get(id), copyClient);
  }
  listClients(): ClientRecord[] {
    return [...this.#ws.clients.values()].sort((a, b) => compareStrings(a.id, b.id)).map(copyClient);
  }

  putUser(user: UserRecord): void {
    this.#set(this.#ws.users, user.id, copyUser(user));
  }
  getUser(id: string): UserRecord | undefined {
    return copied(this.#ws.users.get(id), copyUser);
  }
  listUsers(): UserRecord[] {
    return [...this.#ws.users.values()]
      .sort((a, b) => a.position - b.position || compareStrings(a.id, b.id))
      .map(copyUser);
  }
  deleteUser(id: string): void {
    this.transaction(() => {
      const ws = this.#ws;
      const calendarIds = new Set<string>();
      for (const c of ws.calendars.values()) if (c.ownerId === id) calendarIds.add(c.id);
      for (const calendarId of calendarIds) {
        for (const copy of ws.sharedCopies.organizedOn(calendarId)) {
          for (const holder of copy.holders) {
            if (!calendarIds.has(holder) && !this.#owns(holder, copy.event.id)) this.putEvent({ ...copy.event, calendarId: holder });
          }
          this.putSharedCopy({ event: copy.event, holders: [] });
        }
      }
      for (const copy of ws.sharedCopies.heldBy(calendarIds)) {
        this.putSharedCopy({ event: copy.event, holders: copy.holders.filter((h) => !calendarIds.has(h)) });
      }
      for (const calendarId of calendarIds) {
        this.#delete(ws.events, calendarId);
        this.#delete(ws.calendars, calendarId);
        for (const entries of ws.entries.values()) this.#delete(entries, calendarId);
      }
      this.#delete(ws.entries, id);
      for (const ch of [...ws.channels.values()]) {
        const r = ch.resource;
        if (r.kind === 'events' ? calendarIds.has(r.calendarId) : r.userId === id) this.#delete(ws.channels, ch.id);
      }
      for (const conn of [...ws.connections.values()]) if (conn.userId === id) this.deleteConnection(conn.id);
      this.#delete(ws.users, id);
    });
  }

  putCalendar(calendar: CalendarRecord): void {
    this.#set(this.#ws.calendars, calendar.id, storedCalendar(calendar));
  }
  getCalendar(id: string): CalendarRecord | undefined {
    return this.#ws.calendars.get(id);
  }
  listCalendarsByOwner(ownerId: string): CalendarRecord[] {
    const out: CalendarRecord[] = [];
    for (const c of this.#ws.calendars.values()) if (c.ownerId === ownerId) out.push(c);
    return out.sort((a, b) => compareStrings(a.id, b.id));
  }

  putCalendarListEntry(entry: CalendarListEntryRecord): void {
    let entries = this.#ws.entries.get(entry.userId);
    if (entries === undefined) {
      entries = new Map();
      this.#set(this.#ws.entries, entry.userId, entries);
    }
    this.#set(entries, entry.calendarId, storedEntry(entry));
  }
  getCalendarListEntry(userId: string, calendarId: string): CalendarListEntryRecord | undefined {
    return this.#ws.entries.get(userId)?.get(calendarId);
  }
  listCalendarListEntries(userId: string): CalendarListEntryRecord[] {
    const entries = this.#ws.entries.get(userId);
    if (entries === undefined) return [];
    return [...entries.values()].sort((a, b) => compareStrings(a.calendarId, b.calendarId));
  }

  putEvent(event: EventRecord): void {
    let cal = this.#ws.events.get(event.calendarId);
    if (cal === undefined) {
      cal = new CalendarEvents();
      this.#set(this.#ws.events, event.calendarId, cal);
    }
    const stored = storedEvent(event);
    const prev = cal.put(stored);
    if (this.#depth > 0) {
      const c = cal;
      this.#log(prev === undefined ? () => c.remove(stored) : () => c.put(prev));
    }
  }
  getEvent(calendarId: string, id: string): EventRecord | undefined {
    return this.#ws.events.get(calendarId)?.byId.get(id) ?? this.#ws.sharedCopies.find(calendarId, id);
  }
  listEventsOverlapping(calendarId: string, fromMs: number, toMs: number): EventRecord[] {
    const own = this.#ws.events.get(calendarId)?.overlapping(fromMs, toMs) ?? { found: [], examined: 0 };
    const shared = this.#ws.sharedCopies.overlapping(calendarId, fromMs, toMs, this.#owns);
    this.overlapExamined = own.examined + shared.examined;
    return shared.found.length === 0 ? own.found : [...own.found, ...shared.found];
  }
  listEventsChangedSince(calendarId: string, afterSeq: number, limit: number): readonly EventRecord[] {
    const own = this.#ws.events.get(calendarId)?.bySeq.takeFrom((e) => e.seq > afterSeq, limit) ?? [];
    return mergeChanges([own, ...this.#ws.sharedCopies.changedSince(calendarId, afterSeq, limit, this.#owns)], limit);
  }
  /** Whether the calendar has an event of its own under the id (a shared copy gives way to it). */
  readonly #owns = (calendarId: string, id: string): boolean => this.#ws.events.get(calendarId)?.byId.has(id) === true;

  putSharedCopy(copy: SharedCopyRecord): void {
    this.#log(this.#ws.sharedCopies.put(copy));
  }
  getSharedCopy(organizerCalendarId: string, id: string): SharedCopyRecord | undefined {
    return this.#ws.sharedCopies.get(organizerCalendarId, id);
  }
  listExceptions(calendarId: string, recurringEventId: string): EventRecord[] {
    const found = this.#ws.events.get(calendarId)?.exceptions.get(recurringEventId) ?? [];
    return found.sort((a, b) => compareStrings(a.id, b.id));
  }

  putConnection(connection: ConnectionRecord): void {
    this.#set(this.#ws.connections, connection.id, copyConnection(connection));
  }
  getConnection(id: string): ConnectionRecord | undefined {
    return copied(this.#ws.connections.get(id), copyConnection);
  }
  listConnections(): ConnectionRecord[] {
    return [...this.#ws.connections.values()].sort(byCreation).map(copyConnection);
  }
  deleteConnection(id: string): void {
    this.transaction(() => {
      const ws = this.#ws;
      for (const hash of ws.accessByConnection.get(id)) this.#deleteAccessToken(hash);
      for (const hash of ws.refreshByConnection.get(id)) this.#deleteRefreshToken(hash);
      for (const ch of [...ws.channels.values()]) if (ch.connectionId === id) this.#delete(ws.channels, ch.id);
      this.#delete(ws.connections, id);
    });
  }

  putAccessToken(token: AccessTokenRecord): void {
    const ws = this.#ws;
    this.#deleteAccessToken(token.hash);
    const stored = copyAccessToken(token);
    ws.accessTokens.set(stored.hash, stored);
    ws.accessByConnection.add(stored.connectionId, stored.hash);
    ws.accessByExpiry.insert(stored);
    this.#log(() => {
      ws.accessTokens.delete(stored.hash);
      ws.accessByConnection.delete(stored.connectionId, stored.hash);
      ws.accessByExpiry.delete(stored);
    });
  }
  #deleteAccessToken(hash: string): void {
    const ws = this.#ws;
    const prev = ws.accessTokens.get(hash);
    if (prev === undefined) return;
    ws.accessTokens.delete(hash);
    ws.accessByConnection.delete(prev.connectionId, hash);
    ws.accessByExpiry.delete(prev);
    this.#log(() => {
      ws.accessTokens.set(hash, prev);
      ws.accessByConnection.add(prev.connectionId, hash);
      ws.accessByExpiry.insert(prev);
    });
  }
  deleteAccessTokensExpiringBefore(before: number, limit: number): number {
    const byExpiry = this.#ws.accessByExpiry;
    let deleted = 0;
    for (let first = byExpiry.first(); first !== undefined && first.expiresAt < before && deleted < limit; first = byExpiry.first()) {
      this.#deleteAccessToken(first.hash);
      deleted++;
    }
    return deleted;
  }
  getAccessToken(hash: string, expiresAt?: number): AccessTokenRecord | undefined {
    const t = this.#ws.accessTokens.get(hash);
    return t && (expiresAt === undefined || t.expiresAt === expiresAt) ? copyAccessToken(t) : undefined;
  }

  putRefreshToken(token: RefreshTokenRecord): void {
    const ws = this.#ws;
    this.#deleteRefreshToken(token.hash);
    ws.refreshTokens.set(token.hash, copyRefreshToken(token));
    ws.refreshByConnection.add(token.connectionId, token.hash);
    this.#log(() => {
      ws.refreshTokens.delete(token.hash);
      ws.refreshByConnection.delete(token.connectionId, token.hash);
    });
  }
  #deleteRefreshToken(hash: string): void {
    const ws = this.#ws;
    const prev = ws.refreshTokens.get(hash);
    if (prev === undefined) return;
    ws.refreshTokens.delete(hash);
    ws.refreshByConnection.delete(prev.connectionId, hash);
    this.#log(() => {
      ws.refreshTokens.set(hash, prev);
      ws.refreshByConnection.add(prev.connectionId, hash);
    });
  }
  getRefreshToken(hash: string): RefreshTokenRecord | undefined {
    return copied(this.#ws.refreshTokens.get(hash), copyRefreshToken);
  }

  putChannel(channel: ChannelRecord): void {
    this.#set(this.#ws.channels, channel.id, copyChannel(channel));
  }
  getChannel(id: string): ChannelRecord | undefined {
    return copied(this.#ws.channels.get(id), copyChannel);
  }
  listChannels(): ChannelRecord[] {
    return [...this.#ws.channels.values()].sort(byCreation).map(copyChannel);
  }
  listChannelsWatching(resource: ChannelResource): ChannelRecord[] {
    const key = resourceKey(resource);
    return [...this.#ws.channels.values()]
      .filter((c) => c.resource.kind === resource.kind && resourceKey(c.resource) === key)
      .sort(byCreation)
      .map(copyChannel);
  }
  deleteChannel(id: string): void {
    this.#delete(this.#ws.channels, id);
  }
  rememberChannelId(id: string): void {
    const ids = this.#ws.channelIds;
    if (ids.has(id)) return;
    ids.add(id);
    this.#log(() => ids.delete(id));
    // An undone trim puts the id back as the newest: it is then kept a little longer, never less.
    for (const oldest of ids) {
      if (ids.size <= CHANNEL_IDS_KEPT) break;
      ids.delete(oldest);
      this.#log(() => ids.add(oldest));
    }
  }
  isChannelIdRemembered(id: string): boolean {
    return this.#ws.channelIds.has(id);
  }

  addOutboxMessages(messages: readonly NewOutboxMessage[]): void {
    if (messages.length === 0) return;
    const write = planOutboxWrite(parseCounters(this.getMeta(OUTBOX_META)), messages);
    this.setMeta(OUTBOX_META, formatCounters(write.counters));
    this.#log(this.#ws.outbox.apply(write));
  }
  readOutbox(afterId: number, limit: number): OutboxPage {
    return this.#ws.outbox.read(afterId, limit);
  }
  clearOutbox(): void {
    const ws = this.#ws;
    const prev = ws.outbox;
    ws.outbox = new MemoryOutbox();
    this.#log(() => (ws.outbox = prev));
  }
}

/** A copy of the stored record, if there is one: the caller may change it freely. */
function copied<T>(stored: T | undefined, copy: (record: T) => T): T | undefined {
  return stored === undefined ? undefined : copy(stored);
}
