// The records the memory store (memory.ts) keeps and hands out, and the orders its lists follow.
//
// Events, calendars and calendar list entries are kept deeply frozen and handed out as they are
// (Store: records read are read-only), so reads copy nothing: a page of 250 events is 250
// references, not 250 deep copies for the garbage collector. A put keeps a frozen copy of what
// it is given, reusing any part that is already deeply frozen (storedJson): a record built from
// one it read shares the unchanged parts with it. The few other records (users, clients,
// connections, tokens, channels) are copied in and out.

import type { AccessTokenRecord, CalendarListEntryRecord, CalendarRecord, ChannelRecord, ChannelResource,
  ClientRecord, ConnectionRecord, EventRecord, Json, JsonObject, RefreshTokenRecord, UserRecord } from './store.ts';

/**
 * Values storedJson has returned that hold objects of their own: deeply frozen, so a later put
 * that holds one again (a record built from one it read, an event's copies sharing one attendee
 * list) keeps it without walking it. Only those: adding to a WeakSet costs microseconds once it
 * holds a store's worth of values (and every collection walks it again), more than walking a
 * value whose members are all primitives (an attendee entry) costs each time it is put again.
 * A record's data itself is not kept either: a put of the same data again walks its keys only.
 */
const deeplyFrozen = new WeakSet<object>();

/**
 * The deeply frozen form of `v` a put keeps: `v` itself when it already is deeply frozen, else a
 * frozen copy that reuses every deeply frozen part of it. A frozen object with a mutable child
 * is copied, so no later edit by the caller can reach the store. `top`: `v` is a record's data.
 */
function storedJson<T extends Json>(v: T, top = false): T {
  if (typeof v !== 'object' || v === null || deeplyFrozen.has(v)) return v;
  let same = Object.isFrozen(v);
  let nested = false;
  const keep = (value: Json): Json => {
    if (typeof value !== 'object' || value === null) return value;
    nested = true;
    const stored = storedJson(value);
    if (stored !== value) same = false;
    return stored;
  };
  let kept: Json[] | JsonObject;
  if (Array.isArray(v)) {
    kept = v.map(keep);
  } else {
    const out: JsonObject = {};
    for (const k in v) out[k] = keep((v as JsonObject)[k] as Json);
    kept = out;
  }
  const result = same ? v : Object.freeze(kept);
  if (nested && !top) deeplyFrozen.add(result);
  return result as T;
}

export const storedEvent = (e: EventRecord): EventRecord => Object.freeze<EventRecord>({
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
  data: storedJson(e.data, true),
});
export const copyClient = (c: ClientRecord): ClientRecord => ({ ...c, redirectUris: [...c.redirectUris] });
export const copyUser = (u: UserRecord): UserRecord => ({ ...u });
export const storedCalendar = (c: CalendarRecord): CalendarRecord => Object.freeze({ ...c, data: storedJson(c.data, true) });
export const storedEntry = (e: CalendarListEntryRecord): CalendarListEntryRecord => Object.freeze({ ...e, data: storedJson(e.data, true) });
export const copyConnection = (c: ConnectionRecord): ConnectionRecord => ({ ...c, scopes: [...c.scopes] });
export const copyAccessToken = (t: AccessTokenRecord): AccessTokenRecord => ({ ...t });
export const copyRefreshToken = (t: RefreshTokenRecord): RefreshTokenRecord => ({ ...t });
export const copyChannel = (c: ChannelRecord): ChannelRecord => ({ ...c, resource: { ...c.resource } });

// UTF-16 code unit order; SQLite's BINARY collation orders UTF-8 bytes. The two agree except
// between U+E000..U+FFFF and astral characters, which ids and calendar ids never contain.
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
export const byCreation = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }): number =>
  a.createdAt - b.createdAt || compareStrings(a.id, b.id);
export const resourceKey = (r: ChannelResource): string => (r.kind === 'events' ? r.calendarId : r.userId);
export const compareByExpiry = (a: AccessTokenRecord, b: AccessTokenRecord): number => a.expiresAt - b.expiresAt || compareStrings(a.hash, b.hash);
