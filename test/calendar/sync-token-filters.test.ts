// Which listings end with a nextSyncToken: Google gives none after orderBy=startTime
// (https://github.com/googleapis/google-api-ruby-client/issues/312), and the service gives none
// after a content filter that may not accompany a syncToken (a choice, see src/calendar/events/list.ts); timeMin/timeMax keep it, as captured in
// https://github.com/googleapis/google-api-python-client/issues/2262.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AIKO } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';

const EVENTS = `calendars/${encodeURIComponent(AIKO)}/events`;

describe('nextSyncToken only where Google gives one', () => {
  const service = useSignedIn();
  before(async () => {
    await service.api(EVENTS, {
      method: 'POST',
      body: {
        summary: 'Sync probe',
        start: { dateTime: '2027-01-01T10:00:00Z' },
        end: { dateTime: '2027-01-01T11:00:00Z' },
        extendedProperties: { private: { k: 'v' }, shared: { s: 't' } },
      },
    });
    await service.api(EVENTS, { method: 'POST', body: { start: { dateTime: '2027-01-02T10:00:00Z' }, end: { dateTime: '2027-01-02T11:00:00Z' } } });
  });

  const without = [
    'singleEvents=true&orderBy=startTime',
    'q=probe',
    'iCalUID=nothing%40example.com',
    'privateExtendedProperty=k%3Dv',
    'sharedExtendedProperty=s%3Dt',
    'updatedMin=2020-01-01T00:00:00Z',
  ];
  for (const query of without) {
    test(`a listing with ${query} ends with neither page nor sync token`, async () => {
      const answer = await service.api(`${EVENTS}?${query}`);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.nextPageToken, undefined);
      assert.equal(answer.json.nextSyncToken, undefined);
    });
  }

  const withToken = ['', 'singleEvents=true', 'orderBy=updated', 'timeMin=2026-01-01T00:00:00Z&timeMax=2028-01-01T00:00:00Z', 'showDeleted=true', 'timeZone=UTC'];
  for (const query of withToken) {
    test(`a listing with ${query || 'no parameters'} ends with a sync token`, async () => {
      const answer = await service.api(`${EVENTS}?${query}`);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(typeof answer.json.nextSyncToken, 'string');
    });
  }

  test('orderBy=startTime over several pages: page tokens, and no sync token on the last page', async () => {
    let page = await service.api(`${EVENTS}?singleEvents=true&orderBy=startTime&maxResults=1`);
    let pages = 1;
    while (page.json.nextPageToken !== undefined) {
      assert.equal(page.json.nextSyncToken, undefined);
      page = await service.api(`${EVENTS}?singleEvents=true&orderBy=startTime&maxResults=1&pageToken=${encodeURIComponent(page.json.nextPageToken)}`);
      pages++;
    }
    assert.ok(pages > 1);
    assert.equal(page.json.nextSyncToken, undefined);
  });
});
