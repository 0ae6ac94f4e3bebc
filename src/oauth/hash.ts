// Secrets, tokens, codes and nonces are stored only as SHA-256 digests (CONTRACT §4), and
// compared in constant time.

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

/** Constant-time equality of two strings (lengths may differ; the comparison still takes equal time per call shape). */
export function safeEqual(a: string, b: string): boolean {
  const left = hash('sha256', a, 'buffer');
  const right = hash('sha256', b, 'buffer');
  return timingSafeEqual(left, right);
}
