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

  /** Requests in the 60 seconds ending with `second`, that second included. */
  count(second: number): number {
    let total = 0;
    for (let i = 0; i < SECONDS; i++) {
      const at = this.#seconds[i] as number;
      if (at > second - SECONDS && at <= second) total += this.#counts[i] as number;
    }
    return total;
  }

  add(second: number): void {
    const i = ((second % SECONDS) + SECONDS) % SECONDS;
    if (this.#seconds[i] !== second) {
      this.#seconds[i] = second;
      this.#counts[i] = 0;
    }
    this.#counts[i] = (this.#counts[i] as number) + 1;
  }
}

export class MinuteWindows {
  readonly #windows = new Map<string, MinuteWindow>();

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
    } else {
      this.#windows.delete(key);
    }
    // Re-inserted on each use, so the Map's order is least recently counted first.
    this.#windows.set(key, window);
    window.add(second);
    return window.count(second);
  }

  clear(): void {
    this.#windows.clear();
  }

  /** Makes room for one key: the least recently counted goes, which lets it through sooner, never later. */
  #evictLeastRecent(): void {
    const oldest = this.#windows.keys().next();
    if (!oldest.done) this.#windows.delete(oldest.value);
  }
}
