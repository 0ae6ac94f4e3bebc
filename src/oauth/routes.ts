// The OAuth surface: /oauth/..., /oauth2/... and /userinfo. Only the routes below exist; any
// other method or path under these prefixes falls through to the router's 501 (spec
// "Endpoints"), which is why /oauth2/... is owned here without a single route.

import type { App } from '../app/app.ts';
import { GoogleApiError, renderGoogleError } from '../api/google-error.ts';
import { FaultRules } from '../faults/rules.ts';
import { RequestError } from '../http/request.ts';
import { json } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import { Router } from '../http/router.ts';
import type { Handler, Surface } from '../http/surface.ts';
import { decideConsent, showConsent } from './authorize.ts';
import type { BearerCache } from './bearer.ts';
import type { OAuthContext } from './context.ts';
import { OAuthError, oauthErrorBody } from './errors.ts';
import { AuthorizationCodes, PendingConsents } from './pending.ts';
import { revokeToken } from './revoke.ts';
import { exchangeToken, NO_STORE } from './token.ts';
import { userinfo } from './userinfo.ts';

/** `faults`: the service's fault rules, made by src/index.ts; a surface made without them answers every request as usual. */
export function createOAuthSurface(app: App, bearers: BearerCache, faults: FaultRules = new FaultRules()): Surface {
  const ctx: OAuthContext = { app, consents: new PendingConsents(), codes: new AuthorizationCodes(), bearers, purge: { issuedSincePurge: 0 }, faults };
  // States and transitions: reset and fixture load end every pending consent and code; a revoked
  // connection takes its codes with it.
  app.onWorkspaceReplaced(() => {
    ctx.consents.clear();
    ctx.codes.clear();
  });
  app.onConnectionRevoked((connectionId) => ctx.codes.dropConnection(connectionId));

  // Each route names its operation, as the journal (docs/journal.md) and fault rules (docs/faults.md) know it.
  const on =
    (operation: string, handler: (ctx: OAuthContext, req: Parameters<Handler>[0]) => Result | Promise<Result>): Handler =>
    (req) => {
      req.trace.operation = operation;
      return handler(ctx, req);
    };
  const routes = new Router<Handler>()
    .add('GET', '/oauth/authorize', on('oauth.authorize', showConsent))
    .add('POST', '/oauth/authorize', on('oauth.consent', decideConsent))
    .add('POST', '/oauth/token', on('oauth.token', exchangeToken))
    .add('POST', '/oauth/revoke', on('oauth.revoke', revokeToken))
    .add('GET', '/userinfo', on('oauth.userinfo', userinfo));

  return {
    name: 'oauth',
    owns: (path) => path === '/userinfo' || isUnder(path, '/oauth') || isUnder(path, '/oauth2'),
    routes,
    renderError: (error) => renderOAuthError(app, error),
  };
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The one renderer of this surface. No error answer may be cached. */
function renderOAuthError(app: App, error: unknown): Result {
  if (error instanceof OAuthError) return json(error.status, oauthErrorBody(error.code, error.message), NO_STORE);
  if (error instanceof GoogleApiError) return renderGoogleError(error, app.log);
  if (error instanceof RequestError) return json(error.status, oauthErrorBody('invalid_request', error.message), NO_STORE);
  app.log.error('internal error in the OAuth surface', error);
  return json(500, oauthErrorBody('server_error', 'The server could not answer this request.'), NO_STORE);
}
