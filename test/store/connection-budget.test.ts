// SQLite stores under a connection budget (src/store/connection-budget.ts): at most `limit` keep
// their connection open, the least recently used others close it (a thread closing last,
// connection-handoff.ts) and open it again on their next use, answering exactly as before. A
// store closes only when nothing lives in its connection alone (a snapshot, uncommitted writes).
//
// A connection counts as closed once its WAL file is gone: the thread's connection, closing last,
// deletes it, and only after the store's own has closed.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConnectionBudget } from '../../src/store/connection-budget.ts';
import { openSqliteStore } from '../../src/store/sqlite-open.ts';
import type { Store } from '../../src/store/store.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { OPEN_FILES_SKIP, openFiles } from '../_helpers/open-files.ts';
import { eventually } from '../_helpers/page.ts';
import { event, outboxMessage, user } from './store.contract.ts';

const sqlite = SQLITE_SKIP ? undefined : await import('node:sqlite');
const dir = mkdtempSync(join(tmpdir(), 'budget-test-'));
after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
let files = 0;

interface Opened {
  store: Store;
  path: string;
}

function open(budget: ConnectionBudget | undefined, path = join(dir, `db-${++files}.sqlite`)): Opened {
  return { store: openSqliteStore(path, sqlite!, budget), path };
}

const isOpen = ({ path }: Opened): boolean => existsSync(`${path}-wal`);

const descriptorsOf = (path: string): number => openFiles((open) => open === path);

/** Writes event `e` of calendar `cal` with `summary`, committed. */
async function putSummary(store: Store, summary: string): Promise<void> {
  store.putEvent(event('cal', 'e', { seq: store.nextSeq(), data: { summary } }));
  await store.durable();
}

/** Opens stores under `budget` until `victim`'s connection has closed. */
async function closeByOpeningOthers(budget: ConnectionBudget, victim: Opened, others: Opened[]): Promise<void> {
  others.push(open(budget));
  await eventually(() => !isOpen(victim), 'the least recently used connection closes');
}

