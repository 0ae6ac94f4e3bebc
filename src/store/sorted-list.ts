// A sorted list for the in-memory indexes: the memory store's events by change sequence and its
// access tokens by expiry (memory-events.ts, memory.ts), and the OAuth state that expires
// (oauth/pending.ts).

/**
 * A sorted list kept in chunks of at most CHUNK items, so that an insert or delete moves at most
 * CHUNK items instead of half the list. Items are unique under `compare`.
 */
export class SortedList<T> {
  static readonly CHUNK = 512;
  readonly #compare: (a: T, b: T) => number;
  readonly #chunks: T[][] = [];

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  /**
   * Position of the first item for which `past` is true; `past` must be false then true along
   * the list. Returns [chunks.length, 0] when there is none.
   */
  #locate(past: (item: T) => boolean): [number, number] {
    const chunks = this.#chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid] as T[];
      if (past(chunk[chunk.length - 1] as T)) hi = mid;
      else lo = mid + 1;
    }
    if (lo === chunks.length) return [lo, 0];
    const chunk = chunks[lo] as T[];
    let l = 0;
    let h = chunk.length - 1;
    while (l < h) {
      const mid = (l + h) >>> 1;
      if (past(chunk[mid] as T)) h = mid;
      else l = mid + 1;
    }
    return [lo, l];
  }

  insert(item: T): void {
    const chunks = this.#chunks;
    const last = chunks[chunks.length - 1];
    // Fast path: appending (ids from a counter, seqs from nextSeq).
    if (last === undefined || this.#compare(last[last.length - 1] as T, item) < 0) {
      if (last === undefined || last.length >= SortedList.CHUNK) chunks.push([item]);
      else last.push(item);
      return;
    }
    const [ci, i] = this.#locate((x) => this.#compare(x, item) > 0);
    const chunk = chunks[ci] as T[];
    chunk.splice(i, 0, item);
    if (chunk.length > SortedList.CHUNK) chunks.splice(ci + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  delete(item: T): boolean {
    const [ci, i] = this.#locate((x) => this.#compare(x, item) >= 0);
    const chunk = this.#chunks[ci];
    if (chunk === undefined || this.#compare(chunk[i] as T, item) !== 0) return false;
    chunk.splice(i, 1);
    if (chunk.length === 0) this.#chunks.splice(ci, 1);
    return true;
  }

  clear(): void {
    this.#chunks.length = 0;
  }

  /** The smallest item, if any. */
  first(): T | undefined {
    return this.#chunks[0]?.[0];
  }

  /**
   * Up to `limit` items from the first one for which `past` is true, in order; with `accept`,
   * only the items it accepts (the others are passed over, not counted).
   */
  takeFrom(past: (item: T) => boolean, limit: number, accept?: (item: T) => boolean): T[] {
    const out: T[] = [];
    if (limit <= 0) return out;
    let [ci, i] = this.#locate(past);
    for (; ci < this.#chunks.length; ci++, i = 0) {
      const chunk = this.#chunks[ci] as T[];
      for (; i < chunk.length; i++) {
        const item = chunk[i] as T;
        if (accept !== undefined && !accept(item)) continue;
        out.push(item);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }
}
