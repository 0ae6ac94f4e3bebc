// The SQL of the SQLite store's methods (sqlite.ts), each prepared when first run. The
// queries that must stay on an index are exported so that tests check their plans with
// EXPLAIN QUERY PLAN. Columns of the writing statements come from sqlite-rows.ts, in the order
// written here.

import type { DatabaseSync, StatementSync } from 'node:sqlite';

const EVENT_COLUMNS =
  'calendar_id, id, seq, status, recurring, recurring_event_id, original_start_ms, start_ms, end_ms, ical_uid, updated_ms, data';

/** The event queries. Parameters are positional and listed in each comment. */
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
  // (calendarId, afterSeq, limit)
  changedSince: `SELECT ${EVENT_COLUMNS} FROM events
    WHERE calendar_id = ? AND seq > ? ORDER BY seq, id LIMIT ?`,
  // The ids alone of `changedSince`, from its covering index, as one newline-separated string
  // (event ids never hold one): one row instead of 250 (eventsViaCache).
  changedSinceIds: `SELECT group_concat(id, char(10) ORDER BY seq, id) AS ids FROM
    (SELECT id, seq FROM events WHERE calendar_id = ? AND seq > ? ORDER BY seq, id LIMIT ?)`,
  // (calendarId, recurringEventId)
  // No ORDER BY here: it would tempt the planner into the primary key (which yields id order)
  // over the selective index. The few rows are sorted in JS instead.
  exceptions: `SELECT ${EVENT_COLUMNS} FROM events WHERE calendar_id = ? AND recurring_event_id = ?`,
} as const;

/**
 * A shared copy that the holder (?1) holds and no event of its own hides (Store's
 * SharedCopyRecord). The copies of one write share their id, start and seq, so each query walks
 * an index led by one of those and filters by holder.
 */
const HELD = `EXISTS (SELECT 1 FROM json_each(s.holders) WHERE value = ?1)
  AND NOT EXISTS (SELECT 1 FROM events e WHERE e.calendar_id = ?1 AND e.id = s.id)`;

/**
 * The shared-copy queries. Parameters are numbered (named ones cost a microsecond more to bind,
 * and getEvent runs on every insert); shared-copy rows carry the organizer's calendar_id.
 */
export const SHARED_COPY_QUERIES = {
  // (?1 holder, ?2 id): the holder's own event, else the shared copy it holds (the first
  // organizer's, in calendar id order), as the holder reads it. One statement: a lookup that
  // finds neither (every insert checks that its id is free) costs one statement, not two.
  held: `SELECT ${EVENT_COLUMNS} FROM events WHERE calendar_id = ?1 AND id = ?2
    UNION ALL
    SELECT * FROM (SELECT ?1, ${EVENT_COLUMNS.replace('calendar_id, ', '')} FROM shared_copies s
      WHERE id = ?2 AND EXISTS (SELECT 1 FROM json_each(s.holders) WHERE value = ?1)
      ORDER BY calendar_id LIMIT 1)
    LIMIT 1`,
  // (?1 holder, ?2 fromMs - SHORT_EVENT_MAX_MS, ?3 fromMs, ?4 toMs)
  overlapping: `
    SELECT ${EVENT_COLUMNS} FROM shared_copies s
      WHERE long = 0 AND start_ms >= ?2 AND start_ms < ?4 AND end_ms > ?3 AND ${HELD}
    UNION ALL
    SELECT ${EVENT_COLUMNS} FROM shared_copies s
      WHERE long = 1 AND start_ms < ?4 AND end_ms > ?3 AND ${HELD}`,
  // (?1 holder, ?2 afterSeq, ?3 limit)
  changedSince: `SELECT ${EVENT_COLUMNS} FROM shared_copies s
    WHERE seq > ?2 AND ${HELD} ORDER BY seq, id LIMIT ?3`,
} as const;

/**
 * (before, limit): Store.deleteAccessTokensExpiringBefore. The soonest expiring tokens are the
 * first entries of the primary key (expires_at, hash), so this reads a range at the start of the
 * B-tree, whatever the table's size. (DELETE ... LIMIT needs a build option that node:sqlite's
 * SQLite may lack, hence the subquery.)
 */
