// The SQLite backend of the Store interface, on node:sqlite's DatabaseSync.
//
// - Durability: WAL journal with synchronous=NORMAL, and group commit. The first write opens a
//   transaction (BEGIN IMMEDIATE) that every write joins until the event loop's second check
//   phase from then (setImmediate), where one COMMIT lands them all: each commit writes its WAL
//   pages and takes the file locks, which costs more than the rest of a small request, so
//   requests that arrive together share it. durable() is the promise of that COMMIT; the HTTP
//   layer answers only after it settles, so a killed process still loses nothing it acknowledged
//   (only a power loss can drop the last commits; see
//   https://www.sqlite.org/pragma.html#pragma_synchronous).
// - Schema: versioned. `meta.schema_version` records how many entries of MIGRATIONS have been
//   applied; openSqliteStore applies the missing ones in one transaction and refuses a database
//   written by a newer version of this code.
// - Statements are prepared once, when the store opens.
// - Every write is atomic: a single statement is (SQLite rolls back a failed statement alone),
//   and multi-statement writes (cascades, clearWorkspace) run inside transaction(), a SAVEPOINT
//   in the open group, rolled back to on failure without touching the rest of the group.
// - Other processes may open the same file. Every read through SQL sees their commits at once;
//   what this store keeps in memory (the read cache, the sequence reservation) is checked
//   against PRAGMA data_version before it is used, at most once per turn of the event loop, and
//   so are the caches kept above the store, through othersCommitted().
// - The node:sqlite module is passed in (see open.ts) so that this file can be loaded, and
//   type-checked, on a runtime that lacks it.
//
// Reserved meta keys: `schema_version` and `seq` (the counter behind nextSeq).
//
// nextSeq hands sequences out from memory: meta `seq` is a reservation, the highest sequence
// this store may hand out before it writes a new one, and each reservation is written inside
// the transaction that needs it. So at most one write in SEQ_RESERVATION pays for the meta
// row, while a sequence in any committed row is always <= the committed reservation: after a
// crash numbering resumes above everything committed, and after a rollback the next nextSeq
// writes a fresh reservation. Gaps are allowed (the Store contract only asks for strictly
// increasing). Another connection's commit (PRAGMA data_version) triggers a re-read, so a
// second process on the same file still never makes the sequence go backwards.

import type { DatabaseSync, StatementSync, SQLInputValue } from 'node:sqlite';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer.ts';
import { ReadCache } from './read-cache.ts';
import type { CachedKind } from './read-cache.ts';
import type {
  AccessTokenRecord,
  CalendarListEntryRecord,
  CalendarRecord,
  ChannelRecord,
  ChannelResource,
  ClientRecord,
  ConnectionRecord,
  EventRecord,
  EventStatus,
  JsonObject,
  RefreshTokenRecord,
  Store,
  UserRecord,
} from './store.ts';

/**
 * Events spanning at most this long (and not recurring) are "short": listEventsOverlapping finds
 * them through the (calendar_id, start_ms) index, looking back this far from the window start.
 * Longer events and series masters are flagged `long` and checked one by one; there are few.
 */
export const SHORT_EVENT_MAX_MS = 7 * 24 * 60 * 60 * 1000;

export function isLongEvent(e: Pick<EventRecord, 'recurring' | 'startMs' | 'endMs'>): boolean {
  return e.recurring || e.endMs - e.startMs > SHORT_EVENT_MAX_MS;
}

/**
 * Events created without an iCalUID get `<id>@google.com` (event-write.ts). Both backends find
 * those by id rather than through an iCalUID index: an index entry keyed by a random id costs
 * every insert a write to a random index page (a WAL frame on SQLite, and later a checkpointed
 * page), for a lookup the primary key answers as well.
 */
export const DEFAULT_ICAL_UID_SUFFIX = '@google.com';

export function hasDefaultICalUID(e: Pick<EventRecord, 'id' | 'iCalUID'>): boolean {
  const uid = e.iCalUID;
  return uid.length === e.id.length + DEFAULT_ICAL_UID_SUFFIX.length && uid.startsWith(e.id) && uid.endsWith(DEFAULT_ICAL_UID_SUFFIX);
}

/** The id whose default iCalUID `iCalUID` is, or null when it is not of that form. */
export function idOfDefaultICalUID(iCalUID: string): string | null {
  return iCalUID.endsWith(DEFAULT_ICAL_UID_SUFFIX) ? iCalUID.slice(0, -DEFAULT_ICAL_UID_SUFFIX.length) : null;
}

