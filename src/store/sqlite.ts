// The SQLite backend of the Store interface, on node:sqlite's DatabaseSync: the store's methods,
// one or a few lines each over the machinery beside them. The class stays one file because every
// method shares its connection, read cache and group commit, which are private to it, and
// reaches the connection through its lifecycle (closed while idle, opened again on use). The
// machinery, each in its own file:
// - sqlite-open.ts: opening a database file (pragmas, migration, the image of a new file);
// - sqlite-schema.ts: the versioned schema and its migrations;
// - sqlite-statements.ts: the SQL, prepared once when the store opens;
// - sqlite-rows.ts: rows <-> records;
// - group-commit.ts: durability (WAL, synchronous=NORMAL, group commit) and transaction();
// - sequence-reservation.ts: nextSeq, handed out from a reservation in meta `seq`;
// - other-connections.ts: noticing commits by other processes on the same file;
// - read-cache.ts: point lookups and pages of events kept in memory;
// - connection-budget.ts and connection-handoff.ts: closing an idle workspace's connection and
//   the thread that takes over the costly last close (the store opens it again on its next use).
//
// Every write is atomic: a single statement is (SQLite rolls back a failed statement alone), and
// multi-statement writes (cascades, clearWorkspace) run inside transaction().
// The node:sqlite module is passed in (see open.ts) so that this file can be loaded, and
// type-checked, on a runtime that lacks it.
//
// Reserved meta keys: `schema_version`, `seq` (the counter behind nextSeq) and `outbox`
// (outbox-bounds.ts).

import type { DatabaseSync, StatementSync, SQLInputValue } from 'node:sqlite';
import { CHANNEL_IDS_KEPT, mergeChanges, SHORT_EVENT_MAX_MS } from './backend-rules.ts';
import type { Checkpointer } from './checkpointer.ts';
import type { BudgetedConnection, ConnectionBudget } from './connection-budget.ts';
import { HandOff } from './connection-handoff.ts';
import { GroupCommit } from './group-commit.ts';
import { OtherConnections } from './other-connections.ts';
import { formatCounters, OUTBOX_META, OUTBOX_PAGE_BYTES, parseCounters, planOutboxWrite } from './outbox-bounds.ts';
import { ReadCache } from './read-cache.ts';
import type { CachedKind } from './read-cache.ts';
import { SequenceReservation } from './sequence-reservation.ts';
import { accessTokenColumns, calendarColumns, channelColumns, clientColumns, connectionColumns,
  entryColumns, eventColumns, refreshTokenColumns, resourceColumns, rowAs, rowsAs, toAccessToken,
  toCalendar, toChannel, toClient, toConnection, toEntry, toEvent, toRefreshToken, toUser, userColumns,
  outboxColumns, sharedCopyColumns, toOutboxMessage, toSharedCopy } from './sqlite-rows.ts';
import type { AccessTokenRow, ChannelRow, EventRow, OutboxRow } from './sqlite-rows.ts';
import { prepareStatements, WORKSPACE_TABLES } from './sqlite-statements.ts';
import type { Statements } from './sqlite-statements.ts';
import type { AccessTokenRecord, CalendarListEntryRecord, CalendarRecord, ChannelRecord, ChannelResource,
  ClientRecord, ConnectionRecord, EventRecord, NewOutboxMessage, OutboxMessageRecord, OutboxPage, RefreshTokenRecord, SharedCopyRecord, Store, MetaEntry, UserRecord, WorkspaceSizes } from './store.ts';

/**
 * The read cache's group for the list of users (read by every write that invites, and by every
 * consent page). Groups are otherwise calendar ids, so a calendar with this id would only make
 * each forget the other's lists more often than needed.
 */
const USERS_LIST = 'users';
/**
 * The group of the lists of channels watching each resource, read by every write (push/service.ts)
 * although few resources are watched; a channel written forgets them all. Named as USERS_LIST is.
 */
const CHANNEL_LISTS = 'channels';

/**
 * What a snapshot (Store.takeSnapshot) keeps: the workspace's tables but the outbox, which is not
 * data, and the used channel ids, which stay spent (Google never reuses one).
 */
const SNAPSHOT_TABLES = WORKSPACE_TABLES.filter((table) => table !== 'outbox' && table !== 'channel_ids');

