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
// rest of the group; nested calls nest savepoints. The outermost one takes its SAVEPOINT only
// when it needs one: a statement is atomic on its own (SQLite undoes a failed one alone), so its
// first write is held back until something else runs, and a transaction whose one write is its
// last statement runs that write bare. A savepoint copies every page a statement changes before
// changing it, and an events.insert is such a transaction: the copies were 5 % of its cost.

import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { refuseThenable } from './backend-rules.ts';

/** What the store does at the group's turning points. */
export interface GroupEvents {
  /** A group has just taken the write lock: nobody else can commit until its COMMIT. */
  opened(): void;
  /** Writes were rolled back: a failed transaction() or a failed COMMIT. */
  rolledBack(): void;
  /** The group's COMMIT landed, with the rows it wrote (inserted, replaced or deleted). */
  committed(rows: number): void;
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
  /** Nesting depth of transaction(): 0 outside, >0 inside. */
  #depth = 0;
  /** Whether the outermost transaction() has taken its SAVEPOINT. */
  #saved = false;
  /** The outermost transaction's first write, until it ends or another statement runs. */
  #held: { statement: StatementSync; args: SQLInputValue[] } | undefined;
  /** Rows written since the last COMMIT. */
  #rows = 0;

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
    const rows = this.#rows;
    this.#rows = 0;
    this.#events.committed(rows);
    group.resolve();
  }

  durable(): Promise<void> | undefined {
    return this.#group?.done;
  }

  /** A writing statement in the open group; inside a transaction() it may be held back (see above). */
  write(statement: StatementSync, args: SQLInputValue[]): void {
    this.join();
    if (this.#depth > 0 && !this.#saved) {
      if (this.#held === undefined) {
        this.#held = { statement, args };
        return;
      }
      this.#save();
    }
    this.#run(statement, args);
  }

  /** A writing statement whose count of rows is needed now: it is not held back. */
  writeNow(statement: StatementSync, args: SQLInputValue[]): number {
    this.join();
    this.#save();
    return this.#run(statement, args);
  }

  /** Before any statement other than write()'s: the held write runs first, in the savepoint it now needs. */
  beforeStatement(): void {
    if (this.#held !== undefined) this.#save();
  }

  /** Takes the outermost transaction's SAVEPOINT, if it is running without one, and runs its held write. */
  #save(): void {
    if (this.#depth === 0 || this.#saved) return;
    this.#savepoint.run();
    this.#saved = true;
    this.#runHeld();
  }

  #runHeld(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    this.#run(held.statement, held.args);
  }

  /** Runs a writing statement, counting its rows for the COMMIT; returns them. */
  #run(statement: StatementSync, args: SQLInputValue[]): number {
    const rows = Number(statement.run(...args).changes);
    this.#rows += rows;
    return rows;
  }

  transaction<T>(fn: () => T): T {
    this.join();
    const outermost = this.#depth === 0;
    if (!outermost) {
      this.#save();
      this.#savepoint.run();
    }
    this.#depth++;
    let result: T;
    try {
      result = fn();
      refuseThenable(result);
      // Still held: the transaction's one write, and its last statement.
      if (outermost) this.#runHeld();
    } catch (err) {
      this.#depth--;
      this.#held = undefined;
      if (!outermost || this.#saved) {
        try {
          this.#rollbackTo.run();
          this.#release.run();
        } catch {
          // SQLite already rolled back on its own (some I/O errors do); the original error matters.
        }
      }
      if (outermost) this.#saved = false;
      this.#events.rolledBack();
      throw err;
    }
    this.#depth--;
    if (!outermost || this.#saved) this.#release.run();
    if (outermost) this.#saved = false;
    return result;
  }
}