/** Migration n (1-based) brings the schema from version n-1 to n. Append only; never edit. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  INSERT INTO meta (key, value) VALUES ('seq', '0');

  CREATE TABLE clients (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    redirect_uris TEXT NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    position INTEGER NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE calendars (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    is_primary INTEGER NOT NULL,
    time_zone TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX calendars_owner ON calendars (owner_id);

  CREATE TABLE calendar_list (
    user_id TEXT NOT NULL,
    calendar_id TEXT NOT NULL,
    deleted INTEGER NOT NULL,
    hidden INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (user_id, calendar_id)
  ) WITHOUT ROWID;
  CREATE INDEX calendar_list_calendar ON calendar_list (calendar_id);

  CREATE TABLE events (
    calendar_id TEXT NOT NULL,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    status TEXT NOT NULL,
    recurring INTEGER NOT NULL,
    recurring_event_id TEXT,
    original_start_ms INTEGER,
    start_ms INTEGER NOT NULL,
    end_ms INTEGER NOT NULL,
    ical_uid TEXT NOT NULL,
    updated_ms INTEGER NOT NULL,
    long INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (calendar_id, id)
  );
  -- Partial indexes: short events by start, and the (few) long ones by calendar.
  CREATE INDEX events_short_start ON events (calendar_id, start_ms) WHERE long = 0;
  CREATE INDEX events_long ON events (calendar_id) WHERE long = 1;
  CREATE INDEX events_seq ON events (calendar_id, seq, id);
  CREATE INDEX events_exceptions ON events (calendar_id, recurring_event_id)
    WHERE recurring_event_id IS NOT NULL;
  CREATE INDEX events_ical_uid ON events (calendar_id, ical_uid);

  CREATE TABLE connections (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    offline INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX connections_user ON connections (user_id);

  CREATE TABLE access_tokens (
    hash TEXT PRIMARY KEY,
    connection_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX access_tokens_connection ON access_tokens (connection_id);

  CREATE TABLE refresh_tokens (
    hash TEXT PRIMARY KEY,
    connection_id TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX refresh_tokens_connection ON refresh_tokens (connection_id);

  CREATE TABLE channels (
    id TEXT PRIMARY KEY,
    resource_id TEXT NOT NULL,
    resource_uri TEXT NOT NULL,
    address TEXT NOT NULL,
    token TEXT,
    expiration INTEGER NOT NULL,
    connection_id TEXT NOT NULL,
    -- ChannelResource: 'events' + calendar id, or 'calendarList' + user id.
    resource_kind TEXT NOT NULL,
    resource_key TEXT NOT NULL,
    next_message_number INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX channels_connection ON channels (connection_id);
  CREATE INDEX channels_resource ON channels (resource_kind, resource_key);
  `,
  // 2: default iCalUIDs leave the iCalUID index (see DEFAULT_ICAL_UID_SUFFIX, which the
  // literal here and in EVENT_QUERIES.byICalUID spell out).
  `
  DROP INDEX events_ical_uid;
  CREATE INDEX events_ical_uid ON events (calendar_id, ical_uid) WHERE ical_uid <> id || '@google.com';
  `,
  // 3: access tokens filed by expiry, then digest. Tokens minted one after another then land
  // together at the end of the B-tree, a page or two per commit, where a digest alone put each
  // on a random page (each page a commit touches is 4 KiB of WAL). A token's text carries its
  // expiry (oauth/tokens.ts), so lookups still hit the primary key.
  `
  CREATE TABLE access_tokens_by_expiry (
    expires_at INTEGER NOT NULL,
    hash TEXT NOT NULL,
    connection_id TEXT NOT NULL,
    PRIMARY KEY (expires_at, hash)
  ) WITHOUT ROWID;
  INSERT INTO access_tokens_by_expiry (expires_at, hash, connection_id)
    SELECT expires_at, hash, connection_id FROM access_tokens;
  DROP TABLE access_tokens;
  ALTER TABLE access_tokens_by_expiry RENAME TO access_tokens;
  CREATE INDEX access_tokens_connection ON access_tokens (connection_id);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Sequences reserved by one write of meta `seq` (see the header). */
const SEQ_RESERVATION = 1000;

export class SchemaVersionError extends Error {
  override name = 'SchemaVersionError';
}

const EVENT_COLUMNS =
  'calendar_id, id, seq, status, recurring, recurring_event_id, original_start_ms, start_ms, end_ms, ical_uid, updated_ms, data';

/**
 * The event queries, exported so tests can check their plans with EXPLAIN QUERY PLAN.
 * Parameters are positional and listed in each comment.
 */
export const EVENT_QUERIES = {
  // (calendarId, fromMs - SHORT_EVENT_MAX_MS, toMs, fromMs, calendarId, toMs, fromMs)
  overlapping: `
    SELECT ${EVENT_COLUMNS} FROM events
      WHERE calendar_id = ? AND long = 0 AND start_ms >= ? AND start_ms < ? AND end_ms > ?
    UNION ALL
    SELECT ${EVENT_COLUMNS} FROM events
      WHERE calendar_id = ? AND long = 1 AND start_ms < ? AND end_ms > ?`,
  // The ids alone of `overlapping` (same parameters), for eventsViaCache.
  overlappingIds: `SELECT group_concat(id, char(10)) AS ids FROM (
    SELECT id FROM events
      WHERE calendar_id = ? AND long = 0 AND start_ms >= ? AND start_ms < ? AND end_ms > ?
    UNION ALL
    SELECT id FROM events
      WHERE calendar_id = ? AND long = 1 AND start_ms < ? AND end_ms > ?)`,
  // (calendarId, afterId, limit)
  page: `SELECT ${EVENT_COLUMNS} FROM events WHERE calendar_id = ? AND id > ? ORDER BY id LIMIT ?`,
  // (calendarId, afterSeq, limit)
  changedSince: `SELECT ${EVENT_COLUMNS} FROM events
    WHERE calendar_id = ? AND seq > ? ORDER BY seq, id LIMIT ?`,
  // The ids alone of `page` and `changedSince`, from their covering indexes, as one
  // newline-separated string (event ids never hold one): one row instead of 250 (eventsViaCache).
  pageIds: `SELECT group_concat(id, char(10) ORDER BY id) AS ids FROM
    (SELECT id FROM events WHERE calendar_id = ? AND id > ? ORDER BY id LIMIT ?)`,
  changedSinceIds: `SELECT group_concat(id, char(10) ORDER BY seq, id) AS ids FROM
    (SELECT id, seq FROM events WHERE calendar_id = ? AND seq > ? ORDER BY seq, id LIMIT ?)`,
  // (calendarId, recurringEventId)
  // No ORDER BY here or below: it would tempt the planner into the primary key (which yields id
  // order) over the selective index. The few rows are sorted in JS instead.
  exceptions: `SELECT ${EVENT_COLUMNS} FROM events WHERE calendar_id = ? AND recurring_event_id = ?`,
  // (calendarId, iCalUID, calendarId, idOfDefaultICalUID(iCalUID), iCalUID)
  // The partial index holds the other iCalUIDs (its WHERE must be repeated for the planner to
  // use it); a default one is the event of the id it names.
  byICalUID: `
    SELECT ${EVENT_COLUMNS} FROM events
      WHERE calendar_id = ? AND ical_uid = ? AND ical_uid <> id || '@google.com'
    UNION ALL
    SELECT ${EVENT_COLUMNS} FROM events WHERE calendar_id = ? AND id = ? AND ical_uid = ?`,
  // (calendarId)
  count: 'SELECT count(*) AS n FROM events WHERE calendar_id = ?',
} as const;

