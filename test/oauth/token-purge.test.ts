// Expired access tokens are purged as tokens are issued (src/oauth/tokens.ts),
// on both stores: 100,000 refresh grants through the real token handler, the service
// clock moved past every earlier token between batches, leave as many stored tokens as one batch
// and no more heap than after the first batches; and the purge never takes a token that is valid
// at the current clock time, also after the clock has moved back.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { App } from '../../src/app/app.ts';
import { Clock } from '../../src/domain/clock.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import type { ApiRequest } from '../../src/http/request.ts';
import { emptyTrace } from '../../src/http/request.ts';
import { silentLogger } from '../../src/http/log.ts';
import type { Handler } from '../../src/http/surface.ts';
import { createBearerCache } from '../../src/oauth/bearer.ts';
import { createOAuthSurface } from '../../src/oauth/routes.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, EXPIRED_TOKEN_KEPT_MS, issueRefreshToken, liveAccessToken, PURGE_EVERY } from '../../src/oauth/tokens.ts';
import { MemoryStore } from '../../src/store/memory.ts';
import { openSqliteStore } from '../../src/store/sqlite-open.ts';
import type { Store } from '../../src/store/store.ts';
import { sqliteAvailable, SQLITE_SKIP } from '../_helpers/node.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CLIENT = { id: 'purge-client', secret: 'purge-secret', redirectUris: ['http://127.0.0.1/cb'] };
const HOUR_S = ACCESS_TOKEN_LIFETIME_SECONDS;
/** Past the expiry of every token issued so far, and past the time expired ones are kept. */
const PAST_EVERY_TOKEN_S = ACCESS_TOKEN_LIFETIME_SECONDS + EXPIRED_TOKEN_KEPT_MS / 1000 + 1;

const sqlite = sqliteAvailable ? await import('node:sqlite') : undefined;

interface Grants {
  app: App;
  store: Store;
  /** One refresh grant through POST /oauth/token's handler; the new access token. */
  grant(): string;
  /** Whether `token` authenticates at GET /userinfo. */
  userinfo(token: string): Promise<number>;
}

function grants(store: Store): Grants {
  const clock = new Clock();
  const app = new App({ store, clock, log: silentLogger, startupFixture: () => parseFixture({}), host: '127.0.0.1' });
  app.loadFixture(parseFixture({ clients: [CLIENT], users: [{ id: 'user-1', name: 'One', email: 'one@example.test' }] }));
  const connectionId = 'connection-1';
  store.putConnection({ id: connectionId, clientId: CLIENT.id, userId: 'user-1', scopes: ['openid', 'email'], offline: true, createdAt: clock.now() });
  const refreshToken = issueRefreshToken(app, connectionId);
  const surface = createOAuthSurface(app, createBearerCache(app));
  const route = (method: string, path: string): Handler => {
    const match = surface.routes.match(method, path);
    assert.equal(match.kind, 'found');
    return (match as { handler: Handler }).handler;
  };
  const token = route('POST', '/oauth/token');
  const userinfo = route('GET', '/userinfo');
  const form = Buffer.from(new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CLIENT.id, client_secret: CLIENT.secret }).toString());
  const request = (method: string, path: string, headers: ApiRequest['headers'], body: Buffer) =>
    ({ method, path, query: new URLSearchParams(), search: '', headers, body, baseUrl: 'http://127.0.0.1:1', localPort: 1, trace: emptyTrace() }) satisfies ApiRequest;
  const tokenRequest = request('POST', '/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }, form);
  return {
    app,
    store,
    grant() {
      const result = token(tokenRequest, {}) as { status: number; body: string };
      assert.equal(result.status, 200, result.body);
      return (JSON.parse(result.body) as { access_token: string }).access_token;
    },
    async userinfo(accessToken) {
      return (await userinfo(request('GET', '/userinfo', { authorization: `Bearer ${accessToken}` }, Buffer.alloc(0)), {})).status;
    },
  };
}

