// Fault rules on push.delivery (docs/faults.md) through the real delivery path, end to end: a
// service with its timers on a ManualScheduler, channels opened with events.watch, changes made
// with events.insert, a webhook receiver on port 0, and the delivery log read from
// GET /__svc/channels. drop spends the message without sending it; webhookStatus records a status
// without contacting the receiver, so 500/502/503/504 run the real retry and backoff; duplicate
// sends the message twice with one number.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { DEFAULT_DELIVERY_OPTIONS } from '../../src/push/delivery.ts';
import { api } from '../_helpers/calendar.ts';
import { ManualScheduler } from '../_helpers/manual-time.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';
import { attemptsSettled, startWebhook } from '../_helpers/webhook.ts';
import { addFault } from './fault-api.ts';

const AIKO = 'aiko.tanaka@example.com';
const TEAM = 'team-aiko@group.calendar.example.com';
const { retryBaseMs: FIRST_WAIT_MS } = DEFAULT_DELIVERY_OPTIONS;
const NEW_EVENT = { summary: 'Watched', start: { dateTime: '2026-10-20T10:00:00+09:00' }, end: { dateTime: '2026-10-20T11:00:00+09:00' } };

async function setup(t: { after(fn: () => unknown): void }) {
  const scheduler = new ManualScheduler();
  const service = await start({ port: 0, scheduler });
  t.after(() => service.close());
  const { url } = service;
  const hook = await startWebhook(t);
  const { access_token: token } = await obtainToken(url, { user: 'user-aiko', scope: 'calendar' });

  /** Opens a channel on a calendar's events to `hook.url + /id`; its sync message is number 1. */
  async function watch(id: string, calendarId = 'primary') {
    const answer = await api(url, token, `calendars/${encodeURIComponent(calendarId)}/events/watch`, { method: 'POST', body: { id, type: 'web_hook', address: `${hook.url}/${id}` } });
    assert.equal(answer.status, 200, answer.text);
  }
  /** A change in the calendar: one `exists` message to each channel watching it. */
  async function change(calendarId = 'primary') {
    assert.equal((await api(url, token, `calendars/${encodeURIComponent(calendarId)}/events`, { method: 'POST', body: NEW_EVENT })).status, 200);
  }
  /** The channel's delivery log as GET /__svc/channels shows it: [messageNumber, status, outcome, fault]. */
  async function log(id: string) {
    const channels: Array<{ id: string; deliveries: Array<{ messageNumber: number; status: number | null; outcome: string; fault?: string }> }> = (await call(`${url}/__svc/channels`)).json.channels;
    return (channels.find((c) => c.id === id)?.deliveries ?? []).map((d) => [d.messageNumber, d.status, d.outcome, d.fault ?? null]);
  }
  const numbers = (id: string) => hook.at(`/${id}`).map((h) => String(h.headers['x-goog-message-number']));
  const settled = () => attemptsSettled(scheduler);
  const retryWaiting = (waitMs: number) => scheduler.until(() => scheduler.waiting(waitMs) === 1, `a retry waiting ${waitMs} ms`);
  const fault = (rule: object) => addFault(url, rule);
  return { url, hook, scheduler, watch, change, log, numbers, settled, retryWaiting, fault };
}

