// A zero offset is written `Z`, as Google writes it: for a UTC calendar (captured in
// https://github.com/googleapis/google-api-python-client/issues/2262: `"dateTime":"2023-10-02T21:30:00Z"`)
// and, by the same RFC 3339 writer, for Europe/London in winter (a choice: see zones.ts).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BEN, BEN_PRIVATE } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

describe('zero offsets', () => {
  const service = useSignedIn({ user: 'user-ben' });

  test('a London-winter event reads 10:00:00Z, a London-summer one +01:00', async () => {
    const events = `calendars/${encodeURIComponent(BEN)}/events`;
    const winter = await service.api(events, {
      method: 'POST',
      body: { start: { dateTime: '2026-01-15T10:00:00', timeZone: 'Europe/London' }, end: { dateTime: '2026-01-15T11:00:00', timeZone: 'Europe/London' } },
    });
    assert.deepEqual(winter.json.start, { dateTime: '2026-01-15T10:00:00Z', timeZone: 'Europe/London' });
    const summer = await service.api(events, {
      method: 'POST',
      body: { start: { dateTime: '2026-07-15T10:00:00', timeZone: 'Europe/London' }, end: { dateTime: '2026-07-15T11:00:00', timeZone: 'Europe/London' } },
    });
    assert.equal(summer.json.start.dateTime, '2026-07-15T10:00:00+01:00');
    const read = await service.api(`${events}/${winter.json.id}`);
    assert.equal(read.json.end.dateTime, '2026-01-15T11:00:00Z');
  });

  test('a UTC event reads Z, also when asked for timeZone=Europe/Lisbon in winter', async () => {
    const events = `calendars/${encodeURIComponent(BEN_PRIVATE)}/events`;
    const created = await service.api(events, {
      method: 'POST',
      body: { start: { dateTime: '2026-02-01T09:00:00Z' }, end: { dateTime: '2026-02-01T09:30:00Z' } },
    });
    const read = await service.api(`${events}/${created.json.id}?timeZone=${encodeURIComponent('Europe/Lisbon')}`);
    assert.equal(read.json.start.dateTime, '2026-02-01T09:00:00Z');
  });
});
