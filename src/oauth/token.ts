// POST /oauth/token (RFC 6749 §4.1.3, §6; RFC 7636 §4.6; docs/oauth.md, "POST /oauth/token", docs/oauth.md).
// The body is always read as a form, whatever the Content-Type says: a JSON body therefore
// carries no form credentials (invalid_client) and, with Basic credentials, no grant_type
// (unsupported_grant_type), as docs/oauth.md's "Client authentication" rule 5 asks.

import { faulted } from '../faults/intercept.ts';
import type { ApiRequest, RequestTrace } from '../http/request.ts';
import { formBody } from '../http/request.ts';
import { json } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import type { ClientRecord, ConnectionRecord } from '../store/store.ts';
import { authenticateClient, readCredentials } from './clients.ts';
import type { OAuthContext } from './context.ts';
import { OAuthError } from './errors.ts';
import { sha256 } from '../crypto/crypto.ts';
import { required, single } from './params.ts';
import { verifierMatches } from './pkce.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, issueAccessToken, issueRefreshToken } from './tokens.ts';

/** RFC 6749 §5.1: token responses must not be cached. */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export function exchangeToken(ctx: OAuthContext, req: ApiRequest): Result | Promise<Result> {
  const form = formBody(req);
  // Spec "Client authentication" 1: every call authenticates the client, PKCE or not.
  const client = authenticateClient(ctx.app.store, readCredentials(req, form));
  req.trace.clientId = client.id;
  const grantType = single(form, 'grant_type');
  // docs/faults.md: fault rules answer before the grant runs, so a faulted exchange issues nothing.
  return faulted(ctx.faults, req, { grantType }, () => grant(ctx, client, form, grantType, req.trace));
}

function grant(ctx: OAuthContext, client: ClientRecord, form: URLSearchParams, grantType: string | undefined, trace: RequestTrace): Result {
  if (grantType === 'authorization_code') return authorizationCodeGrant(ctx, client, form, trace);
  if (grantType === 'refresh_token') return refreshTokenGrant(ctx, client, form, trace);
  throw new OAuthError('unsupported_grant_type', `grant_type must be authorization_code or refresh_token.`);
}

/** The grant's user and connection, for the journal (docs/journal.md): known once the code or refresh token checks out. */
function traceConnection(trace: RequestTrace, connection: ConnectionRecord): void {
  trace.userId = connection.userId;
  trace.connectionId = connection.id;
}

function authorizationCodeGrant(ctx: OAuthContext, client: ClientRecord, form: URLSearchParams, trace: RequestTrace): Result {
  const code = required(form, 'code');
  const redirectUri = required(form, 'redirect_uri');
  const verifier = single(form, 'code_verifier');
  const { app, codes } = ctx;
  const now = app.clock.now();
  const found = codes.lookup(code, now);
  if (found.kind === 'spent') {
    // RFC 6749 §4.1.2: a code used twice is likely stolen; revoke what it issued.
    app.revokeConnection(found.connectionId);
    throw invalidGrant('The authorization code was already used.');
  }
  if (found.kind === 'unknown') throw invalidGrant('The authorization code is unknown or expired.');
  const { connection, codeChallenge } = found.grant;
  // RFC 6749 §4.1.3: bound to the client and the exact redirect URI of the request.
  if (connection.clientId !== client.id) throw invalidGrant('The authorization code was issued to another client.');
  if (found.grant.redirectUri !== redirectUri) throw invalidGrant('redirect_uri does not match the authorization request.');
  // RFC 7636 §4.6; a verifier without a challenge is refused too (docs/oauth.md).
  if (codeChallenge === undefined) {
    if (verifier !== undefined) throw invalidGrant('code_verifier was sent but the authorization request had no code_challenge.');
  } else if (verifier === undefined || !verifierMatches(verifier, codeChallenge)) {
    throw invalidGrant('code_verifier does not match the code_challenge.');
  }
  // The connection may be gone although its code is not: revoked, or its user deleted or the
  // workspace reset, by another process on the same database file, whose hooks cannot reach
  // the codes this process keeps in memory.
  if (!app.store.getConnection(connection.id)) throw invalidGrant('The authorization code was revoked.');
  codes.consume(code, connection.id, now);
  traceConnection(trace, connection);
  // Both tokens in one commit: never an access token stored without its refresh token.
  const body = app.store.transaction((): TokenResponse => {
    const issued: TokenResponse = tokenResponse(issueAccessToken(app, ctx.purge, connection.id), connection.scopes);
    if (connection.offline) issued.refresh_token = issueRefreshToken(app, connection.id);
    return issued;
  });
  return json(200, body, NO_STORE);
}

function refreshTokenGrant(ctx: OAuthContext, client: ClientRecord, form: URLSearchParams, trace: RequestTrace): Result {
  const { app } = ctx;
  const refreshToken = required(form, 'refresh_token');
  const scope = single(form, 'scope');
  const record = app.store.getRefreshToken(sha256(refreshToken));
  const connection = record && app.store.getConnection(record.connectionId);
  if (!connection || connection.clientId !== client.id) throw invalidGrant('The refresh token is unknown, revoked or issued to another client.');
  // Spec: a sent scope must equal the original space-joined string exactly; no narrowing.
  traceConnection(trace, connection);
  const granted = connection.scopes.join(' ');
  if (scope !== undefined && scope !== granted) throw new OAuthError('invalid_scope', 'scope must equal the originally granted scope string.');
  // No rotation: the answer has no refresh_token and the presented one stays valid.
  return json(200, tokenResponse(issueAccessToken(app, ctx.purge, connection.id), connection.scopes), NO_STORE);
}

interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** Spec "Token response": never an id_token. */
function tokenResponse(accessToken: string, scopes: readonly string[]): TokenResponse {
  return { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: scopes.join(' ') };
}

function invalidGrant(description: string): OAuthError {
  return new OAuthError('invalid_grant', description);
}