describe('webhook faults', () => {
  it('drop: the message counts as sent (its number is spent, no retry) but never arrives', async (t) => {
    const { hook, watch, change, log, numbers, settled, fault, url } = await setup(t);
    const rule = await fault({ match: { method: 'push.delivery' }, error: 'drop' });
    await watch('ch-drop');
    await change();
    await hook.waitFor('/ch-drop', 1);
    await settled();
    assert.deepEqual(numbers('ch-drop'), ['2'], 'message 1 never arrived; message 2 did');
    assert.deepEqual(await log('ch-drop'), [
      [1, null, 'dropped', rule.id],
      [2, 200, 'delivered', null],
    ]);
    assert.deepEqual((await call(`${url}/__svc/faults`)).json.faults.map((r: { remaining: number; hits: number }) => [r.remaining, r.hits]), [[0, 1]]);
  });

  for (const status of [500, 502, 503, 504]) {
    it(`webhookStatus ${status}: recorded without contacting the receiver, then the real retry delivers`, async (t) => {
      const { hook, scheduler, watch, log, numbers, settled, retryWaiting, fault } = await setup(t);
      const rule = await fault({ match: { method: 'push.delivery' }, error: 'webhookStatus', status });
      await watch('ch-status');
      await retryWaiting(FIRST_WAIT_MS);
      assert.equal(hook.at('/ch-status').length, 0, 'nothing was sent');
      scheduler.advance(FIRST_WAIT_MS);
      await hook.waitFor('/ch-status', 1);
      await settled();
      assert.deepEqual(numbers('ch-status'), ['1']);
      assert.deepEqual(await log('ch-status'), [
        [1, status, 'retrying', rule.id],
        [1, 200, 'delivered', null],
      ]);
    });
  }

  it('webhookStatus on every attempt: the waits double and the message fails after the last attempt, nothing sent', async (t) => {
    const { hook, scheduler, watch, log, settled, retryWaiting, fault } = await setup(t);
    const rule = await fault({ match: { method: 'push.delivery' }, error: 'webhookStatus', status: 503, times: 0 });
    await watch('ch-down');
    for (let attempt = 1; attempt < DEFAULT_DELIVERY_OPTIONS.maxAttempts; attempt++) {
      const waitMs = FIRST_WAIT_MS * 2 ** (attempt - 1);
      await retryWaiting(waitMs);
      scheduler.advance(waitMs);
    }
    await settled();
    await scheduler.until(() => scheduler.waiting() === 0, 'no retry waiting');
    const attempts = await log('ch-down');
    assert.equal(attempts.length, DEFAULT_DELIVERY_OPTIONS.maxAttempts);
    assert.deepEqual(attempts.at(-1), [1, 503, 'failed', rule.id]);
    assert.ok(attempts.slice(0, -1).every((a) => a[2] === 'retrying' && a[3] === rule.id));
    assert.equal(hook.received.length, 0);
  });

  it('webhookStatus 404: a failed delivery, not retried; a 200 counts as delivered', async (t) => {
    const { hook, scheduler, watch, change, log, settled, fault } = await setup(t);
    const notFound = await fault({ match: { method: 'push.delivery' }, error: 'webhookStatus', status: 404 });
    const ok = await fault({ match: { method: 'push.delivery' }, error: 'webhookStatus', status: 200 });
    await watch('ch-404');
    await change();
    await change();
    await hook.waitFor('/ch-404', 1);
    await settled();
    assert.equal(scheduler.waiting(), 0);
    assert.deepEqual(await log('ch-404'), [
      [1, 404, 'failed', notFound.id],
      [2, 200, 'delivered', ok.id],
      [3, 200, 'delivered', null],
    ]);
  });

  it('duplicate: the message arrives twice with the same number', async (t) => {
    const { hook, watch, change, log, numbers, settled, fault } = await setup(t);
    const rule = await fault({ match: { method: 'push.delivery' }, error: 'duplicate' });
    await watch('ch-twice');
    await change();
    await hook.waitFor('/ch-twice', 3);
    await settled();
    assert.deepEqual(numbers('ch-twice'), ['1', '1', '2']);
    assert.deepEqual(await log('ch-twice'), [
      [1, 200, 'delivered', rule.id],
      [2, 200, 'delivered', null],
    ]);
  });

  it('narrowed by channelId, calendarId (primary resolved for the channel owner), userId and clientId', async (t) => {
    const { hook, watch, log, settled, fault } = await setup(t);
    await fault({ match: { method: 'push.delivery', channelId: 'ch-other' }, error: 'drop', times: 0 });
    await fault({ match: { method: 'push.delivery', userId: 'user-ben' }, error: 'drop', times: 0 });
    await fault({ match: { method: 'push.delivery', clientId: 'another-client' }, error: 'drop', times: 0 });
    await fault({ match: { method: 'push.delivery', calendarId: TEAM }, error: 'drop', times: 0 });
    await watch('ch-kept');
    await hook.waitFor('/ch-kept', 1);
    const byEmail = await fault({ match: { method: 'push.delivery', calendarId: AIKO, userId: 'user-aiko', clientId: 'local-calendar-client' }, error: 'drop' });
    const byAlias = await fault({ match: { method: 'push.delivery', calendarId: 'primary' }, error: 'drop' });
    await watch('ch-email');
    await watch('ch-alias', AIKO);
    await watch('ch-team', TEAM);
    await watch('ch-after');
    await hook.waitFor('/ch-after', 1);
    await settled();
    assert.deepEqual(await log('ch-kept'), [[1, 200, 'delivered', null]]);
    assert.deepEqual(await log('ch-email'), [[1, null, 'dropped', byEmail.id]]);
    assert.deepEqual(await log('ch-alias'), [[1, null, 'dropped', byAlias.id]]);
    assert.deepEqual((await log('ch-team'))[0]?.[2], 'dropped');
  });

  it('a delay-only rule delivers after the delay', async (t) => {
    const { hook, watch, log, settled, fault } = await setup(t);
    const rule = await fault({ match: { method: 'push.delivery' }, delayMs: 50 });
    const startedAt = performance.now();
    await watch('ch-slow');
    await hook.waitFor('/ch-slow', 1);
    assert.ok(performance.now() - startedAt >= 50 - 1);
    await settled();
    assert.deepEqual(await log('ch-slow'), [[1, 200, 'delivered', rule.id]]);
  });
});
