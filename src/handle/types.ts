// What the management API answers (README "Management API"), as the handle's methods resolve it.

/** A fixture (docs/fixtures.md): the clients and test users a workspace starts from. */
export interface Fixture {
  clients?: FixtureClient[];
  users?: FixtureUser[];
}

export interface FixtureClient {
  id: string;
  /** An exported fixture carries `secretSha256` instead, since only hashes are stored. */
  secret?: string;
  secretSha256?: string;
  redirectUris?: string[];
}

export interface FixtureUser {
  id: string;
  name: string;
  email: string;
  timeZone?: string;
  /** Calendar resources with their `events` (Calendar API Event resources). */
  calendars?: Array<Record<string, unknown>>;
}

export interface LoadedCounts {
  clients: number;
  users: number;
  calendars: number;
  events: number;
}

export interface User {
  id: string;
  name: string;
  email: string;
  timeZone: string;
}

export interface Connection {
  id: string;
  clientId: string;
  userId: string;
  scopes: string[];
  offline: boolean;
  createdAt: string;
}

export interface Channel {
  id: string;
  resourceId: string;
  resourceUri: string;
  address: string;
  expiration: string | null;
  connectionId: string;
  deliveries: Array<{ messageNumber: number; state: string; status: number | null; at: string }>;
}

export interface FaultMatch {
  /** A Google method id (`calendar.events.list`), `oauth.token`, `oauth.revoke`, `oauth.userinfo`, `push.delivery` or `*`. */
  method: string;
  calendarId?: string;
  userId?: string;
  clientId?: string;
  syncToken?: boolean;
  grantType?: string;
  channelId?: string;
}

export interface FaultInput {
  match: FaultMatch;
  /** `rateLimitExceeded`, `tooManyRequests`, `backendError`, `fullSyncRequired`, `invalid_grant`, `drop`, … */
  error?: string;
  times?: number;
  afterMatches?: number;
  delayMs?: number;
  retryAfterSeconds?: number;
  /** The status a `webhookStatus` rule records. */
  status?: number;
}

export interface Fault extends FaultInput {
  id: string;
  remaining: number | null;
  hits: number;
}

export interface RequestFilter {
  /** Only entries with a greater id. */
  since?: number;
  operation?: string;
  status?: number;
  userId?: string;
  /** At most this many entries (all of them when absent). */
  limit?: number;
}

export interface JournalEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  operation: string | null;
  userId: string | null;
  clientId: string | null;
  connectionId: string | null;
  status: number;
  durationMs: number;
  body: unknown;
  error: string | null;
  fault: string | null;
}

export interface OutboxFilter {
  /** Only messages with a greater id. */
  since?: number;
  /** At most this many messages (all of them when absent). */
  limit?: number;
}

export interface OutboxMessage {
  id: number | string;
  at: string;
  to: string;
  kind: 'invitation' | 'update' | 'cancellation' | 'reply';
  eventId: string;
  calendarId: string;
  fromUserId: string;
  summary: string;
}

export interface Checkpoint {
  name: string;
  createdAt: string;
}
