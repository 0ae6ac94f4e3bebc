// Runs the Store contract on both backends, plus what only one backend can show: SQLite
// persistence, schema versioning, durability against SIGKILL and query plans; the memory
// backend's window-bounded overlap scan; and the backend choice in open.ts.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from '../../src/store/memory.ts';
import { openStore, sqliteAvailable, StoreUnavailableError } from '../../src/store/open.ts';
import { openSqliteStore } from '../../src/store/sqlite-open.ts';
import { SCHEMA_VERSION, SchemaVersionError } from '../../src/store/sqlite-schema.ts';
import { ACCESS_TOKEN_PURGE, EVENT_QUERIES, OUTBOX_PAGE, OUTBOX_TRIM, SHARED_COPY_QUERIES } from '../../src/store/sqlite-statements.ts';
import type { EventRecord, Store } from '../../src/store/store.ts';
import { accessToken, channel, entry, event, outboxMessage, storeContract, T0 } from './store.contract.ts';

const hasSqlite = await sqliteAvailable();
const NO_SQLITE = 'node:sqlite needs Node >= 22.13';
const sqliteSkip = hasSqlite ? {} : { skip: NO_SQLITE };

const dir = mkdtempSync(join(tmpdir(), 'store-test-'));
// A store's checkpoint thread (checkpointer.ts) may still be letting its connection go when the
// last test ends: removing the folder retries rather than failing the file.
after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
let files = 0;
const tempDb = (): string => join(dir, `db-${++files}.sqlite`);

const sqlite = hasSqlite ? await import('node:sqlite') : undefined;
const openSqlite = (path = tempDb()): Store => openSqliteStore(path, sqlite!);

/** Runs `use` on a fresh SQLite file store, then waits for its writes to commit and closes it. */
async function withSqlite(use: (s: Store) => void): Promise<void> {
  const s = openSqlite();
  try {
    use(s);
    await s.durable();
  } finally {
    s.close();
  }
}

/** Runs `use` on two connections to one fresh SQLite file, as two processes on it would have. */
async function withTwoConnections(use: (s: Store, other: Store) => Promise<void>): Promise<void> {
  const path = tempDb();
  const s = openSqlite(path);
  const other = openSqlite(path);
  try {
    await use(s, other);
  } finally {
    // Whichever holds the write lock commits first: the other's close waits for it otherwise.
    await Promise.allSettled([s.durable(), other.durable()]);
    other.close();
    s.close();
  }
}

const nextTurn = (): Promise<unknown> => new Promise((resolve) => setImmediate(resolve));

storeContract('memory', () => new MemoryStore());

if (hasSqlite) {
  const paths = new WeakMap<Store, string>();
  storeContract(
    'sqlite',
    () => {
      const path = tempDb();
      const s = openSqlite(path);
      paths.set(s, path);
      return s;
    },
    {
      reopen: (s) => {
        const path = paths.get(s)!;
        s.close();
        const again = openSqlite(path);
        paths.set(again, path);
        return again;
      },
    },
  );
} else {
  describe('Store contract: sqlite', { skip: NO_SQLITE }, () => {
    it('runs the contract on SQLite', () => {});
  });
}

const DAY = 24 * 60 * 60 * 1000;
const WINDOW_FROM = Date.UTC(2026, 4, 4);
const WINDOW_TO = WINDOW_FROM + 7 * DAY;

/**
 * A calendar with `background` short events spread over ten years but at least 30 days away
 * from the window, plus a fixed set of events overlapping it (short ones and two long ones).
 */
function fillCalendar(s: Store, background: number): string[] {
  const expected: string[] = [];
  s.transaction(() => {
    const span = 10 * 365 * DAY;
    const start = WINDOW_FROM - 5 * 365 * DAY;
    for (let i = 0; i < background; i++) {
      let startMs = start + Math.floor((i * span) / background);
      if (startMs > WINDOW_FROM - 31 * DAY && startMs < WINDOW_TO + 30 * DAY) startMs += 70 * DAY;
      s.putEvent(event('big', `bg${i}`, { startMs, endMs: startMs + 3_600_000 }));
    }
    for (let i = 0; i < 12; i++) {
      const startMs = WINDOW_FROM - DAY + i * 12 * 3_600_000;
      s.putEvent(event('big', `in${i}`, { startMs, endMs: startMs + 2 * DAY }));
      expected.push(`in${i}`);
    }
    s.putEvent(event('big', 'series', { recurring: true, startMs: WINDOW_FROM - 900 * DAY, endMs: Number.MAX_SAFE_INTEGER }));
    s.putEvent(event('big', 'sabbatical', { startMs: WINDOW_FROM - 60 * DAY, endMs: WINDOW_FROM + 60 * DAY }));
    expected.push('series', 'sabbatical');
  });
  return expected.sort();
}
const ids = (events: readonly EventRecord[]): string[] => events.map((e) => e.id).sort();
const countEvents = (s: Store, calendarId: string): number => s.listEventsChangedSince(calendarId, 0, Number.MAX_SAFE_INTEGER).length;

