// Bearer authentication for the calendar API and /userinfo (spec "Authentication", RFC 6750 §2.1):
// the token is looked up by its SHA-256 hash; a missing, malformed, unknown, expired or revoked
// token is 401 authError (CONTRACT §7). Expiry reads the service clock.

import type { App } from '../app.ts';
import { googleErrors } from '../api/google-error.ts';
import { header } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import type { ConnectionRecord, UserRecord } from '../store/store.ts';
import { liveAccessToken } from './tokens.ts';

export interface BearerAuth {
  user: UserRecord;
  connection: ConnectionRecord;
  scopes: readonly string[];
}

// RFC 6750 §2.1: `Bearer` then the b64token.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export function authenticate(app: App, req: ApiRequest): BearerAuth {
  const match = BEARER.exec(header(req, 'authorization') ?? '');
  const token = match && liveAccessToken(app, match[1] as string);
  if (!token) throw googleErrors.authError();
  const connection = app.store.getConnection(token.connectionId);
  const user = connection && app.store.getUser(connection.userId);
  if (!connection || !user) throw googleErrors.authError();
  return { user, connection, scopes: connection.scopes };
}

/** True when the caller holds at least one of `scopes`. */
export function hasAnyScope(auth: BearerAuth, scopes: readonly string[]): boolean {
  return scopes.some((scope) => auth.scopes.includes(scope));
}
