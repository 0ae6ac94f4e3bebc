// Checkpoints (docs/workspaces.md): take one, run a scenario, restore, and every read answers as it did;
// tokens issued after the checkpoint are refused; the clock, journal, fault rules and outbox stay.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { api } from '../_helpers/calendar.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';

const EVENT = { summary: 'Sync', start: { dateTime: '2030-01-01T10:00:00Z' }, end: { dateTime: '2030-01-01T11:00:00Z' } };

for (const backend of BACKENDS) {
  describe(`checkpoints (${backend})`, { skip: skipUnless(backend) }, () => {
    for (const where of ['the root', 'a workspace']) {
      it(`in ${where}: restore puts every read back, and refuses later tokens`, async (t) => {
        const service = await start({ port: 0, db: databaseFor(t, backend) });
        t.after(() => service.close());
        let base = service.url;
        if (where === 'a workspace') {
          await postJson(`${service.url}/__svc/workspaces`, { id: 'w' });
          base = `${service.url}/w/w`;
        }
        const early = await obtainToken(base, { scope: 'calendar', offline: true });
        const first = await api(base, early.access_token, 'calendars/primary/events', { method: 'POST', body: EVENT });
        const reads = async () => ({
          events: (await api(base, early.access_token, 'calendars/primary/events?showDeleted=true')).json.items,
          event: (await api(base, early.access_token, `calendars/primary/events/${first.json.id}`)).json,
          calendars: (await api(base, early.access_token, 'users/me/calendarList')).json.items,
          users: (await call(`${base}/__svc/users`)).json,
          connections: (await call(`${base}/__svc/connections`)).json,
          export: (await call(`${base}/__svc/fixtures`)).json,
        });
        const before = await reads();
        const taken = await postJson(`${base}/__svc/checkpoints`, { name: 'before-sync' });
        assert.equal(taken.status, 201);
        assert.equal(taken.json.name, 'before-sync');

        // The scenario: writes, a deleted user, a new token, a fault rule, a moved clock.
        const late = await obtainToken(base, { scope: 'calendar', user: 'user-ben' });
        await api(base, early.access_token, `calendars/primary/events/${first.json.id}`, { method: 'PATCH', body: { summary: 'Changed' } });
        await api(base, early.access_token, 'calendars/primary/events', { method: 'POST', body: { ...EVENT, summary: 'New' } });
        assert.equal((await call(`${base}/__svc/users/user-carmen`, { method: 'DELETE' })).status, 204);
        await postJson(`${base}/__svc/faults`, { match: { method: 'calendar.freebusy.query' }, error: 'backendError', times: 0 });
        await postJson(`${base}/__svc/clock`, { advanceSeconds: 60 });
        const journalBefore = (await call(`${base}/__svc/requests`)).json.last;
        assert.notDeepEqual(await reads(), before);

        assert.equal((await postJson(`${base}/__svc/checkpoints/before-sync/restore`, {})).status, 204);
        assert.deepEqual(await reads(), before);
        assert.equal((await api(base, late.access_token, 'users/me/calendarList')).status, 401, 'a token issued after the checkpoint is refused');
        const refreshed = await call(`${base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: early.refresh_token as string, client_id: 'local-calendar-client', client_secret: 'local-calendar-secret' }).toString(),
        });
        assert.equal(refreshed.status, 200, 'a refresh token from before it still works');
        // Not data: they stay as they were.
        assert.equal((await call(`${base}/__svc/faults`)).json.faults.length, 1);
        assert.equal((await call(`${base}/__svc/clock`)).json.offsetSeconds, 60);
        assert.ok((await call(`${base}/__svc/requests`)).json.last >= journalBefore);

        // Restored as often as asked; listed; deleted.
        await api(base, early.access_token, 'calendars/primary/events', { method: 'POST', body: { ...EVENT, summary: 'Once more' } });
        assert.equal((await postJson(`${base}/__svc/checkpoints/before-sync/restore`, {})).status, 204);
        assert.deepEqual((await reads()).events, before.events);
        const listed = await call(`${base}/__svc/checkpoints`);
        assert.deepEqual(listed.json.checkpoints.map((c: { name: string }) => c.name), ['before-sync']);
        assert.equal((await call(`${base}/__svc/checkpoints/before-sync`, { method: 'DELETE' })).status, 204);
        assert.equal((await postJson(`${base}/__svc/checkpoints/before-sync/restore`, {})).status, 404);
        assert.equal((await call(`${base}/__svc/checkpoints/before-sync`, { method: 'DELETE' })).json.error, 'not_found');
      });
    }

    it('sync tokens taken before a restore are stale; names are validated; at most 100', async (t) => {
      const service = await start({ port: 0, db: databaseFor(t, backend) });
      t.after(() => service.close());
      const base = service.url;
      const token = (await obtainToken(base, { scope: 'calendar' })).access_token;
      await postJson(`${base}/__svc/checkpoints`, { name: 'a' });
      const sync = (await api(base, token, 'calendars/primary/events')).json.nextSyncToken;
      await api(base, token, 'calendars/primary/events', { method: 'POST', body: EVENT });
      await postJson(`${base}/__svc/checkpoints/a/restore`, {});
      const stale = await api(base, token, `calendars/primary/events?syncToken=${encodeURIComponent(sync)}`);
      assert.equal(stale.status, 410);

      for (const name of ['', 'a b', 'x'.repeat(101), 5]) assert.equal((await postJson(`${base}/__svc/checkpoints`, { name })).status, 400, `name ${JSON.stringify(name)}`);
      assert.equal((await postJson(`${base}/__svc/checkpoints`, { name: 'a' })).status, 201, 'taking a held name replaces it');
      for (let i = 1; i < 100; i++) assert.equal((await postJson(`${base}/__svc/checkpoints`, { name: `n${i}` })).status, 201);
      const full = await postJson(`${base}/__svc/checkpoints`, { name: 'one-more' });
      assert.equal(full.status, 429);
      assert.equal(full.json.error, 'too_many_checkpoints');
    });
  });
}
