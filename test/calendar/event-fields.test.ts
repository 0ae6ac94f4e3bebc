// Event fields as Google keeps them: `updated` ignores a reminder-only change (the discovery
// document's Event.updated: "Updating event reminders will not cause this to change"), query
// enums refuse values outside them, and moving one instance of a series bumps its sequence.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postJson } from '../_helpers/service.ts';
import { AIKO, reason } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const EVENTS = `calendars/${encodeURIComponent(AIKO)}/events`;
const TIMES = { start: { dateTime: '2027-01-01T10:00:00Z' }, end: { dateTime: '2027-01-01T11:00:00Z' } };

describe('event fields', () => {
  const service = useSignedIn();
  const advance = () => postJson(`${service.url}/__svc/clock`, { advanceSeconds: 60 });

  test('a reminder-only patch leaves updated alone but moves the etag and reaches sync', async () => {
    const created = (await service.api(EVENTS, { method: 'POST', body: TIMES })).json;
    const { nextSyncToken } = (await service.api(EVENTS)).json;
    await advance();
    const patched = await service.api(`${EVENTS}/${created.id}`, {
      method: 'PATCH',
      body: { reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 3 }] } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.updated, created.updated);
    assert.notEqual(patched.json.etag, created.etag);
    const changes = (await service.api(`${EVENTS}?syncToken=${encodeURIComponent(nextSyncToken)}`)).json;
    assert.deepEqual(changes.items.map((e: { id: string }) => e.id), [created.id]);
    await advance();
    const renamed = await service.api(`${EVENTS}/${created.id}`, { method: 'PATCH', body: { summary: 'x' } });
    assert.notEqual(renamed.json.updated, created.updated);
  });

  test('eventTypes outside its enum is 400 invalid on events.list', async () => {
    const answer = await service.api(`${EVENTS}?eventTypes=default&eventTypes=meeting`);
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).reason, 'invalid');
    assert.equal(reason(answer).location, 'eventTypes');
    assert.equal((await service.api(`${EVENTS}?eventTypes=default&eventTypes=workingLocation`)).status, 200);
  });

  test('supportsAttachments other than true or false is 400 invalid on insert', async () => {
    const answer = await service.api(`${EVENTS}?supportsAttachments=yes`, { method: 'POST', body: TIMES });
    assert.equal(answer.status, 400);
    assert.equal(reason(answer).location, 'supportsAttachments');
    assert.equal((await service.api(`${EVENTS}?supportsAttachments=true`, { method: 'POST', body: TIMES })).status, 200);
  });

  test('the first write that moves one instance of a series bumps its sequence; a rename does not', async () => {
    const series = (await service.api(EVENTS, {
      method: 'POST',
      body: { start: { dateTime: '2027-02-01T10:00:00', timeZone: 'UTC' }, end: { dateTime: '2027-02-01T11:00:00', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] },
    })).json;
    const [first, second] = (await service.api(`${EVENTS}/${series.id}/instances`)).json.items;
    const renamed = await service.api(`${EVENTS}/${first.id}`, { method: 'PATCH', body: { summary: 'renamed' } });
    assert.equal(renamed.json.sequence, series.sequence);
    const moved = await service.api(`${EVENTS}/${second.id}`, {
      method: 'PATCH',
      body: { start: { dateTime: '2027-02-02T12:00:00Z' }, end: { dateTime: '2027-02-02T13:00:00Z' } },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.json.sequence, series.sequence + 1);
  });
});
