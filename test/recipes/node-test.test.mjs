// node --test: one service for this file, a workspace per test.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import { start } from 'local-calendar-emulator';

// The app under test: the summaries of the user's events from a day on.
async function agenda(baseUrl, accessToken, day) {
  const query = new URLSearchParams({ singleEvents: 'true', orderBy: 'startTime', timeMin: `${day}T00:00:00Z` });
  const response = await fetch(`${baseUrl}/calendar/v3/calendars/primary/events?${query}`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (!response.ok) throw new Error(`Calendar answered ${response.status}`);
  return (await response.json()).items.map((event) => event.summary);
}

let service;
let calendar;
before(async () => {
  service = await start({ port: 0 });
});
after(() => service.close());
beforeEach(async () => {
  calendar = await service.workspace();
});
afterEach(() => calendar.delete());

test('lists the day and sends one list call', async () => {
  const { access_token } = await calendar.token({ scopes: ['calendar.readonly'] });
  assert.ok((await agenda(calendar.url, access_token, '2026-10-19')).includes('Design review'));
  const sent = await calendar.requests({ operation: 'calendar.events.list' });
  assert.equal(sent.length, 1);
  assert.equal(sent[0].query.singleEvents, 'true');
});

test('a checkpoint per scenario', async () => {
  const { access_token } = await calendar.token();
  await calendar.checkpoint('fixture');
  const scenarios = [
    { change: 'designrev1019', expected: false },
    { change: null, expected: true },
  ];
  for (const { change, expected } of scenarios) {
    await calendar.restore('fixture');
    if (change) {
      await fetch(`${calendar.url}/calendar/v3/calendars/primary/events/${change}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${access_token}` },
      });
    }
    assert.equal((await agenda(calendar.url, access_token, '2026-10-19')).includes('Design review'), expected);
  }
});

test('a fault for the error path', async () => {
  const { access_token } = await calendar.token();
  await calendar.faults.add({ match: { method: 'calendar.events.list' }, error: 'rateLimitExceeded' });
  await assert.rejects(agenda(calendar.url, access_token, '2026-10-19'), /Calendar answered 403/);
  assert.equal((await calendar.requests({ status: 403 }))[0].error, 'rateLimitExceeded');
});
