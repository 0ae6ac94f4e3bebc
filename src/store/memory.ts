// The in-memory backend of the Store interface: the same behaviour as sqlite.ts, in Maps.
//
// Isolation: events, calendars and calendar list entries are stored deeply frozen and handed
// out as they are (Store: records read are read-only), so reads copy nothing: a page of 250
// events is 250 references, not 250 deep copies for the garbage collector. A put keeps a frozen
// copy of what it is given, reusing any part that is already deeply frozen (storedJson): a
// record built from one it read shares the unchanged parts with it. The few other records
// (users, clients, connections, tokens, channels) are still copied in and out.
//
// Atomicity: inside transaction(), every mutation pushes its inverse onto an undo log; when fn
// throws, the log is replayed backwards to the mark taken when that (possibly nested) call
// began, like a SAVEPOINT. Outside a transaction each method is one synchronous step, and the
// multi-step ones (cascades, clearWorkspace) wrap themselves in transaction().
//
// Indexes, so that reads follow the size of the answer rather than of the calendar:
// - events by id: a chunked sorted list (listEventsPage);
// - events by (seq, id): a chunked sorted list (listEventsChangedSince);
// - short events (span <= SHORT_EVENT_MAX_MS, not recurring) bucketed by the UTC day of their
//   start, long ones in one set per calendar (listEventsOverlapping);
// - exceptions by recurringEventId, events by iCalUID;
// - access and refresh tokens by connection, access tokens by expiry (the purge takes the
//   soonest expired first).
// Users, calendars, connections and channels are few, so their lists scan and sort.

import type {
  AccessTokenRecord,
  CalendarListEntryRecord,
  CalendarRecord,
  ChannelRecord,
  ChannelResource,
  ClientRecord,
  ConnectionRecord,
  EventRecord,
  Json,
  JsonObject,
  RefreshTokenRecord,
  Store,
  UserRecord,
} from './store.ts';
import { SortedList } from './sorted-list.ts';
import { hasDefaultICalUID, idOfDefaultICalUID, isLongEvent, SHORT_EVENT_MAX_MS } from './sqlite.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The deeply frozen form of `v` a put keeps: `v` itself when it already is deeply frozen, else a
 * frozen copy that reuses every deeply frozen part of it. A frozen object with a mutable child
 * is copied, so no later edit by the caller can reach the store.
 */
function storedJson<T extends Json>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  let same = Object.isFrozen(v);
  if (Array.isArray(v)) {
    const items = v.map((item) => {
      const kept = storedJson(item);
      if (kept !== item) same = false;
      return kept;
    });
    return (same ? v : Object.freeze(items)) as T;
  }
  const out: JsonObject = {};
  for (const k in v) {
    const value = (v as JsonObject)[k] as Json;
    const kept = storedJson(value);
    if (kept !== value) same = false;
    out[k] = kept;
  }
  return (same ? v : Object.freeze(out)) as T;
}

const storedEvent = (e: EventRecord): EventRecord => Object.freeze<EventRecord>({
  calendarId: e.calendarId,
  id: e.id,
  seq: e.seq,
  status: e.status,
  recurring: e.recurring,
  recurringEventId: e.recurringEventId,
  originalStartMs: e.originalStartMs,
  startMs: e.startMs,
  endMs: e.endMs,
  iCalUID: e.iCalUID,
  updatedMs: e.updatedMs,
  data: storedJson(e.data),
});
const copyClient = (c: ClientRecord): ClientRecord => ({ ...c, redirectUris: [...c.redirectUris] });
const copyUser = (u: UserRecord): UserRecord => ({ ...u });
const storedCalendar = (c: CalendarRecord): CalendarRecord => Object.freeze({ ...c, data: storedJson(c.data) });
const storedEntry = (e: CalendarListEntryRecord): CalendarListEntryRecord => Object.freeze({ ...e, data: storedJson(e.data) });
const copyConnection = (c: ConnectionRecord): ConnectionRecord => ({ ...c, scopes: [...c.scopes] });
const copyAccessToken = (t: AccessTokenRecord): AccessTokenRecord => ({ ...t });
const copyRefreshToken = (t: RefreshTokenRecord): RefreshTokenRecord => ({ ...t });
const copyChannel = (c: ChannelRecord): ChannelRecord => ({ ...c, resource: { ...c.resource } });

