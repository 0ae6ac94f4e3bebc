// The notifier on its own (src/push/delivery.ts, service.ts): an App on a memory store with a
// frozen service clock, channels opened directly, a webhook receiver on port 0. Retry waits and
// attempt timeouts run on a ManualScheduler: the tests step through the real schedule (500 ms,
// doubling; 5 s per attempt) instead of waiting for it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { App } from '../../src/app/app.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import { silentLogger } from '../../src/http/log.ts';
import { openChannel, parseWatchRequest } from '../../src/push/channels.ts';
import { DEFAULT_DELIVERY_OPTIONS } from '../../src/push/delivery.ts';
import type { DeliveryOptions } from '../../src/push/delivery.ts';
import { listChannelsForManagement, startPush } from '../../src/push/service.ts';
import { openStore } from '../../src/store/open.ts';
import type { ChannelResource } from '../../src/store/store.ts';
import { frozenClock, ManualScheduler } from '../_helpers/manual-time.ts';
import { attemptsSettled, startWebhook } from '../_helpers/webhook.ts';
import type { WebhookReceiver } from '../_helpers/webhook.ts';
import { freePort } from '../_helpers/ports.ts';

const FIXTURE = parseFixture({ users: [{ id: 'u1', name: 'User One', email: 'one@example.com' }] });
const EVENTS: ChannelResource = { kind: 'events', calendarId: 'cal-1' };
const { timeoutMs: TIMEOUT_MS, retryBaseMs: FIRST_WAIT_MS } = DEFAULT_DELIVERY_OPTIONS;

async function setup(t: { after(fn: () => unknown): void }, options: Partial<DeliveryOptions> = {}) {
  const store = await openStore(':memory:');
  const app = new App({ store, clock: frozenClock(), log: silentLogger, startupFixture: () => FIXTURE, host: '127.0.0.1' });
  app.loadFixture(FIXTURE);
  app.baseUrl = 'http://127.0.0.1:1';
  store.putConnection({ id: 'conn-1', clientId: 'client', userId: 'u1', scopes: [], offline: false, createdAt: app.clock.now() });
  const scheduler = new ManualScheduler();
  const notifier = startPush(app, scheduler, options);
  const hook = await startWebhook(t);
  t.after(() => app.shutdown());

  /** Opens a channel to `hook.url + path` and queues its sync message, as the watch handler does. */
  function open(id: string, body: Record<string, unknown> = {}, resource: ChannelResource = EVENTS) {
    const channel = openChannel({
      store,
      now: app.clock.now(),
      connectionId: 'conn-1',
      resource,
      resourceUri: `${app.baseUrl}/calendar/v3/calendars/cal-1/events`,
      request: parseWatchRequest({ id, type: 'web_hook', address: `${hook.url}/${id}`, ...body }),
    });
    notifier.notify(channel.id, 'sync');
    return channel;
  }
  const log = (id: string) => notifier.deliveries(id).map((a) => [a.messageNumber, a.state, a.status, a.outcome]);
  /** Every attempt started has its answer (or error) logged, and no attempt is in flight. */
  const settled = () => attemptsSettled(scheduler, options.timeoutMs);
  /** The answer of the last attempt was logged and its retry waits `waitMs` on the scheduler. */
  const retryWaiting = (waitMs: number) => scheduler.until(() => scheduler.waiting(waitMs) === 1, `a retry waiting ${waitMs} ms`);
  return { app, store, notifier, scheduler, hook, open, log, settled, retryWaiting };
}

function numbers(hook: WebhookReceiver, path: string): string[] {
  return hook.at(path).map((h) => String(h.headers['x-goog-message-number']));
}

