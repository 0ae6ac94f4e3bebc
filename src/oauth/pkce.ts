// PKCE with the S256 method only (RFC 7636; docs/oauth.md rejects `plain`).

import { createHash } from 'node:crypto';
import { safeEqual } from '../crypto/crypto.ts';

/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters of the base64url alphabet. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function isValidChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/** RFC 7636 §4.2: code_challenge = BASE64URL-ENCODE(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 §4.6: the verifier matches when its S256 transform equals the stored challenge (constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return VERIFIER.test(verifier) && safeEqual(s256Challenge(verifier), challenge);
}