// UTF-16 code unit order; SQLite's BINARY collation orders UTF-8 bytes. The two agree except
// between U+E000..U+FFFF and astral characters, which ids and calendar ids never contain.
const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byCreation = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }): number =>
  a.createdAt - b.createdAt || compareStrings(a.id, b.id);
const resourceKey = (r: ChannelResource): string => (r.kind === 'events' ? r.calendarId : r.userId);
const compareBySeq = (a: EventRecord, b: EventRecord): number => a.seq - b.seq || compareStrings(a.id, b.id);
const compareByExpiry = (a: AccessTokenRecord, b: AccessTokenRecord): number => a.expiresAt - b.expiresAt || compareStrings(a.hash, b.hash);

/** A multimap from string keys to items, storing a lone item without a Set around it. */
class MultiIndex<T> {
  readonly #map = new Map<string, T | Set<T>>();
  add(key: string, item: T): void {
    const cur = this.#map.get(key);
    if (cur === undefined) this.#map.set(key, item);
    else if (cur instanceof Set) cur.add(item);
    else this.#map.set(key, new Set([cur, item]));
  }
  delete(key: string, item: T): void {
    const cur = this.#map.get(key);
    if (cur === item) this.#map.delete(key);
    else if (cur instanceof Set) {
      cur.delete(item);
      if (cur.size === 1) this.#map.set(key, cur.values().next().value as T);
    }
  }
  get(key: string): T[] {
    const cur = this.#map.get(key);
    return cur === undefined ? [] : cur instanceof Set ? [...cur] : [cur];
  }
}

/** One calendar's events with their indexes; every index holds the stored record objects. */
class CalendarEvents {
  readonly byId = new Map<string, EventRecord>();
  readonly ids = new SortedList<string>(compareStrings);
  readonly bySeq = new SortedList<EventRecord>(compareBySeq);
  /** Short events by the UTC day (floor(startMs / DAY_MS)) of their start. */
  readonly byDay = new Map<number, Set<EventRecord>>();
  readonly long = new Set<EventRecord>();
  readonly exceptions = new MultiIndex<EventRecord>();
  /** Events whose iCalUID is not the default one (those are found by id). */
  readonly byICalUID = new MultiIndex<EventRecord>();

  /** Inserts e, or replaces the record with e's id; returns the replaced record. */
  put(e: EventRecord): EventRecord | undefined {
    const prev = this.byId.get(e.id);
    if (prev === undefined) this.ids.insert(e.id);
    else this.#unindex(prev);
    this.byId.set(e.id, e);
    this.#index(e);
    return prev;
  }

  /** Removes e, which must be the stored record object. */
  remove(e: EventRecord): void {
    this.byId.delete(e.id);
    this.ids.delete(e.id);
    this.#unindex(e);
  }

  #index(e: EventRecord): void {
    this.bySeq.insert(e);
    if (isLongEvent(e)) this.long.add(e);
    else {
      const day = Math.floor(e.startMs / DAY_MS);
      const bucket = this.byDay.get(day);
      if (bucket === undefined) this.byDay.set(day, new Set([e]));
      else bucket.add(e);
    }
    if (e.recurringEventId !== null) this.exceptions.add(e.recurringEventId, e);
    if (!hasDefaultICalUID(e)) this.byICalUID.add(e.iCalUID, e);
  }

  #unindex(e: EventRecord): void {
    this.bySeq.delete(e);
    if (isLongEvent(e)) this.long.delete(e);
    else {
      const day = Math.floor(e.startMs / DAY_MS);
      const bucket = this.byDay.get(day);
      if (bucket !== undefined) {
        bucket.delete(e);
        if (bucket.size === 0) this.byDay.delete(day);
      }
    }
    if (e.recurringEventId !== null) this.exceptions.delete(e.recurringEventId, e);
    if (!hasDefaultICalUID(e)) this.byICalUID.delete(e.iCalUID, e);
  }
}

/** The workspace collections; clearWorkspace swaps in a fresh one (and undo swaps it back). */
class Workspace {
  readonly clients = new Map<string, ClientRecord>();
  readonly users = new Map<string, UserRecord>();
  readonly calendars = new Map<string, CalendarRecord>();
  /** userId -> calendarId -> entry */
  readonly entries = new Map<string, Map<string, CalendarListEntryRecord>>();
  readonly events = new Map<string, CalendarEvents>();
  readonly connections = new Map<string, ConnectionRecord>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly accessByConnection = new MultiIndex<string>();
  readonly accessByExpiry = new SortedList<AccessTokenRecord>(compareByExpiry);
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly refreshByConnection = new MultiIndex<string>();
  readonly channels = new Map<string, ChannelRecord>();
}

