// The service's shared crypto: SHA-256 digests, pooled CSPRNG bytes and tokens, constant-time
// comparison. Secrets, tokens, codes and nonces are stored only as SHA-256 digests (docs/oauth.md),
// and compared in constant time. Neutral ground below every surface: OAuth, the calendar API
// (etags), push (channel tokens), event input (ids) and fixtures use it without importing OAuth.

import { hash, randomFillSync, timingSafeEqual } from 'node:crypto';

// crypto.hash, one call, not createHash().update().digest(): building the Hash object cost more
// than hashing a token (a few percent of a refresh grant).
export function sha256(value: string): string {
  return hash('sha256', value, 'base64url');
}

// Random bytes come from a pool refilled by one randomFillSync call per 8 KiB: a call into the
// CSPRNG costs about 2 µs whatever its size, which was a measurable part of minting a token.
// Each byte is handed out once.
const pool = Buffer.alloc(8192);
let poolOffset = pool.length;

function takeRandom(n: number): number {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += n;
  return start;
}

/** n (at most 8192) fresh random bytes from the CSPRNG, in a new buffer. */
export function randomBytes(n: number): Buffer {
  const start = takeRandom(n);
  return Buffer.from(pool.subarray(start, start + n));
}

/** 256 random bits, base64url: tokens, codes, nonces, connection ids. */
export function randomToken(): string {
  const start = takeRandom(32);
  return pool.toString('base64url', start, start + 32);
}

/**
 * Constant-time equality of two strings: the time taken depends on their lengths only, which are
 * not secret where this is used (a client secret's digest against the stored one, a PKCE
 * challenge computed against the one sent). Compared as UTF-16 code units, so equal strings and
 * only equal strings match. No hashing first: the callers already compare digests, and hashing
 * both again was a tenth of a refresh grant's CPU.
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf16le');
  const right = Buffer.from(b, 'utf16le');
  return left.length === right.length && timingSafeEqual(left, right);
}
