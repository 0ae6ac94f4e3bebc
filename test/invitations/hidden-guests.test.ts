// guestsCanSeeOtherGuests: false (docs/invitations.md), on both stores: invitees' copies list only
// their own entry and the organizer's, with attendeesOmitted: true, in get, list, `q`, sync and
// instances; the organizer's event keeps the whole list; answers still reach the organizer, and
// an invitee answering through such a copy (or, allowed to modify the event, changing the list
// they see) never removes the guests hidden from them; the export round trip keeps all of it.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { call } from '../_helpers/service.ts';
import { AIKO, BEN, CLEO, EXTERNAL, meeting, startWorld } from './world.ts';
import type { Who, World } from './world.ts';

const SERIES = {
  summary: 'Standup',
  start: { dateTime: '2030-03-11T09:00:00', timeZone: 'Europe/London' },
  end: { dateTime: '2030-03-11T09:15:00', timeZone: 'Europe/London' },
  recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
};

/** Ben, the organizer (listed second), Cleo and an external guest. */
const GUESTS = [{ email: BEN }, { email: AIKO, responseStatus: 'accepted' }, { email: CLEO }, { email: EXTERNAL }];

async function get(w: World, who: Who, id: string): Promise<Record<string, any>> {
  const answer = await w.as(who, 'GET', w.events(who, `/${id}`));
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

async function organize(w: World, event: object): Promise<string> {
  const created = await w.as('aiko', 'POST', w.events('aiko'), { ...event, guestsCanSeeOtherGuests: false });
  assert.equal(created.status, 200, created.text);
  return created.json.id;
}

function emails(event: Record<string, any>): string[] {
  return (event.attendees ?? []).map((a: any) => a.email);
}

function answers(event: Record<string, any>): Record<string, string> {
  return Object.fromEntries((event.attendees ?? []).map((a: any) => [a.email, a.responseStatus]));
}

/** What `who` is shown of the guests: the e-mails of every item, and whether any says attendeesOmitted. */
function shown(items: any[]): Array<[string[], boolean]> {
  return items.map((item) => [emails(item), item.attendeesOmitted === true]);
}

for (const backend of BACKENDS) {
  describe(`hidden guests (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('copies list their invitee and the organizer alone, in get, list, q and sync; the organizer sees everyone', async (t) => {
      const w = await startWorld(t, backend);
      const first = await w.as('ben', 'GET', w.events('ben'));
      const id = await organize(w, meeting({ attendees: GUESTS }));
      const organizer = await get(w, 'aiko', id);
      assert.deepEqual(emails(organizer), [BEN, AIKO, CLEO, EXTERNAL]);
      assert.equal(organizer.attendeesOmitted, undefined);
      const ben = await get(w, 'ben', id);
      assert.deepEqual(ben.attendees, [{ email: BEN, responseStatus: 'needsAction', self: true }, { email: AIKO, responseStatus: 'accepted', organizer: true }]);
      assert.equal(ben.attendeesOmitted, true);
      assert.deepEqual(emails(await get(w, 'cleo', id)), [AIKO, CLEO]);
      assert.deepEqual(shown((await w.as('ben', 'GET', w.events('ben'))).json.items), [[[BEN, AIKO], true]]);
      // Searching the copy for a hidden guest finds nothing; the organizer finds the event.
      const q = `?q=${encodeURIComponent(EXTERNAL)}`;
      assert.deepEqual((await w.as('ben', 'GET', w.events('ben', q))).json.items, []);
      assert.deepEqual((await w.as('cleo', 'GET', w.events('cleo', '?q=ben'))).json.items, []);
      assert.equal((await w.as('aiko', 'GET', w.events('aiko', q))).json.items.length, 1);
      const synced = await w.as('ben', 'GET', w.events('ben', `?syncToken=${encodeURIComponent(first.json.nextSyncToken)}`));
      assert.deepEqual(shown(synced.json.items), [[[BEN, AIKO], true]]);
      // Cleo's answer reaches the organizer, and changes nothing Ben is shown (nor his sync, once
      // the organizer has written the event: a first write after the insert rewrites every copy).
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { location: 'Room 2' })).status, 200);
      const moved = await w.as('ben', 'GET', w.events('ben', `?syncToken=${encodeURIComponent(synced.json.nextSyncToken)}`));
      assert.deepEqual(moved.json.items.map((item: any) => item.location), ['Room 2']);
      const cleo = await get(w, 'cleo', id);
      const put = await w.as('cleo', 'PUT', w.events('cleo', `/${id}`), { ...cleo, attendees: cleo.attendees.map((a: any) => (a.email === CLEO ? { ...a, responseStatus: 'accepted' } : a)) });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(answers(put.json), { [AIKO]: 'accepted', [CLEO]: 'accepted' });
      assert.deepEqual(answers(await get(w, 'aiko', id)), { [BEN]: 'needsAction', [AIKO]: 'accepted', [CLEO]: 'accepted', [EXTERNAL]: 'needsAction' });
      const quiet = await w.as('ben', 'GET', w.events('ben', `?syncToken=${encodeURIComponent(moved.json.nextSyncToken)}`));
      assert.deepEqual(quiet.json.items, []);
      // Ben answers with a list of his own entry; then the organizer shows the guests again.
      assert.equal((await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { attendees: [{ email: BEN, responseStatus: 'tentative' }] })).status, 200);
      assert.deepEqual(emails(await get(w, 'aiko', id)), [BEN, AIKO, CLEO, EXTERNAL]);
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { guestsCanSeeOtherGuests: true })).status, 200);
      const open = await get(w, 'ben', id);
      assert.deepEqual(answers(open), { [BEN]: 'tentative', [AIKO]: 'accepted', [CLEO]: 'accepted', [EXTERNAL]: 'needsAction' });
      assert.equal(open.attendeesOmitted, undefined);
    });

    test('an invitee allowed to modify the event changes the guests they see, never the hidden ones', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, meeting({ guestsCanModify: true, attendees: GUESTS }));
      const ben = await get(w, 'ben', id);
      const added = 'friend@elsewhere.example.org';
      const sent = [...ben.attendees.map((a: any) => (a.email === BEN ? { ...a, responseStatus: 'accepted' } : a)), { email: added }];
      const put = await w.as('ben', 'PUT', w.events('ben', `/${id}`), { ...ben, summary: 'Planning, moved', attendees: sent });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(emails(put.json), [BEN, AIKO], 'the guest he added is hidden from him too');
      const organizer = await get(w, 'aiko', id);
      assert.equal(organizer.summary, 'Planning, moved');
      assert.deepEqual(answers(organizer), { [BEN]: 'accepted', [AIKO]: 'accepted', [CLEO]: 'needsAction', [EXTERNAL]: 'needsAction', [added]: 'needsAction' });
      // Sending a hidden guest's e-mail changes nothing of theirs.
      const again = await w.as('ben', 'PATCH', w.events('ben', `/${id}`), { attendees: [{ email: BEN, responseStatus: 'accepted' }, { email: AIKO, responseStatus: 'accepted' }, { email: CLEO, responseStatus: 'declined' }] });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(answers(await get(w, 'aiko', id)), answers(organizer));
    });

    test('a series: instances and exceptions of the copies list their invitee and the organizer alone', async (t) => {
      const w = await startWorld(t, backend);
      const id = await organize(w, { ...SERIES, attendees: GUESTS });
      const aikoInstances = (await w.as('aiko', 'GET', w.events('aiko', `/${id}/instances`))).json.items;
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${aikoInstances[1].id}`), { summary: 'Moved standup' })).status, 200);
      const benInstances = (await w.as('ben', 'GET', w.events('ben', `/${id}/instances`))).json.items;
      assert.deepEqual(shown(benInstances), Array(3).fill([[BEN, AIKO], true]));
      assert.equal(benInstances[1].summary, 'Moved standup');
      const expanded = (await w.as('cleo', 'GET', w.events('cleo', '?singleEvents=true'))).json.items;
      assert.deepEqual(shown(expanded), Array(3).fill([[AIKO, CLEO], true]));
      // Cleo answers one instance; the organizer's instance keeps every guest.
      assert.equal((await w.as('cleo', 'PATCH', w.events('cleo', `/${aikoInstances[2].id}`), { attendees: [{ email: CLEO, responseStatus: 'declined' }] })).status, 200);
      const third = await get(w, 'aiko', aikoInstances[2].id);
      assert.deepEqual(answers(third), { [BEN]: 'needsAction', [AIKO]: 'accepted', [CLEO]: 'declined', [EXTERNAL]: 'needsAction' });
      assert.deepEqual(shown([await get(w, 'ben', aikoInstances[2].id)]), [[[BEN, AIKO], true]]);
    });

    test('the export writes the whole list once, from the organizer\'s side, and a round trip hides it again', async (t) => {
      const w = await startWorld(t, backend);
      const single = await organize(w, meeting({ attendees: GUESTS }));
      const series = await organize(w, { ...SERIES, attendees: GUESTS });
      await w.as('cleo', 'DELETE', w.events('cleo', `/${single}`));
      const exported = (await call(`${w.url}/__svc/fixtures`)).json;
      const aikoEvents = exported.users.find((u: any) => u.email === AIKO).calendars[0].events;
      assert.deepEqual(aikoEvents.find((e: any) => e.id === single).attendees.map((a: any) => a.email), [BEN, AIKO, CLEO, EXTERNAL]);
      const read = async (world: World, who: Who): Promise<unknown> => {
        const items = (await world.as(who, 'GET', world.events(who, '?showDeleted=true&singleEvents=true'))).json.items;
        return items.map((item: any) => [item.id, item.status, emails(item), item.attendeesOmitted ?? false]);
      };
      const before = { aiko: await read(w, 'aiko'), ben: await read(w, 'ben'), cleo: await read(w, 'cleo') };
      assert.deepEqual((before.ben as unknown[]).length, 4);
      const again = await startWorld(t, backend);
      await again.load(exported);
      for (const who of ['aiko', 'ben', 'cleo'] as const) assert.deepEqual(await read(again, who), before[who], who);
      assert.deepEqual(emails(await get(again, 'ben', series)), [BEN, AIKO]);
      assert.deepEqual(answers(await get(again, 'aiko', single))[CLEO], 'declined');
    });
  });
}
