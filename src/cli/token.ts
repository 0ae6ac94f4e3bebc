// `token`: the minute-to-first-call path. Drives the real consent flow over HTTP against a running
// service, as a non-browser client (no Origin or Sec-Fetch-Site header, so the consent post is
// judged by its nonce alone, CONTRACT §3), and prints the token response JSON on stdout.
//
//   node --experimental-strip-types src/main.ts token --user user-aiko --scope calendar --offline
//
// Exit codes: 0 success, 1 service unreachable or an OAuth error, 2 bad arguments.

import { createHash } from 'node:crypto';
import { SCOPE_PREFIX } from '../oauth/scopes.ts';

export const DEFAULT_CLIENT = {
  id: 'local-calendar-client',
  secret: 'local-calendar-secret',
  redirectUri: 'http://127.0.0.1:3000/oauth2callback',
} as const;

const BARE_SCOPES = new Set(['openid', 'email', 'profile']);

/** 'calendar.readonly' -> '{scope_prefix}calendar.readonly'; openid, email, profile and full URLs stay. */
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

/** Reads the nonce and the user options out of the consent page (CONTRACT §3 form). */
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

/** A failure of the flow that the user should read as one line. */
export class FlowError extends Error {}

export interface TokenRequest {
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
    query.set('code_challenge', createHash('sha256').update(request.codeVerifier, 'ascii').digest('base64url'));
    query.set('code_challenge_method', 'S256');
  }
  const answer = await send(request.baseUrl, `/oauth/authorize?${query}`, { method: 'GET' });
  if (answer.status !== 200) throw oauthFailure('GET /oauth/authorize', answer);
  return parseConsentPage(answer.text);
}

/** POST /oauth/authorize with approve: the authorization code from the redirect. */
export async function approveConsent(baseUrl: string, nonce: string, user: string): Promise<string> {
  const answer = await send(baseUrl, '/oauth/authorize', form({ nonce, user, decision: 'approve' }));
  if (answer.status !== 302 || !answer.location) throw oauthFailure('POST /oauth/authorize', answer);
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
  const answer = await send(request.baseUrl, '/oauth/token', form(fields));
  if (answer.status !== 200) throw oauthFailure('POST /oauth/token', answer);
  return JSON.parse(answer.text) as TokenResponse;
}

interface Answer {
  status: number;
  text: string;
  location: string | null;
}

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}

const TIMEOUT_MS = 10_000;

async function send(baseUrl: string, path: string, init: RequestInit): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(baseUrl + path, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new FlowError(`cannot reach the service at ${baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  return { status: response.status, text: await response.text(), location: response.headers.get('location') };
}

function oauthFailure(step: string, answer: Answer): FlowError {
  let detail = `HTTP ${answer.status}`;
  try {
    const body = JSON.parse(answer.text) as { error?: unknown; error_description?: unknown };
    if (typeof body.error === 'string') detail = `${body.error}: ${String(body.error_description ?? '')}`;
  } catch {
    // not an OAuth error body; the status says enough
  }
  return new FlowError(`${step} failed: ${detail}`);
}

export const TOKEN_USAGE = `Usage: node --experimental-strip-types src/main.ts token [options]

Runs the consent flow of a running service for one test user and prints the token response.

  --user <id>            test user (default: the first one on the consent page)
  --scope <scopes>       space- or comma-separated; short names get the scope prefix
                         (calendar, calendar.readonly, ...); openid, email, profile stay
                         (default: calendar)
  --offline              also issue a refresh token (access_type=offline)
  --url <base>           the service (default: $CALENDAR_EMULATOR_URL, else http://127.0.0.1:8080)
  --workspace <id>       a workspace of the service (its /w/<id>/ prefix) instead of the root
  --field <name>         print only this field of the token response (access_token, ...)
  --client-id <id>       default ${DEFAULT_CLIENT.id}
  --client-secret <s>    default ${DEFAULT_CLIENT.secret}
  --redirect-uri <uri>   default ${DEFAULT_CLIENT.redirectUri}
  --help                 print this help
`;

class UsageError extends Error {}

const VALUE_FLAGS = {
  '--user': 'user',
  '--scope': 'scope',
  '--url': 'url',
  '--client-id': 'clientId',
  '--client-secret': 'clientSecret',
  '--redirect-uri': 'redirectUri',
  '--field': 'field',
  '--workspace': 'workspace',
} as const;

type ValueKey = (typeof VALUE_FLAGS)[keyof typeof VALUE_FLAGS];

function parseArguments(argv: string[], defaultUrl: string | undefined): { values: Partial<Record<ValueKey, string>>; offline: boolean } | 'help' {
  const values: Partial<Record<ValueKey, string>> = {};
  let offline = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--offline') {
      offline = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const key = (VALUE_FLAGS as Record<string, ValueKey>)[name];
    if (!key) throw new UsageError(`unknown option ${JSON.stringify(arg)} (see token --help)`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`option ${name} needs a value`);
    values[key] = value;
  }
  const url = values.url ?? defaultUrl ?? 'http://127.0.0.1:8080';
  if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError(`--url must be a base URL such as http://127.0.0.1:8080, not ${JSON.stringify(url)}`);
  if (values.scope !== undefined && expandScopes(values.scope).length === 0) throw new UsageError('--scope needs at least one scope');
  // CONTRACT §15: a workspace's ids are 1-40 characters of a-z, 0-9 and '-', so they need no escaping.
  if (values.workspace !== undefined && !/^[a-z0-9-]{1,40}$/.test(values.workspace)) throw new UsageError(`--workspace must be a workspace id (a-z, 0-9, -), not ${JSON.stringify(values.workspace)}`);
  const base = url.replace(/\/$/, '');
  return { values: { ...values, url: values.workspace === undefined ? base : `${base}/w/${values.workspace}` }, offline };
}

/** `defaultUrl`: the service's URL from the environment (CALENDAR_EMULATOR_URL), when set. */
export async function runTokenCommand(argv: string[], defaultUrl?: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArguments(argv, defaultUrl);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(TOKEN_USAGE);
    return 0;
  }
  const { values, offline } = parsed;
  try {
    const token = await requestToken({
      baseUrl: values.url as string,
      user: values.user,
      scopes: expandScopes(values.scope ?? 'calendar'),
      offline,
      clientId: values.clientId,
      clientSecret: values.clientSecret,
      redirectUri: values.redirectUri,
    });
    if (values.field === undefined) {
      process.stdout.write(`${JSON.stringify(token, null, 2)}\n`);
      return 0;
    }
    const field = (token as unknown as Record<string, unknown>)[values.field];
    if (field === undefined) {
      process.stderr.write(`error: the token response has no field ${JSON.stringify(values.field)}; it has ${Object.keys(token).join(', ')}\n`);
      return 1;
    }
    process.stdout.write(`${String(field)}\n`);
    return 0;
  } catch (error) {
    // One line on stderr, whatever failed; FlowError messages are already worded for people.
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
