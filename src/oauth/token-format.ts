// The text of an access token. It begins with its expiry: 8 base64url digits of the
// milliseconds (48 bits, big-endian), then 256 random bits (43 digits), all base64url. The
// expiry is stored anyway; in the token it lets the store file tokens by expiry and find them by
// it (the SQLite schema, version 3), so tokens minted one after another are written side by side
// instead of each on a random page of an index. The prefix is no secret and grants nothing: a
// token is found by the digest of its whole text, so a prefix rewritten to another expiry finds
// no token. Tokens without it (from an older version, or an expiry out of range) are 43 random
// digits alone, and are still found, by digest alone.

import { randomToken } from '../crypto/crypto.ts';

const EXPIRY_BYTES = 6;
const EXPIRY_DIGITS = 8;
const RANDOM_DIGITS = 43;

function expiryDigits(expiresAt: number): string {
  if (!Number.isSafeInteger(expiresAt) || expiresAt < 0 || expiresAt >= 2 ** (8 * EXPIRY_BYTES)) return '';
  const bytes = Buffer.alloc(EXPIRY_BYTES);
  bytes.writeUIntBE(expiresAt, 0, EXPIRY_BYTES);
  return bytes.toString('base64url');
}

/** A new access token expiring at `expiresAt` (ms): its expiry digits, then 256 random bits. */
export function mintAccessToken(expiresAt: number): string {
  return expiryDigits(expiresAt) + randomToken();
}

/** The expiry an access token's text gives, if it gives one. */
export function expiryOfToken(token: string): number | undefined {
  if (token.length !== EXPIRY_DIGITS + RANDOM_DIGITS) return undefined;
  const bytes = Buffer.from(token.slice(0, EXPIRY_DIGITS), 'base64url');
  return bytes.length === EXPIRY_BYTES ? bytes.readUIntBE(0, EXPIRY_BYTES) : undefined;
}

/** Whether text has the shape of a token without expiry digits (older versions issued those). */
export function isUnprefixedToken(token: string): boolean {
  return token.length === RANDOM_DIGITS;
}
