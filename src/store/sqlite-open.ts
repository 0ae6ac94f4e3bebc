// Opening a SQLite database file for the store (sqlite.ts): the connection's pragmas (again
// whenever the store reopens a connection it closed while idle), the schema's migration, and the
// image of an empty new file that later new files are copied from.

import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer.ts';
import type { ConnectionBudget } from './connection-budget.ts';
import { migrate } from './sqlite-schema.ts';
import { SqliteStore } from './sqlite.ts';

/**
 * The store on the database file `path`. With a `budget`, the store closes its connection when the
 * budget asks (connection-budget.ts) and opens it again on its next use.
 */
export function openSqliteStore(path: string, sqlite: typeof import('node:sqlite'), budget?: ConnectionBudget): SqliteStore {
  const isNew = path !== ':memory:' && !existsSync(path);
  if (isNew && emptyImage !== undefined) writeImage(path, emptyImage);
  const db = connect(path, sqlite);
  try {
    migrate(db, path);
    // The first new file is usually the service's own, which a process opens once: taking the
    // image costs it a checkpoint before the service can listen, for workspaces it may never make.
    if (isNew && emptyImage === undefined && newFilesBuilt++ > 0) emptyImage = imageOfNew(db, path);
    const reopen = budget && { budget, path, connect: () => connect(path, sqlite) };
    return new SqliteStore(db, new Checkpointer(path), reopen);
  } catch (err) {
    db.close();
    throw err;
  }
}

/** A connection to `path` with the store's pragmas, at open and whenever the store opens again. */
function connect(path: string, sqlite: typeof import('node:sqlite')): DatabaseSync {
  const db = new sqlite.DatabaseSync(path);
  try {
    // busy_timeout first: another process may hold the file while we switch to WAL.
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    // Every store transaction() is a SAVEPOINT in the open group (group-commit.ts), and SQLite
    // keeps the original of each page a savepoint changes in a sub-journal: in a temporary file
    // by default, which tripled the cost of each row written. In memory it is a page copy.
    db.exec('PRAGMA temp_store = MEMORY');
    // Checkpoints run on a worker thread (checkpointer.ts); this connection's own is a safety net.
    db.exec(`PRAGMA wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * A new database file as migrate() leaves it (WAL mode, the schema, no rows), copied for every
 * new file once one has been built. Building one switches the file to WAL and commits the
 * schema, each with fsyncs of the file, its journal and the folder: most of what creating a
 * workspace cost (docs/workspaces.md), where writing these bytes and syncing them is one fsync.
 */
let emptyImage: Uint8Array | undefined;
let newFilesBuilt = 0;

/** Writes `image` as the new file `path` and syncs it; a file made meanwhile by another process is left alone. */
function writeImage(path: string, image: Uint8Array): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return;
    throw error;
  }
  try {
    writeSync(fd, image);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a file migrate() has just built from nothing, the WAL folded back first so that the file alone is the whole database. */
function imageOfNew(db: DatabaseSync, path: string): Uint8Array {
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  return readFileSync(path);
}
