// Client authentication at the token endpoint (docs/oauth.md, "Client authentication", RFC 6749 §2.3.1):
// client_secret_basic or client_secret_post, the Authorization header winning when both come.
// Secrets are stored as SHA-256 digests and compared in constant time.

import { header } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import type { ClientRecord, Store } from '../store/store.ts';
import { OAuthError } from './errors.ts';
import { safeEqual, sha256 } from '../crypto/crypto.ts';
import { single } from './params.ts';

export interface ClientCredentials {
  id: string;
  secret: string;
  via: 'basic' | 'form';
}

const BASIC = /^Basic +([A-Za-z0-9+/=]+) *$/i;

/**
 * The credentials the request carries, or undefined when it carries none. An Authorization header
 * that is Basic but malformed is a failed authentication, not an absent one.
 */
export function readCredentials(req: ApiRequest, form: URLSearchParams): ClientCredentials | undefined {
  const authorization = header(req, 'authorization');
  if (authorization !== undefined && /^Basic\b/i.test(authorization)) return parseBasic(authorization);
  const id = single(form, 'client_id');
  const secret = single(form, 'client_secret');
  if (id === undefined && secret === undefined) return undefined;
  return { id: id ?? '', secret: secret ?? '', via: 'form' };
}

// RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined by ':' and base64ed.
function parseBasic(authorization: string): ClientCredentials {
  const encoded = BASIC.exec(authorization)?.[1];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient();
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (id === undefined || secret === undefined) throw invalidClient();
  return { id, secret, via: 'basic' };
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The authenticated client; invalid_client for missing credentials, an unknown id or a wrong secret. */
export function authenticateClient(store: Store, credentials: ClientCredentials | undefined): ClientRecord {
  if (!credentials || credentials.id === '' || credentials.secret === '') throw invalidClient();
  const client = store.getClient(credentials.id);
  // Compare even for an unknown id, so the answer time does not tell which ids exist.
  const secretMatches = safeEqual(sha256(credentials.secret), client?.secretHash ?? '');
  if (!client || !secretMatches) throw invalidClient();
  return client;
}

function invalidClient(): OAuthError {
  return new OAuthError('invalid_client', 'Client authentication failed.');
}
