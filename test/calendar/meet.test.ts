// Google Meet links (https://developers.google.com/workspace/calendar/api/v3/reference/events): conferenceDataVersion,
// createRequest, the stored conference on every read, and what version 0 leaves alone.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AIKO, CALENDAR_FIXTURE, reason } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const EVENTS = `calendars/${encodeURIComponent(AIKO)}/events`;
const MEET_CODE = /^[a-z]{3}-[a-z]{4}-[a-z]{3}$/;
const MEET_SOLUTION = {
  key: { type: 'hangoutsMeet' },
  name: 'Google Meet',
  iconUri: 'https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png',
};

function meetRequest(requestId: string, type = 'hangoutsMeet'): Record<string, unknown> {
  return { createRequest: { requestId, conferenceSolutionKey: { type } } };
}

/** The conferenceData Google answers for a Meet created with `requestId` whose code is `code`. */
function meet(requestId: string, code: string): Record<string, unknown> {
  return {
    createRequest: { requestId, conferenceSolutionKey: { type: 'hangoutsMeet' }, status: { statusCode: 'success' } },
    entryPoints: [{ entryPointType: 'video', uri: `https://meet.google.com/${code}`, label: `meet.google.com/${code}` }],
    conferenceSolution: MEET_SOLUTION,
    conferenceId: code,
  };
}

const TIMES = { start: { dateTime: '2027-06-01T10:00:00+09:00' }, end: { dateTime: '2027-06-01T11:00:00+09:00' } };

