// Minting access and refresh tokens for a connection. The token is returned once; the store keeps
// only its SHA-256 digest (CONTRACT §4). Access tokens expire by the service clock.

import type { App } from '../app.ts';
import type { AccessTokenRecord } from '../store/store.ts';
import { randomToken, sha256 } from './hash.ts';

/** Spec "Access token": lifetime 1 hour, `expires_in` 3600. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

export function issueAccessToken(app: App, connectionId: string): string {
  const token = randomToken();
  app.store.putAccessToken({
    hash: sha256(token),
    connectionId,
    expiresAt: app.clock.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000,
  });
  return token;
}

/** Spec "Refresh token": no expiry until the connection goes; never rotated. */
export function issueRefreshToken(app: App, connectionId: string): string {
  const token = randomToken();
  app.store.putRefreshToken({ hash: sha256(token), connectionId });
  return token;
}

/** The stored access token, when it exists and has not expired by the service clock. */
export function liveAccessToken(app: App, token: string): AccessTokenRecord | undefined {
  const record = app.store.getAccessToken(sha256(token));
  return record && record.expiresAt > app.clock.now() ? record : undefined;
}

/** The connection a presented access or refresh token belongs to, when the token is still valid. */
export function connectionOfToken(app: App, token: string): string | undefined {
  return liveAccessToken(app, token)?.connectionId ?? app.store.getRefreshToken(sha256(token))?.connectionId;
}
