// Invitations between test users (docs/invitations.md), on both stores: copies on the
// invitees' primary calendars, what an invitee may change on a copy, propagation both ways,
// free/busy, and fixtures with attendees.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { reason } from '../_helpers/calendar.ts';
import { call } from '../_helpers/service.ts';
import { AIKO, BEN, CLEO, EXTERNAL, meeting, startWorld, worldFixture } from './world.ts';
import type { World } from './world.ts';

const SERIES = {
  summary: 'Standup',
  start: { dateTime: '2030-03-11T09:00:00', timeZone: 'Europe/London' },
  end: { dateTime: '2030-03-11T09:15:00', timeZone: 'Europe/London' },
  recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
};

async function invite(w: World, extra: object = {}): Promise<Record<string, any>> {
  const answer = await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }, { email: CLEO }, { email: EXTERNAL }], ...extra }));
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

async function get(w: World, who: 'aiko' | 'ben' | 'cleo', id: string): Promise<Record<string, any>> {
  const answer = await w.as(who, 'GET', w.events(who, `/${id}`));
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

function answers(event: Record<string, any>): Record<string, string> {
  return Object.fromEntries((event.attendees ?? []).map((a: any) => [a.email, a.responseStatus]));
}

async function busy(w: World, who: 'aiko' | 'ben' | 'cleo', day = '2030-03-10'): Promise<unknown> {
  const answer = await w.as(who, 'POST', 'freeBusy', { timeMin: `${day}T00:00:00Z`, timeMax: `${day}T23:59:59Z`, items: [{ id: 'primary' }] });
  assert.equal(answer.status, 200, answer.text);
  return (Object.values(answer.json.calendars)[0] as any).busy;
}

for (const backend of BACKENDS) {
  describe(`invitations (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('an invited test user holds a copy: same id and iCalUID, organizer and creator as written, self marked, needsAction', async (t) => {
      const w = await startWorld(t, backend);
      const event = await invite(w, { attendees: [{ email: BEN }, { email: 'Cleo@Example.com', responseStatus: 'tentative' }, { email: EXTERNAL }, { email: AIKO, responseStatus: 'accepted' }] });
      const copy = await get(w, 'ben', event.id);
      assert.equal(copy.iCalUID, event.iCalUID);
      assert.equal(copy.summary, 'Planning');
      assert.deepEqual(copy.organizer, { email: AIKO, displayName: 'Aiko Tanaka' });
      assert.deepEqual(copy.creator, { email: AIKO, displayName: 'Aiko Tanaka' });
      assert.deepEqual(event.organizer, { email: AIKO, displayName: 'Aiko Tanaka', self: true });
      assert.deepEqual(copy.attendees.find((a: any) => a.email === BEN), { email: BEN, responseStatus: 'needsAction', self: true });
      assert.equal(copy.attendees.find((a: any) => a.email === AIKO).organizer, true);
      // Letter case does not matter, and the writer's answer stays.
      const cleo = await get(w, 'cleo', event.id);
      assert.equal(cleo.attendees.find((a: any) => a.email === 'Cleo@Example.com').self, true);
      assert.equal(answers(cleo)['Cleo@Example.com'], 'tentative');
      // Lists show it; the organizer's own entry gets no second event.
      const list = await w.as('ben', 'GET', w.events('ben'));
      assert.deepEqual(list.json.items.map((e: any) => e.id), [event.id]);
      const own = await w.as('aiko', 'GET', w.events('aiko'));
      assert.deepEqual(own.json.items.map((e: any) => e.id), [event.id]);
    });

    test('an invitee answers: the answer shows on the organizer and every copy, the copy keeps its private properties', async (t) => {
      const w = await startWorld(t, backend);
      const event = await invite(w);
      const copy = await get(w, 'ben', event.id);
      const mine = copy.attendees.map((a: any) => (a.email === BEN ? { ...a, responseStatus: 'accepted', comment: 'See you' } : a));
      const put = await w.as('ben', 'PUT', w.events('ben', `/${event.id}`), {
        ...copy,
        attendees: mine,
        colorId: '5',
        reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 3 }] },
        extendedProperties: { private: { mine: 'yes' } },
      });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.json.colorId, '5');
      assert.equal(answers(put.json)[BEN], 'accepted');
      for (const who of ['aiko', 'cleo'] as const) {
        const seen = await get(w, who, event.id);
        assert.equal(answers(seen)[BEN], 'accepted', who);
        assert.equal(seen.attendees.find((a: any) => a.email === BEN).comment, 'See you');
        assert.equal(seen.colorId, undefined, `${who} does not see Ben's colour`);
        assert.equal(seen.extendedProperties, undefined);
      }
      // A list of the invitee's own entry alone answers too; the others stay.
      const patch = await w.as('cleo', 'PATCH', w.events('cleo', `/${event.id}`), { attendees: [{ email: CLEO, responseStatus: 'declined' }] });
      assert.equal(patch.status, 200, patch.text);
      assert.deepEqual(answers(await get(w, 'aiko', event.id)), { [BEN]: 'accepted', [CLEO]: 'declined', [EXTERNAL]: 'needsAction' });
      // The organizer's next edit keeps Ben's private properties.
      assert.equal((await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { summary: 'Planning v2' })).status, 200);
      const after = await get(w, 'ben', event.id);
      assert.equal(after.summary, 'Planning v2');
      assert.equal(after.colorId, '5');
      assert.deepEqual(after.reminders, { useDefault: false, overrides: [{ method: 'popup', minutes: 3 }] });
      assert.deepEqual(after.extendedProperties, { private: { mine: 'yes' } });
    });

    test('shared properties on a copy are the organizer\'s: 403 forbiddenForNonOrganizer, nothing changed', async (t) => {
      const w = await startWorld(t, backend);
      const event = await invite(w);
      const copy = await get(w, 'ben', event.id);
      const refused = [
        { summary: 'Mine now' },
        { start: { dateTime: '2030-03-10T10:00:00Z' }, end: { dateTime: '2030-03-10T11:00:00Z' } },
        { description: 'x' },
        { location: 'Room 1' },
        { attendees: [...copy.attendees.filter((a: any) => a.email !== CLEO), { email: 'new@elsewhere.example.org' }] },
        { attendees: copy.attendees.filter((a: any) => a.email !== CLEO) },
        { extendedProperties: { shared: { a: 'b' } } },
        { visibility: 'private' },
        { status: 'tentative' },
      ];
      for (const body of refused) {
        const answer = await w.as('ben', 'PATCH', w.events('ben', `/${event.id}`), { ...body, colorId: '3' });
        assert.equal(answer.status, 403, `${JSON.stringify(body)}: ${answer.text}`);
        assert.deepEqual(reason(answer), { domain: 'calendar', reason: 'forbiddenForNonOrganizer', message: 'Shared properties can only be changed by the organizer of the event.' });
      }
      assert.deepEqual(await get(w, 'ben', event.id), copy);
      // The private properties alone are fine, and do not reach the organizer.
      const own = await w.as('ben', 'PATCH', w.events('ben', `/${event.id}`), { transparency: 'transparent', colorId: '3' });
      assert.equal(own.status, 200, own.text);
      assert.equal((await get(w, 'aiko', event.id)).transparency, undefined);
      // With guestsCanModify, an invitee's change to shared properties reaches every calendar.
      await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { guestsCanModify: true });
      const moved = await w.as('ben', 'PATCH', w.events('ben', `/${event.id}`), { summary: 'Moved by Ben', location: 'Cafe' });
      assert.equal(moved.status, 200, moved.text);
      for (const who of ['aiko', 'ben', 'cleo'] as const) {
        const seen = await get(w, who, event.id);
        assert.equal(seen.summary, 'Moved by Ben', who);
        assert.equal(seen.location, 'Cafe', who);
      }
      assert.equal((await get(w, 'ben', event.id)).colorId, '3');
    });

    test('adding creates a copy, removing cancels it, the organizer deleting cancels all, an invitee deleting declines', async (t) => {
      const w = await startWorld(t, backend);
      const created = await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }] }));
      const id = created.json.id;
      assert.equal((await w.as('cleo', 'GET', w.events('cleo', `/${id}`))).status, 404);
      await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { attendees: [{ email: BEN }, { email: CLEO }] });
      assert.equal((await get(w, 'cleo', id)).status, 'confirmed');
      await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { attendees: [{ email: CLEO }] });
      assert.equal((await get(w, 'ben', id)).status, 'cancelled');
      const benList = await w.as('ben', 'GET', w.events('ben'));
      assert.deepEqual(benList.json.items, []);
      const benDeleted = await w.as('ben', 'GET', w.events('ben', '?showDeleted=true'));
      assert.deepEqual(benDeleted.json.items.map((e: any) => [e.id, e.status]), [[id, 'cancelled']]);
      // Cleo deletes her copy: she declines, for everyone; her copy alone is cancelled.
      await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { attendees: [{ email: CLEO }, { email: BEN }] });
      assert.equal((await w.as('cleo', 'DELETE', w.events('cleo', `/${id}`))).status, 204);
      assert.equal((await get(w, 'cleo', id)).status, 'cancelled');
      const organizer = await get(w, 'aiko', id);
      assert.equal(organizer.status, 'confirmed');
      assert.equal(answers(organizer)[CLEO], 'declined');
      assert.equal(answers(await get(w, 'ben', id))[CLEO], 'declined');
      assert.equal((await get(w, 'ben', id)).status, 'confirmed');
      // An organizer's edit afterwards does not bring Cleo's copy back.
      await w.as('aiko', 'PATCH', w.events('aiko', `/${id}`), { summary: 'Still on' });
      assert.equal((await get(w, 'cleo', id)).status, 'cancelled');
      // The organizer deletes: every copy is cancelled.
      assert.equal((await w.as('aiko', 'DELETE', w.events('aiko', `/${id}`))).status, 204);
      assert.equal((await get(w, 'ben', id)).status, 'cancelled');
      assert.equal((await w.as('ben', 'DELETE', w.events('ben', `/${id}`))).status, 410);
    });

    test('a removed invitee cannot answer; one who declined by deleting revives the copy by accepting; an orphaned copy takes its invitee\'s writes alone', async (t) => {
      const w = await startWorld(t, backend);
      const event = await invite(w);
      await w.as('aiko', 'PATCH', w.events('aiko', `/${event.id}`), { attendees: [{ email: CLEO }] });
      const stale = await w.as('ben', 'PATCH', w.events('ben', `/${event.id}`), { attendees: [{ email: BEN, responseStatus: 'accepted' }] });
      assert.equal(stale.status, 403, stale.text);
      assert.deepEqual(answers(await get(w, 'aiko', event.id)), { [CLEO]: 'needsAction' });
      assert.equal((await w.as('cleo', 'DELETE', w.events('cleo', `/${event.id}`))).status, 204);
      assert.equal((await get(w, 'cleo', event.id)).status, 'cancelled');
      const back = await w.as('cleo', 'PATCH', w.events('cleo', `/${event.id}`), { attendees: [{ email: CLEO, responseStatus: 'accepted' }] });
      assert.equal(back.status, 200, back.text);
      assert.equal(back.json.status, 'confirmed');
      assert.deepEqual(answers(await get(w, 'aiko', event.id)), { [CLEO]: 'accepted' });
      // The organizer's user is deleted: the copy stays, and takes its invitee's writes alone.
      assert.equal((await call(`${w.url}/__svc/users/user-aiko`, { method: 'DELETE' })).status, 204);
      const alone = await w.as('cleo', 'PATCH', w.events('cleo', `/${event.id}`), { colorId: '4', attendees: [{ email: CLEO, responseStatus: 'tentative' }] });
      assert.equal(alone.status, 200, alone.text);
      assert.equal(alone.json.colorId, '4');
      assert.equal((await w.as('cleo', 'PATCH', w.events('cleo', `/${event.id}`), { summary: 'Mine' })).status, 403);
    });

    test('an event on a secondary calendar invites its own owner too, and an invitee answers it there', async (t) => {
      const team = 'team-aiko@group.calendar.example.com';
      const fixture = worldFixture() as { users: Array<Record<string, unknown>> };
      (fixture.users[0] as { calendars: unknown[] }).calendars.push({ id: team, summary: 'Team', events: [] });
      const w = await startWorld(t, backend, fixture);
      const path = `calendars/${encodeURIComponent(team)}/events`;
      const created = await w.as('aiko', 'POST', path, meeting({ attendees: [{ email: AIKO }, { email: BEN }] }));
      assert.equal(created.status, 200, created.text);
      assert.deepEqual(created.json.organizer, { email: team, displayName: 'Team', self: true });
      const aikoCopy = await get(w, 'aiko', created.json.id);
      assert.deepEqual(aikoCopy.organizer, { email: team, displayName: 'Team' });
      await w.as('ben', 'PATCH', w.events('ben', `/${created.json.id}`), { attendees: [{ email: BEN, responseStatus: 'tentative' }] });
      const seen = await w.as('aiko', 'GET', `${path}/${created.json.id}`);
      assert.equal(answers(seen.json)[BEN], 'tentative');
      assert.equal(answers(await get(w, 'aiko', created.json.id))[BEN], 'tentative');
    });

    test('series: copies of the series and its exceptions, and a per-instance answer makes an exception on every copy', async (t) => {
      const w = await startWorld(t, backend);
      const created = await w.as('aiko', 'POST', w.events('aiko'), { ...SERIES, attendees: [{ email: BEN }, { email: CLEO }] });
      assert.equal(created.status, 200, created.text);
      const id = created.json.id;
      const instances = async (who: 'aiko' | 'ben' | 'cleo'): Promise<any[]> => (await w.as(who, 'GET', w.events(who, `/${id}/instances`))).json.items;
      const aikoInstances = await instances('aiko');
      assert.equal(aikoInstances.length, 5);
      assert.deepEqual((await instances('ben')).map((i) => i.id), aikoInstances.map((i) => i.id));
      // The organizer moves the second instance: every copy shows it moved.
      const second = aikoInstances[1];
      await w.as('aiko', 'PATCH', w.events('aiko', `/${second.id}`), { summary: 'Moved standup' });
      assert.equal((await get(w, 'cleo', second.id)).summary, 'Moved standup');
      // Ben accepts the third instance alone.
      const third = aikoInstances[2];
      const answered = await w.as('ben', 'PATCH', w.events('ben', `/${third.id}`), { attendees: [{ email: BEN, responseStatus: 'accepted' }] });
      assert.equal(answered.status, 200, answered.text);
      for (const who of ['aiko', 'ben', 'cleo'] as const) {
        const list = await instances(who);
        assert.equal(answers(list[2])[BEN], 'accepted', who);
        assert.equal(answers(list[3])[BEN], 'needsAction', who);
        assert.equal(list[1].summary, 'Moved standup', who);
      }
      // The organizer cancels the fourth instance, and then the whole series.
      await w.as('aiko', 'DELETE', w.events('aiko', `/${aikoInstances[3].id}`));
      assert.equal((await instances('ben')).length, 4);
      await w.as('aiko', 'DELETE', w.events('aiko', `/${id}`));
      assert.equal((await get(w, 'ben', id)).status, 'cancelled');
      const benList = await w.as('ben', 'GET', w.events('ben', '?singleEvents=true'));
      assert.deepEqual(benList.json.items, []);
    });

    test('free/busy: an invitee is busy for a copy unless they declined it or it is transparent', async (t) => {
      const w = await startWorld(t, backend);
      const event = await invite(w);
      const slot = [{ start: '2030-03-10T09:00:00Z', end: '2030-03-10T10:00:00Z' }];
      assert.deepEqual(await busy(w, 'ben'), slot);
      assert.deepEqual(await busy(w, 'cleo'), slot);
      await w.as('ben', 'PATCH', w.events('ben', `/${event.id}`), { attendees: [{ email: BEN, responseStatus: 'declined' }] });
      assert.deepEqual(await busy(w, 'ben'), []);
      await w.as('cleo', 'PATCH', w.events('cleo', `/${event.id}`), { transparency: 'transparent' });
      assert.deepEqual(await busy(w, 'cleo'), []);
      assert.deepEqual(await busy(w, 'aiko'), slot);
    });

    test('a fixture event with attendees and answers creates the copies', async (t) => {
      const fixture = worldFixture([
        { id: 'planmeet01', ...meeting({ attendees: [{ email: BEN, responseStatus: 'accepted' }, { email: CLEO, responseStatus: 'declined' }] }) },
        { id: 'standup001', ...SERIES, attendees: [{ email: BEN }] },
        { recurringEventId: 'standup001', originalStartTime: { dateTime: '2030-03-12T09:00:00', timeZone: 'Europe/London' }, status: 'cancelled', start: SERIES.start, end: SERIES.end },
      ]);
      const w = await startWorld(t, backend, fixture);
      const copy = await get(w, 'ben', 'planmeet01');
      assert.equal(copy.attendees.find((a: any) => a.email === BEN).self, true);
      assert.deepEqual(answers(await get(w, 'cleo', 'planmeet01')), { [BEN]: 'accepted', [CLEO]: 'declined' });
      assert.deepEqual(await busy(w, 'cleo'), []);
      const instances = await w.as('ben', 'GET', w.events('ben', '/standup001/instances'));
      assert.equal(instances.json.items.length, 4);
      assert.deepEqual(await w.outbox(), [], 'loading a fixture sends nothing');
    });
  });
}
