// What a copy costs: events.get on a copy makes the same store reads as on
// the organizer's event (the store finds a shared copy as it finds an event; nothing is
// computed on read), and an insert inviting twenty test users writes, in its one transaction,
// the event and one copy that the twenty hold alike (Store's SharedCopyRecord), not twenty.
// Counted through a wrapper of the memory store; no wall-clock assertion (the timing is the
// bench's `events.insert with 20 test-user attendees` row).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App } from '../../src/app/app.ts';
import type { CalendarCall, CalendarHandler } from '../../src/calendar/context.ts';
import { eventHandlers } from '../../src/calendar/events/handlers.ts';
import { createRenderCache } from '../../src/calendar/events/list-items.ts';
import { createWindowCache } from '../../src/calendar/window-cache.ts';
import { Clock } from '../../src/domain/clock.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import { silentLogger } from '../../src/http/log.ts';
import { emptyTrace } from '../../src/http/request.ts';
import { DEFAULT_DELIVERY_OPTIONS, Notifier } from '../../src/push/delivery.ts';
import { MemoryStore } from '../../src/store/memory.ts';
import type { Store } from '../../src/store/store.ts';
import { ManualScheduler } from '../_helpers/manual-time.ts';

const GUESTS = 20;
const guest = (i: number): string => `guest${i}@example.com`;

/** Store calls by method name, and transactions opened at the outermost level. */
function counted(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: wrapped, calls };
}

function setup(): { app: App; calls: string[]; run(userId: string, handler: CalendarHandler, method: string, params: Record<string, string>, body?: unknown): Promise<{ status: number; body: unknown }> } {
  const users = [{ id: 'organizer', name: 'Organizer', email: 'organizer@example.com' }];
  for (let i = 0; i < GUESTS; i++) users.push({ id: `g${i}`, name: `Guest ${i}`, email: guest(i) });
  const { store, calls } = counted(new MemoryStore());
  const app = new App({ store, clock: new Clock(), log: silentLogger, startupFixture: () => parseFixture({ clients: [], users }), host: '127.0.0.1' });
  app.reset();
  const caches = { renders: createRenderCache(app), windows: createWindowCache(app) };
  const notifier = new Notifier(app, new ManualScheduler(), DEFAULT_DELIVERY_OPTIONS);
  return {
    app,
    calls,
    async run(userId, handler, method, params, body) {
      const user = app.store.getUser(userId);
      assert.ok(user);
      const call: CalendarCall = {
        app,
        caches,
        notifier,
        req: { method, path: '/calendar/v3/x', query: new URLSearchParams(), search: '', headers: {}, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)), baseUrl: 'http://127.0.0.1:1', localPort: 1, trace: emptyTrace() },
        params,
        auth: { user, connection: { id: 'c', clientId: 'x', userId, scopes: [], offline: false, createdAt: 0 }, scopes: [] },
      };
      const result = await handler(call);
      const text = typeof result.body === 'string' ? result.body : Buffer.concat(Array.isArray(result.body) ? result.body : [result.body as Buffer]).toString('utf8');
      return { status: result.status, body: text === '' ? undefined : JSON.parse(text) };
    },
  };
}

test('an insert inviting twenty test users writes the event and one shared copy in one transaction; events.get on a copy reads what it reads on the original', async () => {
  const s = setup();
  const attendees = Array.from({ length: GUESTS }, (_, i) => ({ email: guest(i) }));
  s.calls.length = 0;
  const inserted = await s.run('organizer', eventHandlers.insert, 'POST', { calendarId: 'primary' }, {
    summary: 'All hands',
    start: { dateTime: '2030-03-10T09:00:00Z' },
    end: { dateTime: '2030-03-10T10:00:00Z' },
    attendees,
  });
  assert.equal(inserted.status, 200);
  const id = (inserted.body as { id: string }).id;
  assert.equal(s.calls.filter((c) => c === 'transaction').length, 1, 'one transaction');
  assert.equal(s.calls.filter((c) => c === 'putEvent').length, 1, 'the event');
  assert.equal(s.calls.filter((c) => c === 'putSharedCopy').length, 1, 'one copy for every guest');
  assert.equal(s.calls.filter((c) => c === 'getEvent').length, 0, 'no lookup per guest (nor of the id, which the service made)');
  assert.deepEqual(s.app.store.getSharedCopy('organizer@example.com', (inserted.body as { id: string }).id)?.holders, attendees.map((a) => a.email));
  const reads = async (userId: string, calendarId: string): Promise<string[]> => {
    s.calls.length = 0;
    const got = await s.run(userId, eventHandlers.get, 'GET', { calendarId, eventId: id });
    assert.equal(got.status, 200);
    return [...s.calls];
  };
  const original = await reads('organizer', 'organizer@example.com');
  const copy = await reads('g7', guest(7));
  assert.deepEqual(copy, original);
  assert.ok(!original.includes('listUsers') && !original.includes('listExceptions'), original.join(', '));
});
