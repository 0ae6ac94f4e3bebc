// A multimap for the memory store's indexes (memory.ts, memory-events.ts): short events by the
// day they start, exceptions by their series, tokens by their connection. Most keys hold one
// item, kept without a Set around it.

export class MultiIndex<K, T> {
  readonly #map = new Map<K, T | Set<T>>();

  /** How many keys hold items. */
  get keyCount(): number {
    return this.#map.size;
  }

  add(key: K, item: T): void {
    const cur = this.#map.get(key);
    if (cur === undefined) this.#map.set(key, item);
    else if (cur instanceof Set) cur.add(item);
    else this.#map.set(key, new Set([cur, item]));
  }

  delete(key: K, item: T): void {
    const cur = this.#map.get(key);
    if (cur === item) this.#map.delete(key);
    else if (cur instanceof Set) {
      cur.delete(item);
      if (cur.size === 1) this.#map.set(key, cur.values().next().value as T);
    }
  }

  get(key: K): T[] {
    const cur = this.#map.get(key);
    return cur === undefined ? [] : cur instanceof Set ? [...cur] : [cur];
  }

  /** Calls `fn` with each item under `key`, without copying them out. */
  forEachAt(key: K, fn: (item: T) => void): void {
    const cur = this.#map.get(key);
    if (cur instanceof Set) cur.forEach((item) => fn(item));
    else if (cur !== undefined) fn(cur);
  }

  keys(): IterableIterator<K> {
    return this.#map.keys();
  }
}
