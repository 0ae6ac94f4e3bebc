// src/oauth/tokens.ts: an access token's shape (its expiry, then 256 random bits, all base64url),
// what reaches the store (the digest, with the expiry it keeps anyway), and lookups: by digest
// and expiry, by digest alone for tokens without an expiry, and none at all for other shapes.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { App } from '../../src/app/app.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import { silentLogger } from '../../src/http/log.ts';
import { randomToken, sha256 } from '../../src/crypto/crypto.ts';
import { expiryOfToken } from '../../src/oauth/token-format.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, issueAccessToken, liveAccessToken } from '../../src/oauth/tokens.ts';
import { MemoryStore } from '../../src/store/memory.ts';
import { openSqliteStore } from '../../src/store/sqlite-open.ts';
import type { Store } from '../../src/store/store.ts';
import { frozenClock } from '../_helpers/manual-time.ts';
import { sqliteAvailable } from '../_helpers/node.ts';

const NOW = Date.UTC(2026, 10, 23, 9, 30);

/** An App on `store` whose getAccessToken calls are recorded. */
function appOn(store: Store): { app: App; lookups: unknown[][] } {
  const lookups: unknown[][] = [];
  const recording = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'getAccessToken') return (...args: unknown[]) => (lookups.push(args), (value as (...a: unknown[]) => unknown).apply(target, args));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  const app = new App({ store: recording, clock: frozenClock(NOW), log: silentLogger, startupFixture: () => parseFixture({}), host: '127.0.0.1' });
  return { app, lookups };
}

const stores: Array<[string, () => Store]> = [['memory', () => new MemoryStore()]];
if (sqliteAvailable) {
  const sqlite = await import('node:sqlite');
  stores.push(['sqlite', () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'access-token-')), 'c.db'), sqlite)]);
}

for (const [name, open] of stores) {
  describe(`access tokens (${name} store)`, () => {
    it('are 8 base64url digits of their expiry then 256 random bits; the store holds their digest', () => {
      const store = open();
      const { app } = appOn(store);
      const token = issueAccessToken(app, { issuedSincePurge: 0 }, 'k1');
      assert.match(token, /^[A-Za-z0-9_-]{51}$/);
      // The service clock stands at NOW.
      const expiresAt = expiryOfToken(token) as number;
      assert.equal(expiresAt, NOW + ACCESS_TOKEN_LIFETIME_SECONDS * 1000);
      assert.equal(Buffer.from(token.slice(8), 'base64url').length, 32);
      assert.deepEqual(store.getAccessToken(sha256(token), expiresAt), { hash: sha256(token), connectionId: 'k1', expiresAt });
      assert.notEqual(issueAccessToken(app, { issuedSincePurge: 0 }, 'k1').slice(8), token.slice(8));
      store.close();
    });

    it('are found by digest and expiry, live until their expiry by the service clock', () => {
      const store = open();
      const { app, lookups } = appOn(store);
      const token = issueAccessToken(app, { issuedSincePurge: 0 }, 'k1');
      assert.equal(liveAccessToken(app, token)?.connectionId, 'k1');
      assert.deepEqual(lookups.at(-1), [sha256(token), expiryOfToken(token)]);
      app.clock.advance(ACCESS_TOKEN_LIFETIME_SECONDS - 1);
      assert.ok(liveAccessToken(app, token));
      app.clock.advance(1);
      assert.equal(liveAccessToken(app, token), undefined);
      store.close();
    });

    it('a token with another expiry written into it is not found', () => {
      const store = open();
      const { app } = appOn(store);
      const token = issueAccessToken(app, { issuedSincePurge: 0 }, 'k1');
      const later = Buffer.alloc(6);
      later.writeUIntBE((expiryOfToken(token) as number) + 3_600_000, 0, 6);
      assert.equal(liveAccessToken(app, later.toString('base64url') + token.slice(8)), undefined);
      assert.equal(liveAccessToken(app, token.slice(8)), undefined, 'the random part alone');
      store.close();
    });

    it('a token without an expiry (as older versions issued them) is found by its digest alone', () => {
      const store = open();
      const { app, lookups } = appOn(store);
      const old = randomToken();
      store.putAccessToken({ hash: sha256(old), connectionId: 'k-old', expiresAt: NOW + 60_000 });
      assert.equal(expiryOfToken(old), undefined);
      assert.equal(liveAccessToken(app, old)?.connectionId, 'k-old');
      assert.deepEqual(lookups.at(-1), [sha256(old), undefined]);
      store.close();
    });

    it('text of neither shape is not looked up at all', () => {
      const store = open();
      const { app, lookups } = appOn(store);
      for (const text of ['', 'short', 'x'.repeat(44), 'x'.repeat(50), 'x'.repeat(52), `${randomToken()}${randomToken()}`]) {
        assert.equal(liveAccessToken(app, text), undefined, text);
      }
      assert.deepEqual(lookups, []);
      store.close();
    });
  });
}
