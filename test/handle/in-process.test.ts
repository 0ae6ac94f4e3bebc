// The handle's suite against start(): the service in this process, and what only start() does.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start } from '../../src/index.ts';
import { handleSuite } from './suite.ts';

handleSuite('from start()', { open: () => start({ port: 0 }), close: async (handle) => handle?.close() });

test('start(): close() stops the service', async () => {
  const handle = await start({ port: 0 });
  await handle.close();
  await assert.rejects(handle.users(), /cannot reach the service at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
});

test("start({fixture}): token() uses the fixture's first client, from an object or a file", async (t) => {
  const fixture = new URL('../../fixtures/default.json', import.meta.url).pathname;
  const fromFile = await start({ port: 0, fixture });
  t.after(() => fromFile.close());
  assert.equal((await fromFile.token()).token_type, 'Bearer');
  const { OWN_FIXTURE } = await import('./suite.ts');
  const own = await start({ port: 0, fixture: OWN_FIXTURE });
  t.after(() => own.close());
  await own.token();
  assert.equal((await own.connections())[0]?.clientId, 'own-client');
});

test('requests(): follows the pages past the 1,000 entries one answer holds', async (t) => {
  const handle = await start({ port: 0 });
  t.after(() => handle.close());
  for (let i = 0; i < 1_005; i++) await fetch(`${handle.url}/unrouted/${i}`);
  const all = await handle.requests();
  assert.equal(all.length, 1_005);
  assert.deepEqual(
    all.map((entry) => entry.path).slice(998, 1_002),
    ['/unrouted/998', '/unrouted/999', '/unrouted/1000', '/unrouted/1001'],
  );
  assert.equal((await handle.requests({ limit: 1_002 })).length, 1_002);
  assert.equal((await handle.requests({ since: all[1_000]?.id as number })).length, 4);
});
