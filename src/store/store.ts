// The one storage interface. Two backends implement it: SQLite (src/store/sqlite.ts) and
// in-memory Maps (src/store/memory.ts); test/store/store.contract.ts runs on both.
//
// The interface is synchronous on purpose: node:sqlite's DatabaseSync is synchronous, the memory
// backend is too, and a synchronous store lets a whole domain operation run inside one
// transaction without interleaving with other requests.
//
// Records are storage shapes, not wire shapes: the API layers add `kind`, `etag` and defaults.
// Records a read returns are read-only: the memory backend hands out its stored events,
// calendars and list entries, deeply frozen, instead of copying them on every read. A write
// builds a new record (spreading the one it read is fine) and puts it.
// Resource fields that only the API layer interprets travel as a JSON object (`data`), while
// everything the store must query on is a typed column.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface ClientRecord {
  id: string;
  /** SHA-256 (base64url) of the client secret; secrets are never stored in clear. */
  secretHash: string;
  redirectUris: string[];
}

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  timeZone: string;
  /** Order of the user in the fixture: the consent page lists users in this order. */
  position: number;
}

export interface CalendarRecord {
  id: string;
  ownerId: string;
  primary: boolean;
  timeZone: string;
  /** Change sequence of the last write (drives the etag). */
  seq: number;
  /** Calendar resource fields: summary, description, location, ... */
  data: JsonObject;
}

/** A calendar as it stands in one user's calendar list. */
export interface CalendarListEntryRecord {
  userId: string;
  calendarId: string;
  /** Removed from the list (calendarList.delete); kept for sync and showDeleted. */
  deleted: boolean;
  hidden: boolean;
  seq: number;
  /** Entry fields: summaryOverride, colorId, backgroundColor, selected, defaultReminders, ... */
  data: JsonObject;
}

export type EventStatus = 'confirmed' | 'tentative' | 'cancelled';

export interface EventRecord {
  calendarId: string;
  id: string;
  /** Change sequence of the last write: sync tokens compare against it, etags derive from it. */
  seq: number;
  status: EventStatus;
  /** True for a series master (has a `recurrence`). */
  recurring: boolean;
  /** Set on exceptions of a series (modified or cancelled instances). */
  recurringEventId: string | null;
  /** For exceptions: the instant the instance would have started by the rule. */
  originalStartMs: number | null;
  /**
   * The span the event occupies, as instants: for a single event its start and end (all-day
   * dates resolved in the calendar's zone); for a series master, the first instance's start and
   * the last instance's end, or Number.MAX_SAFE_INTEGER for an unbounded series.
   */
  startMs: number;
  endMs: number;
  iCalUID: string;
  updatedMs: number;
  /** The stored Event resource fields (summary, start, end, recurrence, attendees, ...). */
  data: JsonObject;
}

export interface ConnectionRecord {
  id: string;
  clientId: string;
  userId: string;
  scopes: string[];
  offline: boolean;
  createdAt: number;
}

export interface AccessTokenRecord {
  /** SHA-256 (base64url) of the token. */
  hash: string;
  connectionId: string;
  expiresAt: number;
}

export interface RefreshTokenRecord {
  hash: string;
  connectionId: string;
}

export type ChannelResource =
  | { kind: 'events'; calendarId: string }
  | { kind: 'calendarList'; userId: string };

export interface ChannelRecord {
  id: string;
  resourceId: string;
  resourceUri: string;
  address: string;
  token: string | null;
  expiration: number;
  connectionId: string;
  resource: ChannelResource;
  /** The number the next message to this channel will carry. */
  nextMessageNumber: number;
  createdAt: number;
}

/**
 * A copy of an organizer's event that several calendars hold alike (docs/invitations.md,
 * event-model/invitee-copies.ts), stored once instead of once per calendar: inviting twenty test users
 * then writes one record, not twenty. It reads on each holder's calendar as an event of that
 * calendar (getEvent, listEventsOverlapping, listEventsChangedSince, with the holder's
 * calendarId), unless the holder's calendar has an event of its own under the same id: that one
 * is what the calendar holds. Never an exception of a series (those are events of their own).
 */
export interface SharedCopyRecord {
  /** The copy as every holder reads it, except that calendarId is the organizer's calendar. */
  event: EventRecord;
  /** The calendars holding it. */
  holders: readonly string[];
}

/** What a message in the outbox says (docs/invitations.md). */
export type OutboxKind = 'invitation' | 'update' | 'cancellation' | 'reply';

