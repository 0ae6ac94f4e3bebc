// Minting access and refresh tokens for a connection. The token is returned once; the store keeps
// only its SHA-256 digest (docs/oauth.md). Access tokens expire by the service clock.
//
// The token's text, an expiry prefix and 256 random bits, is token-format.ts's.
//
// Expired access tokens are deleted as new ones are issued, so the store holds the tokens of the
// last hours, not every token ever issued: every PURGE_EVERY-th token an App issues deletes up
// to twice as many that expired more than EXPIRED_TOKEN_KEPT_MS ago by the service clock. The
// expired ones therefore only dwindle while tokens are issued, each purge is a bounded step
// inside the request that issues (on SQLite a range at the start of the (expiry, digest) key, in
// the same commit), and a process that issues nothing has nothing new to purge.
//
// The purge compares each token's own expiry with the service clock of that moment, and keeps
// no mark of how far it got: after the clock moves back, no purge deletes a token the new time
// makes valid, and every token the earlier purges left is found as before. A token is deleted
// only once it has been expired for EXPIRED_TOKEN_KEPT_MS, so moving the clock back by up to
// that much (a test stepping past an expiry and back) finds every token as it was; a token
// expired for longer may be gone, and stays gone whatever the clock does next.

import type { App } from '../app/app.ts';
import type { AccessTokenRecord } from '../store/store.ts';
import { randomToken, sha256 } from '../crypto/crypto.ts';
import { expiryOfToken, isUnprefixedToken, mintAccessToken } from './token-format.ts';

/** Spec "Access token": lifetime 1 hour, `expires_in` 3600. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** How long an expired access token stays stored (see the header). */
export const EXPIRED_TOKEN_KEPT_MS = ACCESS_TOKEN_LIFETIME_SECONDS * 1000;
/** A purge every this many tokens issued (one statement, instead of one per token). */
export const PURGE_EVERY = 32;

/** Access tokens an App has issued since its last purge: one count per App, in its OAuth context. */
export interface PurgeCount {
  issuedSincePurge: number;
}

export function issueAccessToken(app: App, purge: PurgeCount, connectionId: string): string {
  const now = Math.floor(app.clock.now());
  const expiresAt = now + ACCESS_TOKEN_LIFETIME_SECONDS * 1000;
  const token = mintAccessToken(expiresAt);
  app.store.putAccessToken({ hash: sha256(token), connectionId, expiresAt });
  purgeWhileIssuing(app, purge, now);
  return token;
}

function purgeWhileIssuing(app: App, purge: PurgeCount, now: number): void {
  const issued = purge.issuedSincePurge + 1;
  purge.issuedSincePurge = issued % PURGE_EVERY;
  if (issued === PURGE_EVERY) app.store.deleteAccessTokensExpiringBefore(now - EXPIRED_TOKEN_KEPT_MS, 2 * PURGE_EVERY);
}

/** Spec "Refresh token": no expiry until the connection goes; never rotated. */
export function issueRefreshToken(app: App, connectionId: string): string {
  const token = randomToken();
  app.store.putRefreshToken({ hash: sha256(token), connectionId });
  return token;
}

/** The stored access token, when it exists and has not expired by the service clock. */
export function liveAccessToken(app: App, token: string): AccessTokenRecord | undefined {
  const expiresAt = expiryOfToken(token);
  // Only our two shapes are looked up: anything else is no token of ours, and costs no search.
  if (expiresAt === undefined && !isUnprefixedToken(token)) return undefined;
  const record = app.store.getAccessToken(sha256(token), expiresAt);
  return record && record.expiresAt > app.clock.now() ? record : undefined;
}

/** The connection a presented access or refresh token belongs to, when the token is still valid. */
export function connectionOfToken(app: App, token: string): string | undefined {
  return liveAccessToken(app, token)?.connectionId ?? app.store.getRefreshToken(sha256(token))?.connectionId;
}
