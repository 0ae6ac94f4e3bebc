// The conferencePending fault (docs/faults.md): a write that asks for a Meet conference answers its
// create request as `pending` (https://developers.google.com/workspace/calendar/api/v3/reference/events statusCode "pending"), and a later read shows the
// conference as `success` with its entry points, so an app's polling code can be tested.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AIKO } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';
import { addFault, listFaults, postFault } from './fault-api.ts';

const EVENTS = `calendars/${encodeURIComponent(AIKO)}/events`;
const TIMES = { start: { dateTime: '2027-06-01T10:00:00+09:00' }, end: { dateTime: '2027-06-01T11:00:00+09:00' } };
const meetRequest = (requestId: string) => ({ createRequest: { requestId, conferenceSolutionKey: { type: 'hangoutsMeet' } } });

describe('conferencePending', () => {
  const signedIn = useSignedIn();
  const call = signedIn.call;

  it('insert answers pending without entry points; get and list then show success', async () => {
    await addFault(signedIn.url, { match: { method: 'calendar.events.insert' }, error: 'conferencePending' });
    const created = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, summary: 'pending meet', conferenceData: meetRequest('req-1') });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.json.conferenceData, {
      createRequest: { requestId: 'req-1', conferenceSolutionKey: { type: 'hangoutsMeet' }, status: { statusCode: 'pending' } },
    });
    assert.equal(created.json.hangoutLink, undefined);

    const read = await call(`${EVENTS}/${created.json.id}`);
    assert.equal(read.json.conferenceData.createRequest.status.statusCode, 'success');
    assert.equal(read.json.conferenceData.entryPoints[0].entryPointType, 'video');
    assert.match(read.json.hangoutLink, /^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    const listed = await call(`${EVENTS}?q=${encodeURIComponent('pending meet')}`);
    assert.equal(listed.json.items[0].conferenceData.createRequest.status.statusCode, 'success');

    const next = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, conferenceData: meetRequest('req-2') });
    assert.equal(next.json.conferenceData.createRequest.status.statusCode, 'success', 'the rule acted once');
  });

  it('patch with a create request answers pending too; a write without one answers as usual', async () => {
    const plain = await call(EVENTS, 'POST', TIMES);
    await addFault(signedIn.url, { match: { method: 'calendar.events.patch' }, error: 'conferencePending', times: 2 });
    const summaryOnly = await call(`${EVENTS}/${plain.json.id}?conferenceDataVersion=1`, 'PATCH', { summary: 'renamed' });
    assert.equal(summaryOnly.status, 200);
    assert.equal(summaryOnly.json.conferenceData, undefined);
    const patched = await call(`${EVENTS}/${plain.json.id}?conferenceDataVersion=1`, 'PATCH', { conferenceData: meetRequest('req-3') });
    assert.equal(patched.json.conferenceData.createRequest.status.statusCode, 'pending');
    assert.equal((await call(`${EVENTS}/${plain.json.id}`)).json.conferenceData.createRequest.status.statusCode, 'success');
    assert.equal((await listFaults(signedIn.url)).at(-1)?.hits, 2);
  });

  it('fits only the writes that can create a conference', async () => {
    const refused = await postFault(signedIn.url, { match: { method: 'calendar.events.list' }, error: 'conferencePending' });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error, 'invalid_fault');
  });
});