describe('memory store', () => {
  it('has nothing to wait for: a write is done when the call returns', () => {
    const s = new MemoryStore();
    s.putEvent(event('g', 'e', { seq: s.nextSeq() }));
    assert.equal(s.durable(), undefined);
  });


  it('keeps a deeply frozen copy, shares what is already deeply frozen, and reads without copying', () => {
    const s = new MemoryStore();
    const creator = Object.freeze({ email: 'a@example.test', displayName: 'A', self: true });
    const inner = { summary: 'before' };
    const shallow = Object.freeze({ inner });
    const data = { creator, shallow };
    s.putEvent(event('c', 'e', { data }));
    // A frozen object with a mutable child was copied: editing the child does not reach the store.
    inner.summary = 'after';
    (data as { extra?: string }).extra = 'added later';
    const read = s.getEvent('c', 'e');
    assert.ok(read);
    assert.deepEqual(read.data, { creator: { email: 'a@example.test', displayName: 'A', self: true }, shallow: { inner: { summary: 'before' } } });
    assert.equal(read.data.creator, creator, 'a deeply frozen value is kept as it is');
    // Reads hand out the stored record itself, frozen all the way down: nobody can edit it.
    assert.equal(s.getEvent('c', 'e'), read);
    assert.equal(s.listEventsChangedSince('c', 0, 10)[0], read);
    assert.ok(Object.isFrozen(read) && Object.isFrozen(read.data) && Object.isFrozen(read.data.shallow));
    assert.throws(() => {
      (read.data.shallow as { inner: { summary: string } }).inner.summary = 'changed';
    }, TypeError);
    // A record built from one read shares its unchanged parts instead of copying them.
    s.putEvent({ ...read, seq: 2, data: { ...read.data, summary: 'renamed' } });
    const next = s.getEvent('c', 'e');
    assert.equal(next?.data.shallow, read.data.shallow);
    assert.equal(next?.data.summary, 'renamed');
    // Calendars and list entries are kept and read the same way.
    s.putCalendar({ id: 'cal', ownerId: 'u', primary: false, timeZone: 'UTC', seq: 1, data: { summary: 'C' } });
    const calendar = s.getCalendar('cal');
    assert.equal(s.getCalendar('cal'), calendar);
    assert.ok(Object.isFrozen(calendar?.data));
  });

  it('listEventsOverlapping looks at the same few events for 1,000 and 50,000 in the calendar', () => {
    const examined: number[] = [];
    for (const background of [1_000, 50_000]) {
      const s = new MemoryStore();
      const expected = fillCalendar(s, background);
      assert.equal(countEvents(s, 'big'), background + expected.length);
      assert.deepEqual(ids(s.listEventsOverlapping('big', WINDOW_FROM, WINDOW_TO)), expected);
      examined.push(s.overlapExamined);
      // An unbounded window walks the occupied days instead of every day since 1970.
      assert.equal(s.listEventsOverlapping('big', -8.64e15, Number.MAX_SAFE_INTEGER).length, background + expected.length);
    }
    assert.equal(examined[0], examined[1]);
    assert.equal(examined[0], 14);
  });
});

