// Requests counted over the last minute, per key (a project, a user of a project), for the usage
// limits of docs/usage-limits.md. Google's quotas are "calculated per minute using a sliding window"
// (https://developers.google.com/workspace/calendar/api/guides/quota); here the window slides
// by whole seconds of the service clock: a request counts in the window of its own second and
// the 59 after it. Each key keeps 60 buckets, never one entry per request, so a key costs the
// same whatever the traffic; the keys are bounded too (MAX_KEYS, least recently used first out).

const SECONDS = 60;
/** Keys kept at once: far above the clients × users of any fixture. Past it the least recently counted key goes. */
export const MAX_KEYS = 10_000;

/** One key's last minute: bucket i holds the count of the second s with s mod 60 = i. */
class MinuteWindow {
  readonly #seconds = new Float64Array(SECONDS).fill(Number.NaN);
  readonly #counts = new Uint32Array(SECONDS);
  /** count(#lastSecond) after the last add: a busy key adds many times a second, and summing 60 buckets each time showed. */
  #lastSecond = Number.NaN;
  #lastTotal = 0;

  /** Requests in the 60 seconds ending with `second`, that second included. */
  count(second: number): number {
    let total = 0;
    for (let i = 0; i < SECONDS; i++) {
      const at = this.#seconds[i] as number;
      if (at > second - SECONDS && at <= second) total += this.#counts[i] as number;
    }
    return total;
  }

  /** Counts one request at `second`; answers the count in the minute ending with it. */
  add(second: number): number {
    const i = ((second % SECONDS) + SECONDS) % SECONDS;
    if (this.#seconds[i] !== second) {
      this.#seconds[i] = second;
      this.#counts[i] = 0;
    }
    this.#counts[i] = (this.#counts[i] as number) + 1;
    // Within the second of the last add, only this bucket has changed since.
    this.#lastTotal = second === this.#lastSecond ? this.#lastTotal + 1 : this.count(second);
    this.#lastSecond = second;
    return this.#lastTotal;
  }
}

export class MinuteWindows {
  readonly #windows = new Map<string, MinuteWindow>();
  /** The most recently counted key, which is already last in the Map's order. */
  #newest: string | undefined;

  /** Requests of `key` in the minute ending with `second`. */
  count(key: string, second: number): number {
    return this.#windows.get(key)?.count(second) ?? 0;
  }

  /** Counts one request of `key` at `second`; answers the key's count in the minute after it. */
  add(key: string, second: number): number {
    let window = this.#windows.get(key);
    if (window === undefined) {
      window = new MinuteWindow();
      if (this.#windows.size >= MAX_KEYS) this.#evictLeastRecent();
      this.#windows.set(key, window);
    } else if (key !== this.#newest) {
      // Re-inserted on use, so the Map's order is least recently counted first.
      this.#windows.delete(key);
      this.#windows.set(key, window);
    }
    this.#newest = key;
    return window.add(second);
  }

  clear(): void {
    this.#windows.clear();
    this.#newest = undefined;
  }

  /** Makes room for one key: the least recently counted goes, which lets it through sooner, never later. */
  #evictLeastRecent(): void {
    const oldest = this.#windows.keys().next();
    if (!oldest.done) this.#windows.delete(oldest.value);
  }
}
