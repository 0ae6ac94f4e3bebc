// How the SQLite store notices commits by other connections to its file (another process on the
// same --db). Every read through SQL sees them at once; what is kept in memory (the read cache,
// the sequence reservation, and the caches kept above the store, through
// Store.othersCommitted, which oauth/bearer.ts reads) may be out of date after one.
// SQLite's `PRAGMA data_version` changes when another connection has committed
// (https://www.sqlite.org/pragma.html#pragma_data_version); asking costs about as much as the
// lookup a cache saves, so a cached read asks at most once per turn of the event loop.

import type { DatabaseSync, StatementSync } from 'node:sqlite';

export class OtherConnections {
  #dataVersion: StatementSync;
  readonly #changed: () => void;
  #seen = 0;
  /** How many times another connection's commit has been noticed. */
  #count = 0;
  /** Whether this turn of the event loop has already asked. */
  #askedThisTurn = false;

  /** `changed` runs whenever another connection's commit is noticed. */
  constructor(db: DatabaseSync, changed: () => void) {
    this.#dataVersion = db.prepare('PRAGMA data_version');
    this.#changed = changed;
  }

  /**
   * Asks `db` from now on: the store's connection opened again after the connection budget closed
   * it (connection-budget.ts). What others committed while none was open cannot be told apart
   * from what was seen before, so it counts as a commit by others: whatever was kept in memory is
   * read anew, and the caches above the store start over.
   */
  reconnected(db: DatabaseSync): void {
    this.#dataVersion = db.prepare('PRAGMA data_version');
    this.#count++;
    this.#changed();
  }

  #current(): unknown {
    return this.#dataVersion.get()?.['data_version'];
  }

  /** Takes what is committed now as seen (when the store has just read it all anew). */
  markSeen(): void {
    this.#seen = this.#current() as number;
  }

  /**
   * Before a cached read: asks whether another connection has committed, at most once per turn
   * of the event loop, and not while `holdingWriteLock`, when nobody else can commit.
   */
  noticeOncePerTurn(holdingWriteLock: boolean): void {
    if (this.#askedThisTurn || holdingWriteLock) return;
    this.#askedThisTurn = true;
    setImmediate(() => (this.#askedThisTurn = false));
    this.catchUp();
  }

  /** Asks now; if another connection has committed since last seen, counts it and reports it. */
  catchUp(): void {
    if (this.#current() === this.#seen) return;
    this.#count++;
    this.#changed();
  }

  /** How many times another connection's commit has been noticed (Store.othersCommitted). */
  get count(): number {
    return this.#count;
  }
}