export const ACCESS_TOKEN_PURGE =
  'DELETE FROM access_tokens WHERE (expires_at, hash) IN ' +
  '(SELECT expires_at, hash FROM access_tokens WHERE expires_at < ? ORDER BY expires_at, hash LIMIT ?)';

/**
 * (?1 dropBeforeId, ?2 dropBeforeStart, ?3 the next id): the outbox's trim (outbox-bounds.ts).
 * Ids and starts grow together, so the messages to drop are those below the first one whose
 * start is late enough, found by walking the primary key from the oldest: the walk reads the
 * rows it drops and one more, whatever the outbox holds. None late enough: every one goes.
 */
export const OUTBOX_TRIM =
  'DELETE FROM outbox WHERE id < max(?1, coalesce((SELECT id FROM outbox WHERE start >= ?2 ORDER BY id LIMIT 1), ?3))';

/** (?1 afterId, ?2 limit, ?3 OUTBOX_PAGE_BYTES): Store.readOutbox, on the primary key. */
export const OUTBOX_PAGE = `SELECT * FROM outbox
  WHERE id > ?1 AND start < (SELECT start FROM outbox WHERE id > ?1 ORDER BY id LIMIT 1) + ?3
  ORDER BY id LIMIT ?2`;

/** The tables clearWorkspace empties: every one but meta. */
export const WORKSPACE_TABLES = [
  'clients',
  'users',
  'calendars',
  'calendar_list',
  'events',
  'shared_copies',
  'connections',
  'access_tokens',
  'refresh_tokens',
  'channels',
  'channel_ids',
  'outbox',
];

/**
 * The store's statements, each prepared when first used and kept from then on. A prepared
 * statement holds its compiled program (kilobytes each, some eighty of them), and an idle
 * workspace (docs/workspaces.md) runs a handful: preparing them all at open made most of what a
 * thousand idle workspaces cost in memory, and a good part of what opening one took.
 */
export function prepareStatements(db: DatabaseSync): Statements {
  const statements = {};
  for (const [name, sql] of Object.entries(statementTexts())) {
    const prepare = (): unknown => (typeof sql === 'string' ? db.prepare(sql) : sql.map((each) => db.prepare(each)));
    Object.defineProperty(statements, name, {
      configurable: true,
      enumerable: true,
      get() {
        // From then on a plain property: later reads cost no call.
        const value = prepare();
        Object.defineProperty(statements, name, { value, enumerable: true });
        return value;
      },
    });
  }
  return statements as Statements;
}

type Texts = ReturnType<typeof statementTexts>;

/** Each text of statementTexts as its prepared statement (a list of texts as a list of statements). */
export type Statements = { readonly [K in keyof Texts]: Texts[K] extends string ? StatementSync : StatementSync[] };

