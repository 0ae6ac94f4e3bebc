// Group commit and transactions of the SQLite store (sqlite.ts).
//
// The first write opens a transaction (BEGIN IMMEDIATE) that every write joins until the event
// loop's second check phase from then (setImmediate), where one COMMIT lands them all: each
// commit writes its WAL pages and takes the file locks, which costs more than the rest of a small
// request, so requests that arrive together share it. durable() is the promise of that COMMIT;
// the HTTP layer answers only after it settles, so a killed process still loses nothing it
// acknowledged (with synchronous=NORMAL only a power loss can drop the last commits; see
// https://www.sqlite.org/pragma.html#pragma_synchronous).
//
// transaction() is a SAVEPOINT in the open group, rolled back to on failure without touching the
// rest of the group; nested calls nest savepoints.

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { refuseThenable } from './backend-rules.ts';

/** What the store does at the group's turning points. */
export interface GroupEvents {
  /** A group has just taken the write lock: nobody else can commit until its COMMIT. */
  opened(): void;
  /** Writes were rolled back: a failed transaction() or a failed COMMIT. */
  rolledBack(): void;
  /** The group's COMMIT landed. */
  committed(): void;
}

interface OpenGroup {
  readonly done: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
  /** The pending step towards the COMMIT (see join). */
  timer: NodeJS.Immediate;
}

export class GroupCommit {
  readonly #events: GroupEvents;
  /** The open group: the transaction every write joins, until its COMMIT. */
  #group: OpenGroup | undefined;
  /** Nesting depth of transaction(): 0 outside, >0 in its SAVEPOINTs. */
  #depth = 0;

  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #rollback: StatementSync;
  readonly #savepoint: StatementSync;
  readonly #release: StatementSync;
  readonly #rollbackTo: StatementSync;

  constructor(db: DatabaseSync, events: GroupEvents) {
    this.#events = events;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT nested');
    this.#release = db.prepare('RELEASE nested');
    this.#rollbackTo = db.prepare('ROLLBACK TO nested');
  }

  /** Whether a group holds the write lock. */
  get open(): boolean {
    return this.#group !== undefined;
  }

  /** Whether a transaction() is running. */
  get inTransaction(): boolean {
    return this.#depth > 0;
  }

  /** Opens the group transaction unless one is open; its COMMIT runs two check phases later. */
  join(): void {
    if (this.#group !== undefined) return;
    this.#begin.run();
    this.#events.opened();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A failed commit nobody awaits (a write outside any request) is logged by whoever wrote
    // it, not raised as an unhandled rejection.
    done.catch(() => {});
    // The COMMIT waits two check phases, not one: requests whose bodies arrive in the next poll
    // phase join the group too (under 8 busy clients, about 10 % more writes per second and a
    // lower p99), for one more turn of the event loop of latency, microseconds when idle.
    const group: OpenGroup = { done, resolve, reject, timer: setImmediate(() => (group.timer = setImmediate(() => this.commit()))) };
    this.#group = group;
  }

  /** Commits the open group now, if there is one. */
  commit(): void {
    const group = this.#group;
    if (group === undefined) return;
    this.#group = undefined;
    clearImmediate(group.timer);
    try {
      this.#commit.run();
    } catch (err) {
      try {
        this.#rollback.run();
      } catch {
        // SQLite already rolled back on its own (some I/O errors do)
      }
      this.#events.rolledBack();
      group.reject(err);
      return;
    }
    this.#events.committed();
    group.resolve();
  }

  durable(): Promise<void> | undefined {
    return this.#group?.done;
  }

  transaction<T>(fn: () => T): T {
    this.join();
    this.#savepoint.run();
    this.#depth++;
    let result: T;
    try {
      result = fn();
      refuseThenable(result);
    } catch (err) {
      this.#depth--;
      try {
        this.#rollbackTo.run();
        this.#release.run();
      } catch {
        // SQLite already rolled back on its own (some I/O errors do); the original error matters.
      }
      this.#events.rolledBack();
      throw err;
    }
    this.#depth--;
    this.#release.run();
    return result;
  }
}