describe('sqlite store', sqliteSkip, () => {
  it('keeps data across a reopen and records the schema version', () => {
    const path = tempDb();
    let s = openSqlite(path);
    s.putUser({ id: 'u', name: 'U', email: 'u@example.test', timeZone: 'UTC', position: 0 });
    s.putEvent(event('c', 'e'));
    s.close();
    s.close(); // idempotent
    s = openSqlite(path);
    assert.equal(s.getUser('u')?.name, 'U');
    assert.deepEqual(s.getEvent('c', 'e'), event('c', 'e'));
    assert.equal(s.getMeta('schema_version'), String(SCHEMA_VERSION));
    s.close();
    const db = new sqlite!.DatabaseSync(path);
    try {
      assert.deepEqual({ ...db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() }, { value: String(SCHEMA_VERSION) });
      assert.equal(db.prepare('PRAGMA journal_mode').get()?.['journal_mode'], 'wal');
    } finally {
      db.close();
    }
  });

  // Versions 1 to 3 had an index of the events' iCalUIDs, which only a lookup by iCalUID read:
  // over every event in version 1, over those whose iCalUID is not `<id>@google.com` (the
  // calendar layer's default) in 2 and 3. Version 4 drops it; the events stay as they were.
  for (const [version, index] of [
    [1, 'CREATE INDEX events_ical_uid ON events (calendar_id, ical_uid)'],
    [3, "CREATE INDEX events_ical_uid ON events (calendar_id, ical_uid) WHERE ical_uid <> id || '@google.com'"],
  ] as const) {
    it(`upgrades a version ${version} database: the iCalUID index goes, the events stay`, () => {
      const path = tempDb();
      const s = openSqlite(path);
      s.putEvent(event('c', 'abcde', { iCalUID: 'abcde@google.com' }));
      s.putEvent(event('c', 'other', { iCalUID: 'custom' }));
      s.close();
      const old = new sqlite!.DatabaseSync(path);
      old.exec(`${index}; UPDATE meta SET value = '${version}' WHERE key = 'schema_version'`);
      old.close();
      const again = openSqlite(path);
      try {
        assert.equal(again.getMeta('schema_version'), String(SCHEMA_VERSION));
        assert.deepEqual(again.getEvent('c', 'abcde'), event('c', 'abcde', { iCalUID: 'abcde@google.com' }));
        assert.deepEqual(again.getEvent('c', 'other'), event('c', 'other', { iCalUID: 'custom' }));
        assert.deepEqual(countEvents(again, 'c'), 2);
      } finally {
        again.close();
      }
      const check = new sqlite!.DatabaseSync(path);
      try {
        assert.equal(check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'events_ical_uid'").get()?.['n'], 0);
        // The indexes the store's queries use are all there is on events.
        const indexes = check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name").all();
        assert.deepEqual(indexes.map((r) => r['name']), ['events_exceptions', 'events_long', 'events_seq', 'events_short_start', 'sqlite_autoindex_events_1']);
      } finally {
        check.close();
      }
    });
  }

  it('upgrades a version 2 database: access tokens filed by expiry keep working, old and new', () => {
    const path = tempDb();
    openSqlite(path).close();
    // Back to the version 2 table: filed by digest alone, with one token in it.
    const v2 = new sqlite!.DatabaseSync(path);
    v2.exec(`DROP TABLE access_tokens;
      CREATE TABLE access_tokens (hash TEXT PRIMARY KEY, connection_id TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
      CREATE INDEX access_tokens_connection ON access_tokens (connection_id);
      INSERT INTO access_tokens VALUES ('old', 'k1', ${T0 + 60_000});
      UPDATE meta SET value = '2' WHERE key = 'schema_version'`);
    v2.close();
    const again = openSqlite(path);
    try {
      assert.equal(again.getMeta('schema_version'), String(SCHEMA_VERSION));
      assert.deepEqual(again.getAccessToken('old'), accessToken('old', 'k1', T0 + 60_000));
      assert.deepEqual(again.getAccessToken('old', T0 + 60_000), accessToken('old', 'k1', T0 + 60_000));
      again.putAccessToken(accessToken('new', 'k1'));
      again.deleteConnection('k1');
      assert.equal(again.getAccessToken('old'), undefined);
      assert.equal(again.getAccessToken('new'), undefined);
    } finally {
      again.close();
    }
    const check = new sqlite!.DatabaseSync(path);
    try {
      const sql = String(check.prepare("SELECT sql FROM sqlite_master WHERE name = 'access_tokens'").get()?.['sql']);
      assert.match(sql, /PRIMARY KEY \(expires_at, hash\)/);
      assert.ok(check.prepare("SELECT 1 FROM sqlite_master WHERE name = 'access_tokens_connection'").get());
      // A lookup with the expiry is a primary-key search, not a scan.
      const plan = check.prepare('EXPLAIN QUERY PLAN SELECT * FROM access_tokens WHERE expires_at = ? AND hash = ?').all(1, 'x');
      assert.match(String(plan.map((row) => row['detail']).join('\n')), /SEARCH access_tokens USING PRIMARY KEY \(expires_at=\? AND hash=\?\)/);
    } finally {
      check.close();
    }
  });

  it('upgrades a version 6 database: the outbox, numbered by seq before, starts again numbered by itself', () => {
    const path = tempDb();
    openSqlite(path).close();
    const v6 = new sqlite!.DatabaseSync(path);
    v6.exec(`DROP TABLE outbox;
      CREATE TABLE outbox (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, recipient TEXT NOT NULL, kind TEXT NOT NULL,
        event_id TEXT NOT NULL, calendar_id TEXT NOT NULL, from_user_id TEXT NOT NULL, summary TEXT);
      INSERT INTO outbox VALUES (4000, ${T0}, 'old@example.test', 'invitation', 'ev1', 'alice@example.test', 'alice', 'Sync');
      UPDATE meta SET value = '6' WHERE key = 'schema_version'`);
    v6.close();
    const again = openSqlite(path);
    try {
      assert.equal(again.getMeta('schema_version'), String(SCHEMA_VERSION));
      assert.deepEqual(again.readOutbox(0, 10), { messages: [], last: 0 });
      again.addOutboxMessages([outboxMessage(1)]);
      assert.deepEqual(again.readOutbox(0, 10), { messages: [{ ...outboxMessage(1), id: 1 }], last: 1 });
    } finally {
      again.close();
    }
  });

  it('upgrades a version 7 database: the ids of channels already stored are remembered as used', () => {
    const path = tempDb();
    const before = openSqlite(path);
    before.putChannel(channel('stored', 'k1'));
    before.close();
    const v7 = new sqlite!.DatabaseSync(path);
    v7.exec("DROP TABLE channel_ids; UPDATE meta SET value = '7' WHERE key = 'schema_version'");
    v7.close();
    const again = openSqlite(path);
    try {
      assert.equal(again.getMeta('schema_version'), String(SCHEMA_VERSION));
      assert.equal(again.isChannelIdRemembered('stored'), true);
      again.deleteChannel('stored');
      assert.equal(again.isChannelIdRemembered('stored'), true);
      assert.equal(again.isChannelIdRemembered('other'), false);
    } finally {
      again.close();
    }
  });

  it('refuses a database written by a newer schema version', () => {
    const path = tempDb();
    const db = new sqlite!.DatabaseSync(path);
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '999')");
    db.close();
    assert.throws(() => openSqlite(path), (err) => {
      assert.ok(err instanceof SchemaVersionError);
      assert.match(err.message, /schema version 999 is newer than this emulator supports/);
      assert.ok(err.message.includes(path));
      return true;
    });
    const check = new sqlite!.DatabaseSync(path);
    try {
      assert.equal(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()?.['value'], '999');
      assert.equal(check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'events'").get()?.['n'], 0);
    } finally {
      check.close();
    }
  });

  describe('group commit', () => {
    it('commits the writes made together in one group, once durable() settles', async () => {
      const path = tempDb();
      const s = openSqlite(path);
      const other = new sqlite!.DatabaseSync(path);
      const visible = (): number => other.prepare("SELECT count(*) AS n FROM events WHERE calendar_id = 'g'").get()?.['n'] as number;
      try {
        assert.equal(s.durable(), undefined, 'nothing written yet, nothing to wait for');
        s.putEvent(event('g', 'one', { seq: s.nextSeq() }));
        s.transaction(() => s.putEvent(event('g', 'two', { seq: s.nextSeq() })));
        const pending = s.durable();
        assert.ok(pending instanceof Promise);
        assert.equal(s.durable(), pending, 'later writes join the open group');
        // This connection sees its writes at once; another one only after the COMMIT.
        assert.ok(s.getEvent('g', 'two'));
        assert.equal(visible(), 0);
        // A write in the next turn of the event loop still joins (the COMMIT waits two check phases).
        await new Promise((resolve) => setImmediate(resolve));
        s.putEvent(event('g', 'three', { seq: s.nextSeq() }));
        assert.equal(s.durable(), pending);
        assert.equal(visible(), 0);
        await pending;
        assert.equal(visible(), 3);
        assert.equal(s.durable(), undefined);
      } finally {
        other.close();
        s.close();
      }
    });

    it('rolls back a failed transaction alone, keeping the rest of its group', async () => {
      const path = tempDb();
      const s = openSqlite(path);
      s.putEvent(event('g', 'kept', { seq: s.nextSeq() }));
      assert.throws(() => s.transaction(() => {
        s.putEvent(event('g', 'dropped', { seq: s.nextSeq() }));
        throw new Error('refused');
      }), /refused/);
      await s.durable();
      s.close();
      const reopened = openSqlite(path);
      try {
        assert.ok(reopened.getEvent('g', 'kept'));
        assert.equal(reopened.getEvent('g', 'dropped'), undefined);
      } finally {
        reopened.close();
      }
    });

    it('close() commits a group still waiting', () => {
      const path = tempDb();
      const s = openSqlite(path);
      s.putEvent(event('g', 'late', { seq: s.nextSeq() }));
      assert.ok(s.durable());
      s.close();
      const reopened = openSqlite(path);
      try {
        assert.ok(reopened.getEvent('g', 'late'));
      } finally {
        reopened.close();
      }
    });
  });

  describe('read cache', () => {
    it('hands every reader the same frozen record until a put replaces it', () =>
      withSqlite((s) => {
        s.putEvent(event('r', 'e', { seq: s.nextSeq() }));
        const first = s.getEvent('r', 'e');
        assert.equal(s.getEvent('r', 'e'), first);
        assert.ok(Object.isFrozen(first) && Object.isFrozen(first?.data));
        s.putEvent(event('r', 'e', { seq: s.nextSeq(), data: { summary: 'after' } }));
        assert.equal(s.getEvent('r', 'e')?.data.summary, 'after');
      }));

    it('serves a page already read from the cache, and re-reads it after a change', () =>
      withSqlite((s) => {
        for (const id of ['a', 'b', 'c']) s.putEvent(event('p', id, { seq: s.nextSeq() }));
        const first = s.listEventsChangedSince('p', 0, 10);
        const again = s.listEventsChangedSince('p', 0, 10);
        assert.deepEqual(ids(again), ['a', 'b', 'c']);
        assert.equal(again, first, 'the same cached list');
        assert.ok(Object.isFrozen(again));
        // A write to another calendar keeps this one's lists; one to this calendar drops them.
        s.putEvent(event('q', 'x', { seq: s.nextSeq() }));
        assert.equal(s.listEventsChangedSince('p', 0, 10), first);
        s.putEvent(event('p', 'b', { seq: s.nextSeq(), data: { summary: 'changed' } }));
        const after = s.listEventsChangedSince('p', 0, 10);
        assert.deepEqual(after.map((e) => e.id), ['a', 'c', 'b']);
        assert.equal(after[2]?.data.summary, 'changed');
        assert.deepEqual(s.listEventsChangedSince('p', 1_000, 10), []);
      }));

    it('keeps calendar list entries apart by user and calendar, and forgets a replaced one', () =>
      withSqlite((s) => {
        s.putCalendarListEntry(entry('a', 'bc', { data: { colorId: '1' } }));
        s.putCalendarListEntry(entry('ab', 'c', { data: { colorId: '2' } }));
        const first = s.getCalendarListEntry('a', 'bc');
        assert.equal(first?.data.colorId, '1');
        assert.equal(s.getCalendarListEntry('ab', 'c')?.data.colorId, '2');
        assert.equal(s.getCalendarListEntry('a', 'bc'), first, 'the cached record');
        assert.ok(Object.isFrozen(first));
        s.putCalendarListEntry(entry('a', 'bc', { hidden: true, data: { colorId: '3' } }));
        assert.equal(s.getCalendarListEntry('a', 'bc')?.data.colorId, '3');
        s.deleteUser('a');
        assert.equal(s.getCalendarListEntry('a', 'bc'), undefined);
        assert.equal(s.getCalendarListEntry('ab', 'c')?.data.colorId, '2');
      }));

    it('answers a window query with the cached records, and sees a change to one', () =>
      withSqlite((s) => {
        const hour = 60 * 60 * 1000;
        s.putEvent(event('w', 'in', { seq: s.nextSeq(), startMs: 10 * hour, endMs: 11 * hour }));
        s.putEvent(event('w', 'out', { seq: s.nextSeq(), startMs: 20 * hour, endMs: 21 * hour }));
        const cached = s.getEvent('w', 'in');
        assert.deepEqual(ids(s.listEventsOverlapping('w', 9 * hour, 12 * hour)), ['in']);
        assert.equal(s.listEventsOverlapping('w', 9 * hour, 12 * hour)[0], cached, 'the cached record');
        s.putEvent(event('w', 'in', { seq: s.nextSeq(), startMs: 10 * hour, endMs: 11 * hour, data: { summary: 'moved soon' } }));
        assert.equal(s.listEventsOverlapping('w', 9 * hour, 12 * hour)[0]?.data.summary, 'moved soon');
        s.putEvent(event('w', 'in', { seq: s.nextSeq(), startMs: 30 * hour, endMs: 31 * hour }));
        assert.deepEqual(s.listEventsOverlapping('w', 9 * hour, 12 * hour), []);
        assert.deepEqual(ids(s.listEventsOverlapping('w', 0, 40 * hour)), ['in', 'out']);
      }));

    it('forgets what a rolled-back transaction wrote and read', () =>
      withSqlite((s) => {
        s.putCalendar({ id: 'cal', ownerId: 'u', primary: false, timeZone: 'UTC', seq: s.nextSeq(), data: { summary: 'before' } });
        assert.equal(s.getCalendar('cal')?.data.summary, 'before');
        assert.throws(() => s.transaction(() => {
          s.putCalendar({ id: 'cal', ownerId: 'u', primary: false, timeZone: 'UTC', seq: s.nextSeq(), data: { summary: 'rolled back' } });
          assert.equal(s.getCalendar('cal')?.data.summary, 'rolled back');
          throw new Error('refused');
        }), /refused/);
        assert.equal(s.getCalendar('cal')?.data.summary, 'before');
      }));

    it('forgets everything a cascade deletes', () =>
      withSqlite((s) => {
        s.putConnection({ id: 'k', clientId: 'c', userId: 'u', scopes: ['s'], offline: true, createdAt: 1 });
        s.putRefreshToken({ hash: 'h', connectionId: 'k' });
        assert.ok(s.getRefreshToken('h') && s.getConnection('k'));
        s.deleteConnection('k');
        assert.equal(s.getRefreshToken('h'), undefined);
        assert.equal(s.getConnection('k'), undefined);
      }));

    it("sees another connection's commit from the next turn of the event loop", () =>
      withTwoConnections(async (s, other) => {
        s.putEvent(event('r', 'e', { seq: s.nextSeq(), data: { summary: 'ours' } }));
        await s.durable();
        assert.equal(s.getEvent('r', 'e')?.data.summary, 'ours');
        other.putEvent(event('r', 'e', { seq: other.nextSeq(), data: { summary: 'theirs' } }));
        await other.durable();
        await nextTurn();
        assert.equal(s.getEvent('r', 'e')?.data.summary, 'theirs');
        assert.equal(s.listEventsOverlapping('r', 0, Number.MAX_SAFE_INTEGER)[0]?.data.summary, 'theirs');
      }));

    it("lists the channels another connection wrote, from the next turn of the event loop", () =>
      withTwoConnections(async (s, other) => {
        const watched = { kind: 'events', calendarId: 'cal' } as const;
        assert.deepEqual(s.listChannelsWatching(watched), []);
        other.putChannel(channel('theirs', 'k1', { resource: watched }));
        await other.durable();
        await nextTurn();
        assert.deepEqual(s.listChannelsWatching(watched).map((c) => c.id), ['theirs']);
      }));

    it("lists the users another connection wrote, from the next turn of the event loop", () =>
      withTwoConnections(async (s, other) => {
        s.putUser({ id: 'u1', name: 'One', email: 'one@example.com', timeZone: 'UTC', position: 0 });
        await s.durable();
        assert.deepEqual(s.listUsers().map((u) => u.id), ['u1']);
        other.putUser({ id: 'u2', name: 'Two', email: 'two@example.com', timeZone: 'UTC', position: 1 });
        await other.durable();
        await nextTurn();
        assert.deepEqual(s.listUsers().map((u) => u.id), ['u1', 'u2']);
      }));

    it("counts another connection's commits in othersCommitted, from the next turn of the event loop", () =>
      withTwoConnections(async (s, other) => {
        const before = s.othersCommitted();
        s.putUser({ id: 'ours', name: 'U', email: 'u@example.test', timeZone: 'UTC', position: 0 });
        await s.durable();
        await nextTurn();
        assert.equal(s.othersCommitted(), before, 'its own commit is not counted');
        other.deleteUser('ours');
        await other.durable();
        await nextTurn();
        const after = s.othersCommitted();
        assert.ok(after > before);
        assert.equal(s.getUser('ours'), undefined);
        await nextTurn();
        assert.equal(s.othersCommitted(), after, 'counted once');
      }));
  });

  describe('the change sequence', () => {
    // A connection left open without close() stands for a killed process: its commits (once
    // durable() settles) are in the WAL, and nothing it held only in memory reaches the next opener.
    it('never goes below a committed sequence after a crash', async () => {
      const path = tempDb();
      const crashed = openSqlite(path);
      const seq = crashed.nextSeq();
      crashed.putEvent(event('c', 'e', { seq }));
      await crashed.durable();
      const next = openSqlite(path);
      try {
        assert.ok(next.nextSeq() > seq);
      } finally {
        next.close();
        crashed.close();
      }
    });

    it('writes a fresh reservation after a transaction rolls back, outer or nested', async () => {
      const path = tempDb();
      const crashed = openSqlite(path);
      assert.throws(() => crashed.transaction(() => {
        crashed.nextSeq();
        throw new Error('refused');
      }), /refused/);
      const afterOuter = crashed.nextSeq();
      crashed.putEvent(event('c', 'outer', { seq: afterOuter }));
      let afterNested = 0;
      crashed.transaction(() => {
        assert.throws(() => crashed.transaction(() => {
          // Past the current reservation, so this nested part writes the next one.
          for (let i = 0; i < 1_100; i++) crashed.nextSeq();
          throw new Error('refused');
        }), /refused/);
        afterNested = crashed.nextSeq();
        crashed.putEvent(event('c', 'nested', { seq: afterNested }));
      });
      assert.ok(afterNested > afterOuter);
      await crashed.durable();
      const next = openSqlite(path);
      try {
        assert.ok(next.nextSeq() > afterNested);
      } finally {
        next.close();
        crashed.close();
      }
    });

    it('stays increasing in commit order with two connections on one file', () =>
      withTwoConnections(async (a, b) => {
        const a1 = a.nextSeq();
        await a.durable();
        const b1 = b.nextSeq();
        await b.durable();
        assert.ok(b1 > a1);
        assert.ok(a.nextSeq() > b1);
      }));

    it('continues without a gap after a clean close', () => {
      const path = tempDb();
      let s = openSqlite(path);
      const last = s.transaction(() => s.nextSeq() && s.nextSeq());
      s.close();
      s = openSqlite(path);
      assert.equal(s.nextSeq(), last + 1);
      s.close();
    });
  });

  it('keeps every acknowledged write when the writing process is killed', { timeout: 60_000 }, async () => {
    const path = tempDb();
    const helper = fileURLToPath(new URL('../_helpers/sqlite-writer.ts', import.meta.url));
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--test'));
    const child = spawn(process.execPath, [...execArgv, helper, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: string[] = [];
    let stderr = '';
    let partial = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const lines = (partial + d).split('\n');
      partial = lines.pop() ?? '';
      acked.push(...lines);
      if (acked.length >= 300) child.kill('SIGKILL');
    });
    const how = await exited;
    assert.equal(how, 'SIGKILL', `writer ended by ${String(how)} before 300 acks; stderr: ${stderr}`);
    assert.ok(acked.length >= 300);

    const db = new sqlite!.DatabaseSync(path);
    try {
      assert.equal(db.prepare('PRAGMA integrity_check').get()?.['integrity_check'], 'ok');
    } finally {
      db.close();
    }
    const s = openSqlite(path);
    try {
      for (const id of acked) assert.ok(s.getEvent('durable', id), `acknowledged ${id} is missing`);
      assert.ok(countEvents(s, 'durable') >= acked.length);
    } finally {
      s.close();
    }
  });

  it('answers event queries from indexes, whatever the calendar size', () => {
    for (const background of [1_000, 50_000]) {
      const path = tempDb();
      const s = openSqlite(path);
      const expected = fillCalendar(s, background);
      assert.deepEqual(ids(s.listEventsOverlapping('big', WINDOW_FROM, WINDOW_TO)), expected);
      s.close();
    }
    const db = new sqlite!.DatabaseSync(join(dir, `db-${files}.sqlite`));
    try {
      const plans: Record<string, string[]> = {};
      for (const [name, sql] of Object.entries(EVENT_QUERIES)) {
        const params = sql.split('?').length - 1;
        const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array<null>(params).fill(null));
        plans[name] = rows.map((r) => String(r['detail']));
      }
      const uses = (name: string, index: string): void => {
        const details = plans[name] ?? [];
        const onEvents = details.filter((d) => /\bevents\b/.test(d));
        assert.ok(onEvents.length > 0, `${name}: ${details.join(' | ')}`);
        for (const d of onEvents) assert.match(d, /^SEARCH events USING (COVERING )?INDEX /, `${name}: ${d}`);
        assert.ok(onEvents.some((d) => d.includes(`INDEX ${index} `)), `${name} should use ${index}: ${details.join(' | ')}`);
        // Only the id lists re-sort their page (at most `limit` ids) to join them in order.
        assert.ok(!details.some((d) => /TEMP B-TREE/.test(d) && !/TEMP B-TREE FOR group_concat/.test(d)), `${name} sorts: ${details.join(' | ')}`);
      };
      uses('overlapping', 'events_short_start');
      uses('overlapping', 'events_long');
      uses('overlappingIds', 'events_short_start');
      uses('overlappingIds', 'events_long');
      uses('changedSince', 'events_seq');
      uses('changedSinceIds', 'events_seq');
      assert.match((plans['changedSinceIds'] ?? []).join(' | '), /COVERING INDEX/);
      uses('exceptions', 'events_exceptions');
    } finally {
      db.close();
    }
  });

  it("answers a holder's shared-copy queries from the indexes the copies of one write share", () => {
    const path = tempDb();
    openSqlite(path).close();
    const db = new sqlite!.DatabaseSync(path);
    try {
      const plan = (sql: string): string => {
        const params = Math.max(...(sql.match(/\?\d+/g) ?? []).map((p) => Number(p.slice(1))));
        return db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array<null>(params).fill(null)).map((r) => String(r['detail'])).join(' | ');
      };
      const held = plan(SHARED_COPY_QUERIES.held);
      assert.match(held, /SEARCH events USING INDEX sqlite_autoindex_events_1 \(calendar_id=\? AND id=\?\)/);
      assert.match(held, /SEARCH s USING INDEX sqlite_autoindex_shared_copies_1 \(id=\?\)/);
      const overlapping = plan(SHARED_COPY_QUERIES.overlapping);
      assert.match(overlapping, /SEARCH s USING INDEX shared_copies_short_start \(start_ms>\? AND start_ms<\?\)/);
      assert.match(overlapping, /SEARCH s USING INDEX shared_copies_long \(start_ms<\?\)/);
      const changed = plan(SHARED_COPY_QUERIES.changedSince);
      assert.match(changed, /SEARCH s USING INDEX shared_copies_seq \(seq>\?\)/);
      for (const p of [held, overlapping, changed]) {
        assert.doesNotMatch(p, /SCAN s\b|TEMP B-TREE/, p);
        // The holder's own event under the id is looked up by key.
        if (p !== held) assert.match(p, /SEARCH e USING COVERING INDEX sqlite_autoindex_events_1 \(calendar_id=\? AND id=\?\)/);
      }
    } finally {
      db.close();
    }
  });

  it('purges expired access tokens from the start of the primary key, not by a scan', () => {
    const path = tempDb();
    openSqlite(path).close();
    const db = new sqlite!.DatabaseSync(path);
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${ACCESS_TOKEN_PURGE}`).all(0, 1).map((r) => String(r['detail']));
      assert.ok(plan.includes('SEARCH access_tokens USING PRIMARY KEY (expires_at<?)'), plan.join(' | '));
      assert.ok(!plan.some((d) => /^SCAN access_tokens/.test(d)), plan.join(' | '));
    } finally {
      db.close();
    }
  });
  it("reads and trims the outbox on its primary key: a page or a trim reads the rows it takes, not the outbox", () => {
    const path = tempDb();
    openSqlite(path).close();
    const db = new sqlite!.DatabaseSync(path);
    try {
      const plan = (sql: string): string => db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(0, 0, 0).map((r) => String(r['detail'])).join(' | ');
      assert.match(plan(OUTBOX_PAGE), /^SEARCH outbox USING INTEGER PRIMARY KEY \(rowid>\?\) \| SCALAR SUBQUERY \d+ \| SEARCH outbox USING INTEGER PRIMARY KEY \(rowid>\?\)$/);
      // The walk for the first message late enough goes along the key from the oldest (no sort),
      // and LIMIT 1 stops it there: it reads the rows the trim drops, and one more.
      assert.match(plan(OUTBOX_TRIM), /^SEARCH outbox USING INTEGER PRIMARY KEY \(rowid<\?\) \| SCALAR SUBQUERY \d+ \| SCAN outbox$/);
    } finally {
      db.close();
    }
  });
});

describe('openStore', () => {
  it("':memory:' opens the memory store", async () => {
    const s = await openStore(':memory:');
    assert.ok(s instanceof MemoryStore);
    assert.equal(s.backend, 'memory');
    s.close();
  });

  it('a file opens the SQLite store', sqliteSkip, async () => {
    const s = await openStore(tempDb());
    assert.equal(s.backend, 'sqlite');
    s.close();
  });

  it(
    'a file on a runtime without node:sqlite is refused, not silently kept in memory',
    hasSqlite ? { skip: 'this runtime has node:sqlite' } : {},
    async () => {
      const path = tempDb();
      await assert.rejects(openStore(path), (err) => {
        assert.ok(err instanceof StoreUnavailableError);
        assert.equal(
          err.message,
          `--db ${path} needs node:sqlite, which requires Node.js >= 22.13 (this is Node ${process.version}); use --db :memory: or upgrade Node`,
        );
        return true;
      });
    },
  );
});