/** An e-mail Google would have sent about an event (docs/invitations.md), recorded instead of sent. */
export interface OutboxMessageRecord {
  /**
   * Given by the store when it records the message: one more than the last message's, never
   * reused (clearing the outbox does not restart it), so a reader can ask for the newest n.
   */
  id: number;
  /** Service clock time it was recorded. */
  at: number;
  /** One e-mail address. */
  to: string;
  kind: OutboxKind;
  eventId: string;
  /** The organizer's calendar holding the event. */
  calendarId: string;
  /** The test user whose write caused the message. */
  fromUserId: string;
  summary: string | null;
}

/** A message to record; the store gives it its id. */
export type NewOutboxMessage = Omit<OutboxMessageRecord, 'id'>;

/** One page of the outbox. */
export interface OutboxPage {
  /** Oldest first. */
  messages: OutboxMessageRecord[];
  /** The id of the newest message held; 0 when the outbox is empty. */
  last: number;
}

export interface Store {
  readonly backend: 'sqlite' | 'memory';

  /**
   * Runs fn atomically: either every write inside it lands, or (when fn throws) none does.
   * Nested calls join the outer transaction.
   */
  transaction<T>(fn: () => T): T;
  /**
   * The writes made so far are visible to every later call at once, but a backend may commit
   * them to disk a little later, several together (group commit). This settles when they are
   * committed, and rejects if that failed; undefined when nothing is waiting to be committed.
   * Whatever acknowledges a write to the outside world waits for it first.
   */
  durable(): Promise<void> | undefined;
  /** Commits what is waiting, then closes. */
  close(): void;
  /**
   * A count of the commits by others to the same database that this store has noticed: it moves
   * when another connection (another process on the same SQLite file) has committed, and never
   * with this store's own writes. Caches kept above the store (oauth/bearer.ts) compare it to
   * learn that something they hold may have changed underneath. The SQLite store asks
   * `PRAGMA data_version` at most once per turn of the event loop, so a commit by another process
   * is noticed from the next turn on; the memory store has no other writers and answers 0. A
   * SQLite store whose idle connection was closed (connection-budget.ts) counts its reopening too:
   * what others committed meanwhile cannot be told apart.
   */
  othersCommitted(): number;
  /**
   * Gives back memory that later reads can do without (SQLite's page cache), for a store that
   * will likely sit idle: a workspace just created or reopened (docs/workspaces.md bounds what a
   * thousand idle ones cost).
   */
  releaseMemory(): void;

  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  deleteMeta(key: string): void;
  /** The meta entries whose key starts with `prefix`, ordered by key: a list kept as a key each (the workspace registry). */
  listMeta(prefix: string): MetaEntry[];
  /** Next value of the workspace-wide change sequence (strictly increasing, never reused). */
  nextSeq(): number;

  /** Deletes every workspace record: clients, users, calendars, entries, events, shared copies, connections, tokens, channels, remembered channel ids, the outbox. Meta stays. */
  clearWorkspace(): void;

  /**
   * Keeps a copy of the workspace's data as it is now (every record clearWorkspace deletes but
   * the outbox and the used channel ids) for restoreSnapshot, and returns its id. Snapshots live as long as the store is
   * open: closing it drops them.
   */
  takeSnapshot(): number;
  /**
   * Replaces the workspace's data with the snapshot's (which stays, to be restored again). The
   * outbox, the used channel ids, meta and the change sequence stay as they are: nextSeq never
   * goes back, and a channel id once used stays spent.
   */
  restoreSnapshot(id: number): void;
  dropSnapshot(id: number): void;
  /** How many events are stored: every calendar's own, and each shared copy once. */
  countEvents(): number;
  /**
   * How many users and events the workspace holds, for GET /__svc/workspaces. A store whose
   * connection is closed while idle (connection-budget.ts) answers as of its closing, without
   * opening it again: a listing of a thousand workspaces must not open a thousand files.
   */
  sizes(): WorkspaceSizes;

  putClient(client: ClientRecord): void;
  getClient(id: string): ClientRecord | undefined;
  /** Ordered by id (the workspace export, docs/journal.md#workspace-export). */
  listClients(): ClientRecord[];

  putUser(user: UserRecord): void;
  getUser(id: string): UserRecord | undefined;
  /** Ordered by position. */
  listUsers(): readonly UserRecord[];
  /**
   * Deletes the user and everything that hangs off them: their calendars with those calendars'
   * events and list entries, their own list entries, their connections with tokens and channels.
   * Shared copies of their calendars' events become events of each holder's own (a copy outlives
   * its organizer, as on Google), and their calendars hold no shared copies any more.
   */
  deleteUser(id: string): void;

