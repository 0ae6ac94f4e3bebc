// Bearer authentication for the calendar API and /userinfo (docs/oauth.md, "Authentication"): the token that
// bearerToken reads (RFC 6750 §2.1 header, or the query forms of docs/calendar-api.md#browser-apps) is looked up by its
// SHA-256 hash; a missing, malformed, unknown, expired or revoked token is 401 authError
// (docs/calendar-api.md). Expiry reads the service clock.

import type { App } from '../app/app.ts';
import { googleErrors } from '../api/google-error.ts';
import { bearerToken } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import type { ConnectionRecord, UserRecord } from '../store/store.ts';
import { sha256 } from '../crypto/crypto.ts';
import { liveAccessToken } from './tokens.ts';

export interface BearerAuth {
  user: UserRecord;
  connection: ConnectionRecord;
  scopes: readonly string[];
}

// Authenticated tokens, per App (one BearerCache, made by the composition root, src/index.ts, and
// shared by the calendar API and /userinfo), by digest (raw tokens are never kept): a read then costs one
// hash instead of three store lookups. Connections and users never change in place (a
// connection is created whole at consent, users only by a fixture), and every way a token dies
// early in this process goes through App.revokeConnection, App.deleteUser or a workspace load,
// whose hooks drop the entries here. Another process on the same database file kills tokens
// without those hooks: the cache then starts over when the store reports a commit by others
// (Store.othersCommitted), which it notices from the next turn of the event loop, for one
// PRAGMA that turn's first cached store read would ask anyway. Expiry is checked against the
// service clock on every use.
const CACHE_LIMIT = 10_000;

interface CachedAuth {
  readonly expiresAt: number;
  readonly auth: BearerAuth;
}

export interface BearerCache {
  readonly entries: Map<string, CachedAuth>;
  /** Store.othersCommitted() when the entries were last known true. */
  othersCommitted: number;
}

/** An App's cache of authentications, dropping entries as the App's hooks report tokens dying. */
export function createBearerCache(app: App): BearerCache {
  const entries = new Map<string, CachedAuth>();
  app.onWorkspaceReplaced(() => entries.clear());
  app.onConnectionRevoked((connectionId) => {
    for (const [hash, entry] of entries) if (entry.auth.connection.id === connectionId) entries.delete(hash);
  });
  return { entries, othersCommitted: app.store.othersCommitted() };
}

/** The cached authentications, emptied first if another process has committed since. */
function currentEntries(app: App, cache: BearerCache): Map<string, CachedAuth> {
  const othersCommitted = app.store.othersCommitted();
  if (othersCommitted !== cache.othersCommitted) {
    cache.entries.clear();
    cache.othersCommitted = othersCommitted;
  }
  return cache.entries;
}

export function authenticate(app: App, bearers: BearerCache, req: ApiRequest): BearerAuth {
  const presented = bearerToken(req);
  if (presented === undefined) throw googleErrors.authError();
  const cache = currentEntries(app, bearers);
  const hash = sha256(presented);
  const cached = cache.get(hash);
  if (cached !== undefined) {
    if (cached.expiresAt > app.clock.now()) return cached.auth;
    cache.delete(hash);
  }
  const token = liveAccessToken(app, presented);
  if (!token) throw googleErrors.authError();
  const connection = app.store.getConnection(token.connectionId);
  const user = connection && app.store.getUser(connection.userId);
  if (!connection || !user) throw googleErrors.authError();
  // Shared by every request presenting the token, so frozen against accidental edits.
  const auth: BearerAuth = Object.freeze({ user: Object.freeze(user), connection: Object.freeze(connection), scopes: Object.freeze(connection.scopes) });
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(hash, { expiresAt: token.expiresAt, auth });
  return auth;
}

/** Records who the request authenticated as, for the journal and fault rules. */
export function traceIdentity(req: ApiRequest, auth: BearerAuth): void {
  req.trace.userId = auth.user.id;
  req.trace.clientId = auth.connection.clientId;
  req.trace.connectionId = auth.connection.id;
}

/** True when the caller holds at least one of `scopes`. */
export function hasAnyScope(auth: BearerAuth, scopes: readonly string[]): boolean {
  return scopes.some((scope) => auth.scopes.includes(scope));
}
