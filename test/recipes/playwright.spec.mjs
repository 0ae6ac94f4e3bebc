// npx playwright test: sign-in through the consent page in a real browser,
// one service for this file, a workspace per test.
import { expect, test } from '@playwright/test';
import { start } from 'local-calendar-emulator';

const CLIENT = { id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUri: 'http://127.0.0.1:3000/oauth2callback' };

let service;
let calendar;
test.beforeAll(async () => {
  service = await start({ port: 0 });
});
test.afterAll(() => service.close());
test.beforeEach(async () => {
  calendar = await service.workspace();
});
test.afterEach(() => calendar.delete());

// The app under test: its sign-in link, and its backend's code exchange.
function signInUrl(state) {
  const query = new URLSearchParams({
    client_id: CLIENT.id,
    redirect_uri: CLIENT.redirectUri,
    response_type: 'code',
    scope: 'https://www.googleapis.com/auth/calendar.readonly',
    state,
  });
  return `${calendar.url}/oauth/authorize?${query}`;
}
async function exchange(code) {
  const response = await fetch(`${calendar.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT.redirectUri,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
    }),
  });
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}`);
  return response.json();
}

// Clicks a consent button; resolves to the URL the browser is sent back to.
async function consent(page, user, decision) {
  await page.goto(signInUrl('s1'));
  await page.selectOption('select[name=user]', user);
  const [callback] = await Promise.all([
    page.waitForRequest((request) => request.url().startsWith(CLIENT.redirectUri)),
    page.click(`button[value=${decision}]`),
  ]);
  return new URL(callback.url());
}

test('a user signs in on the consent page', async ({ page }) => {
  const back = await consent(page, 'user-ben', 'approve');
  expect(back.searchParams.get('state')).toBe('s1');
  const token = await exchange(back.searchParams.get('code'));
  expect(token.scope).toBe('https://www.googleapis.com/auth/calendar.readonly');
  const [approval] = await calendar.requests({ operation: 'oauth.consent' });
  expect(approval.body.user).toBe('user-ben');
  expect((await calendar.connections())[0].userId).toBe('user-ben');
});

test('a denial comes back as access_denied', async ({ page }) => {
  const back = await consent(page, 'user-aiko', 'deny');
  expect(back.searchParams.get('error')).toBe('access_denied');
  expect(await calendar.connections()).toEqual([]);
});

test('a fault for the error path: the code exchange fails', async ({ page }) => {
  await calendar.faults.add({ match: { method: 'oauth.token' }, error: 'invalid_grant' });
  const back = await consent(page, 'user-aiko', 'approve');
  await expect(exchange(back.searchParams.get('code'))).rejects.toThrow('token endpoint answered 400');
  expect((await calendar.requests({ operation: 'oauth.token' }))[0].error).toBe('invalid_grant');
});
