// guestsCanInviteOthers (docs/invitations.md), on both stores: with Google's default (true) an invitee
// adds guests through their copy, and the new guests get their copies and invitations as if the
// organizer had added them; false makes that 403 forbiddenForNonOrganizer. Adding is all it
// allows: removing or changing another guest takes guestsCanModify ("Modify event: change all
// event details, including removing guests",
// https://github.com/hackforla/product-management/wiki/Guest-Permissions-for-Google-Calendar-Invites;
// "Whether attendees other than the organizer can invite others to the event. Optional. The
// default is True.", https://developers.google.com/calendar/api/v3/reference/events).

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
  recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
};

async function get(w: World, who: Who, id: string): Promise<Answer> {
  return w.as(who, 'GET', w.events(who, `/${id}`));
}

async function organize(w: World, event: object): Promise<string> {
  const created = await w.as('aiko', 'POST', w.events('aiko'), event);
  assert.equal(created.status, 200, created.text);
  return created.json.id;
}

function emails(event: Record<string, any>): string[] {
  return (event.attendees ?? []).map((a: any) => a.email);
}

function brief(messages: any[]): string[] {
  return messages.map((m) => `${m.kind} ${m.to} from ${m.fromUserId}`);
}

function assertForbidden(answer: Answer, what: string): void {
  assert.equal(answer.status, 403, `${what}: ${answer.text}`);
  assert.deepEqual(reason(answer), { domain: 'calendar', reason: 'forbiddenForNonOrganizer', message: 'Shared properties can only be changed by the organizer of the event.' }, what);
}

