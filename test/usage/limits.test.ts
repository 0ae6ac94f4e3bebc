// Usage limits as Google enforces them, and GET /__svc/usage (docs/usage-limits.md), over raw HTTP.
// Google: 10,000 requests a minute per project and 600 per user per project, over a sliding
// window; over either, "a 403 usageLimits status code or a 429 usageLimits status code"
// (https://developers.google.com/workspace/calendar/api/guides/quota). The service answers the
// per-user limit 403 userRateLimitExceeded and the per-project one 429 rateLimitExceeded, with
// the messages Google's quota service gives (src/usage/usage.ts).
//
// The window slides by whole seconds of the service clock, which these tests set and move
// (POST /__svc/clock). A test that counts on its requests falling in one second sets the clock
// to the start of a second first: the few requests that follow take milliseconds, far under it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api } from '../_helpers/calendar.ts';
import { callTool, startMcp } from '../_helpers/mcp.ts';
import { advanceClock, obtainToken } from '../_helpers/oauth.ts';
import { call, postJson, startService } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const CLIENT = 'local-calendar-client';
const LIST = 'users/me/calendarList';
const SECOND = '2030-01-07T09:00:00.000Z';

/** A token issued on the service clock at SECOND, so that it lives for the test's clock moves. */
async function token(url: string, user = 'user-aiko'): Promise<string> {
  await setClock(url, SECOND);
  return (await obtainToken(url, { user, scope: 'calendar' })).access_token;
}

async function usage(url: string): Promise<any> {
  const answer = await call(`${url}/__svc/usage`);
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

async function setClock(url: string, now: string): Promise<void> {
  assert.equal((await postJson(`${url}/__svc/clock`, { now })).status, 200);
}

/** A service with limits on, Aiko's and Ben's tokens, and the clock at the start of SECOND. */
async function limited(t: { after(fn: () => unknown): void }, quotaUserPerMinute: number, quotaProjectPerMinute: number) {
  const url = await startService(t, { quotas: true, quotaUserPerMinute, quotaProjectPerMinute });
  const aiko = await token(url);
  const ben = await token(url, 'user-ben');
  await setClock(url, SECOND);
  return { url, aiko, ben };
}

function assertUserLimit(answer: Answer): void {
  assert.equal(answer.status, 403, answer.text);
  const message = `Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'calendar-json.googleapis.com' for consumer 'project_number:${CLIENT}'.`;
  assert.deepEqual(answer.json, {
    error: { code: 403, message, errors: [{ domain: 'usageLimits', reason: 'userRateLimitExceeded', message }], status: 'PERMISSION_DENIED' },
  });
}

function assertProjectLimit(answer: Answer): void {
  assert.equal(answer.status, 429, answer.text);
  const message = `Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'calendar-json.googleapis.com' for consumer 'project_number:${CLIENT}'.`;
  assert.deepEqual(answer.json, {
    error: { code: 429, message, errors: [{ domain: 'usageLimits', reason: 'rateLimitExceeded', message }], status: 'RESOURCE_EXHAUSTED' },
  });
}

describe('usage limits (--quotas)', () => {
  it('the request after the per-user limit is 403 userRateLimitExceeded until the minute has room; another user goes on', async (t) => {
    const { url, aiko, ben } = await limited(t, 3, 100);
    for (let i = 0; i < 3; i++) assert.equal((await api(url, aiko, LIST)).status, 200);
    assertUserLimit(await api(url, aiko, LIST));
    // A refused write changes nothing.
    const insert = await api(url, aiko, 'calendars/primary/events', { method: 'POST', body: { summary: 'Refused', start: { date: '2030-01-08' }, end: { date: '2030-01-09' } } });
    assertUserLimit(insert);
    assert.equal((await api(url, ben, LIST)).status, 200);
    // Half a minute on, the three still fill the window; a minute after them, it has room.
    await advanceClock(url, 30);
    assertUserLimit(await api(url, aiko, LIST));
    await advanceClock(url, 30);
    assert.equal((await api(url, aiko, LIST)).status, 200);
    const events = await api(url, aiko, 'calendars/primary/events?q=Refused');
    assert.deepEqual(events.json.items, []);
  });

  it('the window slides: requests leave it one minute after their own second', async (t) => {
    const { url, aiko } = await limited(t, 3, 100);
    assert.equal((await api(url, aiko, LIST)).status, 200);
    assert.equal((await api(url, aiko, LIST)).status, 200);
    await advanceClock(url, 30);
    assert.equal((await api(url, aiko, LIST)).status, 200);
    assertUserLimit(await api(url, aiko, LIST));
    // 60 s after the first two: they have left, the third has not.
    await advanceClock(url, 30);
    assert.equal((await api(url, aiko, LIST)).status, 200);
    assert.equal((await api(url, aiko, LIST)).status, 200);
    assertUserLimit(await api(url, aiko, LIST));
  });

  it('the request after the per-project limit is 429 rateLimitExceeded for every user of that client', async (t) => {
    const { url, aiko, ben } = await limited(t, 10, 4);
    for (let i = 0; i < 2; i++) assert.equal((await api(url, aiko, LIST)).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await api(url, ben, LIST)).status, 200);
    assertProjectLimit(await api(url, aiko, LIST));
    assertProjectLimit(await api(url, ben, 'freeBusy', { method: 'POST', body: { timeMin: '2030-01-07T00:00:00Z', timeMax: '2030-01-08T00:00:00Z', items: [] } }));
    await advanceClock(url, 60);
    assert.equal((await api(url, ben, LIST)).status, 200);
  });

  it('MCP tools/call counts once per call, and one over the limit is a tool error carrying Google\'s envelope', async (t) => {
    const w = await startMcp(t, { quotas: true, quotaUserPerMinute: 2, quotaProjectPerMinute: 100 });
    await setClock(w.url, SECOND);
    const aiko = await w.token();
    await setClock(w.url, SECOND);
    assert.equal((await callTool(w.url, aiko, 'list_calendars')).isError, undefined);
    assert.equal((await api(w.url, aiko, LIST)).status, 200);
    const refused = await callTool(w.url, aiko, 'list_events', { calendarId: 'primary' });
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error.code, 403);
    assert.equal(refused.structuredContent.error.errors[0].reason, 'userRateLimitExceeded');
    assert.match(refused.content[0]?.text ?? '', /^userRateLimitExceeded: Quota exceeded/);
    assert.deepEqual((await usage(w.url)).byMethod, { 'mcp.list_calendars': 1, 'calendar.calendarList.list': 1, 'mcp.list_events': 1 });
  });

  it('without --quotas nothing is refused', async (t) => {
    const url = await startService(t, { quotaUserPerMinute: 1, quotaProjectPerMinute: 1 });
    const aiko = await token(url);
    for (let i = 0; i < 5; i++) assert.equal((await api(url, aiko, LIST)).status, 200);
  });
});

