// The workspace export with invitations (docs/journal.md#workspace-export, docs/invitations.md): each event is written once, on its
// organizer's calendar, and loading the export into a fresh service makes the copies again, so
// every user's calendar reads back the same (etag, created, updated and the htmlLink's host
// aside, as in test/export/round-trip.test.ts).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { call } from '../_helpers/service.ts';
import { AIKO, BEN, CLEO, EXTERNAL, USERS, meeting, startWorld } from './world.ts';
import type { Who, World } from './world.ts';

const SERIES = {
  summary: 'Standup',
  start: { dateTime: '2030-03-11T09:00:00', timeZone: 'Europe/London' },
  end: { dateTime: '2030-03-11T09:15:00', timeZone: 'Europe/London' },
  recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
};

/** Every record of `who`'s calendar, by id, without what a load makes anew. */
async function calendarOf(w: World, who: Who): Promise<Record<string, unknown>> {
  const answer = await w.as(who, 'GET', w.events(who, '?showDeleted=true&maxResults=2500'));
  assert.equal(answer.status, 200, answer.text);
  const out: Record<string, unknown> = {};
  for (const item of answer.json.items) {
    const { etag: _etag, created: _created, updated: _updated, htmlLink, ...rest } = item;
    out[item.id] = { ...rest, htmlLink: String(htmlLink).replace(/^http:\/\/[^/]+/, '') };
  }
  return out;
}

