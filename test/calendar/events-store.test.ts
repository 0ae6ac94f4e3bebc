// The cost of a windowed read follows the window, not the calendar:
// a fixed one-day events.list (plain and singleEvents) and freeBusy over a calendar of thousands
// of events read only the window's records through listEventsOverlapping. Handlers run against
// a counting wrapper of the memory store; no wall-clock assertion.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { App } from '../../src/app/app.ts';
import { Clock } from '../../src/domain/clock.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import { silentLogger } from '../../src/http/log.ts';
import { MemoryStore } from '../../src/store/memory.ts';
import type { EventRecord, Store } from '../../src/store/store.ts';
import type { CalendarCall, CalendarHandler } from '../../src/calendar/context.ts';
import { eventHandlers } from '../../src/calendar/events/handlers.ts';
import { freebusyQuery } from '../../src/calendar/freebusy.ts';
import { createRenderCache } from '../../src/calendar/events/list-items.ts';
import { createWindowCache } from '../../src/calendar/window-cache.ts';
import { DEFAULT_DELIVERY_OPTIONS, Notifier } from '../../src/push/delivery.ts';
import { ManualScheduler } from '../_helpers/manual-time.ts';
import { emptyTrace } from '../../src/http/request.ts';

/** A handler's body as text: a string, one buffer, or several sent one after another. */
function bodyText(body: string | Buffer | readonly Buffer[] | null): string {
  if (body === null || typeof body === 'string') return body ?? '';
  return (Buffer.isBuffer(body) ? body : Buffer.concat(body)).toString('utf8');
}

const EMAIL = 'many@example.com';
const DAYS = 3000;

function fixture(): object {
  const events: object[] = [];
  for (let i = 0; i < DAYS; i++) {
    const day = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    events.push({ summary: `Event ${i}`, start: { dateTime: `${day}T10:00:00Z` }, end: { dateTime: `${day}T11:00:00Z` } });
  }
  events.push({
    id: 'series0001',
    start: { dateTime: '2020-01-01T08:00:00', timeZone: 'UTC' },
    end: { dateTime: '2020-01-01T08:30:00', timeZone: 'UTC' },
    recurrence: ['RRULE:FREQ=DAILY'],
  });
  return {
    clients: [],
    users: [{ id: 'u', name: 'Many', email: EMAIL, timeZone: 'UTC', calendars: [{ primary: true, events }] }],
  };
}

/** A store whose event reads are counted: calls per method and records handed out. */
function counting(store: Store): { store: Store; calls: Map<string, number>; records: { count: number }; reset(): void } {
  const calls = new Map<string, number>();
  const records = { count: 0 };
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string' || !/Event|Exceptions/.test(name)) {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (Array.isArray(result)) records.count += result.length;
        else if (result && typeof result === 'object' && (result as EventRecord).data) records.count++;
        return result;
      };
    },
  });
  return { store: wrapped, calls, records, reset: () => { calls.clear(); records.count = 0; } };
}

/** What a handler gets from the composition root: the App with its caches and notifier, made once per App. */
type Service = Pick<CalendarCall, 'app' | 'caches' | 'notifier'>;

function serviceOf(app: App): Service {
  // These handlers never watch: the notifier is subscribed to nothing.
  return { app, caches: { renders: createRenderCache(app), windows: createWindowCache(app) }, notifier: new Notifier(app, new ManualScheduler(), DEFAULT_DELIVERY_OPTIONS) };
}

function callOf(service: Service, handler: CalendarHandler, init: { method: string; path: string; query?: string; body?: unknown; params?: Record<string, string> }) {
  const user = service.app.store.getUser('u');
  assert.ok(user);
  const call: CalendarCall = {
    ...service,
    req: {
      method: init.method,
      path: init.path,
      query: new URLSearchParams(init.query ?? ''),
      search: init.query ?? '',
      headers: {},
      body: Buffer.from(init.body === undefined ? '' : JSON.stringify(init.body)),
      baseUrl: 'http://127.0.0.1:1',
      localPort: 1,
      trace: emptyTrace(),
    },
    params: init.params ?? {},
    auth: { user, connection: { id: 'c', clientId: 'x', userId: 'u', scopes: [], offline: false, createdAt: 0 }, scopes: [] },
  };
  return handler(call);
}

describe('windowed reads touch only the window', () => {
  const memory = new MemoryStore();
  const counter = counting(memory);
  const app = new App({ store: counter.store, clock: new Clock(), log: silentLogger, startupFixture: () => parseFixture(fixture()), host: '127.0.0.1' });
  app.reset();
  const service = serviceOf(app);

  test(`the calendar holds ${DAYS + 1} events`, () => {
    assert.equal(memory.listEventsChangedSince(EMAIL, 0, Number.MAX_SAFE_INTEGER).length, DAYS + 1);
  });

  for (const singleEvents of [false, true]) {
    test(`events.list over one day (singleEvents=${singleEvents})`, async () => {
      counter.reset();
      const result = await callOf(service, eventHandlers.list, {
        method: 'GET',
        path: '/calendar/v3/calendars/primary/events',
        query: `timeMin=2024-06-01T00:00:00Z&timeMax=2024-06-02T00:00:00Z&singleEvents=${singleEvents}`,
        params: { calendarId: 'primary' },
      });
      assert.equal(result.status, 200);
      const items = JSON.parse(bodyText(result.body)).items as Array<{ id: string }>;
      assert.equal(items.length, 2, 'the day event and the series (or its instance)');
      assert.equal(counter.calls.get('listEventsOverlapping'), 1);
      assert.equal(counter.calls.get('listEventsChangedSince'), undefined);
      assert.ok(counter.records.count <= 5, `read ${counter.records.count} records`);
      assert.ok(memory.overlapExamined < 50, `the store examined ${memory.overlapExamined} events`);
    });
  }

  test('freeBusy over one day', async () => {
    counter.reset();
    const result = await callOf(service, freebusyQuery, {
      method: 'POST',
      path: '/calendar/v3/freeBusy',
      body: { timeMin: '2024-06-01T00:00:00Z', timeMax: '2024-06-02T00:00:00Z', items: [{ id: 'primary' }] },
    });
    assert.equal(result.status, 200);
    assert.deepEqual(JSON.parse(bodyText(result.body)).calendars.primary.busy, [
      { start: '2024-06-01T08:00:00Z', end: '2024-06-01T08:30:00Z' },
      { start: '2024-06-01T10:00:00Z', end: '2024-06-01T11:00:00Z' },
    ]);
    assert.equal(counter.calls.get('listEventsOverlapping'), 1);
    assert.ok(counter.records.count <= 5, `read ${counter.records.count} records`);
    assert.ok(memory.overlapExamined < 50, `the store examined ${memory.overlapExamined} events`);
  });
});
