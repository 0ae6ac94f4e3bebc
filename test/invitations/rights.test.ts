// Rights come from the organizer's event as it stands (docs/invitations.md), on both stores, for single
// events and series: a guest the organizer removed holds a cancelled copy and changes nothing,
// whatever guestsCanModify said when they were invited; an invitee's `status: "cancelled"` on
// their copy is their decline, as their delete is, with or without guestsCanModify.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { reason } from '../_helpers/calendar.ts';
import { call } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';
import { AIKO, BEN, CLEO, EXTERNAL, meeting, startWorld } from './world.ts';
import type { Who, World } from './world.ts';

const SERIES = {
  summary: 'Standup',
  start: { dateTime: '2030-03-11T09:00:00', timeZone: 'Europe/London' },
  end: { dateTime: '2030-03-11T09:15:00', timeZone: 'Europe/London' },
  recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
};

async function get(w: World, who: Who, id: string): Promise<Record<string, any>> {
  const answer = await w.as(who, 'GET', w.events(who, `/${id}`));
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

async function instances(w: World, who: Who, id: string): Promise<any[]> {
  const answer = await w.as(who, 'GET', w.events(who, `/${id}/instances?showDeleted=true`));
  assert.equal(answer.status, 200, answer.text);
  return answer.json.items;
}

/** Aiko inserts `event`; its id. */
async function organize(w: World, event: object): Promise<string> {
  const created = await w.as('aiko', 'POST', w.events('aiko'), event);
  assert.equal(created.status, 200, created.text);
  return created.json.id;
}

function answers(event: Record<string, any>): Record<string, string> {
  return Object.fromEntries((event.attendees ?? []).map((a: any) => [a.email, a.responseStatus]));
}

function assertForbidden(answer: Answer, what: string): void {
  assert.equal(answer.status, 403, `${what}: ${answer.text}`);
  assert.equal(reason(answer).reason, 'forbiddenForNonOrganizer', what);
}

function brief(messages: any[]): string[] {
  return messages.map((m) => `${m.kind} ${m.to} from ${m.fromUserId}`);
}

for (const backend of BACKENDS) {
  describe(`rights on a copy (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('a removed guest changes nothing through their cancelled copy, though the event let guests modify it', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, meeting({ guestsCanModify: true, attendees: [{ email: BEN }, { email: CLEO }, { email: EXTERNAL }] }));
      const invited = await get(w, 'ben', id);
      assert.equal(invited.guestsCanModify, true);
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { attendees: [{ email: CLEO }, { email: EXTERNAL }] })).status, 200);
      const stale = await get(w, 'ben', id);
      assert.equal(stale.status, 'cancelled');
      const organizer = await get(w, 'aiko', id);
      const cleo = await get(w, 'cleo', id);
      const path = w.events('ben', `/${id}`);
      assertForbidden(await w.as('ben', 'PATCH', path, { summary: 'Hijacked' }), 'summary');
      assertForbidden(await w.as('ben', 'PATCH', path, { status: 'confirmed', summary: 'Hijacked' }), 'status and summary');
      assertForbidden(await w.as('ben', 'PUT', path, { ...stale, status: 'confirmed', location: 'Elsewhere' }), 'update of the stale copy');
      assertForbidden(await w.as('ben', 'PATCH', path, { attendees: [{ email: BEN, responseStatus: 'accepted' }] }), 'an answer');
      assertForbidden(await w.as('ben', 'PATCH', path, { attendees: [...stale.attendees, { email: BEN }] }), 'adding himself back');
      assertForbidden(await w.as('ben', 'PATCH', path, { status: 'cancelled' }), 'cancelling');
      assertForbidden(await w.as('ben', 'PATCH', path, { colorId: '3' }), 'his private properties');
      assert.deepEqual(await get(w, 'aiko', id), organizer);
      assert.deepEqual(await get(w, 'cleo', id), cleo);
      assert.deepEqual(await get(w, 'ben', id), stale);
    });

    test('a guest removed from a series changes neither the series nor one of its instances', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, { ...SERIES, guestsCanModify: true, attendees: [{ email: BEN }, { email: CLEO }] });
      const shown = await instances(w, 'ben', id);
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { attendees: [{ email: CLEO }] })).status, 200);
      const before = { aiko: await instances(w, 'aiko', id), cleo: await instances(w, 'cleo', id) };
      assertForbidden(await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { summary: 'Hijacked' }), 'the series');
      assertForbidden(await w.as('ben', 'PATCH', w.events('ben', `/${shown[2].id}`), { summary: 'Hijacked' }), 'an instance');
      assertForbidden(await w.as('ben', 'PATCH', w.events('ben', `/${shown[2].id}`), { status: 'cancelled' }), 'cancelling an instance');
      assertForbidden(await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { attendees: [{ email: BEN, responseStatus: 'accepted' }] }), 'an answer');
      assert.deepEqual(await instances(w, 'aiko', id), before.aiko);
      assert.deepEqual(await instances(w, 'cleo', id), before.cleo);
    });

    test('status cancelled on a copy is its invitee\'s decline, with or without guestsCanModify: the event stays for everyone else', async (t) => {
      const w = await startWorld(t, backend);
      for (const guestsCanModify of [false, true]) {
        const id = await organize(w, meeting({ guestsCanModify, attendees: [{ email: BEN }, { email: CLEO }, { email: EXTERNAL }] }));
        await call(`${w.url}/__svc/outbox`, { method: 'DELETE' });
        const patched = await w.as('ben', 'PATCH', w.events('ben', `/${id}?sendUpdates=all`), { status: 'cancelled', colorId: '5' });
        assert.equal(patched.status, 200, patched.text);
        assert.equal(patched.json.status, 'cancelled');
        assert.equal(patched.json.colorId, '5', 'the private properties of the body are kept');
        const copy = await get(w, 'cleo', id);
        const put = await w.as('cleo', 'PUT', w.events('cleo', `/${id}`), { ...copy, status: 'cancelled' });
        assert.equal(put.status, 200, put.text);
        assert.equal(put.json.status, 'cancelled');
        const organizer = await get(w, 'aiko', id);
        assert.equal(organizer.status, 'confirmed', `guestsCanModify ${guestsCanModify}`);
        assert.deepEqual(answers(organizer), { [BEN]: 'declined', [CLEO]: 'declined', [EXTERNAL]: 'needsAction' });
        const ben = await get(w, 'ben', id);
        assert.equal(ben.status, 'cancelled');
        assert.equal(answers(ben)[BEN], 'declined');
        assert.deepEqual(brief(await w.outbox()).filter((m) => m.startsWith('reply')), [`reply ${AIKO} from user-ben`], 'one reply, as a delete sends');
      }
    });

    test('status cancelled on a series copy declines the series; on one instance, that instance', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, { ...SERIES, guestsCanModify: true, attendees: [{ email: BEN }, { email: CLEO }] });
      const shown = await instances(w, 'cleo', id);
      const one = await w.as('cleo', 'PATCH', w.events('cleo', `/${shown[1].id}`), { status: 'cancelled' });
      assert.equal(one.status, 200, one.text);
      const copy = await get(w, 'ben', id);
      const all = await w.as('ben', 'PUT', w.events('ben', `/${id}`), { ...copy, status: 'cancelled' });
      assert.equal(all.status, 200, all.text);
      assert.equal(all.json.status, 'cancelled');
      const organizer = await instances(w, 'aiko', id);
      assert.deepEqual(organizer.map((i) => i.status), Array(5).fill('confirmed'));
      assert.deepEqual(organizer.map((i) => answers(i)[BEN]), Array(5).fill('declined'));
      assert.deepEqual(organizer.map((i) => answers(i)[CLEO]), ['needsAction', 'declined', 'needsAction', 'needsAction', 'needsAction']);
      assert.deepEqual((await instances(w, 'cleo', id)).map((i) => i.status), ['confirmed', 'cancelled', 'confirmed', 'confirmed', 'confirmed']);
      assert.equal((await get(w, 'ben', id)).status, 'cancelled');
      assert.equal((await get(w, 'cleo', id)).status, 'confirmed');
    });
  });
}