describe('SQLite stores under a connection budget', { skip: SQLITE_SKIP }, () => {
  it('keep at most `limit` connections open, closing the least recently used', async () => {
    const budget = new ConnectionBudget(2);
    const a = open(budget);
    const b = open(budget);
    a.store.getMeta('x');
    const c = open(budget);
    assert.equal(budget.open, 2);
    await eventually(() => !isOpen(b), 'b, used least recently, closes');
    assert.ok(isOpen(a) && isOpen(c));
    const more = Array.from({ length: 6 }, () => open(budget));
    assert.equal(budget.open, 2);
    await eventually(() => [a, b, c, ...more].filter(isOpen).length === 2, 'all but two closed');
    for (const s of [a, b, c, ...more]) s.store.close();
  });

  it('a store whose connection closed reads and writes as before: records, meta, sequence, outbox, channel ids', async () => {
    const budget = new ConnectionBudget(1);
    const a = open(budget);
    const seq = a.store.nextSeq();
    a.store.putEvent(event('cal', 'e1', { seq, data: { summary: 'Kept' } }));
    a.store.setMeta('generation', '3');
    a.store.addOutboxMessages([outboxMessage(1, { eventId: 'e1' })]);
    a.store.rememberChannelId('ch-1');
    await a.store.durable();
    const before = { event: a.store.getEvent('cal', 'e1'), outbox: a.store.readOutbox(0, 10) };
    const others: Opened[] = [];
    await closeByOpeningOthers(budget, a, others);

    assert.deepEqual(a.store.getEvent('cal', 'e1'), before.event);
    assert.deepEqual(a.store.listEventsChangedSince('cal', 0, 10), [before.event]);
    assert.equal(a.store.getMeta('generation'), '3');
    assert.deepEqual(a.store.readOutbox(0, 10), before.outbox);
    assert.ok(a.store.isChannelIdRemembered('ch-1'));
    // The unused part of the reservation was given back: numbering goes on without a gap.
    const next = a.store.nextSeq();
    assert.equal(next, seq + 1);
    a.store.putEvent(event('cal', 'e2', { seq: next }));
    a.store.addOutboxMessages([outboxMessage(2, { eventId: 'e2' })]);
    await a.store.durable();
    assert.deepEqual(a.store.listEventsChangedSince('cal', seq, 10).map((e) => e.id), ['e2']);
    assert.deepEqual(a.store.readOutbox(0, 10).messages.map((m) => m.id), [1, 2]);
    for (const s of [a, ...others]) s.store.close();
  });

  it('a closed store tells its sizes as of its closing without opening again (a listing of every workspace)', async () => {
    const budget = new ConnectionBudget(1);
    const a = open(budget);
    a.store.putUser(user('u1'));
    a.store.putEvent(event('cal', 'e1', { seq: a.store.nextSeq() }));
    a.store.putEvent(event('cal', 'e2', { seq: a.store.nextSeq() }));
    await a.store.durable();
    assert.deepEqual(a.store.sizes(), { users: 1, events: 2 });
    const others: Opened[] = [];
    await closeByOpeningOthers(budget, a, others);

    assert.deepEqual(a.store.sizes(), { users: 1, events: 2 });
    assert.ok(!isOpen(a), 'still closed');
    assert.equal(budget.open, 1);
    // Opened again by a use, it counts afresh.
    a.store.putEvent(event('cal', 'e3', { seq: a.store.nextSeq() }));
    await a.store.durable();
    assert.deepEqual(a.store.sizes(), { users: 1, events: 3 });
    for (const s of [a, ...others]) s.store.close();
  });

  it('sees what another connection committed while it was closed, and counts it in othersCommitted', async () => {
    const budget = new ConnectionBudget(1);
    const a = open(budget);
    await putSummary(a.store, 'ours');
    assert.equal(a.store.getEvent('cal', 'e')?.data.summary, 'ours', 'now in its read cache');
    const counted = a.store.othersCommitted();
    const others: Opened[] = [];
    await closeByOpeningOthers(budget, a, others);

    const other = open(undefined, a.path);
    await putSummary(other.store, 'theirs');
    other.store.close();
    assert.equal(a.store.getEvent('cal', 'e')?.data.summary, 'theirs');
    assert.ok(a.store.othersCommitted() > counted, 'the caches above the store start over');
    for (const s of [a, ...others]) s.store.close();
  });

  it('keeps open a store holding a snapshot or uncommitted writes', async () => {
    const budget = new ConnectionBudget(1);
    const a = open(budget);
    await putSummary(a.store, 'at the snapshot');
    const snapshot = a.store.takeSnapshot();
    await putSummary(a.store, 'after it');
    const b = open(budget);
    // Not committed yet when c opens.
    b.store.setMeta('pending', 'yes');
    const c = open(budget);
    await c.store.durable();
    assert.equal(budget.open, 3, 'neither could close');
    a.store.restoreSnapshot(snapshot);
    assert.equal(a.store.getEvent('cal', 'e')?.data.summary, 'at the snapshot');
    await a.store.durable();
    await b.store.durable();
    assert.ok(isOpen(a) && isOpen(b));

    // Committed, b can close when the next store opens; a, with its snapshot, still cannot.
    const d = open(budget);
    await eventually(() => !isOpen(b), 'b closed');
    assert.equal(b.store.getMeta('pending'), 'yes');
    a.store.dropSnapshot(snapshot);
    const e = open(budget);
    await eventually(() => !isOpen(a), 'without its snapshot a closes too');
    for (const s of [a, b, c, d, e]) s.store.close();
  });

  it('a store used while its closing is under way keeps its connection', async () => {
    const budget = new ConnectionBudget(1);
    const a = open(budget);
    a.store.setMeta('k', 'v');
    await a.store.durable();
    const b = open(budget);
    // Before the thread reports: a takes its place again, and b is the one to close.
    assert.equal(a.store.getMeta('k'), 'v');
    await eventually(() => !isOpen(b), 'b closed');
    assert.ok(isOpen(a));
    a.store.setMeta('k', 'w');
    await a.store.durable();
    assert.equal(a.store.getMeta('k'), 'w');
    for (const s of [a, b]) s.store.close();
  });

  it('closed for good while the thread holds its file, it waits for the thread, so a new file in its place is safe', { skip: OPEN_FILES_SKIP }, async () => {
    const budget = new ConnectionBudget(1);
    const a = open(budget);
    a.store.setMeta('k', 'old');
    await a.store.durable();
    const opened = descriptorsOf(a.path);
    const b = open(budget);
    // Without yielding, so that the thread's report waits: the thread has opened a's file.
    const began = Date.now();
    while (descriptorsOf(a.path) <= opened) assert.ok(Date.now() - began < 10_000, 'the thread opens the file');
    a.store.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(a.path + suffix, { force: true });
    const again = open(undefined, a.path);
    again.store.setMeta('k', 'new');
    await again.store.durable();
    // A thread closing the old file last now would delete the new one's WAL, and the write in it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(isOpen(again), "the new file's WAL is its own");
    again.store.close();
    const reread = open(undefined, a.path);
    assert.equal(reread.store.getMeta('k'), 'new');
    for (const s of [reread, b]) s.store.close();
  });
});