describe('GET /__svc/usage', () => {
  it('reports requests by method, client and user, and the busiest minute, since the last reset or fixture load', async (t) => {
    const url = await startService(t, { quotas: true, quotaUserPerMinute: 3, quotaProjectPerMinute: 100 });
    const started = Date.parse((await usage(url)).since);
    assert.ok(Number.isFinite(started));
    const aiko = await token(url);
    const ben = await token(url, 'user-ben');
    await setClock(url, SECOND);
    for (let i = 0; i < 4; i++) await api(url, aiko, LIST);
    await api(url, ben, 'calendars/primary/events');
    // Unauthenticated requests name no client: they are not counted.
    assert.equal((await api(url, undefined, LIST)).status, 401);
    assert.deepEqual(await usage(url), {
      since: new Date(started).toISOString(),
      byMethod: { 'calendar.calendarList.list': 4, 'calendar.events.list': 1 },
      byClient: { [CLIENT]: 5 },
      byUser: { 'user-aiko': 4, 'user-ben': 1 },
      // The refused fourth request is counted as sent, not as let through.
      peakPerMinute: { project: 4, user: 3 },
    });
    await advanceClock(url, 120);
    await api(url, ben, LIST);
    assert.deepEqual((await usage(url)).peakPerMinute, { project: 4, user: 3 });

    await setClock(url, '2031-05-01T00:00:00Z');
    assert.equal((await postJson(`${url}/__svc/fixtures`, (await call(`${url}/__svc/fixtures`)).json)).status, 200);
    const loaded = await usage(url);
    assert.deepEqual({ ...loaded, since: undefined }, { since: undefined, byMethod: {}, byClient: {}, byUser: {}, peakPerMinute: { project: 0, user: 0 } });
    // The service clock at the load (it runs on from where it was set).
    const sinceLoad = Date.parse(loaded.since) - Date.parse('2031-05-01T00:00:00Z');
    assert.ok(sinceLoad >= 0 && sinceLoad < 60_000, loaded.since);
    // The windows start again too: Aiko, refused before the load, has room.
    const again = await token(url);
    await setClock(url, SECOND);
    for (let i = 0; i < 3; i++) assert.equal((await api(url, again, LIST)).status, 200);
    assert.equal((await call(`${url}/__svc/reset`, { method: 'POST' })).status, 204);
    const reset = await usage(url);
    assert.deepEqual({ ...reset, since: undefined }, { since: undefined, byMethod: {}, byClient: {}, byUser: {}, peakPerMinute: { project: 0, user: 0 } });
    // The clock is back to real time after a reset, and so is `since`.
    assert.ok(Math.abs(Date.parse(reset.since) - Date.now()) < 60_000, reset.since);
  });

  it('answers with the limits off too', async (t) => {
    const url = await startService(t);
    const aiko = await token(url);
    await api(url, aiko, LIST);
    const report = await usage(url);
    assert.deepEqual(report.byMethod, { 'calendar.calendarList.list': 1 });
    assert.deepEqual(report.peakPerMinute, { project: 1, user: 1 });
  });
});
