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
import { EVENT_QUERIES, openSqliteStore, SCHEMA_VERSION, SchemaVersionError } from '../../src/store/sqlite.ts';
import type { EventRecord, Store } from '../../src/store/store.ts';
import { event, storeContract } from './store.contract.ts';

const hasSqlite = await sqliteAvailable();
const NO_SQLITE = 'node:sqlite needs Node >= 22.13';
const sqliteSkip = hasSqlite ? {} : { skip: NO_SQLITE };

const dir = mkdtempSync(join(tmpdir(), 'store-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const tempDb = (): string => join(dir, `db-${++files}.sqlite`);

const sqlite = hasSqlite ? await import('node:sqlite') : undefined;
const openSqlite = (path = tempDb()): Store => openSqliteStore(path, sqlite!);

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
const ids = (events: EventRecord[]): string[] => events.map((e) => e.id).sort();

describe('memory store', () => {
  it('listEventsOverlapping looks at the same few events for 1,000 and 50,000 in the calendar', () => {
    const examined: number[] = [];
    for (const background of [1_000, 50_000]) {
      const s = new MemoryStore();
      const expected = fillCalendar(s, background);
      assert.equal(s.countEvents('big'), background + expected.length);
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
      assert.ok(s.countEvents('durable') >= acked.length);
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
        assert.ok(!details.some((d) => /TEMP B-TREE/.test(d)), `${name} sorts: ${details.join(' | ')}`);
      };
      uses('overlapping', 'events_short_start');
      uses('overlapping', 'events_long');
      uses('page', 'sqlite_autoindex_events_1');
      uses('changedSince', 'events_seq');
      uses('exceptions', 'events_exceptions');
      uses('byICalUID', 'events_ical_uid');
      assert.match((plans['count'] ?? []).join(' | '), /^SEARCH events USING COVERING INDEX /);
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
