// Picks the backend for `--db`: ':memory:' is the memory store, anything else a SQLite file.
//
// node:sqlite ships unflagged from Node.js 22.13; on older runtimes its import fails (with
// ERR_UNKNOWN_BUILTIN_MODULE). A file database is then refused with StoreUnavailableError rather
// than silently replaced by memory: a user who asked for a file expects their data to persist.

import type { ConnectionBudget } from './connection-budget.ts';
import type { Store } from './store.ts';
import { MemoryStore } from './memory.ts';

export const MEMORY_DB = ':memory:';

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(path: string, cause: unknown) {
    super(
      `--db ${path} needs node:sqlite, which requires Node.js >= 22.13 ` +
        `(this is Node ${process.version}); use --db ${MEMORY_DB} or upgrade Node`,
      { cause },
    );
  }
}

let sqliteModule: Promise<typeof import('node:sqlite')> | undefined;

function importSqlite(): Promise<typeof import('node:sqlite')> {
  sqliteModule ??= import('node:sqlite');
  return sqliteModule;
}

/** Whether this runtime has node:sqlite (for tests that need it). */
export async function sqliteAvailable(): Promise<boolean> {
  try {
    await importSqlite();
    return true;
  } catch {
    return false;
  }
}

/** The store for `db`; a SQLite one under `budget` closes its connection while idle (connection-budget.ts). */
export async function openStore(db: string, budget?: ConnectionBudget): Promise<Store> {
  if (db === MEMORY_DB) return new MemoryStore();
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await importSqlite();
  } catch (err) {
    throw new StoreUnavailableError(db, err);
  }
  // The SQLite store's modules load only when a file is asked for, as node:sqlite does.
  const { openSqliteStore } = await import('./sqlite-open.ts');
  return openSqliteStore(db, sqlite, budget);
}
