// The sync property, seeded and on both stores: random edits (single events
// inserted, patched, moved and deleted; series inserted, renamed, moved, re-ruled, deleted,
// ended with "this and following", turned into single events and back; instances patched, moved
// and cancelled) interleaved with incremental syncs, some of them paged in small pages with an
// edit made between their pages. After every sync, the client's copy with the sync's items
// applied equals a fresh full listing, item for item, with singleEvents=true and with
// singleEvents=false.
//
// A failure names the seed and the edits so far; SYNC_SEED=<n> runs that seed alone.

import { describe, test } from 'node:test';
import { CALENDAR_FIXTURE, tokenFor } from '../_helpers/calendar.ts';
import { Rng } from '../_helpers/fuzz.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { postJson, startService } from '../_helpers/service.ts';
import { Editor, SyncClient } from './sync-client.ts';

const SEEDS = process.env.SYNC_SEED === undefined ? [11, 22, 33] : [Number(process.env.SYNC_SEED)];
const STEPS = 40;
const NOW = '2030-03-06T12:00:00Z';

for (const backend of BACKENDS) {
  describe(`incremental sync keeps a client in step (${backend} store)`, { skip: skipUnless(backend) }, () => {
    for (const singleEvents of [true, false]) {
      for (const seed of SEEDS) {
        test(`singleEvents=${singleEvents}, seed ${seed}`, async (t) => {
          const url = await startService(t, { fixture: CALENDAR_FIXTURE, db: databaseFor(t, backend) });
          await postJson(`${url}/__svc/clock`, { now: NOW });
          const client = new SyncClient(url, await tokenFor(url, 'calendar'), 'primary', singleEvents);
          const rng = new Rng(seed);
          const editor = new Editor(client, rng, Date.parse(NOW));
          for (let i = 0; i < 3; i++) await editor.insertSingle();
          for (let i = 0; i < 3; i++) await editor.insertSeries();
          await client.fullSync();
          for (let step = 0; step < STEPS; step++) {
            const edits = rng.int(0, 3);
            for (let i = 0; i < edits; i++) await editor.edit();
            const pageSize = rng.pick([5, 50, 250, 2500, 2500]);
            const between = rng.chance(0.2) ? async () => void (await editor.edit()) : undefined;
            await client.sync(pageSize, between);
            await client.assertInStep(`seed ${seed}, step ${step}, pages of ${pageSize}, edits: ${editor.log.join('; ')}`);
          }
        });
      }
    }
  });
}