/** A snapshot's copy of `table`: a temporary table, in memory (temp_store) and private to this connection. */
const snapshotTable = (id: number, table: string): string => `temp.snapshot_${id}_${table}`;

const byId = (x: { id: string }, y: { id: string }): number => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/** What lives only as long as one connection: the connection, its statements and its group commit. */
interface Connection {
  readonly db: DatabaseSync;
  sql: Statements;
  readonly group: GroupCommit;
}

/** How a store under a connection budget (connection-budget.ts) opens its connection again. */
export interface Reopening {
  readonly budget: ConnectionBudget;
  /** The database file, for the thread that takes over closing (connection-handoff.ts). */
  readonly path: string;
  connect(): DatabaseSync;
}

export class SqliteStore implements Store, BudgetedConnection {
  readonly backend = 'sqlite' as const;
  /** The open connection; undefined while the budget has it closed, and once the store is closed. */
  #connection: Connection | undefined;
  readonly #reopening: Reopening | undefined;
  #lastUse = 0;
  /** The handoff closing the idle connection (connection-handoff.ts), until it has. */
  #handOff: HandOff | undefined;
  /** What sizes() answers while the budget has the connection closed. */
  #sizesAtClose: WorkspaceSizes | undefined;
  readonly #checkpointer: Checkpointer;
  readonly #seq: SequenceReservation;
  readonly #others: OtherConnections;
  /** Point lookups (read-cache.ts); emptied by cascades, rollbacks and other connections' commits. */
  readonly #cache = new ReadCache();
  #closed = false;
  readonly #snapshots = new Set<number>();
  #nextSnapshot = 1;

  /**
   * Use openSqliteStore (sqlite-open.ts), which configures and migrates the database first. With
   * `reopening`, the budget may close the connection while the store is idle (closeIfIdle), and
   * the next use opens it again.
   */
  constructor(db: DatabaseSync, checkpointer: Checkpointer, reopening?: Reopening) {
    this.#checkpointer = checkpointer;
    this.#reopening = reopening;
    this.#connection = this.#attach(db);
    this.#seq = new SequenceReservation(
      () => Number(this.#sql.getMeta.get('seq')?.['value']),
      (reservation) => this.setMeta('seq', String(reservation)),
    );
    this.#others = new OtherConnections(db, () => this.#reload());
    this.#reload();
    this.#reopening?.budget.opened(this);
  }

