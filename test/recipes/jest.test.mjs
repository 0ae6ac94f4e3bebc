// jest (node --experimental-vm-modules): one service for this file, a workspace per test.
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
beforeAll(async () => {
  service = await start({ port: 0 });
});
afterAll(() => service.close());
beforeEach(async () => {
  calendar = await service.workspace();
});
afterEach(() => calendar.delete());

test('lists the day and sends one list call', async () => {
  const { access_token } = await calendar.token({ scopes: ['calendar.readonly'] });
  expect(await agenda(calendar.url, access_token, '2026-10-19')).toContain('Design review');
  const sent = await calendar.requests({ operation: 'calendar.events.list' });
  expect(sent).toHaveLength(1);
  expect(sent[0].query.singleEvents).toBe('true');
});

test.each([
  { change: 'designrev1019', expected: false },
  { change: null, expected: true },
])('a checkpoint per scenario: deleting $change', async ({ change, expected }) => {
  const { access_token } = await calendar.token();
  await calendar.checkpoint('fixture');
  if (change) {
    await fetch(`${calendar.url}/calendar/v3/calendars/primary/events/${change}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${access_token}` },
    });
  }
  expect((await agenda(calendar.url, access_token, '2026-10-19')).includes('Design review')).toBe(expected);
  await calendar.restore('fixture');
  expect(await agenda(calendar.url, access_token, '2026-10-19')).toContain('Design review');
});

test('a fault for the error path', async () => {
  const { access_token } = await calendar.token();
  await calendar.faults.add({ match: { method: 'calendar.events.list' }, error: 'rateLimitExceeded' });
  await expect(agenda(calendar.url, access_token, '2026-10-19')).rejects.toThrow('Calendar answered 403');
  expect((await calendar.requests({ status: 403 }))[0].error).toBe('rateLimitExceeded');
});
