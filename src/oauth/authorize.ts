// GET and POST /oauth/authorize (RFC 6749 §4.1.1-§4.1.2, docs/oauth.md, "GET /oauth/authorize",
// docs/oauth.md). Every validation error is a 400 JSON answer to the browser and never a redirect:
// the redirect URI is only trusted once the request is fully valid (RFC 6749 §4.1.2.1).

import { acceptedHosts, addressedTo, HOST_REFUSED } from '../http/allowed-host.ts';
import { formBody } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import { redirect } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import { fromOwnOrigin } from '../http/same-origin.ts';
import { renderConsentPage } from './consent-page.ts';
import type { OAuthContext } from './context.ts';
import { OAuthError } from './errors.ts';
import { randomToken } from '../crypto/crypto.ts';
import { workspaceGeneration } from '../store/generation.ts';
import { MAX_PENDING_CONSENTS } from './pending.ts';
import type { PendingConsent } from './pending.ts';
import { required, single } from './params.ts';
import { isValidChallenge } from './pkce.ts';
import { isSupportedScope, parseScopeParameter } from './scopes.ts';

const KNOWN_PARAMETERS = new Set([
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'access_type',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'include_granted_scopes',
]);

/** The consent page is always shown, so only prompts that ask for it are accepted (docs/oauth.md). */
const ACCEPTED_PROMPTS = new Set(['consent', 'select_account', 'consent select_account', 'select_account consent']);

export function showConsent(ctx: OAuthContext, req: ApiRequest): Result {
  const { store, clock } = ctx.app;
  // SECURITY.md: the page lists every test user's name and e-mail, so a page that reached the
  // service through DNS rebinding must not read it (the management API's Host rule, docs/management-api.md).
  if (!addressedTo(req, acceptedHosts(ctx.app.host, ctx.app.baseUrl, ctx.app.allowedHosts))) throw new OAuthError('forbidden', HOST_REFUSED);
  const consent = validateAuthorizationRequest(ctx, req.query);
  const now = clock.now();
  if (ctx.consents.count(now) >= MAX_PENDING_CONSENTS) {
    throw new OAuthError('rateLimitExceeded', `More than ${MAX_PENDING_CONSENTS} consents are pending; try again later.`);
  }
  const nonce = ctx.consents.open(consent, now);
  return renderConsentPage({
    action: `${req.prefix ?? ''}/oauth/authorize`,
    nonce,
    clientId: consent.clientId,
    redirectUri: consent.redirectUri,
    scopes: consent.scopes,
    users: store.listUsers(),
  });
}

