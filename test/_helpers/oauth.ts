// Getting tokens in tests by driving the real OAuth flow over HTTP, without a browser. The flow
// itself is the test handle's (src/handle/consent.ts); this adds the test defaults and
// finds the connection the approval created.

import { DEFAULT_CLIENT, expandScopes, requestToken } from '../../src/handle/consent.ts';
import type { TokenResponse } from '../../src/handle/consent.ts';

export { approveConsent, DEFAULT_CLIENT, expandScope, expandScopes, openConsent, parseConsentPage } from '../../src/handle/consent.ts';

export interface ObtainTokenOptions {
  /** Test user id; default the first user of the consent page (user-aiko in the default fixture). */
  user?: string;
  /** Short names ('calendar', 'calendar.readonly') get the scope prefix; openid, email, profile stay bare. */
  scope: string | string[];
  offline?: boolean;
  clientId?: string;
  clientSecret?: string;
  redirectUri?: string;
  /** Use PKCE S256 with this verifier. */
  codeVerifier?: string;
}

export interface ObtainedToken extends TokenResponse {
  /** The connection the approval created (from GET /__svc/connections). */
  connectionId?: string;
}

export async function obtainToken(baseUrl: string, opts: ObtainTokenOptions): Promise<ObtainedToken> {
  const before = await connectionIds(baseUrl);
  const token: ObtainedToken = await requestToken({
    baseUrl,
    user: opts.user,
    scopes: expandScopes(opts.scope),
    offline: opts.offline,
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    redirectUri: opts.redirectUri,
    codeVerifier: opts.codeVerifier,
  });
  const after = await connectionIds(baseUrl);
  const created = after.filter((id) => !before.includes(id));
  if (created.length === 1) token.connectionId = created[0] as string;
  return token;
}

async function connectionIds(baseUrl: string): Promise<string[]> {
  const res = await fetch(`${baseUrl}/__svc/connections`);
  if (res.status !== 200) return [];
  const body = (await res.json()) as { connections: Array<{ id: string }> };
  return body.connections.map((c) => c.id);
}

/** A small fixture for OAuth tests: two clients (one with a secret that needs URL-encoding) and users whose names need escaping. */
export const OAUTH_FIXTURE = {
  clients: [
    { id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUris: ['http://127.0.0.1:3000/oauth2callback'] },
    {
      id: 'other client:1',
      secret: 'p@ss:w+rd/é',
      redirectUris: ['http://localhost:4000/cb?from=test', 'https://app.example.test/callback'],
    },
  ],
  users: [
    { id: 'user-aiko', name: 'Aiko Tanaka', email: 'aiko.tanaka@example.com' },
    { id: 'user-ben', name: `Ben "<b>" O'Neil & Co`, email: 'ben@example.com' },
  ],
};

export const OTHER_CLIENT = OAUTH_FIXTURE.clients[1] as { id: string; secret: string; redirectUris: string[] };

/** Moves the service clock (docs/management-api.md); tests never sleep for an expiry. */
export async function advanceClock(baseUrl: string, seconds: number): Promise<void> {
  const res = await fetch(`${baseUrl}/__svc/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  if (res.status !== 200) throw new Error(`POST /__svc/clock answered ${res.status}: ${await res.text()}`);
}

/** The query of a valid authorization request for the default client, with overrides (null removes a parameter). */
export function authorizeQuery(overrides: Record<string, string | null> = {}): string {
  const params: Record<string, string | null> = {
    client_id: DEFAULT_CLIENT.id,
    redirect_uri: DEFAULT_CLIENT.redirectUri,
    response_type: 'code',
    scope: 'https://www.googleapis.com/auth/calendar openid',
    ...overrides,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null) query.append(name, value);
  return query.toString();
}
