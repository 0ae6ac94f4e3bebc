// The service clock (docs/management-api.md): the one source of "now" for token, code and nonce lifetimes,
// created/updated stamps and channel expiry. Tests move it through POST /__svc/clock instead of
// sleeping; nothing else in the service reads Date.now().
//
// It runs on the wall clock by default. A test that builds its own App freezes it by passing a
// wall clock that stands still (`new Clock(() => instant)`); advance() and set() then step it.

export class Clock {
  readonly #wallClock: () => number;
  #offsetMs = 0;

  constructor(wallClock: () => number = Date.now) {
    this.#wallClock = wallClock;
  }

  now(): number {
    return this.#wallClock() + this.#offsetMs;
  }

  get offsetSeconds(): number {
    return Math.round(this.#offsetMs / 1000);
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  set(instantMs: number): void {
    this.#offsetMs = instantMs - this.#wallClock();
  }

  /** Back to real time (POST /__svc/reset). */
  reset(): void {
    this.#offsetMs = 0;
  }
}