describe('Google Meet links', () => {
  const { call } = useSignedIn();

  async function withMeet(requestId: string, extra: Record<string, unknown> = {}) {
    const answer = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, ...extra, conferenceData: meetRequest(requestId) });
    assert.equal(answer.status, 200, answer.text);
    return answer.json;
  }

  for (const bad of ['2', '-1', 'one', '1.0']) {
    test(`conferenceDataVersion=${bad} is 400 invalid on insert and patch`, async () => {
      const inserted = await call(`${EVENTS}?conferenceDataVersion=${bad}`, 'POST', TIMES);
      assert.equal(inserted.status, 400, inserted.text);
      assert.deepEqual(reason(inserted), {
        domain: 'global',
        reason: 'invalid',
        message: 'conferenceDataVersion must be an integer from 0 to 1',
        locationType: 'parameter',
        location: 'conferenceDataVersion',
      });
      const created = (await call(EVENTS, 'POST', TIMES)).json;
      const patched = await call(`${EVENTS}/${created.id}?conferenceDataVersion=${bad}`, 'PATCH', { summary: 'x' });
      assert.equal(patched.status, 400);
      assert.equal((await call(`${EVENTS}/${created.id}`)).json.etag, created.etag);
    });
  }

  test('version 1 with a hangoutsMeet createRequest makes a Meet conference and hangoutLink', async () => {
    const e = await withMeet('req-1');
    const code = e.conferenceData.conferenceId;
    assert.match(code, MEET_CODE);
    assert.deepEqual(e.conferenceData, meet('req-1', code));
    assert.equal(e.hangoutLink, `https://meet.google.com/${code}`);
    // Stored and returned like any field: get and list.
    const got = (await call(`${EVENTS}/${e.id}`)).json;
    assert.deepEqual([got.conferenceData, got.hangoutLink], [e.conferenceData, e.hangoutLink]);
    const listed = (await call(`${EVENTS}?timeMin=2027-06-01T00:00:00Z&timeMax=2027-06-02T00:00:00Z`)).json.items.find((i: { id: string }) => i.id === e.id);
    assert.deepEqual([listed.conferenceData, listed.hangoutLink], [e.conferenceData, e.hangoutLink]);
    assert.notEqual((await withMeet('req-2')).conferenceData.conferenceId, code, 'each conference its own code');
  });

  test('the same requestId on the same event keeps the conference; a new one makes a new one', async () => {
    const e = await withMeet('again');
    const code = e.conferenceData.conferenceId;
    const repeated = await call(`${EVENTS}/${e.id}?conferenceDataVersion=1`, 'PATCH', { summary: 'Renamed', conferenceData: meetRequest('again') });
    assert.equal(repeated.status, 200, repeated.text);
    assert.deepEqual(repeated.json.conferenceData, e.conferenceData);
    // The usual update: the event sent back as read, with its conferenceData, keeps it too.
    const put = await call(`${EVENTS}/${e.id}?conferenceDataVersion=1`, 'PUT', { ...repeated.json, summary: 'Put back' });
    assert.deepEqual(put.json.conferenceData, e.conferenceData);
    const fresh = await call(`${EVENTS}/${e.id}?conferenceDataVersion=1`, 'PATCH', { conferenceData: meetRequest('new') });
    assert.notEqual(fresh.json.conferenceData.conferenceId, code);
    assert.deepEqual(fresh.json.conferenceData, meet('new', fresh.json.conferenceData.conferenceId));
  });

  test('without version 1 conferenceData in a write is ignored and what the event had is kept', async () => {
    const plain = await call(EVENTS, 'POST', { ...TIMES, conferenceData: meetRequest('ignored') });
    assert.equal(plain.status, 200);
    assert.equal(plain.json.conferenceData, undefined);
    assert.equal(plain.json.hangoutLink, undefined);
    const e = await withMeet('kept');
    for (const [method, version, body] of [
      ['PATCH', '', { conferenceData: meetRequest('other') }],
      ['PATCH', '?conferenceDataVersion=0', { conferenceData: null }],
      ['PUT', '', { ...TIMES, summary: 'Replaced' }],
      ['PUT', '?conferenceDataVersion=0', { ...TIMES, conferenceData: meetRequest('other') }],
    ] as const) {
      const answer = await call(`${EVENTS}/${e.id}${version}`, method, body);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json.conferenceData, e.conferenceData, `${method}${version}`);
      assert.equal(answer.json.hangoutLink, e.hangoutLink);
    }
  });

  test('with version 1, update without conferenceData and patch with null remove it', async () => {
    const e = await withMeet('removed');
    const put = await call(`${EVENTS}/${e.id}?conferenceDataVersion=1`, 'PUT', TIMES);
    assert.equal(put.json.conferenceData, undefined);
    assert.equal(put.json.hangoutLink, undefined);
    const other = await withMeet('removed-too');
    const untouched = await call(`${EVENTS}/${other.id}?conferenceDataVersion=1`, 'PATCH', { summary: 'Absent means unchanged' });
    assert.deepEqual(untouched.json.conferenceData, other.conferenceData);
    const cleared = await call(`${EVENTS}/${other.id}?conferenceDataVersion=1`, 'PATCH', { conferenceData: null });
    assert.equal(cleared.json.conferenceData, undefined);
    assert.equal(cleared.json.hangoutLink, undefined);
  });

  test('an unsupported solution type answers statusCode failure, with no link', async () => {
    for (const type of ['eventHangout', 'addOn', 'somethingElse']) {
      const answer = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, conferenceData: meetRequest(`r-${type}`, type) });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json.conferenceData, {
        createRequest: { requestId: `r-${type}`, conferenceSolutionKey: { type }, status: { statusCode: 'failure' } },
      });
      assert.equal(answer.json.hangoutLink, undefined);
    }
  });

  test('a create request needs a requestId and a solution type', async () => {
    const noType = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, conferenceData: { createRequest: { requestId: 'x' } } });
    assert.equal(noType.status, 400);
    assert.deepEqual([reason(noType).reason, reason(noType).message], ['invalid', 'Invalid conference type value.']);
    const noId = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, conferenceData: { createRequest: { conferenceSolutionKey: { type: 'hangoutsMeet' } } } });
    assert.equal(noId.status, 400);
    assert.equal(reason(noId).reason, 'invalid');
  });

  test('version 1 copies a conference given whole, and refuses one with no entry point', async () => {
    const given = {
      entryPoints: [{ entryPointType: 'video', uri: 'https://meet.google.com/abc-defg-hij', label: 'meet.google.com/abc-defg-hij' }],
      conferenceSolution: MEET_SOLUTION,
      conferenceId: 'abc-defg-hij',
    };
    const copied = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, conferenceData: given });
    assert.equal(copied.status, 200, copied.text);
    assert.deepEqual(copied.json.conferenceData, given);
    assert.equal(copied.json.hangoutLink, 'https://meet.google.com/abc-defg-hij');
    const empty = await call(`${EVENTS}?conferenceDataVersion=1`, 'POST', { ...TIMES, conferenceData: { ...given, entryPoints: [] } });
    assert.equal(empty.status, 400);
    assert.equal(reason(empty).reason, 'invalid');
  });

  test('instances of a series with Meet carry it; an instance edit keeps it', async () => {
    const e = await withMeet('series', {
      start: { dateTime: '2027-07-01T09:00:00', timeZone: 'Asia/Tokyo' },
      end: { dateTime: '2027-07-01T09:30:00', timeZone: 'Asia/Tokyo' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const instances = (await call(`${EVENTS}/${e.id}/instances`)).json.items;
    assert.equal(instances.length, 3);
    for (const i of instances) assert.deepEqual([i.conferenceData, i.hangoutLink], [e.conferenceData, e.hangoutLink]);
    const single = (await call(`${EVENTS}?singleEvents=true&timeMin=2027-07-01T00:00:00Z&timeMax=2027-07-04T00:00:00Z`)).json.items;
    assert.deepEqual(single.filter((i: { recurringEventId?: string }) => i.recurringEventId === e.id).map((i: { hangoutLink: string }) => i.hangoutLink), [e.hangoutLink, e.hangoutLink, e.hangoutLink]);
    const exception = await call(`${EVENTS}/${instances[1].id}`, 'PATCH', { summary: 'Moved' });
    assert.deepEqual([exception.json.conferenceData, exception.json.hangoutLink], [e.conferenceData, e.hangoutLink]);
  });
});

describe('Google Meet links in fixtures', () => {
  const conferenceData = {
    entryPoints: [{ entryPointType: 'video', uri: 'https://meet.google.com/fix-ture-one', label: 'meet.google.com/fix-ture-one' }],
    conferenceSolution: MEET_SOLUTION,
    conferenceId: 'fix-ture-one',
  };
  const aiko = CALENDAR_FIXTURE.users[0] as (typeof CALENDAR_FIXTURE.users)[0];
  const fixture = {
    ...CALENDAR_FIXTURE,
    users: [
      {
        ...aiko,
        calendars: [{ ...aiko.calendars[0], events: [{ id: 'seededmeet', ...TIMES, conferenceData }] }, ...aiko.calendars.slice(1)],
      },
      ...CALENDAR_FIXTURE.users.slice(1),
    ],
  };
  const { call } = useSignedIn({ fixture });

  test('a fixture event keeps the conference it was given', async () => {
    const e = (await call(`${EVENTS}/seededmeet`)).json;
    assert.deepEqual(e.conferenceData, conferenceData);
    assert.equal(e.hangoutLink, 'https://meet.google.com/fix-ture-one');
  });
});
