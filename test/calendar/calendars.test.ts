// calendars.get: the Calendar resource, the `primary` alias, the single-owner 404, conditional reads.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AIKO, BEN, BEN_PRIVATE, HIDDEN, NOT_FOUND, TEAM, api, tokenFor } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

describe('calendars.get', () => {
  const service = useSignedIn({ scope: 'calendar.calendars.readonly' });

  it('renders the primary calendar, reached through `primary` or its id', async () => {
    const res = await service.api('calendars/primary');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {
      kind: 'calendar#calendar',
      etag: res.json.etag,
      id: AIKO,
      summary: 'Aiko Tanaka',
      timeZone: 'Asia/Tokyo',
      conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
    });
    assert.match(res.json.etag, /^"\d{16}"$/);
    assert.equal(res.headers.get('etag'), res.json.etag);
    assert.deepEqual((await service.api(`calendars/${encodeURIComponent(AIKO)}`)).json, res.json);
  });

  it('renders a secondary calendar with description, location, its own zone and dataOwner', async () => {
    const team = await service.api(`calendars/${encodeURIComponent(TEAM)}`);
    assert.deepEqual(team.json, {
      kind: 'calendar#calendar',
      etag: team.json.etag,
      id: TEAM,
      summary: 'Team',
      description: 'Team calendar',
      location: 'Tokyo',
      timeZone: 'Asia/Tokyo',
      conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
      dataOwner: AIKO,
    });
    const hidden = await service.api(`calendars/${HIDDEN}`);
    assert.equal(hidden.json.timeZone, 'UTC');
  });

  it('another user\'s calendar, even their primary, is 404 notFound like an unknown one', async () => {
    for (const id of [BEN, BEN_PRIVATE, 'nobody@example.com']) {
      const res = await service.api(`calendars/${encodeURIComponent(id)}`);
      assert.equal(res.status, 404, id);
      assert.deepEqual(res.json, NOT_FOUND);
    }
    const bens = await tokenFor(service.url, 'calendar', 'user-ben');
    assert.equal((await api(service.url, bens, `calendars/${encodeURIComponent(TEAM)}`)).status, 404);
    assert.equal((await api(service.url, bens, 'calendars/primary')).json.id, BEN);
  });

  it('If-None-Match with the current etag is 304', async () => {
    const res = await service.api('calendars/primary');
    const same = await service.api('calendars/primary', { headers: { 'if-none-match': res.json.etag } });
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    const other = await service.api('calendars/primary', { headers: { 'if-none-match': '"0000000000000000"' } });
    assert.equal(other.status, 200);
  });

  it('a calendar removed from the list still exists', async () => {
    const full = await tokenFor(service.url, 'calendar');
    assert.equal((await api(service.url, full, `users/me/calendarList/${TEAM}`, { method: 'DELETE' })).status, 204);
    const res = await service.api(`calendars/${TEAM}`);
    assert.equal(res.status, 200);
    assert.equal(res.json.id, TEAM);
  });
});
