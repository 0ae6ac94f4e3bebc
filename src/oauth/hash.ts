// Secrets, tokens, codes and nonces are stored only as SHA-256 digests (CONTRACT §4), and
// compared in constant time.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

/** 256 random bits, base64url: tokens, codes, nonces, connection ids. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time equality of two strings (lengths may differ; the comparison still takes equal time per call shape). */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}
