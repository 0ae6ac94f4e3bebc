// Webhooks cannot point at the service itself (src/push/address.ts): the
// watch is refused with 400 push.webhookUrlUnauthorized, and a channel that reaches the service
// anyway (stored before the rule, or a host name that resolves to it) is never contacted.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { App } from '../../src/app/app.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import { silentLogger } from '../../src/http/log.ts';
import { start } from '../../src/index.ts';
import { openChannel, parseWatchRequest } from '../../src/push/channels.ts';
import { startPush } from '../../src/push/service.ts';
import { openStore } from '../../src/store/open.ts';
import { api, reason } from '../_helpers/calendar.ts';
import { frozenClock, ManualScheduler } from '../_helpers/manual-time.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';
import { startWebhook } from '../_helpers/webhook.ts';
import { freePort } from '../_helpers/ports.ts';

const { lookup } = process.getBuiltinModule('node:dns/promises');
const { hostname } = process.getBuiltinModule('node:os');

function watch(url: string, access: string, id: string, address: string) {
  return api(url, access, 'calendars/primary/events/watch', { method: 'POST', body: { id, type: 'web_hook', address } });
}

describe('events.watch refuses an address that reaches the service', () => {
  it('a read-only token cannot aim the sync message at /__svc/reset, in any loopback spelling', async (t) => {
    const scheduler = new ManualScheduler();
    const service = await start({ port: 0, scheduler });
    t.after(() => service.close());
    const port = new URL(service.url).port;
    const { access_token: access } = await obtainToken(service.url, { scope: 'calendar.readonly' });
    const spellings = [
      `http://localhost:${port}/__svc/reset`,
      `http://localhost.:${port}/__svc/reset`,
      `http://127.0.0.1:${port}/__svc/reset`,
      `http://127.1:${port}/__svc/reset`,
      `http://2130706433:${port}/__svc/reset`,
      `http://0x7f.0.0.1:${port}/__svc/reset`,
      `http://[::1]:${port}/__svc/reset`,
      `http://[::ffff:127.0.0.1]:${port}/__svc/reset`,
      `http://0.0.0.0:${port}/__svc/reset`,
      `http://[::]:${port}/__svc/reset`,
      `${service.url}/__svc/reset`,
    ];
    for (const [n, address] of spellings.entries()) {
      const answer = await watch(service.url, access, `self-${n}`, address);
      assert.equal(answer.status, 400, address);
      assert.equal(answer.json.error.code, 400);
      assert.deepEqual({ ...reason(answer), message: undefined }, { domain: 'global', reason: 'push.webhookUrlUnauthorized', message: undefined }, address);
      assert.match(reason(answer).message ?? '', /^Unauthorized WebHook callback channel: .* reaches this calendar service itself/, address);
    }
    // Nothing was opened, nothing was reset: the token still works (no message is in flight, so
    // none is still on its way to /__svc/reset).
    await scheduler.until(() => scheduler.waiting() === 0, 'no message in flight');
    assert.deepEqual((await call(`${service.url}/__svc/channels`)).json.channels, []);
    assert.equal((await api(service.url, access, 'calendars/primary/events')).status, 200);
  });

  it('counts the default port of the scheme for the base URL host', async (t) => {
    const port = await freePort();
    const service = await start({ port, baseUrl: 'http://calendar.test' });
    t.after(() => service.close());
    const direct = `http://127.0.0.1:${port}`;
    const { access_token: access } = await obtainToken(direct, { scope: 'calendar.readonly' });
    for (const address of ['http://calendar.test/__svc/reset', 'http://calendar.test:80/__svc/reset', `http://calendar.test:${port}/__svc/reset`, `http://localhost:${port}/`]) {
      const answer = await watch(direct, access, 'base', address);
      assert.equal(answer.status, 400, address);
      assert.equal(reason(answer).reason, 'push.webhookUrlUnauthorized');
    }
  });

  it('allows a receiver on loopback with another port', async (t) => {
    const service = await start({ port: 0 });
    t.after(() => service.close());
    const hook = await startWebhook(t);
    const { access_token: access } = await obtainToken(service.url, { scope: 'calendar.readonly' });
    for (const [n, host] of ['127.0.0.1', 'localhost', '127.1'].entries()) {
      const address = `http://${host}:${new URL(hook.url).port}/hook-${n}`;
      assert.equal((await watch(service.url, access, `ok-${n}`, address)).status, 200, address);
    }
    await hook.waitFor('/hook-0', 1);
  });
});

