// The copies that invitees hold alike (Store's SharedCopyRecord, event-model/invitee-copies.ts), on both
// stores, through HTTP: what a copy shows must not depend on whether it is shared or the
// invitee's own, across the writes that move a copy from one to the other.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { call } from '../_helpers/service.ts';
import { BEN, CLEO, meeting, startWorld } from './world.ts';
import type { Who, World } from './world.ts';

async function get(w: World, who: Who, id: string): Promise<Record<string, any>> {
  const answer = await w.as(who, 'GET', w.events(who, `/${id}`));
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

async function busy(w: World, who: Who): Promise<unknown> {
  const answer = await w.as(who, 'POST', 'freeBusy', { timeMin: '2030-03-10T00:00:00Z', timeMax: '2030-03-11T00:00:00Z', items: [{ id: 'primary' }] });
  assert.equal(answer.status, 200, answer.text);
  return (Object.values(answer.json.calendars)[0] as any).busy;
}

async function ids(w: World, who: Who): Promise<string[]> {
  const answer = await w.as(who, 'GET', w.events(who, '?showDeleted=true'));
  assert.equal(answer.status, 200, answer.text);
  return answer.json.items.map((e: any) => `${e.id} ${e.status}`);
}

const SLOT = [{ start: '2030-03-10T09:00:00Z', end: '2030-03-10T10:00:00Z' }];

for (const backend of BACKENDS) {
  describe(`shared copies (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test("an organizer's new transparency reaches neither the copies held before nor their free/busy; a guest invited after starts with it", async (t) => {
      const w = await startWorld(t, backend);
      const event = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }] }))).json;
      assert.deepEqual(await busy(w, 'ben'), SLOT);
      const patched = await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { transparency: 'transparent', summary: 'Renamed' });
      assert.equal(patched.status, 200, patched.text);
      const ben = await get(w, 'ben', event.id);
      assert.equal(ben.summary, 'Renamed', 'the shared change arrives');
      assert.equal(ben.transparency, undefined, 'the private one does not');
      assert.deepEqual(await busy(w, 'ben'), SLOT);
      await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { attendees: [{ email: BEN }, { email: CLEO }] });
      assert.equal((await get(w, 'cleo', event.id)).transparency, 'transparent');
      assert.deepEqual(await busy(w, 'cleo'), []);
      assert.equal((await get(w, 'ben', event.id)).transparency, undefined);
    });

    test('a timed event made all-day and timed again: every copy follows, once each in a listing', async (t) => {
      const w = await startWorld(t, backend);
      const event = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }, { email: CLEO }] }))).json;
      await w.as('ben', 'PATCH', w.events('ben', `/${event.id}`), { colorId: '3' });
      const allDay = await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { start: { date: '2030-03-10' }, end: { date: '2030-03-11' } });
      assert.equal(allDay.status, 200, allDay.text);
      for (const who of ['ben', 'cleo'] as const) {
        assert.deepEqual((await get(w, who, event.id)).start, { date: '2030-03-10' });
        assert.deepEqual(await ids(w, who), [`${event.id} confirmed`]);
      }
      await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { start: { dateTime: '2030-03-10T09:00:00Z' }, end: { dateTime: '2030-03-10T10:00:00Z' } });
      for (const who of ['ben', 'cleo'] as const) {
        assert.equal(Date.parse((await get(w, who, event.id)).start.dateTime), Date.parse('2030-03-10T09:00:00Z'));
        assert.deepEqual(await ids(w, who), [`${event.id} confirmed`]);
        assert.deepEqual(await busy(w, who), SLOT);
      }
      assert.equal((await get(w, 'ben', event.id)).colorId, '3', "ben's own colour stays through it all");
      assert.equal((await get(w, 'cleo', event.id)).colorId, undefined);
    });

    test("an invitee's own event under the same id hides the invitation on their calendar", async (t) => {
      const w = await startWorld(t, backend);
      const id = 'sharedid0001';
      const own = await w.as('ben', 'POST', w.events('ben'), meeting({ id, summary: "Ben's own" }, 14));
      assert.equal(own.status, 200, own.text);
      const invited = await w.as('aiko', 'POST', w.events('aiko'), meeting({ id, attendees: [{ email: BEN }, { email: CLEO }] }));
      assert.equal(invited.status, 200, invited.text);
      assert.equal((await get(w, 'ben', id)).summary, "Ben's own");
      assert.deepEqual(await ids(w, 'ben'), [`${id} confirmed`]);
      assert.deepEqual(await busy(w, 'ben'), [{ start: '2030-03-10T14:00:00Z', end: '2030-03-10T15:00:00Z' }]);
      assert.equal((await get(w, 'cleo', id)).summary, 'Planning');
    });

    test('removing a guest who held the shared copy cancels it for them alone, in their sync too', async (t) => {
      const w = await startWorld(t, backend);
      const event = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }, { email: CLEO }] }))).json;
      const first = await w.as('ben', 'GET', w.events('ben'));
      const token = first.json.nextSyncToken as string;
      await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { attendees: [{ email: CLEO }] });
      const changes = await w.as('ben', 'GET', w.events('ben', `?syncToken=${encodeURIComponent(token)}`));
      assert.equal(changes.status, 200, changes.text);
      assert.deepEqual(changes.json.items.map((e: any) => `${e.id} ${e.status}`), [`${event.id} cancelled`]);
      assert.equal((await get(w, 'cleo', event.id)).status, 'confirmed');
      assert.deepEqual(await busy(w, 'ben'), []);
    });

    test("deleting the organizer's user leaves every invitee their copy", async (t) => {
      const w = await startWorld(t, backend);
      const event = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }, { email: CLEO }] }))).json;
      assert.equal((await call(`${w.url}/__svc/users/user-aiko`, { method: 'DELETE' })).status, 204);
      for (const who of ['ben', 'cleo'] as const) {
        assert.equal((await get(w, who, event.id)).summary, 'Planning');
        assert.deepEqual(await busy(w, who), SLOT);
      }
      const alone = await w.as('ben', 'PATCH', w.events('ben', `/${event.id}`), { colorId: '2' });
      assert.equal(alone.status, 200, alone.text);
      assert.equal((await get(w, 'cleo', event.id)).colorId, undefined);
    });
  });
}
