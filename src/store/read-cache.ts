// The SQLite backend's cache of point lookups (sqlite.ts). Every calendar API call reads its
// calendar, most read one event (a list, the caller's calendar list entry), and every token
// request reads a client, a refresh token and a connection; each of those is an SQL statement
// plus JSON parsing, several times what the rest of a cached read costs. Records read are
// read-only (Store), so the cache hands out one deeply frozen record to every reader, as the
// memory backend does.
//
// It also keeps lists of records, the pages of a calendar's events in change order
// (listEventsChangedSince), by group (the calendar): paging through a calendar again then costs
// one map lookup per page instead of an index scan and a lookup per event.
//
// The store keeps it true: a put or delete forgets its key (and a calendar's event put, that
// calendar's lists), cascades and rollbacks forget everything, and so does a commit by another
// connection to the same file (other-connections.ts notices it). Bounded: it starts over when it
// holds LIMIT records and lists.

export type CachedKind = 'calendar' | 'calendarListEntry' | 'event' | 'client' | 'user' | 'connection' | 'refreshToken' | 'meta';

const LIMIT = 20_000;

export class ReadCache {
  readonly #kinds = new Map<CachedKind, Map<string, object>>();
  readonly #lists = new Map<string, Map<string, readonly object[]>>();
  #size = 0;

  /** The cached record, else `load()`'s, frozen and kept (misses are not kept). */
  get<T extends object>(kind: CachedKind, key: string, load: () => T | undefined): T | undefined {
    const hit = this.peek<T>(kind, key);
    if (hit !== undefined) return hit;
    const loaded = load();
    return loaded === undefined ? undefined : this.put(kind, key, loaded);
  }

  peek<T extends object>(kind: CachedKind, key: string): T | undefined {
    return this.#kinds.get(kind)?.get(key) as T | undefined;
  }

  /** Keeps `record`, freezing it, and returns it. */
  put<T extends object>(kind: CachedKind, key: string, record: T): T {
    if (this.#size >= LIMIT) this.clear();
    let records = this.#kinds.get(kind);
    if (records === undefined) {
      records = new Map();
      this.#kinds.set(kind, records);
    }
    if (!records.has(key)) this.#size++;
    records.set(key, deepFreeze(record));
    return record;
  }

  forget(kind: CachedKind, key: string): void {
    if (this.#kinds.get(kind)?.delete(key) === true) this.#size--;
  }

  /** The cached list under `group` and `key`, else `load()`'s, frozen and kept. */
  list<T extends object>(group: string, key: string, load: () => T[]): readonly T[] {
    const hit = this.#lists.get(group)?.get(key);
    if (hit !== undefined) return hit as readonly T[];
    const loaded = Object.freeze(load().map(deepFreeze));
    if (this.#size >= LIMIT) this.clear();
    let lists = this.#lists.get(group);
    if (lists === undefined) {
      lists = new Map();
      this.#lists.set(group, lists);
    }
    lists.set(key, loaded);
    this.#size++;
    return loaded;
  }

  forgetLists(group: string): void {
    const lists = this.#lists.get(group);
    if (lists === undefined) return;
    this.#size -= lists.size;
    this.#lists.delete(group);
  }

  clear(): void {
    this.#kinds.clear();
    this.#lists.clear();
    this.#size = 0;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