export class MemoryStore implements Store {
  readonly backend = 'memory' as const;
  #ws = new Workspace();
  readonly #meta = new Map<string, string>();
  #seq = 0;
  #depth = 0;
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
      if (isThenable(result)) throw new TypeError('Store.transaction needs a synchronous function');
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

  putClient(client: ClientRecord): void {
    this.#set(this.#ws.clients, client.id, copyClient(client));
  }
  getClient(id: string): ClientRecord | undefined {
    const c = this.#ws.clients.get(id);
    return c && copyClient(c);
  }
  listClients(): ClientRecord[] {
    return [...this.#ws.clients.values()].sort((a, b) => compareStrings(a.id, b.id)).map(copyClient);
  }

  putUser(user: UserRecord): void {
    this.#set(this.#ws.users, user.id, copyUser(user));
  }
  getUser(id: string): UserRecord | undefined {
    const u = this.#ws.users.get(id);
    return u && copyUser(u);
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
    return this.#ws.events.get(calendarId)?.byId.get(id);
  }
  listEventsOverlapping(calendarId: string, fromMs: number, toMs: number): EventRecord[] {
    const out: EventRecord[] = [];
    let examined = 0;
    const cal = this.#ws.events.get(calendarId);
    if (cal !== undefined) {
      const consider = (e: EventRecord): void => {
        examined++;
        if (e.startMs < toMs && e.endMs > fromMs) out.push(e);
      };
      // A short event overlapping the window starts in [fromMs - SHORT_EVENT_MAX_MS, toMs).
      const firstDay = Math.floor((fromMs - SHORT_EVENT_MAX_MS) / DAY_MS);
      const lastDay = Math.floor(toMs / DAY_MS);
      if (lastDay - firstDay < cal.byDay.size) {
        for (let day = firstDay; day <= lastDay; day++) cal.byDay.get(day)?.forEach(consider);
      } else {
        // A window wider than the number of occupied days: walk the days instead.
        for (const [day, bucket] of cal.byDay) if (day >= firstDay && day <= lastDay) bucket.forEach(consider);
      }
      cal.long.forEach(consider);
    }
    this.overlapExamined = examined;
    return out;
  }
  listEventsPage(calendarId: string, afterId: string, limit: number): EventRecord[] {
    const cal = this.#ws.events.get(calendarId);
    if (cal === undefined) return [];
    return cal.ids.takeFrom((id) => id > afterId, limit).map((id) => cal.byId.get(id) as EventRecord);
  }
  listEventsChangedSince(calendarId: string, afterSeq: number, limit: number): EventRecord[] {
    const cal = this.#ws.events.get(calendarId);
    if (cal === undefined) return [];
    return cal.bySeq.takeFrom((e) => e.seq > afterSeq, limit);
  }
  listExceptions(calendarId: string, recurringEventId: string): EventRecord[] {
    const found = this.#ws.events.get(calendarId)?.exceptions.get(recurringEventId) ?? [];
    return found.sort((a, b) => compareStrings(a.id, b.id));
  }
  listEventsByICalUID(calendarId: string, iCalUID: string): EventRecord[] {
    const cal = this.#ws.events.get(calendarId);
    if (cal === undefined) return [];
    const found = cal.byICalUID.get(iCalUID);
    const id = idOfDefaultICalUID(iCalUID);
    const named = id === null ? undefined : cal.byId.get(id);
    if (named !== undefined && named.iCalUID === iCalUID) found.push(named);
    return found.sort((a, b) => compareStrings(a.id, b.id));
  }
  countEvents(calendarId: string): number {
    return this.#ws.events.get(calendarId)?.byId.size ?? 0;
  }

  putConnection(connection: ConnectionRecord): void {
    this.#set(this.#ws.connections, connection.id, copyConnection(connection));
  }
  getConnection(id: string): ConnectionRecord | undefined {
    const c = this.#ws.connections.get(id);
    return c && copyConnection(c);
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
    const t = this.#ws.refreshTokens.get(hash);
    return t && copyRefreshToken(t);
  }

  putChannel(channel: ChannelRecord): void {
    this.#set(this.#ws.channels, channel.id, copyChannel(channel));
  }
  getChannel(id: string): ChannelRecord | undefined {
    const c = this.#ws.channels.get(id);
    return c && copyChannel(c);
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
}

function isThenable(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}
