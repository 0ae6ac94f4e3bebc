// src/store/checkpointer.ts: WAL checkpoints run on a worker thread, asked for every
// WRITES_PER_CHECKPOINT rows written, instead of inside a COMMIT on the event loop.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { WRITES_PER_CHECKPOINT, FALLBACK_AUTOCHECKPOINT_PAGES } from '../../src/store/checkpointer.ts';
import { openSqliteStore } from '../../src/store/sqlite-open.ts';
import { SQLITE_SKIP, sqliteAvailable } from '../_helpers/node.ts';
import { event } from './store.contract.ts';

const sqlite = sqliteAvailable ? await import('node:sqlite') : undefined;

/** Waits until the database file holds at least `bytes` (only a checkpoint writes it). */
async function fileReaches(path: string, bytes: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (statSync(path).size < bytes && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(statSync(path).size >= bytes, `the file stayed at ${statSync(path).size} bytes`);
}

describe('checkpoints off the event loop', { skip: SQLITE_SKIP }, () => {
  it('the database file takes in the WAL while the service writes, long before the fallback', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'checkpointer-')), 'c.db');
    const store = openSqliteStore(path, sqlite!);
    const emptySize = statSync(path).size;
    const data = { description: 'x'.repeat(500) };
    // One commit each: far fewer pages than the main connection's own automatic checkpoint.
    for (let i = 0; i < WRITES_PER_CHECKPOINT; i++) {
      store.putEvent(event('c', `e${i}`, { data }));
      await store.durable();
    }
    assert.ok(WRITES_PER_CHECKPOINT * 4 < FALLBACK_AUTOCHECKPOINT_PAGES);
    // Only a checkpoint writes the main file; the worker does it in the background.
    await fileReaches(path, emptySize + 500 * WRITES_PER_CHECKPOINT);
    store.close();
    assert.ok(!existsSync(`${path}-wal`) || statSync(`${path}-wal`).size === 0, 'the WAL was left behind');
    const reopened = openSqliteStore(path, sqlite!);
    assert.equal(reopened.listEventsChangedSince('c', 0, Number.MAX_SAFE_INTEGER).length, WRITES_PER_CHECKPOINT);
    reopened.close();
  });

  it('counts rows, not commits: a few commits of many rows each are checkpointed too', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'checkpointer-')), 'c.db');
    const store = openSqliteStore(path, sqlite!);
    const emptySize = statSync(path).size;
    const data = { description: 'x'.repeat(500) };
    const perCommit = WRITES_PER_CHECKPOINT / 10;
    for (let commit = 0; commit < 10; commit++) {
      for (let i = 0; i < perCommit; i++) store.putEvent(event(`c${i % 20}`, `e${commit}-${i}`, { data }));
      await store.durable();
    }
    await fileReaches(path, emptySize + 500 * WRITES_PER_CHECKPOINT);
    store.close();
  });
});
