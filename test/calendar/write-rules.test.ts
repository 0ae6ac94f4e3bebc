// The event write rules over HTTP: all-day ranges, sequence, recurrence on instances,
// read-only recurringEventId/originalStartTime on insert, and who the organizer and creator are
// on primary and secondary calendars.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AIKO, TEAM, reason } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const PRIMARY = `calendars/${encodeURIComponent(AIKO)}/events`;
const SECONDARY = `calendars/${encodeURIComponent(TEAM)}/events`;
const SEQUENCE_BELOW = 'Invalid sequence value. The specified sequence number is below the current sequence number of the resource.';

describe('event write rules', () => {
  const { call } = useSignedIn();

  /** A daily series of three 09:00 Tokyo meetings from 2027-04-05, and the id of its second instance. */
  async function series(extra: Record<string, unknown> = {}, path = PRIMARY): Promise<{ id: string; second: string; etag: string }> {
    const created = await call(path, 'POST', {
      summary: 'Daily',
      start: { dateTime: '2027-04-05T09:00:00', timeZone: 'Asia/Tokyo' },
      end: { dateTime: '2027-04-05T09:30:00', timeZone: 'Asia/Tokyo' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      ...extra,
    });
    assert.equal(created.status, 200, created.text);
    return { id: created.json.id, second: `${created.json.id}_20270406T000000Z`, etag: created.json.etag };
  }

  describe('all-day events end after they start', () => {
    for (const [name, end] of [['on the start date', '2027-02-01'], ['before the start date', '2027-01-31']] as const) {
      test(`an end.date ${name} is 400 timeRangeEmpty`, async () => {
        const answer = await call(PRIMARY, 'POST', { start: { date: '2027-02-01' }, end: { date: end } });
        assert.equal(answer.status, 400, answer.text);
        assert.deepEqual(reason(answer), { domain: 'calendar', reason: 'timeRangeEmpty', message: 'The specified time range is empty.' });
      });
    }

    test('one day is the shortest all-day event; a patch cannot shrink it to none', async () => {
      const created = await call(PRIMARY, 'POST', { start: { date: '2027-02-01' }, end: { date: '2027-02-02' } });
      assert.equal(created.status, 200, created.text);
      const shrunk = await call(`${PRIMARY}/${created.json.id}`, 'PATCH', { end: { date: '2027-02-01' } });
      assert.equal(shrunk.status, 400);
      assert.equal(reason(shrunk).reason, 'timeRangeEmpty');
      assert.equal((await call(`${PRIMARY}/${created.json.id}`)).json.etag, created.json.etag, 'nothing written');
    });

    test('a timed event may still start and end at the same instant', async () => {
      const answer = await call(PRIMARY, 'POST', { start: { dateTime: '2027-02-01T10:00:00Z' }, end: { dateTime: '2027-02-01T10:00:00Z' } });
      assert.equal(answer.status, 200, answer.text);
    });
  });

  describe('sequence never goes down', () => {
    test('update and patch below the stored sequence are 400 invalid; equal or above is kept', async () => {
      const created = (await call(PRIMARY, 'POST', { start: { dateTime: '2027-02-02T10:00:00Z' }, end: { dateTime: '2027-02-02T11:00:00Z' }, sequence: 3 })).json;
      assert.equal(created.sequence, 3);
      const lower = await call(`${PRIMARY}/${created.id}`, 'PATCH', { summary: 'x', sequence: 2 });
      assert.equal(lower.status, 400, lower.text);
      assert.deepEqual(reason(lower), { domain: 'global', reason: 'invalid', message: SEQUENCE_BELOW });
      const put = await call(`${PRIMARY}/${created.id}`, 'PUT', { ...created, sequence: 0 });
      assert.equal(put.status, 400);
      assert.equal(reason(put).message, SEQUENCE_BELOW);
      assert.equal((await call(`${PRIMARY}/${created.id}`)).json.etag, created.etag, 'nothing written');
      // A client sending back what it read (the usual update) passes. Its times come back in the
      // calendar's zone (19:00+09:00): the same instants, so no new sequence either.
      const same = await call(`${PRIMARY}/${created.id}`, 'PUT', { ...created, summary: 'Same sequence' });
      assert.equal(same.status, 200, same.text);
      assert.equal(same.json.sequence, 3);
      const higher = await call(`${PRIMARY}/${created.id}`, 'PATCH', { sequence: 7 });
      assert.equal(higher.json.sequence, 7);
    });

    test('an instance has the series sequence, and its exception keeps the rule', async () => {
      const { second } = await series({ sequence: 2 });
      const lower = await call(`${PRIMARY}/${second}`, 'PATCH', { summary: 'Moved', sequence: 1 });
      assert.equal(lower.status, 400, lower.text);
      assert.equal(reason(lower).message, SEQUENCE_BELOW);
      assert.equal((await call(`${PRIMARY}/${second}`)).json.summary, 'Daily', 'no exception was made');
      const exception = await call(`${PRIMARY}/${second}`, 'PATCH', { summary: 'Moved', sequence: 2 });
      assert.equal(exception.status, 200, exception.text);
      const again = await call(`${PRIMARY}/${second}`, 'PATCH', { sequence: 0 });
      assert.equal(again.status, 400);
      assert.equal(reason(again).message, SEQUENCE_BELOW);
    });
  });

  describe('an instance has no recurrence of its own', () => {
    const RULE = ['RRULE:FREQ=WEEKLY;COUNT=2'];

    test('patch or update of an untouched instance with recurrence is 400 invalid and makes no exception', async () => {
      const { id, second, etag } = await series();
      const patched = await call(`${PRIMARY}/${second}`, 'PATCH', { recurrence: RULE });
      assert.equal(patched.status, 400, patched.text);
      assert.equal(reason(patched).reason, 'invalid');
      assert.equal(reason(patched).message, 'An instance of a recurring event cannot have a recurrence of its own.');
      const instance = (await call(`${PRIMARY}/${second}`)).json;
      const updated = await call(`${PRIMARY}/${second}`, 'PUT', { ...instance, recurrence: RULE });
      assert.equal(updated.status, 400);
      assert.equal(reason(updated).reason, 'invalid');
      assert.equal((await call(`${PRIMARY}/${second}`)).json.etag, etag, 'still the untouched instance (the series etag)');
      const listed = await call(`${PRIMARY}/${id}/instances`);
      assert.equal(listed.json.items.length, 3);
    });

    test('the same for an exception; an empty or null recurrence is no recurrence and passes', async () => {
      const { second } = await series();
      const exception = await call(`${PRIMARY}/${second}`, 'PATCH', { summary: 'Exception' });
      assert.equal(exception.status, 200);
      const refused = await call(`${PRIMARY}/${second}`, 'PATCH', { recurrence: RULE });
      assert.equal(refused.status, 400);
      assert.equal(reason(refused).reason, 'invalid');
      const empty = await call(`${PRIMARY}/${second}`, 'PATCH', { summary: 'Still one', recurrence: [] });
      assert.equal(empty.status, 200, empty.text);
      const none = await call(`${PRIMARY}/${second}`, 'PUT', { ...empty.json, recurrence: null });
      assert.equal(none.status, 200, none.text);
      assert.equal(none.json.recurrence, undefined);
    });

    test('the series itself still takes a new recurrence', async () => {
      const { id } = await series();
      const answer = await call(`${PRIMARY}/${id}`, 'PATCH', { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] });
      assert.equal(answer.status, 200, answer.text);
    });
  });

  describe('insert: recurringEventId and originalStartTime are read-only', () => {
    test('a copy of an instance inserted back is a new single event; the occurrence is untouched', async () => {
      const { id, second, etag } = await series();
      const instance = (await call(`${PRIMARY}/${second}`)).json;
      assert.equal(instance.recurringEventId, id);
      const { id: _instanceId, ...copy } = instance;
      const inserted = await call(PRIMARY, 'POST', { ...copy, summary: 'Copy' });
      assert.equal(inserted.status, 200, inserted.text);
      assert.notEqual(inserted.json.id, second);
      assert.equal(inserted.json.recurringEventId, undefined);
      assert.equal(inserted.json.originalStartTime, undefined);
      assert.equal(inserted.json.recurrence, undefined);
      assert.deepEqual(inserted.json.start, instance.start);
      // The occurrence is still the series' own, untouched (its etag is the series').
      const after = await call(`${PRIMARY}/${second}`);
      assert.equal(after.json.etag, etag);
      assert.equal(after.json.summary, 'Daily');
      const day = await call(`${PRIMARY}?singleEvents=true&timeMin=2027-04-05T15:00:00Z&timeMax=2027-04-06T15:00:00Z`);
      const ids = day.json.items.map((e: { id: string }) => e.id);
      assert.ok(ids.includes(second) && ids.includes(inserted.json.id), 'both show');
    });

    test('an instance id given on insert is refused like any id outside base32hex', async () => {
      const { second } = await series();
      const instance = (await call(`${PRIMARY}/${second}`)).json;
      const answer = await call(PRIMARY, 'POST', instance);
      assert.equal(answer.status, 400);
      assert.equal(reason(answer).message, 'Invalid resource id value.');
    });
  });

  describe('organizer and creator', () => {
    const aiko = { email: AIKO, displayName: 'Aiko Tanaka' };

    test('on the primary calendar both are the user, self', async () => {
      const e = (await call(PRIMARY, 'POST', { start: { date: '2027-03-01' }, end: { date: '2027-03-02' } })).json;
      assert.deepEqual(e.creator, { ...aiko, self: true });
      assert.deepEqual(e.organizer, { ...aiko, self: true });
    });

    test('on a secondary calendar the organizer is the calendar, self; the creator is the user', async () => {
      const created = await call(SECONDARY, 'POST', {
        start: { date: '2027-03-01' },
        end: { date: '2027-03-02' },
        attendees: [{ email: TEAM }, { email: AIKO }],
      });
      assert.equal(created.status, 200, created.text);
      const e = created.json;
      assert.deepEqual(e.organizer, { email: TEAM, displayName: 'Team', self: true });
      assert.deepEqual(e.creator, aiko);
      // Attendee `self` is the calendar holding the event, here the secondary one.
      assert.deepEqual(e.attendees, [
        { email: TEAM, responseStatus: 'needsAction', organizer: true, self: true },
        { email: AIKO, responseStatus: 'needsAction' },
      ]);
      assert.deepEqual((await call(`${SECONDARY}/${e.id}`)).json.organizer, e.organizer);
      const updated = await call(`${SECONDARY}/${e.id}`, 'PUT', { ...e, organizer: { email: 'someone@else.example' }, creator: { email: 'x@y.example' } });
      assert.deepEqual([updated.json.organizer, updated.json.creator], [e.organizer, e.creator], 'read-only on update');
    });

    test('instances and exceptions of a secondary calendar series carry the same', async () => {
      const { second } = await series({}, SECONDARY);
      const instance = (await call(`${SECONDARY}/${second}`)).json;
      assert.deepEqual(instance.organizer, { email: TEAM, displayName: 'Team', self: true });
      assert.deepEqual(instance.creator, aiko);
      const exception = (await call(`${SECONDARY}/${second}`, 'PATCH', { summary: 'Moved' })).json;
      assert.deepEqual([exception.organizer, exception.creator], [instance.organizer, instance.creator]);
    });
  });
});
