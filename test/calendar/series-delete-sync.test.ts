// Deleting a series that has exceptions: an incremental sync reports each instance once. The master
// and its exceptions are cancelled in one write; a sync over those changes must not hand out the
// tombstone of a modified instance twice (once for the series, once for the exception).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CALENDAR_FIXTURE, api } from '../_helpers/calendar.ts';
import { tokenFor } from '../_helpers/calendar.ts';
import { postJson, startService } from '../_helpers/service.ts';
import { SyncClient } from './sync-client.ts';

const FIXTURE = { ...CALENDAR_FIXTURE, users: CALENDAR_FIXTURE.users.map((u, i) => (i === 0 ? { ...u, timeZone: 'UTC' } : u)) };
const EVENTS = 'calendars/primary/events';

for (const [singleEvents, pageSize] of [[true, 250], [true, 1], [false, 250], [false, 1]] as const) {
  test(`deleting a series with a modified and a cancelled instance reports each id once (singleEvents=${singleEvents}, pages of ${pageSize})`, async (t) => {
    const url = await startService(t, { fixture: FIXTURE });
    await postJson(`${url}/__svc/clock`, { now: '2030-03-06T12:00:00Z' });
    const token = await tokenFor(url, 'calendar');
    const client = new SyncClient(url, token, 'primary', singleEvents);
    const created = await api(url, token, EVENTS, {
      method: 'POST',
      body: {
        summary: 'Weekly',
        start: { dateTime: '2030-03-01T09:00:00Z', timeZone: 'UTC' },
        end: { dateTime: '2030-03-01T09:30:00Z', timeZone: 'UTC' },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'],
      },
    });
    assert.equal(created.status, 200, created.text);
    const id = created.json.id as string;
    const moved = await api(url, token, `${EVENTS}/${id}_20300308T090000Z`, { method: 'PATCH', body: { summary: 'Moved' } });
    assert.equal(moved.status, 200, moved.text);
    const dropped = await api(url, token, `${EVENTS}/${id}_20300315T090000Z`, { method: 'DELETE' });
    assert.equal(dropped.status, 204, dropped.text);
    await client.fullSync();

    const deleted = await api(url, token, `${EVENTS}/${id}`, { method: 'DELETE' });
    assert.equal(deleted.status, 204, deleted.text);
    const items = await client.sync(pageSize);
    const ids = items.map((i) => i.id);
    assert.deepEqual(ids, [...new Set(ids)], `each id once: ${ids.join(', ')}`);
    assert.ok(items.every((i) => i.status === 'cancelled'));
    await client.assertInStep('after the series was deleted');
  });
}