/**
 * (before, limit): Store.deleteAccessTokensExpiringBefore. The soonest expiring tokens are the
 * first entries of the primary key (expires_at, hash), so this reads a range at the start of the
 * B-tree, whatever the table's size. (DELETE ... LIMIT needs a build option that node:sqlite's
 * SQLite may lack, hence the subquery.) Exported so a test can check its plan.
 */
export const ACCESS_TOKEN_PURGE =
  'DELETE FROM access_tokens WHERE (expires_at, hash) IN ' +
  '(SELECT expires_at, hash FROM access_tokens WHERE expires_at < ? ORDER BY expires_at, hash LIMIT ?)';

interface EventRow {
  calendar_id: string;
  id: string;
  seq: number;
  status: string;
  recurring: number;
  recurring_event_id: string | null;
  original_start_ms: number | null;
  start_ms: number;
  end_ms: number;
  ical_uid: string;
  updated_ms: number;
  data: string;
}

interface ClientRow {
  id: string;
  secret_hash: string;
  redirect_uris: string;
}
interface UserRow {
  id: string;
  name: string;
  email: string;
  time_zone: string;
  position: number;
}
interface CalendarRow {
  id: string;
  owner_id: string;
  is_primary: number;
  time_zone: string;
  seq: number;
  data: string;
}
interface EntryRow {
  user_id: string;
  calendar_id: string;
  deleted: number;
  hidden: number;
  seq: number;
  data: string;
}
interface ConnectionRow {
  id: string;
  client_id: string;
  user_id: string;
  scopes: string;
  offline: number;
  created_at: number;
}
interface AccessTokenRow {
  hash: string;
  connection_id: string;
  expires_at: number;
}
interface RefreshTokenRow {
  hash: string;
  connection_id: string;
}
interface ChannelRow {
  id: string;
  resource_id: string;
  resource_uri: string;
  address: string;
  token: string | null;
  expiration: number;
  connection_id: string;
  resource_kind: string;
  resource_key: string;
  next_message_number: number;
  created_at: number;
}

// Row shapes are fixed by the schema above; node:sqlite types rows loosely.
function rowAs<R>(row: Record<string, unknown> | undefined): R | undefined {
  return row as R | undefined;
}
function rowsAs<R>(rows: Record<string, unknown>[]): R[] {
  return rows as R[];
}

function toEvent(r: EventRow): EventRecord {
  return {
    calendarId: r.calendar_id,
    id: r.id,
    seq: r.seq,
    status: r.status as EventStatus,
    recurring: r.recurring === 1,
    recurringEventId: r.recurring_event_id,
    originalStartMs: r.original_start_ms,
    startMs: r.start_ms,
    endMs: r.end_ms,
    iCalUID: r.ical_uid,
    updatedMs: r.updated_ms,
    data: JSON.parse(r.data) as JsonObject,
  };
}
const toClient = (r: ClientRow): ClientRecord => ({
  id: r.id,
  secretHash: r.secret_hash,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
});
const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  timeZone: r.time_zone,
  position: r.position,
});
const toCalendar = (r: CalendarRow): CalendarRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  primary: r.is_primary === 1,
  timeZone: r.time_zone,
  seq: r.seq,
  data: JSON.parse(r.data) as JsonObject,
});
const toEntry = (r: EntryRow): CalendarListEntryRecord => ({
  userId: r.user_id,
  calendarId: r.calendar_id,
  deleted: r.deleted === 1,
  hidden: r.hidden === 1,
  seq: r.seq,
  data: JSON.parse(r.data) as JsonObject,
});
const toConnection = (r: ConnectionRow): ConnectionRecord => ({
  id: r.id,
  clientId: r.client_id,
  userId: r.user_id,
  scopes: JSON.parse(r.scopes) as string[],
  offline: r.offline === 1,
  createdAt: r.created_at,
});
const toAccessToken = (r: AccessTokenRow): AccessTokenRecord => ({
  hash: r.hash,
  connectionId: r.connection_id,
  expiresAt: r.expires_at,
});
const toRefreshToken = (r: RefreshTokenRow): RefreshTokenRecord => ({
  hash: r.hash,
  connectionId: r.connection_id,
});
function toChannel(r: ChannelRow): ChannelRecord {
  const resource: ChannelResource =
    r.resource_kind === 'events'
      ? { kind: 'events', calendarId: r.resource_key }
      : { kind: 'calendarList', userId: r.resource_key };
  return {
    id: r.id,
    resourceId: r.resource_id,
    resourceUri: r.resource_uri,
    address: r.address,
    token: r.token,
    expiration: r.expiration,
    connectionId: r.connection_id,
    resource,
    nextMessageNumber: r.next_message_number,
    createdAt: r.created_at,
  };
}

