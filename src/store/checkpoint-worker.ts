// The thread behind Checkpointer (checkpointer.ts): its own connection to the database file,
// copying the WAL back into it on request. A PASSIVE checkpoint never waits for the main
// connection's locks; it copies what is committed and leaves the rest for the next request.

import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import { BUSY, IDLE } from './checkpointer.ts';

const { path, state } = workerData as { path: string; state: Int32Array };
const db = new DatabaseSync(path);
db.exec('PRAGMA busy_timeout = 5000');
parentPort?.on('message', () => {
  // The main thread may be closing the database: then it owns the last checkpoint.
  if (Atomics.compareExchange(state, 0, IDLE, BUSY) !== IDLE) return;
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Another connection's checkpoint holds the lock: the next request does the work.
  } finally {
    Atomics.store(state, 0, IDLE);
    Atomics.notify(state, 0);
  }
});
