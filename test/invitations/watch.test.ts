// A copy is an event of the invitee's calendar for events.watch (docs/invitations.md): an organizer's
// write that changes an invitee's copy notifies the channels watching the invitee's calendar,
// and an invitee's answer notifies the organizer's and the other invitees' channels.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { startWebhook } from '../_helpers/webhook.ts';
import { BEN, CLEO, meeting, startWorld } from './world.ts';

for (const backend of BACKENDS) {
  describe(`invitations and events.watch (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('writes that change a copy notify the channels on the invitee\'s calendar, and answers the organizer\'s', async (t) => {
      const w = await startWorld(t, backend);
      const hook = await startWebhook(t);
      for (const who of ['aiko', 'ben', 'cleo'] as const) {
        const watch = await w.as(who, 'POST', w.events(who, '/watch'), { id: `ch-${who}`, type: 'web_hook', address: `${hook.url}/${who}` });
        assert.equal(watch.status, 200, watch.text);
        await hook.waitFor(`/${who}`, 1);
      }
      const created = await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }] }));
      assert.equal(created.status, 200);
      const [, exists] = await hook.waitFor('/ben', 2);
      assert.equal(exists?.headers['x-goog-resource-state'], 'exists');
      await w.as('aiko', 'PATCH', w.events('aiko', `/${created.json.id}`), { attendees: [{ email: BEN }, { email: CLEO }] });
      await hook.waitFor('/cleo', 2);
      await hook.waitFor('/ben', 3);
      // Ben answers: the organizer's calendar and Cleo's copy change.
      await w.as('ben', 'PATCH', w.events('ben', `/${created.json.id}`), { attendees: [{ email: BEN, responseStatus: 'accepted' }] });
      await hook.waitFor('/aiko', 4);
      await hook.waitFor('/cleo', 3);
      assert.equal(hook.at('/aiko').length, 4, 'sync, insert, guest change, answer');
    });
  });
}
