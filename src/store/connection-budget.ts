// How many SQLite connections the workspaces of one service keep open (docs/workspaces.md,
// "Cost"). Each workspace is a database file of its own, and an open connection holds a few
// hundred kilobytes however idle it is (its lookaside buffers, the parsed schema, the prepared
// statements, the mapped WAL index): a thousand idle workspaces held far more than their data.
// So at most `limit` stay open; when one more opens, the least recently used ones that can close
// (sqlite.ts closeIfIdle: nothing lives only in their connection) are closed, and each opens
// again, transparently, on its next use.

/** A connection the budget may close: a SqliteStore with its connection open. */
export interface BudgetedConnection {
  /** The budget's tick at its last use. */
  readonly lastUse: number;
  /**
   * Closes the connection (or starts to: connection-handoff.ts) unless something lives only in
   * it, a transaction or a checkpoint; whether it did. A closed one that opens again says so
   * with opened().
   */
  closeIfIdle(): boolean;
}

/** Workspace connections open at once: a CI run's parallel workers each keep theirs. */
export const OPEN_CONNECTIONS = 32;

export class ConnectionBudget {
  readonly #limit: number;
  readonly #open = new Set<BudgetedConnection>();
  #tick = 0;

  constructor(limit = OPEN_CONNECTIONS) {
    this.#limit = limit;
  }

  /** How many connections are open (for tests). */
  get open(): number {
    return this.#open.size;
  }

  /** A new tick, for BudgetedConnection.lastUse: a counter, so that a use costs no clock read. */
  tick(): number {
    return ++this.#tick;
  }

  /** `connection` has just opened: the least recently used others close, down to the limit if they can. */
  opened(connection: BudgetedConnection): void {
    this.#open.add(connection);
    if (this.#open.size <= this.#limit) return;
    const candidates = [...this.#open].filter((c) => c !== connection).sort((a, b) => a.lastUse - b.lastUse);
    for (const candidate of candidates) {
      if (this.#open.size <= this.#limit) return;
      if (candidate.closeIfIdle()) this.#open.delete(candidate);
    }
  }

  /** `connection` has closed for good. */
  closed(connection: BudgetedConnection): void {
    this.#open.delete(connection);
  }
}