const b = (v: boolean): number => (v ? 1 : 0);
const byId = (x: { id: string }, y: { id: string }): number => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/** Reads the applied schema version of an open database (0 for an empty one). */
function schemaVersion(db: DatabaseSync): number {
  const hasMeta = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (hasMeta === undefined) return 0;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
  return row === undefined ? 0 : Number(row['value']);
}

/** Brings the schema up to SCHEMA_VERSION in one transaction; refuses newer databases. */
function migrate(db: DatabaseSync, path: string): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const version = schemaVersion(db);
    if (!Number.isInteger(version) || version < 0 || version > SCHEMA_VERSION) {
      throw new SchemaVersionError(
        `${path}: database schema version ${String(version)} is newer than this emulator ` +
          `supports (${String(SCHEMA_VERSION)}); upgrade the emulator or use another --db file`,
      );
    }
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v] ?? '');
    if (version !== SCHEMA_VERSION) {
      db.prepare(
        "INSERT INTO meta (key, value) VALUES ('schema_version', ?) " +
          'ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run(String(SCHEMA_VERSION));
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

export function openSqliteStore(path: string, sqlite: typeof import('node:sqlite')): SqliteStore {
  const db = new sqlite.DatabaseSync(path);
  try {
    // busy_timeout first: another process may hold the file while we switch to WAL.
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    // Checkpoints run on a worker thread (checkpointer.ts); this connection's own is a safety net.
    db.exec(`PRAGMA wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    migrate(db, path);
    return new SqliteStore(db, new Checkpointer(path));
  } catch (err) {
    db.close();
    throw err;
  }
}

export class SqliteStore implements Store {
  readonly backend = 'sqlite' as const;
  readonly #db: DatabaseSync;
  readonly #checkpointer: Checkpointer;
  /** Nesting depth of transaction(): 0 outside, >0 in its SAVEPOINTs. */
  #depth = 0;
  #closed = false;
  /** The open group: the transaction every write joins, until its COMMIT (see the top). */
  #group: OpenGroup | undefined;

  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #rollback: StatementSync;
  readonly #savepoint: StatementSync;
  readonly #release: StatementSync;
  readonly #rollbackTo: StatementSync;

  readonly #getMeta: StatementSync;
  readonly #setMeta: StatementSync;
  readonly #dataVersion: StatementSync;
  /** The last sequence handed out. */
  #seq = 0;
  /** The committed meta `seq`: nextSeq may hand out up to this without writing. */
  #reserved = 0;
  #dataVersionSeen = 0;
  /** How many times another connection's commit has been noticed (othersCommitted). */
  #othersCommitted = 0;
  /** Point lookups (read-cache.ts); emptied by cascades, rollbacks and other connections' commits. */
  readonly #cache = new ReadCache();
  /** Whether this turn of the event loop has already looked for other connections' commits. */
  #checkedOthers = false;

  readonly #clear: StatementSync[];

  readonly #putClient: StatementSync;
  readonly #getClient: StatementSync;
  readonly #listClients: StatementSync;

  readonly #putUser: StatementSync;
  readonly #getUser: StatementSync;
  readonly #listUsers: StatementSync;
  readonly #deleteUser: StatementSync[];

  readonly #putCalendar: StatementSync;
  readonly #getCalendar: StatementSync;
  readonly #listCalendarsByOwner: StatementSync;

  readonly #putEntry: StatementSync;
  readonly #getEntry: StatementSync;
  readonly #listEntries: StatementSync;

  readonly #putEvent: StatementSync;
  readonly #getEvent: StatementSync;
  readonly #overlapping: StatementSync;
  readonly #page: StatementSync;
  readonly #changedSince: StatementSync;
  readonly #overlappingIds: StatementSync;
  readonly #pageIds: StatementSync;
  readonly #changedSinceIds: StatementSync;
  readonly #exceptions: StatementSync;
  readonly #byICalUID: StatementSync;
  readonly #count: StatementSync;

  readonly #putConnection: StatementSync;
  readonly #getConnection: StatementSync;
  readonly #listConnections: StatementSync;
  readonly #deleteConnection: StatementSync[];

  readonly #putAccessToken: StatementSync;
  readonly #getAccessToken: StatementSync;
  readonly #findAccessToken: StatementSync;
  readonly #deleteAccessTokensExpiringBefore: StatementSync;
  readonly #putRefreshToken: StatementSync;
  readonly #getRefreshToken: StatementSync;

  readonly #putChannel: StatementSync;
  readonly #getChannel: StatementSync;
  readonly #listChannels: StatementSync;
  readonly #listChannelsWatching: StatementSync;
  readonly #deleteChannel: StatementSync;

  /** Use openSqliteStore, which configures and migrates the database first. */
  constructor(db: DatabaseSync, checkpointer: Checkpointer) {
    this.#db = db;
    this.#checkpointer = checkpointer;
    const p = (sql: string): StatementSync => db.prepare(sql);

    this.#begin = p('BEGIN IMMEDIATE');
    this.#commit = p('COMMIT');
    this.#rollback = p('ROLLBACK');
    this.#savepoint = p('SAVEPOINT nested');
    this.#release = p('RELEASE nested');
    this.#rollbackTo = p('ROLLBACK TO nested');

    this.#getMeta = p('SELECT value FROM meta WHERE key = ?');
    this.#setMeta = p(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.#dataVersion = p('PRAGMA data_version');

    this.#clear = [
      'clients',
      'users',
      'calendars',
      'calendar_list',
      'events',
      'connections',
      'access_tokens',
      'refresh_tokens',
      'channels',
    ].map((t) => p(`DELETE FROM ${t}`));

    this.#putClient = p(
      'INSERT INTO clients (id, secret_hash, redirect_uris) VALUES (?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET secret_hash = excluded.secret_hash, redirect_uris = excluded.redirect_uris',
    );
    this.#getClient = p('SELECT * FROM clients WHERE id = ?');
    this.#listClients = p('SELECT * FROM clients ORDER BY id');

    this.#putUser = p(
      'INSERT INTO users (id, name, email, time_zone, position) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email, ' +
        'time_zone = excluded.time_zone, position = excluded.position',
    );
    this.#getUser = p('SELECT * FROM users WHERE id = ?');
    this.#listUsers = p('SELECT * FROM users ORDER BY position, id');
    // Each takes the user id once. Order matters: the subqueries read calendars and connections,
    // which go last.
    const ownCalendars = 'SELECT id FROM calendars WHERE owner_id = ?';
    const ownConnections = 'SELECT id FROM connections WHERE user_id = ?';
    this.#deleteUser = [
      `DELETE FROM events WHERE calendar_id IN (${ownCalendars})`,
      `DELETE FROM calendar_list WHERE calendar_id IN (${ownCalendars})`,
      'DELETE FROM calendar_list WHERE user_id = ?',
      `DELETE FROM channels WHERE resource_kind = 'events' AND resource_key IN (${ownCalendars})`,
      "DELETE FROM channels WHERE resource_kind = 'calendarList' AND resource_key = ?",
      `DELETE FROM channels WHERE connection_id IN (${ownConnections})`,
      `DELETE FROM access_tokens WHERE connection_id IN (${ownConnections})`,
      `DELETE FROM refresh_tokens WHERE connection_id IN (${ownConnections})`,
      'DELETE FROM connections WHERE user_id = ?',
      'DELETE FROM calendars WHERE owner_id = ?',
      'DELETE FROM users WHERE id = ?',
    ].map(p);

    this.#putCalendar = p(
      'INSERT INTO calendars (id, owner_id, is_primary, time_zone, seq, data) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET owner_id = excluded.owner_id, is_primary = excluded.is_primary, ' +
        'time_zone = excluded.time_zone, seq = excluded.seq, data = excluded.data',
    );
    this.#getCalendar = p('SELECT * FROM calendars WHERE id = ?');
    this.#listCalendarsByOwner = p('SELECT * FROM calendars WHERE owner_id = ? ORDER BY id');

    this.#putEntry = p(
      'INSERT INTO calendar_list (user_id, calendar_id, deleted, hidden, seq, data) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (user_id, calendar_id) DO UPDATE SET deleted = excluded.deleted, ' +
        'hidden = excluded.hidden, seq = excluded.seq, data = excluded.data',
    );
    this.#getEntry = p('SELECT * FROM calendar_list WHERE user_id = ? AND calendar_id = ?');
    this.#listEntries = p('SELECT * FROM calendar_list WHERE user_id = ? ORDER BY calendar_id');

    this.#putEvent = p(
      'INSERT INTO events (calendar_id, id, seq, status, recurring, recurring_event_id, ' +
        'original_start_ms, start_ms, end_ms, ical_uid, updated_ms, long, data) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (calendar_id, id) DO UPDATE SET seq = excluded.seq, status = excluded.status, ' +
        'recurring = excluded.recurring, recurring_event_id = excluded.recurring_event_id, ' +
        'original_start_ms = excluded.original_start_ms, start_ms = excluded.start_ms, ' +
        'end_ms = excluded.end_ms, ical_uid = excluded.ical_uid, updated_ms = excluded.updated_ms, ' +
        'long = excluded.long, data = excluded.data',
    );
    this.#getEvent = p(`SELECT ${EVENT_COLUMNS} FROM events WHERE calendar_id = ? AND id = ?`);
    this.#overlapping = p(EVENT_QUERIES.overlapping);
    this.#page = p(EVENT_QUERIES.page);
    this.#changedSince = p(EVENT_QUERIES.changedSince);
    this.#overlappingIds = p(EVENT_QUERIES.overlappingIds);
    this.#pageIds = p(EVENT_QUERIES.pageIds);
    this.#changedSinceIds = p(EVENT_QUERIES.changedSinceIds);
    this.#exceptions = p(EVENT_QUERIES.exceptions);
    this.#byICalUID = p(EVENT_QUERIES.byICalUID);
    this.#count = p(EVENT_QUERIES.count);

    this.#putConnection = p(
      'INSERT INTO connections (id, client_id, user_id, scopes, offline, created_at) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET client_id = excluded.client_id, user_id = excluded.user_id, ' +
        'scopes = excluded.scopes, offline = excluded.offline, created_at = excluded.created_at',
    );
    this.#getConnection = p('SELECT * FROM connections WHERE id = ?');
    this.#listConnections = p('SELECT * FROM connections ORDER BY created_at, id');
    this.#deleteConnection = [
      'DELETE FROM access_tokens WHERE connection_id = ?',
      'DELETE FROM refresh_tokens WHERE connection_id = ?',
      'DELETE FROM channels WHERE connection_id = ?',
      'DELETE FROM connections WHERE id = ?',
    ].map(p);

    this.#putAccessToken = p('INSERT INTO access_tokens (hash, connection_id, expires_at) VALUES (?, ?, ?)');
    this.#getAccessToken = p('SELECT * FROM access_tokens WHERE expires_at = ? AND hash = ?');
    // A token whose text gives no expiry (issued before they did) is searched for: rare, and
    // such tokens are at most an hour old.
    this.#findAccessToken = p('SELECT * FROM access_tokens WHERE hash = ?');
    this.#deleteAccessTokensExpiringBefore = p(ACCESS_TOKEN_PURGE);
    this.#putRefreshToken = p(
      'INSERT INTO refresh_tokens (hash, connection_id) VALUES (?, ?) ' +
        'ON CONFLICT (hash) DO UPDATE SET connection_id = excluded.connection_id',
    );
    this.#getRefreshToken = p('SELECT * FROM refresh_tokens WHERE hash = ?');

    this.#putChannel = p(
      'INSERT INTO channels (id, resource_id, resource_uri, address, token, expiration, connection_id, ' +
        'resource_kind, resource_key, next_message_number, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET resource_id = excluded.resource_id, resource_uri = excluded.resource_uri, ' +
        'address = excluded.address, token = excluded.token, expiration = excluded.expiration, ' +
        'connection_id = excluded.connection_id, resource_kind = excluded.resource_kind, ' +
        'resource_key = excluded.resource_key, next_message_number = excluded.next_message_number, ' +
        'created_at = excluded.created_at',
    );
    this.#getChannel = p('SELECT * FROM channels WHERE id = ?');
    this.#listChannels = p('SELECT * FROM channels ORDER BY created_at, id');
    this.#listChannelsWatching = p(
      'SELECT * FROM channels WHERE resource_kind = ? AND resource_key = ? ORDER BY created_at, id',
    );
    this.#deleteChannel = p('DELETE FROM channels WHERE id = ?');
    this.#reloadSeq();
  }

  /**
   * After a rollback: a reservation written in the rolled-back part is gone, so the next
   * nextSeq writes a new one (above every sequence handed out) instead of trusting it.
   */
  #forgetReservation(): void {
    this.#reserved = 0;
    // The cache may hold what the rolled-back part wrote.
    this.#cache.clear();
  }

  /** Takes the committed reservation as the new ceiling; the counter never goes down. */
  #reloadSeq(): void {
    const stored = Number(this.#getMeta.get('seq')?.['value']);
    this.#seq = Math.max(this.#seq, stored);
    this.#reserved = stored;
    this.#dataVersionSeen = this.#dataVersion.get()?.['data_version'] as number;
    this.#cache.clear();
  }

  /**
   * Before a cached read: has another connection committed to the file? Asked at most once per
   * turn of the event loop (the question costs as much as the lookup it saves), and not while
   * this store's group holds the write lock, when nobody else can commit.
   */
  #noticeOtherConnections(): void {
    if (this.#checkedOthers || this.#group !== undefined) return;
    this.#checkedOthers = true;
    setImmediate(() => (this.#checkedOthers = false));
    this.#catchUpWithOthers();
  }

  /** Another connection committed since we last looked: reload what it may have changed. */
  #catchUpWithOthers(): void {
    if (this.#dataVersion.get()?.['data_version'] === this.#dataVersionSeen) return;
    this.#othersCommitted++;
    this.#reloadSeq();
  }

  /** A point lookup through the read cache: `statement` with `args` finds the row. */
  #lookup<R, T extends object>(
    kind: CachedKind,
    key: string,
    statement: StatementSync,
    toRecord: (row: R) => T,
    ...args: SQLInputValue[]
  ): T | undefined {
    this.#noticeOtherConnections();
    return this.#cache.get(kind, key, () => {
      const row = rowAs<R>(statement.get(...args));
      return row && toRecord(row);
    });
  }

  /** Runs a writing statement in the open group (opening one if needed). */
  #write(statement: StatementSync, ...args: SQLInputValue[]): void {
    this.#joinGroup();
    statement.run(...args);
  }

  /** Opens the group transaction unless one is open; its COMMIT runs two check phases later. */
  #joinGroup(): void {
    if (this.#group !== undefined) return;
    this.#begin.run();
    // Nobody else can commit from here until our COMMIT; anything they did before is seen now.
    this.#catchUpWithOthers();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A failed commit nobody awaits (a write outside any request) is logged by whoever wrote
    // it, not raised as an unhandled rejection.
    done.catch(() => {});
    // The COMMIT waits two check phases, not one: requests whose bodies arrive in the next poll
    // phase join the group too (under 8 busy clients, about 10 % more writes per second and a
    // lower p99), for one more turn of the event loop of latency, microseconds when idle.
    const group: OpenGroup = { done, resolve, reject, timer: setImmediate(() => (group.timer = setImmediate(() => this.#commitGroup()))) };
    this.#group = group;
  }

  #commitGroup(): void {
    const group = this.#group;
    if (group === undefined) return;
    this.#group = undefined;
    clearImmediate(group.timer);
    try {
      this.#commit.run();
    } catch (err) {
      try {
        this.#rollback.run();
      } catch {
        // SQLite already rolled back on its own (some I/O errors do)
      }
      this.#forgetReservation();
      group.reject(err);
      return;
    }
    this.#checkpointer.committed();
    group.resolve();
  }

  durable(): Promise<void> | undefined {
    return this.#group?.done;
  }

  othersCommitted(): number {
    this.#noticeOtherConnections();
    return this.#othersCommitted;
  }

  transaction<T>(fn: () => T): T {
    this.#joinGroup();
    this.#savepoint.run();
    this.#depth++;
    let result: T;
    try {
      result = fn();
      if (isThenable(result)) throw new TypeError('Store.transaction needs a synchronous function');
    } catch (err) {
      this.#depth--;
      try {
        this.#rollbackTo.run();
        this.#release.run();
      } catch {
        // SQLite already rolled back on its own (some I/O errors do); the original error matters.
      }
      this.#forgetReservation();
      throw err;
    }
    this.#depth--;
    this.#release.run();
    return result;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // The worker's checkpoint, if one runs, first: the one below needs the checkpoint lock.
    this.#checkpointer.close();
    try {
      this.#commitGroup();
      // Give back the unused reservation, so a clean restart numbers on without a gap (unless
      // another connection has moved it meanwhile).
      if (this.#depth === 0 && this.#seq < this.#reserved) {
        this.#db
          .prepare("UPDATE meta SET value = ? WHERE key = 'seq' AND value = ?")
          .run(String(this.#seq), String(this.#reserved));
      }
      // Fold the WAL back into the main file so the database is a single file at rest.
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      this.#db.close();
    }
  }

  getMeta(key: string): string | undefined {
    return this.#lookup('meta', key, this.#getMeta, (row: { value: string }) => row, key)?.value;
  }
  setMeta(key: string, value: string): void {
    this.#write(this.#setMeta, key, value);
    this.#cache.forget('meta', key);
  }
  nextSeq(): number {
    // Another connection may have moved the reservation (inside a group, joinGroup has looked).
    if (this.#group === undefined) this.#catchUpWithOthers();
    const seq = ++this.#seq;
    if (seq > this.#reserved) {
      this.setMeta('seq', String(seq + SEQ_RESERVATION - 1));
      this.#reserved = seq + SEQ_RESERVATION - 1;
    }
    return seq;
  }

  clearWorkspace(): void {
    this.transaction(() => {
      for (const s of this.#clear) s.run();
    });
    this.#cache.clear();
  }

  putClient(c: ClientRecord): void {
    this.#write(this.#putClient, c.id, c.secretHash, JSON.stringify(c.redirectUris));
    this.#cache.forget('client', c.id);
  }
  getClient(id: string): ClientRecord | undefined {
    return this.#lookup('client', id, this.#getClient, toClient, id);
  }
  listClients(): ClientRecord[] {
    return rowsAs<ClientRow>(this.#listClients.all()).map(toClient);
  }

  putUser(u: UserRecord): void {
    this.#write(this.#putUser, u.id, u.name, u.email, u.timeZone, u.position);
    this.#cache.forget('user', u.id);
  }
  getUser(id: string): UserRecord | undefined {
    return this.#lookup('user', id, this.#getUser, toUser, id);
  }
  listUsers(): UserRecord[] {
    return rowsAs<UserRow>(this.#listUsers.all()).map(toUser);
  }
  deleteUser(id: string): void {
    this.transaction(() => {
      for (const s of this.#deleteUser) s.run(id);
    });
    this.#cache.clear();
  }

  putCalendar(c: CalendarRecord): void {
    this.#write(this.#putCalendar, c.id, c.ownerId, b(c.primary), c.timeZone, c.seq, JSON.stringify(c.data));
    this.#cache.forget('calendar', c.id);
  }
  getCalendar(id: string): CalendarRecord | undefined {
    return this.#lookup('calendar', id, this.#getCalendar, toCalendar, id);
  }
  listCalendarsByOwner(ownerId: string): CalendarRecord[] {
    return rowsAs<CalendarRow>(this.#listCalendarsByOwner.all(ownerId)).map(toCalendar);
  }

  putCalendarListEntry(e: CalendarListEntryRecord): void {
    this.#write(this.#putEntry, e.userId, e.calendarId, b(e.deleted), b(e.hidden), e.seq, JSON.stringify(e.data));
    this.#cache.forget('calendarListEntry', entryKey(e.userId, e.calendarId));
  }
  getCalendarListEntry(userId: string, calendarId: string): CalendarListEntryRecord | undefined {
    return this.#lookup('calendarListEntry', entryKey(userId, calendarId), this.#getEntry, toEntry, userId, calendarId);
  }
  listCalendarListEntries(userId: string): CalendarListEntryRecord[] {
    return rowsAs<EntryRow>(this.#listEntries.all(userId)).map(toEntry);
  }

  putEvent(e: EventRecord): void {
    this.#write(
      this.#putEvent,
      e.calendarId,
      e.id,
      e.seq,
      e.status,
      b(e.recurring),
      e.recurringEventId,
      e.originalStartMs,
      e.startMs,
      e.endMs,
      e.iCalUID,
      e.updatedMs,
      b(isLongEvent(e)),
      JSON.stringify(e.data),
    );
    this.#cache.forget('event', eventKey(e.calendarId, e.id));
    this.#cache.forgetLists(e.calendarId);
  }
  getEvent(calendarId: string, id: string): EventRecord | undefined {
    return this.#lookup('event', eventKey(calendarId, id), this.#getEvent, toEvent, calendarId, id);
  }
  listEventsOverlapping(calendarId: string, fromMs: number, toMs: number): EventRecord[] {
    this.#noticeOtherConnections();
    const args: SQLInputValue[] = [calendarId, fromMs - SHORT_EVENT_MAX_MS, toMs, fromMs, calendarId, toMs, fromMs];
    return this.#eventsViaCache(calendarId, this.#overlappingIds.get(...args), () => this.#overlapping.all(...args));
  }
  listEventsPage(calendarId: string, afterId: string, limit: number): readonly EventRecord[] {
    this.#noticeOtherConnections();
    return this.#cache.list(calendarId, `id ${afterId} ${limit}`, () =>
      this.#eventsViaCache(calendarId, this.#pageIds.get(calendarId, afterId, limit), () => this.#page.all(calendarId, afterId, limit)),
    );
  }
  listEventsChangedSince(calendarId: string, afterSeq: number, limit: number): readonly EventRecord[] {
    this.#noticeOtherConnections();
    return this.#cache.list(calendarId, `seq ${afterSeq} ${limit}`, () =>
      this.#eventsViaCache(calendarId, this.#changedSinceIds.get(calendarId, afterSeq, limit), () =>
        this.#changedSince.all(calendarId, afterSeq, limit),
      ),
    );
  }

  /**
   * Events found by an index, taken from the record cache: a page that is not in the list
   * cache, or the events in a time window. `ids` come from the index alone (a page's index
   * covers it; a window's reads each candidate's end), so no event's JSON is read for them; only
   * when one of them is not cached are the rows read (`rows`, the same query with every column),
   * and all of them cached. Parsing that JSON was half of a freeBusy query.
   */
  #eventsViaCache(calendarId: string, ids: Record<string, unknown> | undefined, rows: () => Record<string, unknown>[]): EventRecord[] {
    const joined = ids?.['ids'];
    if (typeof joined !== 'string') return [];
    const out: EventRecord[] = [];
    for (const id of joined.split('\n')) {
      const cached = this.#cache.peek<EventRecord>('event', eventKey(calendarId, id));
      if (cached === undefined) {
        return rowsAs<EventRow>(rows()).map((r) => this.#cache.put('event', eventKey(r.calendar_id, r.id), toEvent(r)));
      }
      out.push(cached);
    }
    return out;
  }
  listExceptions(calendarId: string, recurringEventId: string): EventRecord[] {
    return rowsAs<EventRow>(this.#exceptions.all(calendarId, recurringEventId)).map(toEvent).sort(byId);
  }
  listEventsByICalUID(calendarId: string, iCalUID: string): EventRecord[] {
    const args: SQLInputValue[] = [calendarId, iCalUID, calendarId, idOfDefaultICalUID(iCalUID), iCalUID];
    return rowsAs<EventRow>(this.#byICalUID.all(...args)).map(toEvent).sort(byId);
  }
  countEvents(calendarId: string): number {
    return this.#count.get(calendarId)?.['n'] as number;
  }

  putConnection(c: ConnectionRecord): void {
    this.#write(this.#putConnection, c.id, c.clientId, c.userId, JSON.stringify(c.scopes), b(c.offline), c.createdAt);
    this.#cache.forget('connection', c.id);
  }
  getConnection(id: string): ConnectionRecord | undefined {
    return this.#lookup('connection', id, this.#getConnection, toConnection, id);
  }
  listConnections(): ConnectionRecord[] {
    return rowsAs<ConnectionRow>(this.#listConnections.all()).map(toConnection);
  }
  deleteConnection(id: string): void {
    this.transaction(() => {
      for (const s of this.#deleteConnection) s.run(id);
    });
    this.#cache.clear();
  }

  putAccessToken(t: AccessTokenRecord): void {
    this.#write(this.#putAccessToken, t.hash, t.connectionId, t.expiresAt);
  }
  getAccessToken(hash: string, expiresAt?: number): AccessTokenRecord | undefined {
    const r = rowAs<AccessTokenRow>(expiresAt === undefined ? this.#findAccessToken.get(hash) : this.#getAccessToken.get(expiresAt, hash));
    return r && toAccessToken(r);
  }
  deleteAccessTokensExpiringBefore(before: number, limit: number): number {
    this.#joinGroup();
    return Number(this.#deleteAccessTokensExpiringBefore.run(before, limit).changes);
  }
  putRefreshToken(t: RefreshTokenRecord): void {
    this.#write(this.#putRefreshToken, t.hash, t.connectionId);
    this.#cache.forget('refreshToken', t.hash);
  }
  getRefreshToken(hash: string): RefreshTokenRecord | undefined {
    return this.#lookup('refreshToken', hash, this.#getRefreshToken, toRefreshToken, hash);
  }

  putChannel(c: ChannelRecord): void {
    const [kind, key] = resourceColumns(c.resource);
    this.#write(
      this.#putChannel,
      c.id,
      c.resourceId,
      c.resourceUri,
      c.address,
      c.token,
      c.expiration,
      c.connectionId,
      kind,
      key,
      c.nextMessageNumber,
      c.createdAt,
    );
  }
  getChannel(id: string): ChannelRecord | undefined {
    const r = rowAs<ChannelRow>(this.#getChannel.get(id));
    return r && toChannel(r);
  }
  listChannels(): ChannelRecord[] {
    return rowsAs<ChannelRow>(this.#listChannels.all()).map(toChannel);
  }
  listChannelsWatching(resource: ChannelResource): ChannelRecord[] {
    return rowsAs<ChannelRow>(this.#listChannelsWatching.all(...resourceColumns(resource))).map(toChannel);
  }
  deleteChannel(id: string): void {
    this.#write(this.#deleteChannel, id);
  }
}

/** The (resource_kind, resource_key) columns of a channel's resource. */
function resourceColumns(r: ChannelResource): [string, string] {
  return r.kind === 'events' ? ['events', r.calendarId] : ['calendarList', r.userId];
}

/** An event's cache key: event ids (base32hex, instance suffixes) never contain a newline. */
function eventKey(calendarId: string, id: string): string {
  return `${calendarId}\n${id}`;
}

/** User ids are free text, so the key says where the user id ends. */
function entryKey(userId: string, calendarId: string): string {
  return `${userId.length}:${userId}${calendarId}`;
}

interface OpenGroup {
  readonly done: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
  /** The pending step towards the COMMIT (see joinGroup). */
  timer: NodeJS.Immediate;
}

function isThenable(v: unknown): boolean {
  return (
    typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function'
  );
}