  #attach(db: DatabaseSync): Connection {
    const group = new GroupCommit(db, {
      // Anything others committed before our lock is seen now.
      opened: () => this.#others.catchUp(),
      rolledBack: () => {
        this.#seq.forget();
        // The cache may hold what the rolled-back part wrote.
        this.#cache.clear();
      },
      committed: (rows) => this.#checkpointer.committed(rows),
    });
    return { db, sql: prepareStatements(db), group };
  }

  /** The connection, opened again if the budget closed it; each use counts for the budget. */
  get #open(): Connection {
    if (this.#reopening !== undefined) {
      this.#lastUse = this.#reopening.budget.tick();
      // Used while its closing was under way: the connection stays.
      if (this.#handOff !== undefined) this.#keepOpen(this.#reopening.budget);
    }
    return this.#connection ?? this.#reopen();
  }

  #keepOpen(budget: ConnectionBudget): void {
    this.#handOff?.release();
    this.#handOff = undefined;
    budget.opened(this);
  }

  #reopen(): Connection {
    if (this.#closed || this.#reopening === undefined) throw new Error('the store is closed');
    const db = this.#reopening.connect();
    const connection = this.#attach(db);
    this.#connection = connection;
    this.#others.reconnected(db);
    this.#reopening.budget.opened(this);
    return connection;
  }

  // Every statement is reached through these two, so a write transaction() holds back (group-commit.ts)
  // runs before anything else does.
  get #db(): DatabaseSync {
    return this.#beforeStatement().db;
  }
  get #sql(): Statements {
    return this.#beforeStatement().sql;
  }
  #beforeStatement(): Connection {
    const connection = this.#open;
    connection.group.beforeStatement();
    return connection;
  }
  get #group(): GroupCommit {
    return this.#open.group;
  }

  get lastUse(): number {
    return this.#lastUse;
  }

  /**
   * Closes the connection for the budget (connection-budget.ts), unless something lives only in
   * it: a transaction or writes not yet committed, or a snapshot (its temporary tables). Nothing
   * else does: the sequence, the used channel ids, the outbox and every record are in the file,
   * and what the store keeps in memory is read anew when the connection opens again.
   */
  closeIfIdle(): boolean {
    const connection = this.#connection;
    const reopening = this.#reopening;
    if (connection === undefined || reopening === undefined || this.#handOff !== undefined) return true;
    if (connection.group.open || this.#snapshots.size > 0) return false;
    const handOff: HandOff = new HandOff(reopening.path, (held) => {
      if (this.#handOff !== handOff) return;
      if (held) {
        this.#handOff = undefined;
        this.#sizesAtClose = this.sizes();
        this.#disconnect(connection, false);
      } else {
        this.#keepOpen(reopening.budget);
      }
    });
    this.#handOff = handOff;
    return true;
  }

  /** Reads anew what this store keeps in memory: at open, and after another connection's commit. */
  #reload(): void {
    this.#seq.reload();
    this.#others.markSeen();
    this.#cache.clear();
  }

  /** Before a cached read: catches up with other connections' commits (other-connections.ts). */
  #noticeOthers(): void {
    this.#others.noticeOncePerTurn(this.#group.open);
  }

  /** A point lookup through the read cache: `statement` with `args` finds the row. */
  #lookup<R, T extends object>(
    kind: CachedKind,
    key: string,
    statement: StatementSync,
    toRecord: (row: R) => T,
    ...args: SQLInputValue[]
  ): T | undefined {
    this.#noticeOthers();
    return this.#cache.get(kind, key, () => {
      const row = rowAs<R>(statement.get(...args));
      return row && toRecord(row);
    });
  }

  /** Runs a writing statement in the open group (opening one if needed). */
  #write(statement: StatementSync, args: SQLInputValue[]): void {
    this.#group.write(statement, args);
  }

  /** Writes a record the read cache may hold, and forgets the cached one. */
  #put(kind: CachedKind, key: string, statement: StatementSync, args: SQLInputValue[]): void {
    this.#write(statement, args);
    this.#cache.forget(kind, key);
  }

  /** A delete over several tables: atomic, and the whole cache forgotten (it may hold any of them). */
  #cascade(statements: readonly StatementSync[], ...args: SQLInputValue[]): void {
    this.transaction(() => {
      for (const s of statements) this.#write(s, args);
    });
    this.#cache.clear();
  }

  /** Every row `statement` finds, as records. */
  #all<R, T>(statement: StatementSync, toRecord: (row: R) => T, ...args: SQLInputValue[]): T[] {
    return rowsAs<R>(statement.all(...args)).map(toRecord);
  }

  durable(): Promise<void> | undefined {
    return this.#connection?.group.durable();
  }

  othersCommitted(): number {
    this.#noticeOthers();
    return this.#others.count;
  }

  transaction<T>(fn: () => T): T {
    return this.#group.transaction(fn);
  }

  releaseMemory(): void {
    const connection = this.#connection;
    if (connection === undefined) return;
    this.#cache.clear();
    // The statements seeding prepared (their compiled programs go when collected) and the pages
    // it read and wrote: a few hundred kilobytes that an idle workspace would keep for nothing.
    connection.sql = prepareStatements(connection.db);
    connection.db.exec('PRAGMA shrink_memory');
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // The file may be deleted next: the handoff's thread must be done with it.
    this.#handOff?.settle();
    this.#handOff = undefined;
    this.#reopening?.budget.closed(this);
    if (this.#connection !== undefined) this.#disconnect(this.#connection, true);
  }

  /** Commits what is waiting and closes the connection; `last`: the store closes for good. */
  #disconnect(connection: Connection, last: boolean): void {
    // The worker's checkpoint, if one runs, first: the one below needs the checkpoint lock.
    this.#checkpointer.close();
    try {
      connection.group.commit();
      // Give back the unused reservation, so a clean restart (or the reopened connection)
      // numbers on without a gap (unless another connection has moved it meanwhile).
      const unused = connection.group.inTransaction ? undefined : this.#seq.unused();
      if (unused !== undefined) connection.sql.giveBackSeq.run(String(unused[0]), String(unused[1]));
      // Fold the WAL back into the main file so the database is a single file at rest. (Closing
      // the last connection to the file does that too, and another process's is left to it.)
      if (last) connection.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      this.#connection = undefined;
      connection.db.close();
    }
  }

  getMeta(key: string): string | undefined {
    return this.#lookup('meta', key, this.#sql.getMeta, (row: { value: string }) => row, key)?.value;
  }
  setMeta(key: string, value: string): void {
    this.#write(this.#sql.setMeta, [key, value]);
    this.#cache.forget('meta', key);
  }
  deleteMeta(key: string): void {
    this.#write(this.#sql.deleteMeta, [key]);
    this.#cache.forget('meta', key);
  }
  listMeta(prefix: string): MetaEntry[] {
    this.#noticeOthers();
    return this.#all(this.#sql.listMeta, (row: MetaEntry) => ({ key: row.key, value: row.value }), prefix);
  }
  nextSeq(): number {
    // Another connection may have moved the reservation (inside a group, joining has looked).
    if (!this.#group.open) this.#others.catchUp();
    return this.#seq.next();
  }

  clearWorkspace(): void {
    this.#cascade(this.#sql.clear);
  }

  // Copies kept with SQL alone (CREATE TABLE AS, INSERT ... SELECT): no row is decoded into
  // JavaScript, and the temporary tables have no indexes to maintain.
  takeSnapshot(): number {
    const id = this.#nextSnapshot++;
    this.#noticeOthers();
    this.#db.exec(SNAPSHOT_TABLES.map((table) => `CREATE TABLE ${snapshotTable(id, table)} AS SELECT * FROM main.${table};`).join('\n'));
    this.#snapshots.add(id);
    return id;
  }
  restoreSnapshot(id: number): void {
    if (!this.#snapshots.has(id)) throw new Error(`no snapshot ${id}`);
    this.#cascade(SNAPSHOT_TABLES.flatMap((table) => [this.#db.prepare(`DELETE FROM main.${table}`), this.#db.prepare(`INSERT INTO main.${table} SELECT * FROM ${snapshotTable(id, table)}`)]));
  }
  dropSnapshot(id: number): void {
    if (!this.#snapshots.delete(id)) return;
    this.#db.exec(SNAPSHOT_TABLES.map((table) => `DROP TABLE ${snapshotTable(id, table)};`).join('\n'));
  }
  countEvents(): number {
    this.#noticeOthers();
    return Number(this.#sql.countEvents.get()?.['n']);
  }
  sizes(): WorkspaceSizes {
    if (this.#connection === undefined && this.#sizesAtClose !== undefined) return this.#sizesAtClose;
    return { users: this.listUsers().length, events: this.countEvents() };
  }

  putClient(c: ClientRecord): void {
    this.#put('client', c.id, this.#sql.putClient, clientColumns(c));
  }
  getClient(id: string): ClientRecord | undefined {
    return this.#lookup('client', id, this.#sql.getClient, toClient, id);
  }
  listClients(): ClientRecord[] {
    return this.#all(this.#sql.listClients, toClient);
  }

  putUser(u: UserRecord): void {
    this.#put('user', u.id, this.#sql.putUser, userColumns(u));
    this.#cache.forgetLists(USERS_LIST);
  }
  getUser(id: string): UserRecord | undefined {
    return this.#lookup('user', id, this.#sql.getUser, toUser, id);
  }
  listUsers(): readonly UserRecord[] {
    this.#noticeOthers();
    return this.#cache.list(USERS_LIST, '', () => this.#all(this.#sql.listUsers, toUser));
  }
  deleteUser(id: string): void {
    this.#cascade(this.#sql.deleteUser, id);
  }

  putCalendar(c: CalendarRecord): void {
    this.#put('calendar', c.id, this.#sql.putCalendar, calendarColumns(c));
  }
  getCalendar(id: string): CalendarRecord | undefined {
    return this.#lookup('calendar', id, this.#sql.getCalendar, toCalendar, id);
  }
  listCalendarsByOwner(ownerId: string): CalendarRecord[] {
    return this.#all(this.#sql.listCalendarsByOwner, toCalendar, ownerId);
  }

  putCalendarListEntry(e: CalendarListEntryRecord): void {
    this.#put('calendarListEntry', entryKey(e.userId, e.calendarId), this.#sql.putEntry, entryColumns(e));
  }
  getCalendarListEntry(userId: string, calendarId: string): CalendarListEntryRecord | undefined {
    return this.#lookup('calendarListEntry', entryKey(userId, calendarId), this.#sql.getEntry, toEntry, userId, calendarId);
  }
  listCalendarListEntries(userId: string): CalendarListEntryRecord[] {
    return this.#all(this.#sql.listEntries, toEntry, userId);
  }

  putEvent(e: EventRecord): void {
    this.#write(this.#sql.putEvent, eventColumns(e));
    this.#cache.forget('event', eventKey(e.calendarId, e.id));
    this.#cache.forgetLists(e.calendarId);
  }
  getEvent(calendarId: string, id: string): EventRecord | undefined {
    return this.#lookup('event', eventKey(calendarId, id), this.#sql.getEvent, toEvent, calendarId, id);
  }
  listEventsOverlapping(calendarId: string, fromMs: number, toMs: number): EventRecord[] {
    this.#noticeOthers();
    const args: SQLInputValue[] = [calendarId, fromMs - SHORT_EVENT_MAX_MS, toMs, fromMs, calendarId, toMs, fromMs];
    const own = this.#eventsViaCache(calendarId, this.#sql.overlappingIds.get(...args), () => this.#sql.overlapping.all(...args));
    const held = this.#heldCopies(calendarId, this.#sql.heldOverlapping.all(calendarId, fromMs - SHORT_EVENT_MAX_MS, fromMs, toMs));
    return held.length === 0 ? own : [...own, ...held];
  }
  listEventsChangedSince(calendarId: string, afterSeq: number, limit: number): readonly EventRecord[] {
    this.#noticeOthers();
    return this.#cache.list(calendarId, `${afterSeq} ${limit}`, () => {
      const own = this.#eventsViaCache(calendarId, this.#sql.changedSinceIds.get(calendarId, afterSeq, limit), () =>
        this.#sql.changedSince.all(calendarId, afterSeq, limit),
      );
      return mergeChanges([own, this.#heldCopies(calendarId, this.#sql.heldChangedSince.all(calendarId, afterSeq, limit))], limit);
    });
  }

  /** Shared-copy rows as `holder` reads them, the parsed ones taken from the record cache. */
  #heldCopies(holder: string, rows: Record<string, unknown>[]): EventRecord[] {
    return rowsAs<EventRow>(rows).map((r) => {
      const key = eventKey(holder, r.id);
      return this.#cache.peek<EventRecord>('event', key) ?? this.#cache.put('event', key, toEvent({ ...r, calendar_id: holder }));
    });
  }

  putSharedCopy(copy: SharedCopyRecord): void {
    const { calendarId, id } = copy.event;
    // Only the former holders are needed (their cached reads go), not the former copy's JSON.
    const row = this.#sql.sharedCopyHolders.get(id, calendarId);
    const formerHolders = row === undefined ? [] : (JSON.parse(String(row['holders'])) as string[]);
    if (copy.holders.length > 0) this.#write(this.#sql.putSharedCopy, sharedCopyColumns(copy));
    else if (row !== undefined) this.#write(this.#sql.deleteSharedCopy, [calendarId, id]);
    for (const holder of new Set([...formerHolders, ...copy.holders])) {
      this.#cache.forget('event', eventKey(holder, id));
      this.#cache.forgetLists(holder);
    }
  }
  getSharedCopy(organizerCalendarId: string, id: string): SharedCopyRecord | undefined {
    const row = rowAs<EventRow & { holders: string }>(this.#sql.getSharedCopy.get(id, organizerCalendarId));
    return row && toSharedCopy(row);
  }

  /**
   * Events found by an index, taken from the record cache: a page of changes that is not in the
   * list cache, or the events in a time window. `ids` come from the index alone (a page's index
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
    return this.#all(this.#sql.exceptions, toEvent, calendarId, recurringEventId).sort(byId);
  }

  putConnection(c: ConnectionRecord): void {
    this.#put('connection', c.id, this.#sql.putConnection, connectionColumns(c));
  }
  getConnection(id: string): ConnectionRecord | undefined {
    return this.#lookup('connection', id, this.#sql.getConnection, toConnection, id);
  }
  listConnections(): ConnectionRecord[] {
    return this.#all(this.#sql.listConnections, toConnection);
  }
  deleteConnection(id: string): void {
    this.#cascade(this.#sql.deleteConnection, id);
  }

  putAccessToken(t: AccessTokenRecord): void {
    this.#write(this.#sql.putAccessToken, accessTokenColumns(t));
  }
  getAccessToken(hash: string, expiresAt?: number): AccessTokenRecord | undefined {
    const row = expiresAt === undefined ? this.#sql.findAccessToken.get(hash) : this.#sql.getAccessToken.get(expiresAt, hash);
    const r = rowAs<AccessTokenRow>(row);
    return r && toAccessToken(r);
  }
  deleteAccessTokensExpiringBefore(before: number, limit: number): number {
    return this.#group.writeNow(this.#sql.deleteAccessTokensExpiringBefore, [before, limit]);
  }
  putRefreshToken(t: RefreshTokenRecord): void {
    this.#put('refreshToken', t.hash, this.#sql.putRefreshToken, refreshTokenColumns(t));
  }
  getRefreshToken(hash: string): RefreshTokenRecord | undefined {
    return this.#lookup('refreshToken', hash, this.#sql.getRefreshToken, toRefreshToken, hash);
  }

  putChannel(c: ChannelRecord): void {
    this.#write(this.#sql.putChannel, channelColumns(c));
    this.#cache.forgetLists(CHANNEL_LISTS);
  }
  getChannel(id: string): ChannelRecord | undefined {
    const r = rowAs<ChannelRow>(this.#sql.getChannel.get(id));
    return r && toChannel(r);
  }
  listChannels(): ChannelRecord[] {
    return this.#all(this.#sql.listChannels, toChannel);
  }
  listChannelsWatching(resource: ChannelResource): readonly ChannelRecord[] {
    this.#noticeOthers();
    const [kind, key] = resourceColumns(resource);
    return this.#cache.list(CHANNEL_LISTS, `${kind}\n${key}`, () => this.#all(this.#sql.listChannelsWatching, toChannel, kind, key));
  }
  deleteChannel(id: string): void {
    this.#write(this.#sql.deleteChannel, [id]);
    this.#cache.forgetLists(CHANNEL_LISTS);
  }
  rememberChannelId(id: string): void {
    this.transaction(() => {
      this.#write(this.#sql.rememberChannelId, [id]);
      this.#write(this.#sql.trimChannelIds, [CHANNEL_IDS_KEPT]);
    });
  }
  isChannelIdRemembered(id: string): boolean {
    return this.#sql.isChannelIdRemembered.get(id) !== undefined;
  }

  addOutboxMessages(messages: readonly NewOutboxMessage[]): void {
    if (messages.length === 0) return;
    this.transaction(() => {
      const write = planOutboxWrite(parseCounters(this.getMeta(OUTBOX_META)), messages);
      for (const m of write.add) this.#write(this.#sql.putOutboxMessage, outboxColumns(m));
      this.#write(this.#sql.trimOutbox, [write.dropBeforeId, write.dropBeforeStart, write.counters.lastId + 1]);
      this.setMeta(OUTBOX_META, formatCounters(write.counters));
    });
  }
  readOutbox(afterId: number, limit: number): OutboxPage {
    return {
      messages: this.#all<OutboxRow, OutboxMessageRecord>(this.#sql.outboxPage, toOutboxMessage, afterId, limit, OUTBOX_PAGE_BYTES),
      last: Number(this.#sql.lastOutboxId.get()?.['last']),
    };
  }
  clearOutbox(): void {
    this.#write(this.#sql.clearOutbox, []);
  }
}

/** An event's cache key: event ids (base32hex, instance suffixes) never contain a newline. */
function eventKey(calendarId: string, id: string): string {
  return `${calendarId}\n${id}`;
}

/** User ids are free text, so the key says where the user id ends. */
function entryKey(userId: string, calendarId: string): string {
  return `${userId.length}:${userId}${calendarId}`;
}
