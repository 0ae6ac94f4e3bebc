// The outbox (docs/invitations.md): the e-mails Google would send, recorded per recipient by
// sendUpdates (all, externalOnly, none; default none; the deprecated sendNotifications=true),
// emptied by DELETE /__svc/outbox, reset and fixture load; a refused write records nothing.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { call, postJson } from '../_helpers/service.ts';
import { AIKO, BEN, CLEO, EXTERNAL, meeting, startWorld, worldFixture } from './world.ts';

const GUESTS = [{ email: BEN }, { email: CLEO }, { email: EXTERNAL }];

function brief(messages: any[]): string[] {
  return messages.map((m) => `${m.kind} ${m.to} from ${m.fromUserId}`);
}

for (const backend of BACKENDS) {
  describe(`outbox (${backend} store)`, { skip: skipUnless(backend) }, () => {
    test('sendUpdates decides who is mailed; one message per recipient with the contract\'s members', async (t) => {
      const w = await startWorld(t, backend);
      // Default: none.
      const quiet = await w.as('aiko', 'POST', w.events('aiko'), meeting({ attendees: GUESTS }));
      assert.equal(quiet.status, 200);
      assert.deepEqual(await w.outbox(), []);
      const loud = await w.as('aiko', 'POST', w.events('aiko', '?sendUpdates=all'), meeting({ attendees: [...GUESTS, { email: AIKO }, { email: 'ben@EXAMPLE.com' }] }));
      const messages = await w.outbox();
      assert.deepEqual(brief(messages), [`invitation ${BEN} from user-aiko`, `invitation ${CLEO} from user-aiko`, `invitation ${EXTERNAL} from user-aiko`]);
      assert.deepEqual(Object.keys(messages[0]).sort(), ['at', 'calendarId', 'eventId', 'from' + 'UserId', 'id', 'kind', 'summary', 'to'].sort());
      assert.equal(messages[0].eventId, loud.json.id);
      assert.equal(messages[0].calendarId, AIKO);
      assert.equal(messages[0].summary, 'Planning');
      // The service clock, which runs on from the time the test set.
      assert.ok(Date.parse(messages[0].at) - Date.parse('2030-03-06T12:00:00Z') < 60_000, messages[0].at);
      assert.ok(messages[0].at.startsWith('2030-03-06T12:0'), messages[0].at);
      // Ids are numbers going up (docs/invitations.md), and `last` is the newest.
      assert.deepEqual(messages.map((m) => m.id), [messages[0].id, messages[0].id + 1, messages[0].id + 2]);
      assert.equal((await call(`${w.url}/__svc/outbox`)).json.last, messages[2].id);
      assert.equal((await call(`${w.url}/__svc/outbox`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await w.outbox(), []);
      // externalOnly: the external guest alone; the deprecated sendNotifications=true means all.
      await w.as('aiko', 'PATCH', w.events('aiko', `/${loud.json.id}?sendUpdates=externalOnly`), { summary: 'Moved' });
      assert.deepEqual(brief(await w.outbox()), [`update ${EXTERNAL} from user-aiko`]);
      await call(`${w.url}/__svc/outbox`, { method: 'DELETE' });
      await w.as('aiko', 'PATCH', w.events('aiko', `/${loud.json.id}?sendNotifications=true`), { attendees: [{ email: BEN }, { email: 'new@elsewhere.example.org' }] });
      assert.deepEqual(brief(await w.outbox()).sort(), [
        `cancellation ${CLEO} from user-aiko`,
        `cancellation ${EXTERNAL} from user-aiko`,
        `invitation new@elsewhere.example.org from user-aiko`,
        `update ${BEN} from user-aiko`,
      ].sort());
      await call(`${w.url}/__svc/outbox`, { method: 'DELETE' });
      // sendUpdates wins over sendNotifications; a bad value is 400 and records nothing.
      await w.as('aiko', 'PATCH', w.events('aiko', `/${loud.json.id}?sendUpdates=none&sendNotifications=true`), { summary: 'Quiet' });
      assert.deepEqual(await w.outbox(), []);
      const bad = await w.as('aiko', 'PATCH', w.events('aiko', `/${loud.json.id}?sendUpdates=everyone`), { summary: 'x' });
      assert.equal(bad.status, 400);
      // An invitee's answer: a reply to the organizer with all, nothing with externalOnly.
      await w.as('ben', 'PATCH', w.events('ben', `/${loud.json.id}?sendUpdates=externalOnly`), { attendees: [{ email: BEN, responseStatus: 'tentative' }] });
      assert.deepEqual(await w.outbox(), []);
      await w.as('ben', 'PATCH', w.events('ben', `/${loud.json.id}?sendUpdates=all`), { attendees: [{ email: BEN, responseStatus: 'accepted' }] });
      assert.deepEqual(brief(await w.outbox()), [`reply ${AIKO} from user-ben`]);
      // A refused write (403 on a copy) records nothing.
      const refused = await w.as('ben', 'PATCH', w.events('ben', `/${loud.json.id}?sendUpdates=all`), { summary: 'Mine', attendees: [{ email: BEN, responseStatus: 'declined' }] });
      assert.equal(refused.status, 403);
      assert.equal((await w.outbox()).length, 1);
      // Declining by deleting replies; the organizer deleting cancels for every attendee left.
      await call(`${w.url}/__svc/outbox`, { method: 'DELETE' });
      await w.as('ben', 'DELETE', w.events('ben', `/${loud.json.id}?sendUpdates=all`));
      await w.as('aiko', 'DELETE', w.events('aiko', `/${loud.json.id}?sendUpdates=all`));
      assert.deepEqual(brief(await w.outbox()), [`reply ${AIKO} from user-ben`, `cancellation ${BEN} from user-aiko`, 'cancellation new@elsewhere.example.org from user-aiko']);
    });

    test('reset and fixture load empty the outbox', async (t) => {
      const w = await startWorld(t, backend);
      await w.as('aiko', 'POST', w.events('aiko', '?sendUpdates=all'), meeting({ attendees: GUESTS }));
      assert.equal((await w.outbox()).length, 3);
      assert.equal((await postJson(`${w.url}/__svc/fixtures`, worldFixture())).status, 200);
      assert.deepEqual(await w.outbox(), []);
      const again = await startWorld(t, backend);
      await again.as('aiko', 'POST', again.events('aiko', '?sendUpdates=all'), meeting({ attendees: GUESTS }));
      assert.equal((await postJson(`${again.url}/__svc/reset`, undefined)).status, 204);
      assert.deepEqual(await again.outbox(), []);
    });
  });
}
