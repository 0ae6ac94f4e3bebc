// src/crypto/crypto.ts: digests, constant-time comparison and pooled randomness.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes, randomToken, safeEqual, sha256 } from '../../src/crypto/crypto.ts';

describe('randomness from the pool', () => {
  it('randomToken gives 256 bits, base64url, never the same twice across pool refills', () => {
    const seen = new Set<string>();
    // 8 KiB pool / 32 bytes = 256 tokens a refill: this crosses several refills.
    for (let i = 0; i < 2_000; i++) {
      const token = randomToken();
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(Buffer.from(token, 'base64url').length, 32);
      seen.add(token);
    }
    assert.equal(seen.size, 2_000);
  });

  it('randomBytes returns a copy of the requested length, not a view of the pool', () => {
    const a = randomBytes(26);
    const copy = Buffer.from(a);
    // 26 KB of further draws refill the pool several times over: a view would have changed.
    for (let i = 0; i < 1_000; i++) randomBytes(26);
    randomToken();
    assert.equal(a.length, 26);
    assert.deepEqual(a, copy);
    // Bytes that do not fit the rest of the pool come from a fresh fill, whole.
    assert.equal(randomBytes(8192).length, 8192);
    assert.notDeepEqual(randomBytes(26), randomBytes(26));
  });
});

describe('digests', () => {
  it('sha256 is base64url of the UTF-8 digest', () => {
    assert.equal(sha256('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });
  it('safeEqual compares any two strings', () => {
    assert.equal(safeEqual('same', 'same'), true);
    assert.equal(safeEqual('same', 'Same'), false);
    assert.equal(safeEqual('short', 'a much longer string'), false);
  });
});
