// The thread behind HandOff (connection-handoff.ts): it opens a store's file and holds it while
// the store closes its own connection, then closes its one, as the last connection, which
// checkpoints the WAL into the file and deletes it.

import { parentPort } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import { DONE, HOLDING, REQUESTED, WAIT_MS } from './connection-handoff.ts';
import type { HandOffReport } from './connection-handoff.ts';

parentPort?.on('message', ({ id, path, state }: { id: number; path: string; state: Int32Array }) => {
  // Released before its turn: the store keeps its connection, or has given the file up.
  if (Atomics.compareExchange(state, 0, REQUESTED, HOLDING) !== REQUESTED) return;
  let db: DatabaseSync | undefined;
  let held = false;
  try {
    db = new DatabaseSync(path);
    db.exec('PRAGMA busy_timeout = 5000');
    // A read opens the WAL; from then on the connection keeps a shared lock on the file, which
    // tells the store's connection, as it closes, that it is not the last.
    db.prepare('PRAGMA user_version').get();
    held = true;
  } catch {
    // The store keeps its connection (held false): nothing is lost but the memory.
  }
  parentPort?.postMessage({ id, held } satisfies HandOffReport);
  try {
    if (held) Atomics.wait(state, 0, HOLDING, WAIT_MS);
    db?.close();
  } catch {
    // A checkpoint that fails here is done by the next connection to close last.
  } finally {
    Atomics.store(state, 0, DONE);
    Atomics.notify(state, 0);
  }
});
