// The service clock (CONTRACT §5): the one source of "now" for token, code and nonce lifetimes,
// created/updated stamps and channel expiry. Tests move it through POST /__svc/clock instead of
// sleeping; nothing else in the service reads Date.now().

export class Clock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  get offsetSeconds(): number {
    return Math.round(this.#offsetMs / 1000);
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  set(instantMs: number): void {
    this.#offsetMs = instantMs - Date.now();
  }

  /** Back to real time (POST /__svc/reset). */
  reset(): void {
    this.#offsetMs = 0;
  }
}
