// src/store/checkpointer.ts: WAL checkpoints run on a worker thread, asked for every
// COMMITS_PER_CHECKPOINT commits, instead of inside a COMMIT on the event loop.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { COMMITS_PER_CHECKPOINT, FALLBACK_AUTOCHECKPOINT_PAGES } from '../../src/store/checkpointer.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { SQLITE_SKIP, sqliteAvailable } from '../_helpers/node.ts';
import { event } from './store.contract.ts';

const sqlite = sqliteAvailable ? await import('node:sqlite') : undefined;

describe('checkpoints off the event loop', { skip: SQLITE_SKIP }, () => {
  it('the database file takes in the WAL while the service writes, long before the fallback', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'checkpointer-')), 'c.db');
    const store = openSqliteStore(path, sqlite!);
    const emptySize = statSync(path).size;
    const data = { description: 'x'.repeat(500) };
    // One commit each: far fewer pages than the main connection's own automatic checkpoint.
    for (let i = 0; i < COMMITS_PER_CHECKPOINT; i++) {
      store.putEvent(event('c', `e${i}`, { data }));
      await store.durable();
    }
    assert.ok(COMMITS_PER_CHECKPOINT * 4 < FALLBACK_AUTOCHECKPOINT_PAGES);
    // Only a checkpoint writes the main file; the worker does it in the background.
    const deadline = Date.now() + 10_000;
    while (statSync(path).size < emptySize + 500 * COMMITS_PER_CHECKPOINT && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(statSync(path).size >= emptySize + 500 * COMMITS_PER_CHECKPOINT, `the file stayed at ${statSync(path).size} bytes`);
    store.close();
    assert.ok(!existsSync(`${path}-wal`) || statSync(`${path}-wal`).size === 0, 'the WAL was left behind');
    const reopened = openSqliteStore(path, sqlite!);
    assert.equal(reopened.listEventsChangedSince('c', 0, Number.MAX_SAFE_INTEGER).length, COMMITS_PER_CHECKPOINT);
    reopened.close();
  });
});
