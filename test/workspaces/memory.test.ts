// Deleting a workspace frees its memory (docs/workspaces.md "Bounded"), on both stores: creating
// and deleting 1,000 workspaces adds no more than 20 MB to the resident set. Earlier rounds of the same
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
/** What a round of ROUND workspaces may add: 20 KB each. */
const LIMIT = 20 * 2 ** 20;

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
    it('gives their memory back: a round of 1,000 created and deleted adds at most 20 MB to the resident set', { timeout: 300_000 }, async (t) => {
      const service = await start({ port: 0, maxWorkspaces: ROUND, db: databaseFor(t, backend) });
      try {
        // Two rounds to settle: after one, Node 20's allocator still grows on the next now and then.
        await createAndDelete(service.url);
        await createAndDelete(service.url);
        const settled = process.memoryUsage();
        // A leak of 20 KB a workspace grows the resident set by 20 MB in every round. The
        // allocator may keep pages a busy machine's timing made it take (the heap does not grow),
        // once: so a round passes when it adds no more than 20 MB to the round before it, and
        // each of three rounds failing is a leak.
        const growths: number[] = [];
        let before = settled;
        let after = settled;
        while (growths.length < 3) {
          await createAndDelete(service.url);
          after = process.memoryUsage();
          growths.push(after.rss - before.rss);
          if (after.rss - before.rss <= LIMIT) break;
          before = after;
        }
        const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
        assert.ok(growths.at(-1)! <= LIMIT, `resident set grew by ${growths.map(mb).join(', ')} MB in successive rounds`);
        assert.ok(after.heapUsed - settled.heapUsed <= LIMIT, `heap grew by ${mb(after.heapUsed - settled.heapUsed)} MB`);
      } finally {
        await service.close();
      }
    });
  });
}
