// The SQLite store's schema: the versioned steps that build it, and the check that applies the
// missing ones when a database is opened.
//
// `meta.schema_version` records how many entries of MIGRATIONS have been applied; migrate()
// applies the missing ones in one transaction and refuses a database written by a newer version
// of this code. A database at any earlier version is upgraded in place
// (test/store/store.test.ts upgrades each earlier version).

import type { DatabaseSync } from 'node:sqlite';

/**
 * Migration n (1-based) brings the schema from version n-1 to n. Append only: a step is never
 * changed, except to retire one (empty it) whose every effect a later step undoes on every
 * database, old or new (step 2).
 */
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
  // 2 (retired): kept default iCalUIDs (the calendar layer's rule) out of the iCalUID index, a
  // partial index that only listEventsByICalUID read. That lookup is gone and step 4 drops the
  // index whatever its form, so a database at version 1 ends in the same schema without this
  // step, and the store keeps no trace of the calendar layer's iCalUID rule.
  '',
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
  // 4: the events' iCalUID index served only lookups by iCalUID, which nothing makes any more
  // (events.list filters its page by iCalUID as it renders it). One index less for every insert.
  `
  DROP INDEX IF EXISTS events_ical_uid;
  `,
  // 5: the outbox (docs/invitations.md): the e-mails Google would have sent, in seq order.
  `
  CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    recipient TEXT NOT NULL,
    kind TEXT NOT NULL,
    event_id TEXT NOT NULL,
    calendar_id TEXT NOT NULL,
    from_user_id TEXT NOT NULL,
    summary TEXT
  );
  `,
  // 6: copies of an organizer's event that its invitees hold alike, stored once (Store's
  // SharedCopyRecord): an insert inviting twenty test users writes one row here instead of
  // twenty in events, each on its own calendar's pages of every index. So the indexes lead with
  // what the copies of one write share (id, start, seq), and a holder's reads filter by holder.
  `
  CREATE TABLE IF NOT EXISTS shared_copies (
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
    -- A JSON array of the holders' calendar ids.
    holders TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (id, calendar_id)
  );
  CREATE INDEX IF NOT EXISTS shared_copies_short_start ON shared_copies (start_ms) WHERE long = 0;
  CREATE INDEX IF NOT EXISTS shared_copies_long ON shared_copies (start_ms) WHERE long = 1;
  CREATE INDEX IF NOT EXISTS shared_copies_seq ON shared_copies (seq, id);
  `,
  // 7: the outbox bounded (docs/invitations.md, outbox-bounds.ts): messages numbered by the outbox
  // itself, each with the bytes recorded before it, so that a write drops the oldest by ranges of
  // the primary key. Messages recorded before this version had no size kept; they are dropped
  // rather than measured here: the outbox is a log of what was sent, not workspace data (docs/workspaces.md).
  `
  DROP TABLE outbox;
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    start INTEGER NOT NULL,
    at INTEGER NOT NULL,
    recipient TEXT NOT NULL,
    kind TEXT NOT NULL,
    event_id TEXT NOT NULL,
    calendar_id TEXT NOT NULL,
    from_user_id TEXT NOT NULL,
    summary TEXT
  );
  `,
  // 8: channel ids remembered after their channel is gone (Google refuses an id once used, even
  // after a stop), numbered by age so that the oldest are dropped by a range of the primary key.
  // The ids of channels already stored are remembered from the start.
  `
  CREATE TABLE IF NOT EXISTS channel_ids (
    n INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE
  );
  INSERT OR IGNORE INTO channel_ids (id) SELECT id FROM channels ORDER BY created_at, id;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class SchemaVersionError extends Error {
  override name = 'SchemaVersionError';
}

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
export function migrate(db: DatabaseSync, path: string): void {
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
