// Checkpoints of the SQLite WAL, off the event loop.
//
// In WAL mode every commit appends pages to the `-wal` file, and a checkpoint copies them back
// into the database file and fsyncs both. SQLite's automatic checkpoint runs inside the COMMIT
// that crosses its threshold, so one request in a thousand waited tens of milliseconds for two
// fsyncs: under a stream of small writes that was more than half of all the time spent
// committing. Here the main connection's automatic checkpoint is pushed far out, as a safety
// net, and a worker thread with its own connection runs the checkpoints instead: the main
// thread only counts the rows it writes and posts a message. The worker starts with the first
// checkpoint it is asked for, so a service that writes little never starts it.

import { extname } from 'node:path';
import type { Worker } from 'node:worker_threads';

/**
 * Rows written (inserted, replaced or deleted) between checkpoints. The WAL grows by pages, not
 * commits, and a row changes a handful of pages at most (its table's and its indexes'), so
 * counting rows keeps the WAL far below the fallback below, whether a commit holds one row or
 * the 21 of an event with 20 invitees on 21 calendars. Counting commits let those reach the
 * fallback, and a checkpoint with its fsyncs inside a request, every 125 of them. Every commit
 * writes at least one page, so this also checkpoints at least as often as SQLite's default
 * (1,000 pages).
 */
export const WRITES_PER_CHECKPOINT = 1000;

/**
 * The main connection's own automatic checkpoint, in pages: reached only when the worker falls
 * behind (or for a single huge commit, such as seeding a large fixture).
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/** States of the word shared with the worker: whether a checkpoint runs, or may still start. */
export const IDLE = 0;
export const BUSY = 1;
export const CLOSED = 2;

/** At close, how long to wait for a running checkpoint before checkpointing anyway. */
const CLOSE_WAIT_MS = 10_000;

export class Checkpointer {
  readonly #path: string;
  /** The thread, with the word it shares; a new pair after close(), when the store opens again (connection-budget.ts). */
  #worker: { thread: Worker; state: Int32Array } | undefined;
  #writes = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** Called after each COMMIT, with the number of rows it wrote. */
  committed(writes: number): void {
    this.#writes += writes;
    if (this.#writes < WRITES_PER_CHECKPOINT) return;
    this.#writes = 0;
    this.#worker ??= this.#start();
    this.#worker.thread.postMessage('checkpoint');
  }

  /**
   * Stops the worker, first waiting for a checkpoint it is running: the main connection's own
   * checkpoint at close would otherwise find the lock taken and leave the WAL behind.
   */
  close(): void {
    const worker = this.#worker;
    if (worker === undefined) return;
    this.#worker = undefined;
    const { thread, state } = worker;
    const began = performance.now();
    while (Atomics.compareExchange(state, 0, IDLE, CLOSED) === BUSY && performance.now() - began < CLOSE_WAIT_MS) {
      Atomics.wait(state, 0, BUSY, CLOSE_WAIT_MS);
    }
    void thread.terminate();
  }

  #start(): { thread: Worker; state: Int32Array } {
    const state = new Int32Array(new SharedArrayBuffer(4));
    // The worker is a sibling in this module's own form: .ts in a checkout, .js in the package.
    // node:worker_threads loads with the first checkpoint, not with every start.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const thread = new Worker(new URL(`./checkpoint-worker${extname(import.meta.url)}`, import.meta.url), { workerData: { path: this.#path, state } });
    const worker = { thread, state };
    // A checkpoint that fails is retried by the next request or at close; the thread must
    // never keep the process alive or bring it down.
    thread.on('error', () => {
      if (this.#worker === worker) this.#worker = undefined;
    });
    thread.unref();
    return worker;
  }
}
