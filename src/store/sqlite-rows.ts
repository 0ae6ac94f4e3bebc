// Row mapping of the SQLite store: the rows its tables hold (sqlite-schema.ts) as records
// (store.ts) and records as the column values its writing statements take
// (sqlite-statements.ts), in the statements' column order.

import type { SQLInputValue } from 'node:sqlite';
import { isLongEvent } from './backend-rules.ts';
import type { StoredOutboxMessage } from './outbox-bounds.ts';
import type { AccessTokenRecord, CalendarListEntryRecord, CalendarRecord, ChannelRecord, ChannelResource,
  ClientRecord, ConnectionRecord, EventRecord, EventStatus, JsonObject, OutboxKind, OutboxMessageRecord, RefreshTokenRecord, SharedCopyRecord, UserRecord } from './store.ts';

export interface EventRow {
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

export interface ClientRow {
  id: string;
  secret_hash: string;
  redirect_uris: string;
}
export interface UserRow {
  id: string;
  name: string;
  email: string;
  time_zone: string;
  position: number;
}
export interface CalendarRow {
  id: string;
  owner_id: string;
  is_primary: number;
  time_zone: string;
  seq: number;
  data: string;
}
export interface EntryRow {
  user_id: string;
  calendar_id: string;
  deleted: number;
  hidden: number;
  seq: number;
  data: string;
}
export interface ConnectionRow {
  id: string;
  client_id: string;
  user_id: string;
  scopes: string;
  offline: number;
  created_at: number;
}
export interface AccessTokenRow {
  hash: string;
  connection_id: string;
  expires_at: number;
}
export interface RefreshTokenRow {
  hash: string;
  connection_id: string;
}
export interface ChannelRow {
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
export function rowAs<R>(row: Record<string, unknown> | undefined): R | undefined {
  return row as R | undefined;
}
export function rowsAs<R>(rows: Record<string, unknown>[]): R[] {
  return rows as R[];
}

export function toEvent(r: EventRow): EventRecord {
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
/** What calendars and calendar list entries both carry: their change sequence and their fields. */
const versioned = (r: { seq: number; data: string }): { seq: number; data: JsonObject } => ({
  seq: r.seq,
  data: JSON.parse(r.data) as JsonObject,
});
export const toClient = (r: ClientRow): ClientRecord => ({
  id: r.id,
  secretHash: r.secret_hash,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
});
export const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  timeZone: r.time_zone,
  position: r.position,
});
export const toCalendar = (r: CalendarRow): CalendarRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  primary: r.is_primary === 1,
  timeZone: r.time_zone,
  ...versioned(r),
});
export const toEntry = (r: EntryRow): CalendarListEntryRecord => ({
  userId: r.user_id,
  calendarId: r.calendar_id,
  deleted: r.deleted === 1,
  hidden: r.hidden === 1,
  ...versioned(r),
});
export const toConnection = (r: ConnectionRow): ConnectionRecord => ({
  id: r.id,
  clientId: r.client_id,
  userId: r.user_id,
  scopes: JSON.parse(r.scopes) as string[],
  offline: r.offline === 1,
  createdAt: r.created_at,
});
export const toAccessToken = (r: AccessTokenRow): AccessTokenRecord => ({
  hash: r.hash,
  connectionId: r.connection_id,
  expiresAt: r.expires_at,
});
export const toRefreshToken = (r: RefreshTokenRow): RefreshTokenRecord => ({
  hash: r.hash,
  connectionId: r.connection_id,
});
export function toChannel(r: ChannelRow): ChannelRecord {
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

/** SQLite has no boolean: 1 and 0. */
const b = (v: boolean): number => (v ? 1 : 0);

// The column values of each put statement, in its order.
export const clientColumns = (c: ClientRecord): SQLInputValue[] => [c.id, c.secretHash, JSON.stringify(c.redirectUris)];
export const userColumns = (u: UserRecord): SQLInputValue[] => [u.id, u.name, u.email, u.timeZone, u.position];
export const calendarColumns = (c: CalendarRecord): SQLInputValue[] => [c.id, c.ownerId, b(c.primary), c.timeZone, c.seq, JSON.stringify(c.data)];
export const entryColumns = (e: CalendarListEntryRecord): SQLInputValue[] =>
  [e.userId, e.calendarId, b(e.deleted), b(e.hidden), e.seq, JSON.stringify(e.data)];
export const eventColumns = (e: EventRecord): SQLInputValue[] => [
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
];
/** The columns of a shared copy: its event's, then its holders. */
export const sharedCopyColumns = (c: SharedCopyRecord): SQLInputValue[] => [...eventColumns(c.event), JSON.stringify(c.holders)];
export const toSharedCopy = (r: EventRow & { holders: string }): SharedCopyRecord => ({
  event: toEvent(r),
  holders: JSON.parse(r.holders) as string[],
});
export const connectionColumns = (c: ConnectionRecord): SQLInputValue[] =>
  [c.id, c.clientId, c.userId, JSON.stringify(c.scopes), b(c.offline), c.createdAt];
export const accessTokenColumns = (t: AccessTokenRecord): SQLInputValue[] => [t.hash, t.connectionId, t.expiresAt];
export const refreshTokenColumns = (t: RefreshTokenRecord): SQLInputValue[] => [t.hash, t.connectionId];
export const channelColumns = (c: ChannelRecord): SQLInputValue[] => [
  c.id,
  c.resourceId,
  c.resourceUri,
  c.address,
  c.token,
  c.expiration,
  c.connectionId,
  ...resourceColumns(c.resource),
  c.nextMessageNumber,
  c.createdAt,
];

export interface OutboxRow {
  id: number;
  at: number;
  recipient: string;
  kind: string;
  event_id: string;
  calendar_id: string;
  from_user_id: string;
  summary: string | null;
}

export function toOutboxMessage(r: OutboxRow): OutboxMessageRecord {
  return {
    id: r.id,
    at: r.at,
    to: r.recipient,
    // Only the store writes this column, from an OutboxKind.
    kind: r.kind as OutboxKind,
    eventId: r.event_id,
    calendarId: r.calendar_id,
    fromUserId: r.from_user_id,
    summary: r.summary,
  };
}

export const outboxColumns = ({ record: m, start }: StoredOutboxMessage): SQLInputValue[] => [
  m.id,
  start,
  m.at,
  m.to,
  m.kind,
  m.eventId,
  m.calendarId,
  m.fromUserId,
  m.summary,
];

/** The (resource_kind, resource_key) columns of a channel's resource. */
export function resourceColumns(r: ChannelResource): [string, string] {
  return r.kind === 'events' ? ['events', r.calendarId] : ['calendarList', r.userId];
}