for (const backend of BACKENDS) {
  describe(`guestsCanInviteOthers (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('by default an invitee adds guests: each gets a copy and an invitation, as from the organizer', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, meeting({ attendees: [{ email: BEN }] }));
      await call(`${w.url}/__svc/outbox`, { method: 'DELETE' });
      const copy = (await get(w, 'ben', id)).json;
      assert.equal(copy.guestsCanInviteOthers, undefined, 'the default (true) is not written out');
      const put = await w.as('ben', 'PUT', w.events('ben', `/${id}?sendUpdates=all`), {
        ...copy,
        attendees: [...copy.attendees, { email: CLEO }, { email: EXTERNAL, displayName: 'Guest' }],
      });
      assert.equal(put.status, 200, put.text);
      const organizer = (await get(w, 'aiko', id)).json;
      assert.deepEqual(emails(organizer), [BEN, CLEO, EXTERNAL]);
      assert.equal(organizer.attendees.find((a: any) => a.email === EXTERNAL).displayName, 'Guest');
      const cleo = await get(w, 'cleo', id);
      assert.equal(cleo.status, 200, cleo.text);
      assert.deepEqual(cleo.json.organizer, { email: AIKO, displayName: 'Aiko Tanaka' });
      assert.deepEqual(cleo.json.attendees.find((a: any) => a.email === CLEO), { email: CLEO, responseStatus: 'needsAction', self: true });
      assert.deepEqual(emails((await get(w, 'ben', id)).json), [BEN, CLEO, EXTERNAL]);
      // Cleo's copy is in her lists like any invitation.
      assert.deepEqual((await w.as('cleo', 'GET', w.events('cleo'))).json.items.map((e: any) => e.id), [id]);
      // The new guests are invited by Ben's write; the organizer and Ben hear nothing new.
      assert.deepEqual(brief(await w.outbox()).sort(), [`invitation ${CLEO} from user-ben`, `invitation ${EXTERNAL} from user-ben`]);
      // A guest Cleo adds in turn gets the same (PATCH with the list as received plus one).
      const cleoCopy = (await get(w, 'cleo', id)).json;
      const patched = await w.as('cleo', 'PATCH', w.events('cleo', `/${id}`), { attendees: [...cleoCopy.attendees, { email: 'other@elsewhere.example.org' }] });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(emails((await get(w, 'aiko', id)).json), [BEN, CLEO, EXTERNAL, 'other@elsewhere.example.org']);
    });

    test('guestsCanInviteOthers false: adding a guest is 403 forbiddenForNonOrganizer and changes nothing; answering still works', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, meeting({ guestsCanInviteOthers: false, attendees: [{ email: BEN }] }));
      const copy = (await get(w, 'ben', id)).json;
      assert.equal(copy.guestsCanInviteOthers, false);
      const organizer = (await get(w, 'aiko', id)).json;
      await call(`${w.url}/__svc/outbox`, { method: 'DELETE' });
      assertForbidden(await w.as('ben', 'PATCH', w.events('ben', `/${id}?sendUpdates=all`), { attendees: [...copy.attendees, { email: CLEO }] }), 'patch');
      assertForbidden(await w.as('ben', 'PUT', w.events('ben', `/${id}?sendUpdates=all`), { ...copy, attendees: [...copy.attendees, { email: EXTERNAL }] }), 'update');
      assert.deepEqual((await get(w, 'aiko', id)).json, organizer);
      assert.equal((await get(w, 'cleo', id)).status, 404);
      assert.deepEqual(await w.outbox(), []);
      const answered = await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { attendees: [{ email: BEN, responseStatus: 'accepted' }] });
      assert.equal(answered.status, 200, answered.text);
      // The rights are the organizer's event's as it stands: once Aiko allows it, Ben may invite.
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { guestsCanInviteOthers: true })).status, 200);
      const now = (await get(w, 'ben', id)).json;
      assert.equal((await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { attendees: [...now.attendees, { email: CLEO }] })).status, 200);
      assert.equal((await get(w, 'cleo', id)).status, 200);
    });

    test('inviting is adding only: removing or changing another guest, or leaving oneself out, stays 403 without guestsCanModify', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, meeting({ attendees: [{ email: BEN }, { email: CLEO }, { email: EXTERNAL }] }));
      const copy = (await get(w, 'ben', id)).json;
      const organizer = (await get(w, 'aiko', id)).json;
      const path = w.events('ben', `/${id}`);
      const others = copy.attendees.filter((a: any) => a.email !== BEN);
      assertForbidden(await w.as('ben', 'PATCH', path, { attendees: [...copy.attendees.filter((a: any) => a.email !== CLEO), { email: 'new@elsewhere.example.org' }] }), 'remove one, add one');
      assertForbidden(await w.as('ben', 'PATCH', path, { attendees: copy.attendees.map((a: any) => (a.email === CLEO ? { ...a, optional: true } : a)) }), 'change another guest');
      assertForbidden(await w.as('ben', 'PATCH', path, { attendees: [...others, { email: 'new@elsewhere.example.org' }] }), 'leave himself out');
      assert.deepEqual((await get(w, 'aiko', id)).json, organizer);
      // With guestsCanModify the same removal goes through, and Cleo's copy is cancelled.
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { guestsCanModify: true })).status, 200);
      const removed = await w.as('ben', 'PATCH', path, { attendees: copy.attendees.filter((a: any) => a.email !== CLEO) });
      assert.equal(removed.status, 200, removed.text);
      assert.equal((await get(w, 'cleo', id)).json.status, 'cancelled');
    });

    test('guests hidden from the inviter stay; one already listed is not listed twice', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, meeting({ guestsCanSeeOtherGuests: false, attendees: [{ email: BEN }, { email: EXTERNAL }] }));
      const copy = (await get(w, 'ben', id)).json;
      assert.equal(emails(copy).includes(EXTERNAL), false, 'the external guest is hidden from Ben');
      const added = await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { attendees: [...copy.attendees, { email: CLEO }, { email: EXTERNAL }] });
      assert.equal(added.status, 200, added.text);
      assert.deepEqual(emails((await get(w, 'aiko', id)).json), [BEN, EXTERNAL, CLEO]);
      assert.equal((await get(w, 'cleo', id)).status, 200);
    });

    test('an invitee adding a guest to a series invites them to every instance', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, { ...SERIES, attendees: [{ email: BEN }] });
      const copy = (await get(w, 'ben', id)).json;
      const added = await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { attendees: [...copy.attendees, { email: CLEO }] });
      assert.equal(added.status, 200, added.text);
      const instances = await w.as('cleo', 'GET', w.events('cleo', `/${id}/instances`));
      assert.equal(instances.status, 200, instances.text);
      assert.equal(instances.json.items.length, 3);
    });
  });
}
