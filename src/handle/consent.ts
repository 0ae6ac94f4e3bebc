// The real consent flow over HTTP, as a non-browser client: no Origin or Sec-Fetch-Site header,
// so the consent post is judged by its nonce alone (README "Consent page"). The `token` command
// and the handle's token() both run it.

import { createHash } from 'node:crypto';
import { FlowError, send, serviceError } from './http.ts';

/** The client of fixtures/default.json. */
export const DEFAULT_CLIENT = {
  id: 'local-calendar-client',
  secret: 'local-calendar-secret',
  redirectUri: 'http://127.0.0.1:3000/oauth2callback',
} as const;

// Google's scope prefix (https://developers.google.com/identity/protocols/oauth2/scopes#calendar):
// a client names scopes by these URLs, so the handle knows it as googleapis does.
const SCOPE_PREFIX = 'https://www.googleapis.com/auth/';
const BARE_SCOPES = new Set(['openid', 'email', 'profile']);

/** 'calendar.readonly' -> 'https://www.googleapis.com/auth/calendar.readonly'; openid, email, profile and full URLs stay. */
export function expandScope(scope: string): string {
  return BARE_SCOPES.has(scope) || scope.includes('://') ? scope : SCOPE_PREFIX + scope;
}

/** Scopes given as a list, or as one string separated by spaces or commas. */
export function expandScopes(scope: string | readonly string[]): string[] {
  const list = typeof scope === 'string' ? scope.split(/[\s,]+/) : scope;
  return list.filter((s) => s !== '').map(expandScope);
}

export interface ConsentPage {
  nonce: string;
  /** The option values of the user select, in page order. */
  users: string[];
}

/** Reads the nonce and the user options out of the consent page (README "Consent page"). */
export function parseConsentPage(html: string): ConsentPage {
  const nonceInput = /<input\b[^>]*\bname="nonce"[^>]*>/.exec(html)?.[0];
  const nonce = nonceInput && /\bvalue="([^"]*)"/.exec(nonceInput)?.[1];
  if (!nonce) throw new FlowError('the consent page has no nonce field');
  const users = [...html.matchAll(/<option\b[^>]*\bvalue="([^"]*)"/g)].map((m) => unescapeHtml(m[1] as string));
  return { nonce: unescapeHtml(nonce), users };
}

function unescapeHtml(text: string): string {
  return text.replace(/&(quot|#39|lt|gt|amp);/g, (_, name: string) => ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' })[name] as string);
}

export interface TokenRequest {
  /** The service's base URL, or a workspace's (`…/w/{id}`). */
  baseUrl: string;
  /** Test user id; default the first user on the consent page. */
  user?: string | undefined;
  /** Full scope strings. */
  scopes: readonly string[];
  offline?: boolean | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  redirectUri?: string | undefined;
  state?: string | undefined;
  /** Sends a PKCE S256 challenge for this verifier, and the verifier to the token endpoint. */
  codeVerifier?: string | undefined;
}

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** GET /oauth/authorize: the consent page of a valid request. */
export async function openConsent(request: TokenRequest): Promise<ConsentPage> {
  const query = new URLSearchParams({
    client_id: request.clientId ?? DEFAULT_CLIENT.id,
    redirect_uri: request.redirectUri ?? DEFAULT_CLIENT.redirectUri,
    response_type: 'code',
    scope: request.scopes.join(' '),
  });
  if (request.offline) query.set('access_type', 'offline');
  if (request.state !== undefined) query.set('state', request.state);
  if (request.codeVerifier !== undefined) {
    // RFC 7636 §4.2: S256 challenge = BASE64URL(SHA256(ASCII(code_verifier)))
    query.set('code_challenge', createHash('sha256').update(request.codeVerifier, 'ascii').digest('base64url'));
    query.set('code_challenge_method', 'S256');
  }
  const answer = await send(`${request.baseUrl}/oauth/authorize?${query}`, { method: 'GET' });
  if (answer.status !== 200) throw serviceError('GET /oauth/authorize', answer);
  return parseConsentPage(answer.text);
}

/** POST /oauth/authorize with approve: the authorization code from the redirect. */
export async function approveConsent(baseUrl: string, nonce: string, user: string): Promise<string> {
  const answer = await send(`${baseUrl}/oauth/authorize`, form({ nonce, user, decision: 'approve' }));
  if (answer.status !== 302 || !answer.location) throw serviceError('POST /oauth/authorize', answer);
  const location = new URL(answer.location);
  const code = location.searchParams.get('code');
  if (!code) throw new FlowError(`consent redirect carries no code: ${location.searchParams.get('error') ?? location.href}`);
  return code;
}

/** The whole flow: consent page, approval, code exchange. */
export async function requestToken(request: TokenRequest): Promise<TokenResponse> {
  const page = await openConsent(request);
  const user = request.user ?? page.users[0];
  if (user === undefined) throw new FlowError('the consent page lists no test users');
  if (!page.users.includes(user)) throw new FlowError(`unknown test user ${JSON.stringify(user)}; the service has: ${page.users.join(', ')}`);
  const code = await approveConsent(request.baseUrl, page.nonce, user);
  const fields: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: request.redirectUri ?? DEFAULT_CLIENT.redirectUri,
    client_id: request.clientId ?? DEFAULT_CLIENT.id,
    client_secret: request.clientSecret ?? DEFAULT_CLIENT.secret,
  };
  if (request.codeVerifier !== undefined) fields.code_verifier = request.codeVerifier;
  const answer = await send(`${request.baseUrl}/oauth/token`, form(fields));
  if (answer.status !== 200) throw serviceError('POST /oauth/token', answer);
  return JSON.parse(answer.text) as TokenResponse;
}

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}