describe('delivery never contacts the service itself', () => {
  const FIXTURE = parseFixture({ users: [{ id: 'u1', name: 'User One', email: 'one@example.com' }] });

  /** An App whose own port is the receiver's: the receiver stands in for the service. */
  async function setup(t: { after(fn: () => unknown): void }) {
    const store = await openStore(':memory:');
    const app = new App({ store, clock: frozenClock(), log: silentLogger, startupFixture: () => FIXTURE, host: '127.0.0.1' });
    app.loadFixture(FIXTURE);
    store.putConnection({ id: 'conn-1', clientId: 'client', userId: 'u1', scopes: [], offline: false, createdAt: app.clock.now() });
    const scheduler = new ManualScheduler();
    const notifier = startPush(app, scheduler);
    t.after(() => app.shutdown());
    const hook = await startWebhook(t);
    const hookPort = Number(new URL(hook.url).port);
    app.baseUrl = 'http://127.0.0.1:1';
    const open = (id: string, address: string) => {
      const channel = openChannel({
        store,
        now: app.clock.now(),
        connectionId: 'conn-1',
        resource: { kind: 'events', calendarId: 'cal-1' },
        resourceUri: `${app.baseUrl}/calendar/v3/calendars/cal-1/events`,
        request: parseWatchRequest({ id, type: 'web_hook', address }),
      });
      notifier.notify(channel.id, 'sync');
    };
    /** Every attempt started was answered and logged, and none waits for a retry. */
    const settled = () => scheduler.until(() => scheduler.waiting() === 0, 'every attempt answered');
    return { app, notifier, hook, hookPort, open, settled };
  }

  it('a stored channel whose address names the service is logged as failed, never sent, never retried', async (t) => {
    const { app, notifier, hook, hookPort, open, settled } = await setup(t);
    app.port = hookPort;
    open('stored-self', `http://127.0.0.1:${hookPort}/self`);
    await settled();
    assert.equal(hook.at('/self').length, 0);
    // Control: with another service port the same address reaches the receiver.
    app.port = 1;
    open('control', `http://127.0.0.1:${hookPort}/control`);
    await hook.waitFor('/control', 1);
    assert.deepEqual(notifier.deliveries('stored-self').map((a) => [a.attempt, a.outcome, a.status, a.error]), [[1, 'failed', null, 'the address reaches this service itself; nothing was sent']]);
  });

  it('a host name that resolves to a loopback address is refused when the message is sent', async (t) => {
    const name = hostname();
    const resolved = await lookup(name, { all: true }).catch(() => []);
    if (!resolved.some((entry) => entry.address.startsWith('127.') || entry.address === '::1')) {
      t.skip(`this machine's host name ${name} does not resolve to a loopback address`);
      return;
    }
    const { app, notifier, hook, hookPort, open, settled } = await setup(t);
    // Control: with another service port the same name reaches the receiver.
    app.port = 1;
    open('by-name-control', `http://${name}:${hookPort}/control`);
    await hook.waitFor('/control', 1);
    app.port = hookPort;
    open('by-name', `http://${name}:${hookPort}/self`);
    await settled();
    assert.equal(hook.at('/self').length, 0);
    assert.deepEqual(notifier.deliveries('by-name').map((a) => [a.attempt, a.outcome, a.error]), [[1, 'failed', 'the address reaches this service itself; nothing was sent']]);
  });
});
