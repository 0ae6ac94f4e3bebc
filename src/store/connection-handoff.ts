// Closing an idle store's connection (connection-budget.ts) without paying for it on the event
// loop. Closing the last connection to a WAL database checkpoints the WAL into the file, with two
// fsyncs, and deletes the WAL and its index: over a millisecond, a third of what creating a
// workspace takes. When another connection still has the file open, SQLite leaves all of that to
// it (https://www.sqlite.org/wal.html#the_wal_file), and closing costs a twentieth. So a thread
// opens the file first and holds it, the store closes its own connection, and the thread then
// closes its one, as the last, checkpointing off the event loop.
//
// One thread serves every store of the process, one handoff at a time, started with the first.
// A handoff's state is a word shared with it:
//   REQUESTED -> HOLDING (the thread opens the file and reports `held`) -> RELEASED (the store has
//   closed its connection, or keeps it) -> DONE (the thread has closed its own).
// A handoff released before the thread takes it goes from REQUESTED to DONE, and the thread
// skips it: it never opens a file that its store has given up, which may be deleted by then.

import { extname } from 'node:path';
import type { Worker } from 'node:worker_threads';

export const REQUESTED = 0;
export const HOLDING = 1;
export const RELEASED = 2;
export const DONE = 3;

/** How long either side waits for the other before going on alone (neither ever should). */
export const WAIT_MS = 10_000;

/** What the thread reports of one handoff: whether it holds the file. */
export interface HandOffReport {
  id: number;
  held: boolean;
}

export class HandOff {
  readonly #id = nextId++;
  readonly #state = new Int32Array(new SharedArrayBuffer(4));
  readonly #held: (held: boolean) => void;

  /** Asks the thread to hold `path`; `held` runs when it does (true) or cannot (false), unless released first. */
  constructor(path: string, held: (held: boolean) => void) {
    this.#held = held;
    waiting.set(this.#id, this);
    thread().postMessage({ id: this.#id, path, state: this.#state });
  }

  /** The thread's report: the store closes its connection (or keeps it), then the thread may close its own. */
  reported(held: boolean): void {
    waiting.delete(this.#id);
    this.#held(held);
    this.release();
  }

  /** The thread is gone: nothing holds the file, or ever will. */
  abandoned(): void {
    waiting.delete(this.#id);
    Atomics.store(this.#state, 0, DONE);
    this.#held(false);
  }

  /** Lets the thread close its connection, or skip the file if it has not opened it yet; `held` will not run. */
  release(): void {
    waiting.delete(this.#id);
    if (Atomics.compareExchange(this.#state, 0, REQUESTED, DONE) === REQUESTED) return;
    if (Atomics.compareExchange(this.#state, 0, HOLDING, RELEASED) === HOLDING) Atomics.notify(this.#state, 0);
  }

  /** Releases, and waits until the thread no longer has the file open: before the file is closed for good, or deleted. */
  settle(): void {
    this.release();
    const began = performance.now();
    let state: number;
    while ((state = Atomics.load(this.#state, 0)) !== DONE && performance.now() - began < WAIT_MS) Atomics.wait(this.#state, 0, state, WAIT_MS);
  }
}

let nextId = 1;
/** Handoffs the thread has not reported yet, by id. */
const waiting = new Map<number, HandOff>();
let worker: Worker | undefined;

function thread(): Worker {
  if (worker !== undefined) return worker;
  // The thread is a sibling in this module's own form: .ts in a checkout, .js in the package.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const started = new Worker(new URL(`./connection-handoff-worker${extname(import.meta.url)}`, import.meta.url));
  started.on('message', ({ id, held }: HandOffReport) => waiting.get(id)?.reported(held));
  // A thread that fails leaves every store waiting on it open: never a wrong close, only a missed one.
  started.on('error', () => {
    if (worker === started) worker = undefined;
    for (const handOff of [...waiting.values()]) handOff.abandoned();
  });
  started.unref();
  worker = started;
  return started;
}