for (const backend of BACKENDS) {
  describe(`export with invitations (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('each event is exported once, on its organizer\'s calendar, and a round trip reproduces the copies', async (t) => {
      const w = await startWorld(t, backend);
      const single = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }, { email: CLEO }, { email: EXTERNAL }] }))).json;
      const series = (await w.as('ben', 'POST', w.events('ben'), { ...SERIES, attendees: [{ email: USERS.aiko }, { email: CLEO }] })).json;
      const instances = (await w.as('ben', 'GET', w.events('ben', `/${series.id}/instances`))).json.items;
      await w.as('ben', 'PATCH', w.events('ben', `/${instances[1].id}`), { summary: 'Moved standup' });
      await w.as('ben', 'DELETE', w.events('ben', `/${instances[3].id}`));
      await w.as('ben', 'PATCH', w.events('ben', `/${single.id}`), { attendees: [{ email: BEN, responseStatus: 'accepted', comment: 'ok' }] });
      await w.as('cleo', 'PATCH', w.events('cleo', `/${instances[2].id}`), { attendees: [{ email: CLEO, responseStatus: 'tentative' }] });
      await w.as('aiko', 'PATCH', w.events('aiko', `/${series.id}`), { attendees: [{ email: USERS.aiko, responseStatus: 'declined' }] });

      const exported = (await call(`${w.url}/__svc/fixtures`)).json;
      const ids = (who: Who): string[] => exported.users.find((u: any) => u.email === USERS[who]).calendars[0].events.map((e: any) => e.id);
      assert.deepEqual(ids('aiko'), [single.id], 'Aiko\'s calendar exports her own event, not her copy of Ben\'s series');
      assert.deepEqual(ids('cleo'), [], 'Cleo organizes nothing');
      assert.ok(ids('ben').includes(series.id) && !ids('ben').includes(single.id));

      const before = { aiko: await calendarOf(w, 'aiko'), ben: await calendarOf(w, 'ben'), cleo: await calendarOf(w, 'cleo') };
      assert.equal(Object.keys(before.cleo).length, 2 + 3, 'Cleo holds two copies, and three exceptions of the series');
      const again = await startWorld(t, backend);
      await again.load(exported);
      for (const who of ['aiko', 'ben', 'cleo'] as const) {
        assert.deepEqual(await calendarOf(again, who), before[who], `${who}'s calendar after the round trip`);
      }
      assert.deepEqual((await call(`${again.url}/__svc/fixtures`)).json.users, exported.users);
    });

    test('what is an invitee\'s own in their copy (private properties, a deleted copy or instance) is exported on their calendar and comes back', async (t) => {
      const w = await startWorld(t, backend);
      const own = { reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 7 }] }, colorId: '4', transparency: 'transparent', extendedProperties: { private: { note: 'mine' } } };
      const single = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }, { email: CLEO }], extendedProperties: { shared: { room: '5' } } }))).json;
      // Made free by its organizer after Ben's copy was made: his copy stays busy (its own transparency, none).
      const later = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ summary: 'Later', attendees: [{ email: BEN }] }, 11))).json;
      const series = (await w.as('ben', 'POST', w.events('ben'), { ...SERIES, attendees: [{ email: USERS.aiko }, { email: CLEO }] })).json;
      const instances = (await w.as('ben', 'GET', w.events('ben', `/${series.id}/instances`))).json.items;
      const cleoSeries = (await w.as('aiko', 'POST', w.events('aiko'), { ...SERIES, summary: 'Retro', attendees: [{ email: CLEO }, { email: BEN }] })).json;
      const retros = (await w.as('aiko', 'GET', w.events('aiko', `/${cleoSeries.id}/instances`))).json.items;
      const writes: Array<[Who, string, string, object?]> = [
        ['aiko', 'PATCH', w.events('aiko', `/${later.id}`), { transparency: 'transparent' }],
        ['ben', 'PATCH', w.events('ben', `/${single.id}`), own],
        ['cleo', 'DELETE', w.events('cleo', `/${single.id}`)],
        ['aiko', 'PATCH', w.events('aiko', `/${series.id}`), { colorId: '9', extendedProperties: { private: { series: 'yes' } } }],
        ['aiko', 'PATCH', w.events('aiko', `/${instances[1].id}`), { reminders: { useDefault: false, overrides: [{ method: 'email', minutes: 30 }] } }],
        ['cleo', 'DELETE', w.events('cleo', `/${instances[2].id}`)],
        ['aiko', 'PATCH', w.events('aiko', `/${retros[1].id}`), { summary: 'Retro, moved' }],
        ['cleo', 'DELETE', w.events('cleo', `/${cleoSeries.id}`)],
      ];
      for (const [who, method, path, body] of writes) {
        const answer = await w.as(who, method, path, body);
        assert.ok(answer.status === 200 || answer.status === 204, `${who} ${method} ${path}: ${answer.status} ${answer.text}`);
      }
      const cleoInstance = await w.as('cleo', 'GET', w.events('cleo', `/${instances[2].id}`));
      assert.equal(cleoInstance.json.status, 'cancelled', 'Cleo deleted one instance of her copy');

      const exported = (await call(`${w.url}/__svc/fixtures`)).json;
      const entries = (who: Who): any[] => exported.users.find((u: any) => u.email === USERS[who]).calendars[0].events.filter((e: any) => e.organizer !== undefined);
      const originalStartTime = (id: string): unknown => exported.users.find((u: any) => u.email === BEN).calendars[0].events.find((e: any) => e.id === id).originalStartTime;
      const byId = (list: any[]): any[] => [...list].sort((a, b) => a.id.localeCompare(b.id));
      assert.deepEqual(entries('ben'), byId([
        { id: single.id, organizer: { email: AIKO }, ...own },
        { id: later.id, organizer: { email: AIKO }, transparency: null },
      ]));
      assert.deepEqual(entries('aiko'), byId([
        { id: series.id, organizer: { email: BEN }, colorId: '9', extendedProperties: { private: { series: 'yes' } } },
        { id: instances[1].id, organizer: { email: BEN }, recurringEventId: series.id, originalStartTime: originalStartTime(instances[1].id),
          // The instance of her copy had the private properties of her series' copy, and she patched it.
          reminders: { useDefault: false, overrides: [{ method: 'email', minutes: 30 }] }, colorId: '9', extendedProperties: { private: { series: 'yes' } } },
      ]));
      assert.deepEqual(entries('cleo'), byId([
        { id: single.id, organizer: { email: AIKO }, status: 'cancelled' },
        { id: instances[2].id, organizer: { email: BEN }, recurringEventId: series.id, originalStartTime: originalStartTime(instances[2].id), status: 'cancelled' },
        { id: cleoSeries.id, organizer: { email: AIKO }, status: 'cancelled' },
        { id: retros[1].id, organizer: { email: AIKO }, recurringEventId: cleoSeries.id, originalStartTime: exported.users[0].calendars[0].events.find((e: any) => e.id === retros[1].id).originalStartTime, status: 'cancelled' },
      ]));

      const before = { aiko: await calendarOf(w, 'aiko'), ben: await calendarOf(w, 'ben'), cleo: await calendarOf(w, 'cleo') };
      const again = await startWorld(t, backend);
      await again.load(exported);
      for (const who of ['aiko', 'ben', 'cleo'] as const) {
        assert.deepEqual(await calendarOf(again, who), before[who], `${who}'s calendar after the round trip`);
      }
      assert.deepEqual(await again.outbox(), [], 'loading records no mail');
      assert.deepEqual((await call(`${again.url}/__svc/fixtures`)).json, exported, 'a second export equals the first');
    });

    test('copies cancelled from the organizer\'s side (event deleted, series deleted, guest removed) come back cancelled', async (t) => {
      const w = await startWorld(t, backend);
      const deleted = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: [{ email: BEN }, { email: CLEO }] }))).json;
      const trimmed = (await w.as('aiko', 'POST', w.events('aiko'), meeting({ summary: 'Trimmed', attendees: [{ email: BEN }, { email: CLEO }] }, 11))).json;
      const series = (await w.as('ben', 'POST', w.events('ben'), { ...SERIES, attendees: [{ email: USERS.aiko }, { email: CLEO }] })).json;
      const instances = (await w.as('ben', 'GET', w.events('ben', `/${series.id}/instances`))).json.items;
      const kept = (await w.as('ben', 'POST', w.events('ben'), { ...SERIES, summary: 'Kept', attendees: [{ email: USERS.aiko }, { email: CLEO }] })).json;
      const writes: Array<[Who, string, string, object?]> = [
        ['aiko', 'DELETE', w.events('aiko', `/${deleted.id}`)],
        ['aiko', 'PATCH', w.events('aiko', `/${trimmed.id}`), { attendees: [{ email: BEN }] }],
        ['ben', 'PATCH', w.events('ben', `/${instances[1].id}`), { summary: 'Moved standup' }],
        ['ben', 'DELETE', w.events('ben', `/${series.id}`)],
        ['ben', 'PATCH', w.events('ben', `/${kept.id}`), { attendees: [{ email: USERS.aiko }] }],
      ];
      for (const [who, method, path, body] of writes) {
        const answer = await w.as(who, method, path, body);
        assert.ok(answer.status === 200 || answer.status === 204, `${who} ${method} ${path}: ${answer.status} ${answer.text}`);
      }
      const statusOf = async (world: World, who: Who, id: string): Promise<unknown> => (await world.as(who, 'GET', world.events(who, `/${id}`))).json.status;
      const cancelledForCleo = [deleted.id, trimmed.id, series.id, instances[1].id, kept.id];
      for (const id of cancelledForCleo) assert.equal(await statusOf(w, 'cleo', id), 'cancelled', id);

      const exported = (await call(`${w.url}/__svc/fixtures`)).json;
      const entries = (who: Who): any[] => exported.users.find((u: any) => u.email === USERS[who]).calendars[0].events.filter((e: any) => e.organizer !== undefined);
      // Only the removals need an entry: a deleted event's copies are made cancelled from it.
      assert.deepEqual(entries('cleo'), [
        { id: kept.id, organizer: { email: BEN }, status: 'cancelled' },
        { id: trimmed.id, organizer: { email: AIKO }, status: 'cancelled' },
      ].sort((a, b) => a.id.localeCompare(b.id)));

      const before = { aiko: await calendarOf(w, 'aiko'), ben: await calendarOf(w, 'ben'), cleo: await calendarOf(w, 'cleo') };
      const again = await startWorld(t, backend);
      await again.load(exported);
      for (const id of cancelledForCleo) assert.equal(await statusOf(again, 'cleo', id), 'cancelled', `${id} after the round trip`);
      for (const who of ['aiko', 'ben', 'cleo'] as const) {
        assert.deepEqual(await calendarOf(again, who), before[who], `${who}'s calendar after the round trip`);
      }
      assert.deepEqual((await call(`${again.url}/__svc/fixtures`)).json, exported, 'a second export equals the first');
    });
  });
}
