// An App on a memory store whose every call is counted by method name, for tests that a cache
// spares the store work: with the read caches and notifier the composition root gives a calendar
// call, and the CalendarCall a handler receives.

import assert from 'node:assert/strict';
import { App } from '../../src/app/app.ts';
import { Clock } from '../../src/domain/clock.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import { silentLogger } from '../../src/http/log.ts';
import { emptyTrace } from '../../src/http/request.ts';
import { MemoryStore } from '../../src/store/memory.ts';
import type { Store } from '../../src/store/store.ts';
import type { CalendarCall } from '../../src/calendar/context.ts';
import { createRenderCache } from '../../src/calendar/events/list-items.ts';
import { createWindowCache } from '../../src/calendar/window-cache.ts';
import { DEFAULT_DELIVERY_OPTIONS, Notifier } from '../../src/push/delivery.ts';
import { ManualScheduler } from './manual-time.ts';

export interface CountedApp {
  memory: MemoryStore;
  /** Store calls so far, by method name. */
  calls: Map<string, number>;
  /** The call a handler receives from `u` for this request. */
  call(request: { method: string; path: string; query?: string; body?: unknown; params?: Record<string, string> }): CalendarCall;
}

/** One user `u` (u@example.com, UTC) whose primary calendar holds `events`. */
export function countedApp(events: unknown[]): CountedApp {
  const userId = 'u';
  const fixture = { clients: [], users: [{ id: userId, name: 'U', email: 'u@example.com', timeZone: 'UTC', calendars: [{ primary: true, events }] }] };
  const calls = new Map<string, number>();
  const memory = new MemoryStore();
  const store = new Proxy(memory, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(name), (calls.get(String(name)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Store;
  const app = new App({ store, clock: new Clock(), log: silentLogger, startupFixture: () => parseFixture(fixture), host: '127.0.0.1' });
  app.reset();
  // What the composition root makes once per App; the handlers here never watch, so the notifier
  // is subscribed to nothing.
  const caches = { renders: createRenderCache(app), windows: createWindowCache(app) };
  const notifier = new Notifier(app, new ManualScheduler(), DEFAULT_DELIVERY_OPTIONS);
  const user = memory.getUser(userId);
  assert.ok(user);
  return {
    memory,
    calls,
    call: ({ method, path, query = '', body, params = {} }) => ({
      app,
      req: { method, path, query: new URLSearchParams(query), search: query, headers: {}, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)), baseUrl: 'http://127.0.0.1:1', localPort: 1, trace: emptyTrace() },
      params,
      auth: { user, connection: { id: 'c', clientId: 'x', userId, scopes: [], offline: false, createdAt: 0 }, scopes: [] },
      caches,
      notifier,
    }),
  };
}