  putCalendar(calendar: CalendarRecord): void;
  getCalendar(id: string): CalendarRecord | undefined;
  listCalendarsByOwner(ownerId: string): CalendarRecord[];

  putCalendarListEntry(entry: CalendarListEntryRecord): void;
  getCalendarListEntry(userId: string, calendarId: string): CalendarListEntryRecord | undefined;
  /** Every entry of the user, deleted ones included, ordered by calendar id. */
  listCalendarListEntries(userId: string): CalendarListEntryRecord[];

  /** Insert or replace (by calendarId + id). */
  putEvent(event: EventRecord): void;
  /** The calendar's event with this id: its own, else a shared copy it holds (SharedCopyRecord). */
  getEvent(calendarId: string, id: string): EventRecord | undefined;
  /**
   * Every event (any status) whose [startMs, endMs) overlaps [fromMs, toMs): startMs < toMs and
   * endMs > fromMs, shared copies the calendar holds included. Backends must answer from an
   * index, so the cost follows the window, not the calendar's size. Unordered.
   */
  listEventsOverlapping(calendarId: string, fromMs: number, toMs: number): EventRecord[];
  /** Events (shared copies held included) with seq > afterSeq, ordered by seq then id, at most `limit`. */
  listEventsChangedSince(calendarId: string, afterSeq: number, limit: number): readonly EventRecord[];
  /** The exceptions (modified or cancelled instances) of one series: the calendar's own events only. */
  listExceptions(calendarId: string, recurringEventId: string): EventRecord[];

  /** Insert or replace (by event.calendarId + event.id); no holders deletes it. */
  putSharedCopy(copy: SharedCopyRecord): void;
  /** The shared copy of the organizer's event `id` on `organizerCalendarId`. */
  getSharedCopy(organizerCalendarId: string, id: string): SharedCopyRecord | undefined;

  putConnection(connection: ConnectionRecord): void;
  getConnection(id: string): ConnectionRecord | undefined;
  /** Ordered by createdAt, then id. */
  listConnections(): ConnectionRecord[];
  /** Deletes the connection with its access tokens, refresh tokens and channels. */
  deleteConnection(id: string): void;

  /** A new token: digests are unique (tokens are random), and a token is never put twice. */
  putAccessToken(token: AccessTokenRecord): void;
  /**
   * The token with this digest. `expiresAt`, when the caller knows it (a token's text carries
   * it, see oauth/tokens.ts), is the expiry it was put with; a backend may find it by that, and a
   * token put with another expiry is not this one.
   */
  getAccessToken(hash: string, expiresAt?: number): AccessTokenRecord | undefined;
  /**
   * Deletes at most `limit` access tokens whose expiry is before `before`, those expiring first,
   * and returns how many it deleted. A token expiring at `before` or later is never touched.
   */
  deleteAccessTokensExpiringBefore(before: number, limit: number): number;
  putRefreshToken(token: RefreshTokenRecord): void;
  getRefreshToken(hash: string): RefreshTokenRecord | undefined;

  putChannel(channel: ChannelRecord): void;
  getChannel(id: string): ChannelRecord | undefined;
  listChannels(): ChannelRecord[];
  /** The channels watching one resource (expired ones included), ordered like listChannels. */
  listChannelsWatching(resource: ChannelResource): readonly ChannelRecord[];
  deleteChannel(id: string): void;
  /**
   * Remembers that a channel used this id, for as long as the workspace lasts (clearWorkspace
   * forgets): the newest CHANNEL_IDS_KEPT ids (backend-rules.ts) are kept, the oldest forgotten
   * first. Remembering an id again changes nothing.
   */
  rememberChannelId(id: string): void;
  /** Whether rememberChannelId was given this id and still keeps it. */
  isChannelIdRemembered(id: string): boolean;

  /**
   * Records the messages of one write, oldest first, and in the same step drops the oldest
   * messages beyond the outbox's bounds (outbox-bounds.ts), this write's own included.
   */
  addOutboxMessages(messages: readonly NewOutboxMessage[]): void;
  /**
   * The messages with an id above `afterId`, oldest first: at most `limit`, and fewer when they
   * would hold more than about OUTBOX_PAGE_BYTES (outbox-bounds.ts), never none when some are left.
   */
  readOutbox(afterId: number, limit: number): OutboxPage;
  /** Deletes every message; numbering goes on. */
  clearOutbox(): void;
}

export interface WorkspaceSizes {
  readonly users: number;
  readonly events: number;
}

export interface MetaEntry {
  readonly key: string;
  readonly value: string;
}