describe('notification messages', () => {
  it('are POSTs with an empty body and the X-Goog-* headers; sync is number 1', async (t) => {
    const { hook, open } = await setup(t);
    const channel = open('ch-a', { token: 'target=abc' });
    const [sync] = await hook.waitFor('/ch-a', 1);
    assert.ok(sync);
    assert.equal(sync.method, 'POST');
    assert.equal(sync.body, '');
    assert.equal(sync.headers['content-length'], '0');
    assert.equal(sync.headers['user-agent'], 'APIs-Google');
    assert.equal(sync.headers['x-goog-channel-id'], 'ch-a');
    assert.equal(sync.headers['x-goog-message-number'], '1');
    assert.equal(sync.headers['x-goog-resource-state'], 'sync');
    assert.equal(sync.headers['x-goog-resource-id'], channel.resourceId);
    assert.equal(sync.headers['x-goog-resource-uri'], 'http://127.0.0.1:1/calendar/v3/calendars/cal-1/events');
    assert.equal(sync.headers['x-goog-channel-token'], 'target=abc');
    // RFC 1123 form, e.g. "Tue, 19 Nov 2013 01:13:52 GMT" (https://developers.google.com/workspace/calendar/api/guides/push)
    assert.match(String(sync.headers['x-goog-channel-expiration']), /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    assert.equal(Date.parse(String(sync.headers['x-goog-channel-expiration'])), Math.floor(channel.expiration / 1000) * 1000);
  });

  it('carry no X-Goog-Channel-Token when the channel has no token', async (t) => {
    const { hook, open } = await setup(t);
    open('ch-b');
    const [sync] = await hook.waitFor('/ch-b', 1);
    assert.equal(sync?.headers['x-goog-channel-token'], undefined);
  });

  it('exists follows each change of the watched collection, numbered in order; other collections do not notify', async (t) => {
    const { app, hook, open, store } = await setup(t);
    open('ch-c');
    for (let i = 0; i < 6; i++) app.collectionChanged(EVENTS);
    app.collectionChanged({ kind: 'events', calendarId: 'another' });
    app.collectionChanged({ kind: 'calendarList', userId: 'u1' });
    const hooks = await hook.waitFor('/ch-c', 7);
    assert.deepEqual(numbers(hook, '/ch-c'), ['1', '2', '3', '4', '5', '6', '7']);
    assert.deepEqual(hooks.map((h) => h.headers['x-goog-resource-state']), ['sync', 'exists', 'exists', 'exists', 'exists', 'exists', 'exists']);
    // the next number is persisted as each message is assigned
    assert.equal(store.getChannel('ch-c')?.nextMessageNumber, 8);
  });

  it('a calendarList channel hears of calendarList changes of its user only', async (t) => {
    const { app, hook, open, settled } = await setup(t);
    open('ch-list', {}, { kind: 'calendarList', userId: 'u1' });
    await hook.waitFor('/ch-list', 1);
    app.collectionChanged(EVENTS);
    app.collectionChanged({ kind: 'calendarList', userId: 'someone-else' });
    app.collectionChanged({ kind: 'calendarList', userId: 'u1' });
    await hook.waitFor('/ch-list', 2);
    await settled();
    assert.deepEqual(numbers(hook, '/ch-list'), ['1', '2']);
  });

  it('one request in flight per channel: a later message waits for the earlier one', async (t) => {
    const { app, hook, open, log, scheduler, settled, retryWaiting } = await setup(t);
    hook.hangNext(1);
    open('ch-order');
    app.collectionChanged(EVENTS);
    await hook.waitFor('/ch-order', 1);
    // message 2 waits while the sync message hangs, times out, and waits for its retry
    assert.equal(scheduler.waiting(TIMEOUT_MS), 1);
    scheduler.advance(TIMEOUT_MS);
    await retryWaiting(FIRST_WAIT_MS);
    assert.deepEqual(numbers(hook, '/ch-order'), ['1']);
    scheduler.advance(FIRST_WAIT_MS);
    await hook.waitFor('/ch-order', 3);
    await settled();
    // the sync message timed out and was retried before message 2 went out
    assert.deepEqual(numbers(hook, '/ch-order'), ['1', '1', '2']);
    assert.deepEqual(log('ch-order'), [
      [1, 'sync', null, 'retrying'],
      [1, 'sync', 200, 'delivered'],
      [2, 'exists', 200, 'delivered'],
    ]);
  });
});

describe('retries', () => {
  for (const status of [500, 502, 503, 504]) {
    it(`retries after ${status}, then delivers once`, async (t) => {
      const { hook, open, log, scheduler, settled, retryWaiting } = await setup(t);
      hook.failNext(1, status);
      open(`ch-${status}`);
      await retryWaiting(FIRST_WAIT_MS);
      assert.deepEqual(numbers(hook, `/ch-${status}`), ['1']);
      scheduler.advance(FIRST_WAIT_MS);
      await hook.waitFor(`/ch-${status}`, 2);
      await settled();
      assert.deepEqual(numbers(hook, `/ch-${status}`), ['1', '1']);
      assert.deepEqual(log(`ch-${status}`), [
        [1, 'sync', status, 'retrying'],
        [1, 'sync', 200, 'delivered'],
      ]);
    });
  }

  for (const status of [400, 404, 302, 203]) {
    it(`does not retry ${status}: a failed delivery, and the next message still goes`, async (t) => {
      const { app, hook, open, log, scheduler, settled } = await setup(t);
      hook.failNext(1, status);
      open(`ch-${status}`);
      app.collectionChanged(EVENTS);
      await hook.waitFor(`/ch-${status}`, 2);
      await settled();
      assert.equal(scheduler.waiting(), 0, 'no retry waits');
      assert.deepEqual(numbers(hook, `/ch-${status}`), ['1', '2']);
      assert.deepEqual(log(`ch-${status}`), [
        [1, 'sync', status, 'failed'],
        [2, 'exists', 200, 'delivered'],
      ]);
    });
  }

  it('gives up after maxAttempts, with the waits doubling', async (t) => {
    const { app, hook, open, log, notifier, scheduler, settled, retryWaiting } = await setup(t, { maxAttempts: 3 });
    hook.failNext(100, 503);
    open('ch-bounded');
    const stamps = [app.clock.now()];
    for (const waitMs of [FIRST_WAIT_MS, 2 * FIRST_WAIT_MS]) {
      await retryWaiting(waitMs);
      const sent = hook.at('/ch-bounded').length;
      scheduler.advance(waitMs - 1);
      await settled();
      assert.equal(hook.at('/ch-bounded').length, sent, `no retry before ${waitMs} ms`);
      app.clock.advance(1);
      stamps.push(app.clock.now());
      scheduler.advance(1);
      await hook.waitFor('/ch-bounded', sent + 1);
    }
    await settled();
    assert.deepEqual(log('ch-bounded').map((e) => e[3]), ['retrying', 'retrying', 'failed']);
    assert.equal(scheduler.waiting(), 0, 'no retry after the last attempt');
    assert.equal(hook.at('/ch-bounded').length, 3);
    const attempts = notifier.deliveries('ch-bounded').map((a) => a.attempt);
    assert.deepEqual(attempts, [1, 2, 3]);
    // the service clock stamps each attempt
    assert.deepEqual(notifier.deliveries('ch-bounded').map((a) => a.at), stamps.map((ms) => new Date(ms).toISOString()));
  });

  it('retries a connection error and logs it with status null', async (t) => {
    const closedPort = await freePort();
    const { notifier, app, store, scheduler, settled, retryWaiting } = await setup(t, { maxAttempts: 2 });
    const channel = openChannel({
      store,
      now: app.clock.now(),
      connectionId: 'conn-1',
      resource: EVENTS,
      resourceUri: 'http://127.0.0.1:1/x',
      request: parseWatchRequest({ id: 'ch-refused', type: 'webhook', address: `http://127.0.0.1:${closedPort}/hook` }),
    });
    notifier.notify(channel.id, 'sync');
    await retryWaiting(FIRST_WAIT_MS);
    scheduler.advance(FIRST_WAIT_MS);
    await settled();
    const attempts = notifier.deliveries('ch-refused');
    assert.deepEqual(attempts.map((a) => [a.status, a.outcome]), [
      [null, 'retrying'],
      [null, 'failed'],
    ]);
    assert.ok(attempts[0]?.error);
  });

  it('an attempt without an answer within timeoutMs counts as a connection error and is retried', async (t) => {
    const { hook, open, notifier, scheduler, settled, retryWaiting } = await setup(t);
    hook.hangNext(1);
    open('ch-timeout');
    await hook.waitFor('/ch-timeout', 1);
    scheduler.advance(TIMEOUT_MS - 1);
    assert.deepEqual(notifier.deliveries('ch-timeout'), [], 'still waiting for the answer');
    scheduler.advance(1);
    await retryWaiting(FIRST_WAIT_MS);
    scheduler.advance(FIRST_WAIT_MS);
    await hook.waitFor('/ch-timeout', 2);
    await settled();
    const [first, second] = notifier.deliveries('ch-timeout');
    assert.equal(first?.status, null);
    assert.match(String(first?.error), /no response within 5000 ms/);
    assert.equal(second?.outcome, 'delivered');
  });

  it('keeps a bounded delivery log per channel', async (t) => {
    const { app, hook, open, notifier, settled } = await setup(t, { logLimit: 3 });
    open('ch-log');
    for (let i = 0; i < 4; i++) app.collectionChanged(EVENTS);
    await hook.waitFor('/ch-log', 5);
    await settled();
    assert.deepEqual(notifier.deliveries('ch-log').map((a) => a.messageNumber), [3, 4, 5]);
  });
});

describe('channels that stop delivering', () => {
  it('an expired channel gets no new message, and a pending retry stops at expiry', async (t) => {
    const { app, hook, open, store, notifier, scheduler, settled, retryWaiting } = await setup(t);
    hook.failNext(1, 503);
    const channel = open('ch-exp', { params: { ttl: '60' } });
    await retryWaiting(FIRST_WAIT_MS);
    // expires during the backoff wait: the retry is not sent
    app.clock.advance(60);
    scheduler.advance(FIRST_WAIT_MS);
    await settled();
    assert.equal(hook.at('/ch-exp').length, 1);
    app.collectionChanged(EVENTS);
    notifier.notify(channel.id, 'exists');
    await settled();
    assert.equal(hook.at('/ch-exp').length, 1);
    assert.equal(scheduler.waiting(), 0);
    // no message number was spent on the expired channel
    assert.equal(store.getChannel('ch-exp')?.nextMessageNumber, 2);
  });

  it('forgetChannel, a revoked connection, a workspace replacement and shutdown each cancel pending retries', async (t) => {
    const cases: Array<[string, (ctx: Awaited<ReturnType<typeof setup>>) => void]> = [
      ['stop', (ctx) => {
        ctx.store.deleteChannel('ch-x');
        ctx.notifier.forgetChannel('ch-x');
      }],
      ['revoke', (ctx) => assert.ok(ctx.app.revokeConnection('conn-1'))],
      ['delete user', (ctx) => assert.ok(ctx.app.deleteUser('u1'))],
      ['reset', (ctx) => ctx.app.reset()],
      ['shutdown', (ctx) => ctx.app.shutdown()],
    ];
    for (const [name, stop] of cases) {
      await t.test(name, async (st) => {
        const ctx = await setup(st);
        ctx.hook.failNext(1, 500);
        ctx.open('ch-x');
        await ctx.retryWaiting(FIRST_WAIT_MS);
        stop(ctx);
        assert.equal(ctx.scheduler.waiting(), 0, `${name}: the retry wait is cancelled`);
        ctx.scheduler.advance(60_000);
        await ctx.settled();
        assert.equal(ctx.hook.at('/ch-x').length, 1, `${name}: no retry after the channel went`);
        assert.equal(ctx.notifier.deliveries('ch-x').length, 0);
      });
    }
  });

  it('a channel deleted from the store without notice delivers nothing more', async (t) => {
    const { app, hook, open, store, scheduler, settled, retryWaiting } = await setup(t);
    hook.failNext(1, 500);
    open('ch-gone');
    await retryWaiting(FIRST_WAIT_MS);
    store.deleteChannel('ch-gone');
    app.collectionChanged(EVENTS);
    scheduler.advance(FIRST_WAIT_MS);
    await settled();
    assert.equal(hook.at('/ch-gone').length, 1);
  });
});

describe('listChannelsForManagement', () => {
  it('lists every stored channel with its delivery attempts', async (t) => {
    const { app, hook, open, notifier, scheduler, settled, retryWaiting } = await setup(t);
    hook.failNext(1, 502);
    const channel = open('ch-m', { token: 'secret-token' });
    await retryWaiting(FIRST_WAIT_MS);
    scheduler.advance(FIRST_WAIT_MS);
    await hook.waitFor('/ch-m', 2);
    await settled();
    const listed = listChannelsForManagement(app, notifier);
    assert.equal(listed.channels.length, 1);
    const [entry] = listed.channels;
    assert.deepEqual({ ...entry, deliveries: undefined }, {
      id: 'ch-m',
      resourceId: channel.resourceId,
      resourceUri: channel.resourceUri,
      address: `${hook.url}/ch-m`,
      expiration: new Date(channel.expiration).toISOString(),
      connectionId: 'conn-1',
      deliveries: undefined,
    });
    assert.deepEqual(entry?.deliveries.map((d) => [d.messageNumber, d.state, d.status]), [
      [1, 'sync', 502],
      [1, 'sync', 200],
    ]);
    assert.ok(entry?.deliveries.every((d) => typeof d.at === 'string' && !Number.isNaN(Date.parse(d.at))));
  });
});

describe('bounded queues and logs', () => {
  it('a message beyond the channel\'s pending limit is logged as dropped, never silently lost; the rest go in order', async (t) => {
    const { app, hook, open, log, store, settled } = await setup(t, { pendingLimit: 2 });
    // All queued in one turn, before the first send starts: sync (1) and 2 fit, 3 to 5 do not.
    open('ch-full');
    for (let n = 0; n < 4; n++) app.collectionChanged(EVENTS);
    await hook.waitFor('/ch-full', 2);
    await settled();
    assert.deepEqual(log('ch-full'), [
      [3, 'exists', null, 'dropped'],
      [4, 'exists', null, 'dropped'],
      [5, 'exists', null, 'dropped'],
      [1, 'sync', 200, 'delivered'],
      [2, 'exists', 200, 'delivered'],
    ]);
    assert.deepEqual(numbers(hook, '/ch-full'), ['1', '2']);
    assert.equal(store.getChannel('ch-full')?.nextMessageNumber, 6);
  });

  it('at most maxInFlight requests at once across channels; the others wait their turn', async (t) => {
    const { hook, open, log, scheduler, settled, retryWaiting } = await setup(t, { maxInFlight: 1 });
    hook.hangNext(1);
    open('ch-first');
    open('ch-second');
    await hook.waitFor('/ch-first', 1);
    await scheduler.until(() => scheduler.waiting(TIMEOUT_MS) === 1, 'the hung attempt');
    // ch-first's hung attempt holds the only slot until its timeout
    assert.equal(hook.at('/ch-second').length, 0);
    scheduler.advance(TIMEOUT_MS);
    await hook.waitFor('/ch-second', 1);
    // ch-second went out only after that attempt was over and logged.
    assert.deepEqual(log('ch-first'), [[1, 'sync', null, 'retrying']]);
    await retryWaiting(FIRST_WAIT_MS);
    scheduler.advance(FIRST_WAIT_MS);
    await settled();
    assert.deepEqual(log('ch-first'), [
      [1, 'sync', null, 'retrying'],
      [1, 'sync', 200, 'delivered'],
    ]);
  });

  it('purges the log of an expired channel when listing, and keeps a live channel\'s', async (t) => {
    const { app, hook, open, notifier, log, settled } = await setup(t);
    open('ch-short', { params: { ttl: '60' } });
    open('ch-live');
    await hook.waitFor('/ch-short', 1);
    await hook.waitFor('/ch-live', 1);
    await settled();
    app.clock.advance(61);
    const listed = new Map(listChannelsForManagement(app, notifier).channels.map((c) => [c.id, c.deliveries.length]));
    assert.deepEqual(listed, new Map([['ch-short', 0], ['ch-live', 1]]));
    // Purged, not hidden: with the clock moved back the channel is live again, its old log gone.
    app.clock.advance(-61);
    assert.deepEqual(notifier.deliveries('ch-short'), []);
    assert.deepEqual(log('ch-live'), [[1, 'sync', 200, 'delivered']]);
  });

  it('purges, on the service clock, the logs of expired channels and of channels gone from the store', async (t) => {
    const { app, hook, open, notifier, log, store, settled } = await setup(t);
    open('ch-short', { params: { ttl: '60' } });
    open('ch-gone');
    open('ch-live', { params: { ttl: '3600' } });
    for (const id of ['ch-short', 'ch-gone', 'ch-live']) await hook.waitFor(`/${id}`, 1);
    await settled();
    assert.ok(['ch-short', 'ch-gone', 'ch-live'].every((id) => log(id).length === 1));
    // Stopped by another process on the same database: this one was not told.
    store.deleteChannel('ch-gone');
    app.clock.advance(61);
    // Any message, a minute of service clock after the last purge, purges first.
    app.collectionChanged(EVENTS);
    await hook.waitFor('/ch-live', 2);
    app.clock.advance(-61);
    assert.deepEqual(notifier.deliveries('ch-short'), []);
    assert.deepEqual(notifier.deliveries('ch-gone'), []);
    await settled();
    assert.deepEqual(log('ch-live'), [
      [1, 'sync', 200, 'delivered'],
      [2, 'exists', 200, 'delivered'],
    ]);
  });
});