/** `token` is stored and live by the service clock, and authenticates. */
async function works(g: Grants, token: string): Promise<boolean> {
  return liveAccessToken(g.app, token) !== undefined && (await g.userinfo(token)) === 200;
}

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const stores: Array<{ name: string; skip: string | false; open(): { store: Store; path?: string } }> = [
  { name: 'memory', skip: false, open: () => ({ store: new MemoryStore() }) },
  {
    name: 'sqlite',
    skip: SQLITE_SKIP,
    open() {
      const path = join(mkdtempSync(join(tmpdir(), 'token-purge-')), 'c.db');
      return { store: openSqliteStore(path, sqlite!), path };
    },
  },
];

for (const { name, skip, open } of stores) {
  describe(`expired access tokens are purged (${name} store)`, { skip }, () => {
    it('100,000 refresh grants, the clock moved past them between batches: stored tokens and heap stay bounded', { timeout: 300_000 }, async () => {
      const BATCHES = 10;
      const BATCH = 10_000;
      const { store, path } = open();
      const g = grants(store);
      const storedTokens = (): number => {
        if (path === undefined) return -1;
        const db = new sqlite!.DatabaseSync(path, { readOnly: true });
        try {
          return Number(db.prepare('SELECT count(*) AS n FROM access_tokens').get()?.['n']);
        } finally {
          db.close();
        }
      };
      let heapBaseline = 0;
      try {
        for (let batch = 1; batch <= BATCHES; batch++) {
          let last = '';
          for (let i = 0; i < BATCH; i++) last = g.grant();
          await store.durable();
          assert.ok(await works(g, last));
          // The previous batches were purged while this one was issued (two per token issued).
          if (path !== undefined) assert.ok(storedTokens() <= BATCH + 2 * PURGE_EVERY, `after batch ${batch}: ${storedTokens()} access tokens stored`);
          if (batch === 2) heapBaseline = heapAfterGc();
          g.app.clock.advance(PAST_EVERY_TOKEN_S);
        }
        // Without the purge, 80,000 more tokens than at the baseline: several megabytes on either store.
        const grown = heapAfterGc() - heapBaseline;
        assert.ok(grown < 4 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(1)} MiB`);
      } finally {
        store.close();
      }
    });

    it('never purges a token valid at the current clock time, whichever way the clock moved', async () => {
      const { store } = open();
      const g = grants(store);
      const purgeRounds = (): void => {
        for (let i = 0; i < 4 * PURGE_EVERY; i++) g.grant();
      };
      try {
        const first = g.grant();
        // Half an hour on: still valid, and purges around it leave it.
        g.app.clock.advance(HOUR_S / 2);
        purgeRounds();
        assert.ok(await works(g, first));

        // Far ahead: everything issued before is long expired, and purged.
        g.app.clock.advance(30 * 24 * HOUR_S);
        const farAhead = g.grant();
        purgeRounds();
        assert.equal(liveAccessToken(g.app, first), undefined);

        // Back to well before the first token: a purge compares with this time, not with the
        // latest it has seen, so what is issued now, and what was issued far ahead (valid until
        // then), keep working while tokens are issued and purges run.
        g.app.clock.advance(-31 * 24 * HOUR_S);
        const backHere = g.grant();
        purgeRounds();
        g.app.clock.advance(HOUR_S / 2);
        purgeRounds();
        assert.ok(await works(g, backHere));
        assert.ok(await works(g, farAhead));
        await store.durable();
      } finally {
        store.close();
      }
    });

    it('keeps an expired token for EXPIRED_TOKEN_KEPT_MS: stepping past its expiry and back finds it again', async () => {
      const { store } = open();
      const g = grants(store);
      try {
        const token = g.grant();
        g.app.clock.advance(HOUR_S + 60);
        assert.equal(liveAccessToken(g.app, token), undefined, 'expired');
        for (let i = 0; i < 4 * PURGE_EVERY; i++) g.grant();
        g.app.clock.advance(-120);
        assert.ok(await works(g, token));
        // Once expired for longer than that, the next purges take it, and it stays gone.
        g.app.clock.advance(120 + EXPIRED_TOKEN_KEPT_MS / 1000 + 1);
        for (let i = 0; i < 4 * PURGE_EVERY; i++) g.grant();
        g.app.clock.advance(-(2 * HOUR_S));
        assert.equal(liveAccessToken(g.app, token), undefined, 'purged');
        await store.durable();
      } finally {
        store.close();
      }
    });
  });
}
