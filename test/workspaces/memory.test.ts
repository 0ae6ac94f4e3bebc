// Deleting a workspace frees its memory (docs/workspaces.md "Bounded"), on both stores: creating
// and deleting 1,000 workspaces leaves the resident set within 20 MB of where it was. Earlier rounds of the same
// bring the process to its steady state (V8 keeps the heap pages it grew to, and code is
// compiled on first use), so the last round measures what deleting gives back; a workspace
// kept alive by anything (a listener, a timer, a cache) would cost far more than 20 KB each.
// Garbage is collected before each reading, so the figures do not depend on when V8 would.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { start } from '../../src/index.ts';
import { databaseFor } from '../_helpers/backends.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';

const ROUND = 1_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function createAndDelete(url: string): Promise<void> {
  for (let i = 0; i < ROUND; i++) {
    const res = await fetch(`${url}/__svc/workspaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `w-${i}` }) });
    assert.equal(res.status, 201, await res.text());
  }
  for (let i = 0; i < ROUND; i++) assert.equal((await fetch(`${url}/__svc/workspaces/w-${i}`, { method: 'DELETE' })).status, 204);
  gc();
  gc();
}

for (const backend of ['memory', 'sqlite'] as const) {
  describe(`deleting workspaces (${backend} store)`, { skip: backend === 'sqlite' ? SQLITE_SKIP : false }, () => {
    it('gives their memory back: 1,000 created and deleted, resident set within 20 MB', { timeout: 300_000 }, async (t) => {
      const service = await start({ port: 0, maxWorkspaces: ROUND, db: databaseFor(t, backend) });
      try {
        // Two rounds to settle: after one, Node 20's allocator still grows on the next now and then.
        await createAndDelete(service.url);
        await createAndDelete(service.url);
        const settled = process.memoryUsage();
        await createAndDelete(service.url);
        let after = process.memoryUsage();
        // The allocator may keep pages a busy machine's timing made it take (the heap does not grow):
        // one more round tells that from a leak, which would only grow further.
        if (after.rss - settled.rss > 20 * 2 ** 20) {
          await createAndDelete(service.url);
          after = process.memoryUsage();
        }
        const grew = (key: 'rss' | 'heapUsed') => ((after[key] - settled[key]) / 2 ** 20).toFixed(1);
        assert.ok(after.rss - settled.rss <= 20 * 2 ** 20, `resident set grew by ${grew('rss')} MB, heap by ${grew('heapUsed')} MB`);
        assert.ok(after.heapUsed - settled.heapUsed <= 20 * 2 ** 20, `heap grew by ${grew('heapUsed')} MB`);
      } finally {
        await service.close();
      }
    });
  });
}