/** The checks of docs/oauth.md, in its order: the first failing rule decides the error. */
function validateAuthorizationRequest(ctx: OAuthContext, query: URLSearchParams): Omit<PendingConsent, 'expiresAt'> {
  // 1-2. client and redirect URI first: nothing else may be judged before they are known.
  const clientId = query.get('client_id');
  if (!clientId) throw new OAuthError('invalid_request', 'Missing required parameter: client_id.');
  const client = ctx.app.store.getClient(clientId);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client.');
  const redirectUri = query.get('redirect_uri');
  if (!redirectUri) throw new OAuthError('invalid_request', 'Missing required parameter: redirect_uri.');
  // Exact string match: no wildcard ports, no trailing-slash or case normalisation (docs/oauth.md).
  if (!client.redirectUris.includes(redirectUri)) throw new OAuthError('invalid_request', 'Unregistered redirect URI.');
  // The answer to the consent is a Location header, which holds visible ASCII only: a URI that
  // cannot go there (registered before fixtures refused such URIs) is refused before anything
  // is stored for it.
  if (!isHeaderSafe(redirectUri)) throw new OAuthError('invalid_request', 'The redirect URI must be ASCII: percent-encode other characters when registering it.');

  // 3. unknown, then repeated parameters.
  for (const name of new Set(query.keys())) {
    if (!KNOWN_PARAMETERS.has(name)) throw new OAuthError('unsupported_feature', `Parameter ${name} is not supported.`);
  }
  for (const name of KNOWN_PARAMETERS) single(query, name);

  // 4. response_type
  if (required(query, 'response_type') !== 'code') {
    throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.');
  }

  // 5. scope
  const scopes = parseScopeParameter(required(query, 'scope'));
  if (scopes.length === 0) throw new OAuthError('invalid_request', 'Missing required parameter: scope.');
  const unsupported = scopes.find((scope) => !isSupportedScope(scope));
  if (unsupported !== undefined) throw new OAuthError('invalid_scope', `Scope ${unsupported} is not supported.`);

  // 6. access_type
  const accessType = query.get('access_type') ?? 'online';
  if (accessType !== 'online' && accessType !== 'offline') {
    throw new OAuthError('invalid_request', 'access_type must be online or offline.');
  }

  // 7. PKCE (RFC 7636 §4.3): S256 only, and challenge and method come together.
  const codeChallenge = query.get('code_challenge') ?? undefined;
  const method = query.get('code_challenge_method') ?? undefined;
  if (method === 'plain') throw new OAuthError('invalid_request', 'code_challenge_method plain is not supported; use S256.');
  if (method !== undefined && method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256.');
  if (codeChallenge === undefined && method !== undefined) {
    throw new OAuthError('invalid_request', 'code_challenge_method was given without code_challenge.');
  }
  if (codeChallenge !== undefined) {
    if (!isValidChallenge(codeChallenge)) throw new OAuthError('invalid_request', 'code_challenge must be 43 base64url characters.');
    if (method === undefined) throw new OAuthError('invalid_request', 'code_challenge requires code_challenge_method=S256.');
  }

  // 8. prompt
  const prompt = query.get('prompt');
  if (prompt !== null && !ACCEPTED_PROMPTS.has(prompt)) {
    throw new OAuthError('unsupported_feature', `prompt=${prompt} is not supported; the consent page is always shown.`);
  }

  // 9. include_granted_scopes: incremental authorization is not offered.
  const include = query.get('include_granted_scopes');
  if (include !== null && include !== 'false') {
    throw new OAuthError('unsupported_feature', 'include_granted_scopes is not supported; only false is allowed.');
  }

  return {
    clientId,
    redirectUri,
    scopes,
    state: query.get('state') ?? undefined,
    offline: accessType === 'offline',
    codeChallenge,
    generation: workspaceGeneration(ctx.app.store),
  };
}

/** RFC 9110 §5.5: a header value here holds visible ASCII only (a URI has no spaces). */
function isHeaderSafe(uri: string): boolean {
  return /^[\x21-\x7e]+$/.test(uri);
}

export function decideConsent(ctx: OAuthContext, req: ApiRequest): Result {
  assertSameOrigin(req);
  const form = formBody(req);
  const nonce = single(form, 'nonce') ?? '';
  const userId = single(form, 'user') ?? '';
  const decision = single(form, 'decision');
  const { store, clock } = ctx.app;
  const now = clock.now();
  const consent = ctx.consents.find(nonce, now);
  // A reset or fixture load ends every pending consent, also when another process on the same
  // database file made it: its hooks cannot reach this process's memory, the generation can.
  if (!consent || consent.generation !== workspaceGeneration(store)) throw new OAuthError('invalid_request', 'The consent request is unknown, expired or already used.');
  if (decision !== 'approve' && decision !== 'deny') throw new OAuthError('invalid_request', 'decision must be approve or deny.');
  const user = store.getUser(userId);
  if (!user) throw new OAuthError('invalid_request', 'Unknown test user.');
  ctx.consents.close(nonce);

  if (decision === 'deny') return redirect(redirectTarget(consent, { error: 'access_denied' }));
  // States and transitions: approve creates the connection and its code.
  const connection = {
    id: randomToken(),
    clientId: consent.clientId,
    userId: user.id,
    scopes: consent.scopes,
    offline: consent.offline,
    createdAt: now,
  };
  const code = ctx.codes.issue({ connection, redirectUri: consent.redirectUri, codeChallenge: consent.codeChallenge }, now);
  // The answer is built before the connection is stored: nothing is kept for an answer that
  // could not be sent (a code whose connection was never stored is refused at the token endpoint).
  const answer = redirect(redirectTarget(consent, { code }));
  store.putConnection(connection);
  return answer;
}

/** `<redirect_uri>?state=<state>&code=<code>`; state only when given; `&` when the URI has a query (RFC 6749 §3.1.2). */
function redirectTarget(consent: PendingConsent, result: Record<string, string>): string {
  const params = new URLSearchParams();
  if (consent.state !== undefined) params.set('state', consent.state);
  for (const [name, value] of Object.entries(result)) params.set(name, value);
  return consent.redirectUri + (consent.redirectUri.includes('?') ? '&' : '?') + params.toString();
}

/**
 * docs/oauth.md, the cross-site check (login CSRF defence): a present Sec-Fetch-Site must be
 * `same-origin` and a present Origin must be the base URL's origin, each on its own, so a foreign
 * Origin refuses even beside `same-origin` and --base-url is the one origin the form accepts (the
 * page opened as 127.0.0.1 when the base URL says localhost is refused). A client sending neither
 * is not a browser and is judged by the nonce alone.
 */
function assertSameOrigin(req: ApiRequest): void {
  const rule = { sites: ['same-origin'], isOwnOrigin: (origin: string) => origin === new URL(req.baseUrl).origin };
  if (!fromOwnOrigin(req, rule)) throw new OAuthError('forbidden', 'Cross-site requests to /oauth/authorize are refused.');
}