function statementTexts() {
  // Each takes the user id once. Order matters: the subqueries read calendars and connections,
  // which go last.
  const ownCalendars = 'SELECT id FROM calendars WHERE owner_id = ?';
  const ownConnections = 'SELECT id FROM connections WHERE user_id = ?';
  // The same, for statements that name the user twice (?1 binds both).
  const ownCalendars1 = 'SELECT id FROM calendars WHERE owner_id = ?1';
  return {
    getMeta: 'SELECT value FROM meta WHERE key = ?',
    setMeta: 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    deleteMeta: 'DELETE FROM meta WHERE key = ?',
    listMeta: 'SELECT key, value FROM meta WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key',
    /** (seq, reservation): gives back an unused reservation, unless another connection moved it. */
    giveBackSeq: "UPDATE meta SET value = ? WHERE key = 'seq' AND value = ?",

    clear: WORKSPACE_TABLES.map((t) => `DELETE FROM ${t}`),
    countEvents: 'SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM shared_copies) AS n',

    putClient: 'INSERT INTO clients (id, secret_hash, redirect_uris) VALUES (?, ?, ?) ' +
      'ON CONFLICT (id) DO UPDATE SET secret_hash = excluded.secret_hash, redirect_uris = excluded.redirect_uris',
    getClient: 'SELECT * FROM clients WHERE id = ?',
    listClients: 'SELECT * FROM clients ORDER BY id',

    putUser: 'INSERT INTO users (id, name, email, time_zone, position) VALUES (?, ?, ?, ?, ?) ' +
      'ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email, ' +
      'time_zone = excluded.time_zone, position = excluded.position',
    getUser: 'SELECT * FROM users WHERE id = ?',
    listUsers: 'SELECT * FROM users ORDER BY position, id',
    deleteUser: [
      // Shared copies of the user's events become each remaining holder's own (Store.deleteUser).
      `INSERT INTO events (${EVENT_COLUMNS}, long)
        SELECT h.value, s.id, s.seq, s.status, s.recurring, s.recurring_event_id, s.original_start_ms, s.start_ms,
          s.end_ms, s.ical_uid, s.updated_ms, s.data, s.long
        FROM shared_copies s, json_each(s.holders) h
        WHERE s.calendar_id IN (${ownCalendars1}) AND h.value NOT IN (${ownCalendars1})
        ON CONFLICT (calendar_id, id) DO NOTHING`,
      `DELETE FROM shared_copies WHERE calendar_id IN (${ownCalendars})`,
      `DELETE FROM shared_copies WHERE NOT EXISTS (SELECT 1 FROM json_each(holders) WHERE value NOT IN (${ownCalendars1}))`,
      `UPDATE shared_copies SET holders = (SELECT json_group_array(value) FROM json_each(holders) WHERE value NOT IN (${ownCalendars1}))
        WHERE EXISTS (SELECT 1 FROM json_each(holders) WHERE value IN (${ownCalendars1}))`,
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
    ],

    putCalendar: 'INSERT INTO calendars (id, owner_id, is_primary, time_zone, seq, data) VALUES (?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (id) DO UPDATE SET owner_id = excluded.owner_id, is_primary = excluded.is_primary, ' +
      'time_zone = excluded.time_zone, seq = excluded.seq, data = excluded.data',
    getCalendar: 'SELECT * FROM calendars WHERE id = ?',
    listCalendarsByOwner: 'SELECT * FROM calendars WHERE owner_id = ? ORDER BY id',

    putEntry: 'INSERT INTO calendar_list (user_id, calendar_id, deleted, hidden, seq, data) VALUES (?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (user_id, calendar_id) DO UPDATE SET deleted = excluded.deleted, ' +
      'hidden = excluded.hidden, seq = excluded.seq, data = excluded.data',
    getEntry: 'SELECT * FROM calendar_list WHERE user_id = ? AND calendar_id = ?',
    listEntries: 'SELECT * FROM calendar_list WHERE user_id = ? ORDER BY calendar_id',

    putEvent: 'INSERT INTO events (calendar_id, id, seq, status, recurring, recurring_event_id, ' +
      'original_start_ms, start_ms, end_ms, ical_uid, updated_ms, long, data) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (calendar_id, id) DO UPDATE SET seq = excluded.seq, status = excluded.status, ' +
      'recurring = excluded.recurring, recurring_event_id = excluded.recurring_event_id, ' +
      'original_start_ms = excluded.original_start_ms, start_ms = excluded.start_ms, ' +
      'end_ms = excluded.end_ms, ical_uid = excluded.ical_uid, updated_ms = excluded.updated_ms, ' +
      'long = excluded.long, data = excluded.data',
    overlapping: EVENT_QUERIES.overlapping,
    overlappingIds: EVENT_QUERIES.overlappingIds,
    changedSince: EVENT_QUERIES.changedSince,
    changedSinceIds: EVENT_QUERIES.changedSinceIds,
    exceptions: EVENT_QUERIES.exceptions,

    putSharedCopy: 'INSERT INTO shared_copies (calendar_id, id, seq, status, recurring, recurring_event_id, original_start_ms, ' +
      'start_ms, end_ms, ical_uid, updated_ms, long, data, holders) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (id, calendar_id) DO UPDATE SET seq = excluded.seq, status = excluded.status, ' +
      'recurring = excluded.recurring, recurring_event_id = excluded.recurring_event_id, ' +
      'original_start_ms = excluded.original_start_ms, start_ms = excluded.start_ms, ' +
      'end_ms = excluded.end_ms, ical_uid = excluded.ical_uid, updated_ms = excluded.updated_ms, ' +
      'long = excluded.long, holders = excluded.holders, data = excluded.data',
    deleteSharedCopy: 'DELETE FROM shared_copies WHERE calendar_id = ? AND id = ?',
    getSharedCopy: `SELECT ${EVENT_COLUMNS}, holders FROM shared_copies WHERE id = ? AND calendar_id = ?`,
    sharedCopyHolders: 'SELECT holders FROM shared_copies WHERE id = ? AND calendar_id = ?',
    getEvent: SHARED_COPY_QUERIES.held,
    heldOverlapping: SHARED_COPY_QUERIES.overlapping,
    heldChangedSince: SHARED_COPY_QUERIES.changedSince,

    putConnection: 'INSERT INTO connections (id, client_id, user_id, scopes, offline, created_at) VALUES (?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (id) DO UPDATE SET client_id = excluded.client_id, user_id = excluded.user_id, ' +
      'scopes = excluded.scopes, offline = excluded.offline, created_at = excluded.created_at',
    getConnection: 'SELECT * FROM connections WHERE id = ?',
    listConnections: 'SELECT * FROM connections ORDER BY created_at, id',
    deleteConnection: [
      'DELETE FROM access_tokens WHERE connection_id = ?',
      'DELETE FROM refresh_tokens WHERE connection_id = ?',
      'DELETE FROM channels WHERE connection_id = ?',
      'DELETE FROM connections WHERE id = ?',
    ],

    putAccessToken: 'INSERT INTO access_tokens (hash, connection_id, expires_at) VALUES (?, ?, ?)',
    getAccessToken: 'SELECT * FROM access_tokens WHERE expires_at = ? AND hash = ?',
    // A token whose text gives no expiry (issued before they did) is searched for: rare, and
    // such tokens are at most an hour old.
    findAccessToken: 'SELECT * FROM access_tokens WHERE hash = ?',
    deleteAccessTokensExpiringBefore: ACCESS_TOKEN_PURGE,
    putRefreshToken: 'INSERT INTO refresh_tokens (hash, connection_id) VALUES (?, ?) ' +
      'ON CONFLICT (hash) DO UPDATE SET connection_id = excluded.connection_id',
    getRefreshToken: 'SELECT * FROM refresh_tokens WHERE hash = ?',

    putChannel: 'INSERT INTO channels (id, resource_id, resource_uri, address, token, expiration, connection_id, ' +
      'resource_kind, resource_key, next_message_number, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (id) DO UPDATE SET resource_id = excluded.resource_id, resource_uri = excluded.resource_uri, ' +
      'address = excluded.address, token = excluded.token, expiration = excluded.expiration, ' +
      'connection_id = excluded.connection_id, resource_kind = excluded.resource_kind, ' +
      'resource_key = excluded.resource_key, next_message_number = excluded.next_message_number, ' +
      'created_at = excluded.created_at',
    getChannel: 'SELECT * FROM channels WHERE id = ?',
    listChannels: 'SELECT * FROM channels ORDER BY created_at, id',
    listChannelsWatching: 'SELECT * FROM channels WHERE resource_kind = ? AND resource_key = ? ORDER BY created_at, id',
    deleteChannel: 'DELETE FROM channels WHERE id = ?',
    rememberChannelId: 'INSERT INTO channel_ids (id) VALUES (?) ON CONFLICT (id) DO NOTHING',
    /** (kept): drops all but the newest `kept`, found from the oldest end of the primary key. */
    trimChannelIds: 'DELETE FROM channel_ids WHERE n <= (SELECT max(n) FROM channel_ids) - ?',
    isChannelIdRemembered: 'SELECT 1 FROM channel_ids WHERE id = ?',

    putOutboxMessage: 'INSERT INTO outbox (id, start, at, recipient, kind, event_id, calendar_id, from_user_id, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    trimOutbox: OUTBOX_TRIM,
    outboxPage: OUTBOX_PAGE,
    lastOutboxId: 'SELECT coalesce(max(id), 0) AS last FROM outbox',
    clearOutbox: 'DELETE FROM outbox',
  };
}
