// src/oauth/token-format.ts: an access token's text is its expiry in 8 base64url digits, then
// 256 random bits; tokens of older versions are the random bits alone.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomToken } from '../../src/crypto/crypto.ts';
import { expiryOfToken, isUnprefixedToken, mintAccessToken } from '../../src/oauth/token-format.ts';

const EXPIRY = Date.UTC(2026, 10, 24, 5, 0, 0, 123);

describe('access token format', () => {
  it('a minted token is 8 expiry digits then 43 random digits, and gives its expiry back', () => {
    const token = mintAccessToken(EXPIRY);
    assert.match(token, /^[A-Za-z0-9_-]{51}$/);
    assert.equal(expiryOfToken(token), EXPIRY);
    assert.equal(Buffer.from(token.slice(8), 'base64url').length, 32);
    assert.equal(Buffer.from(token.slice(0, 8), 'base64url').readUIntBE(0, 6), EXPIRY, '48 bits, big-endian');
    assert.notEqual(mintAccessToken(EXPIRY).slice(8), token.slice(8), 'the random part is new each time');
    assert.equal(isUnprefixedToken(token), false);
  });

  it('the expiry digits cover 0 to 2^48 - 1 ms; an expiry outside gets no digits', () => {
    assert.equal(expiryOfToken(mintAccessToken(0)), 0);
    assert.equal(expiryOfToken(mintAccessToken(2 ** 48 - 1)), 2 ** 48 - 1);
    for (const outside of [-1, 2 ** 48, 1.5, Number.NaN]) {
      const token = mintAccessToken(outside);
      assert.equal(token.length, 43, String(outside));
      assert.equal(expiryOfToken(token), undefined);
      assert.equal(isUnprefixedToken(token), true);
    }
  });

  it('text of another length gives no expiry; a 43-digit token is the unprefixed shape', () => {
    const token = mintAccessToken(EXPIRY);
    assert.equal(expiryOfToken(token.slice(1)), undefined);
    assert.equal(expiryOfToken(`${token}A`), undefined);
    assert.equal(expiryOfToken(''), undefined);
    assert.equal(isUnprefixedToken(randomToken()), true);
    assert.equal(expiryOfToken(randomToken()), undefined);
    assert.equal(isUnprefixedToken(token.slice(1)), false);
  });

  it('digits that are not base64url give no expiry', () => {
    const token = mintAccessToken(EXPIRY);
    assert.equal(expiryOfToken(`!!!!!!!!${token.slice(8)}`), undefined);
  });
});
