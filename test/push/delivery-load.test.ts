// Deliveries in flight are bounded service-wide (MAX_DELIVERIES_IN_FLIGHT in
// src/push/delivery.ts): 2,000 channels on 20 connections, a webhook that holds every request
// until released, and a burst of writes. While the receiver holds the deliveries, the API still
// answers, and correctly; the receiver never sees more requests at once than the bound; once
// released, every message arrives, in order per channel, with its message number.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { MAX_ACTIVE_CHANNELS_PER_CONNECTION } from '../../src/push/channels.ts';
import { MAX_DELIVERIES_IN_FLIGHT } from '../../src/push/delivery.ts';
import { api } from '../_helpers/calendar.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';

const CONNECTIONS = 20;
const CHANNELS = CONNECTIONS * MAX_ACTIVE_CHANNELS_PER_CONNECTION;
const WRITES = 3;

/**
 * A receiver that holds every request while closed and counts the requests open at once.
 * until() waits for a condition on those counts, rechecked at each request and each answer.
 */
async function startSlowWebhook(t: { after(fn: () => unknown): void }) {
  const messages = new Map<string, string[]>();
  const held: ServerResponse[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const wake of waiters) wake();
  };
  let closed = false;
  let open = 0;
  let maxOpen = 0;
  let total = 0;
  const server = createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    total++;
    const list = messages.get(req.url ?? '') ?? [];
    list.push(`${req.headers['x-goog-message-number']}:${req.headers['x-goog-resource-state']}`);
    messages.set(req.url ?? '', list);
    res.on('finish', () => {
      open--;
      changed();
    });
    changed();
    req.resume();
    if (closed) held.push(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages,
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    get total() {
      return total;
    },
    hold() {
      closed = true;
    },
    release() {
      closed = false;
      for (const res of held.splice(0)) res.end();
    },
    /** Resolves once `condition` holds; the test's own timeout bounds the wait. */
    until(condition: () => boolean): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (!condition()) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

describe('deliveries in flight', () => {
  it(`${CHANNELS} channels and a burst of writes: at most ${MAX_DELIVERIES_IN_FLIGHT} requests in flight, the API answers, nothing lost or reordered`, { timeout: 180_000 }, async (t) => {
    const service = await start({ port: 0 });
    t.after(() => service.close());
    const url = service.url;
    const hook = await startSlowWebhook(t);

    const tokens: string[] = [];
    for (let c = 0; c < CONNECTIONS; c++) tokens.push((await obtainToken(url, { scope: 'calendar' })).access_token);
    // Every channel watches the same calendar, so each write fans out to all of them.
    await Promise.all(
      tokens.map(async (access, c) => {
        for (let n = 0; n < MAX_ACTIVE_CHANNELS_PER_CONNECTION; n++) {
          const answer = await api(url, access, 'calendars/primary/events/watch', { method: 'POST', body: { id: `c${c}-${n}`, type: 'web_hook', address: `${hook.url}/c${c}-${n}` } });
          assert.equal(answer.status, 200);
        }
      }),
    );
    await hook.until(() => hook.total === CHANNELS);

    hook.hold();
    const inserted: string[] = [];
    for (let w = 0; w < WRITES; w++) {
      const answer = await api(url, tokens[w] as string, 'calendars/primary/events', {
        method: 'POST',
        body: { summary: `burst ${w}`, start: { dateTime: '2026-10-20T10:00:00Z' }, end: { dateTime: '2026-10-20T11:00:00Z' } },
      });
      assert.equal(answer.status, 200);
      inserted.push(answer.json.id);
    }
    await hook.until(() => hook.open >= MAX_DELIVERIES_IN_FLIGHT);

    // The receiver holds the bound's worth of deliveries, 6,000 more wait: the API still answers.
    const listed = await api(url, tokens[5] as string, 'calendars/primary/events');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json.items.map((e: { id: string }) => e.id).filter((id: string) => inserted.includes(id)).sort(), [...inserted].sort());
    assert.equal((await api(url, tokens[6] as string, 'users/me/calendarList')).status, 200);
    const freeBusy = await api(url, tokens[7] as string, 'freeBusy', {
      method: 'POST',
      body: { timeMin: '2026-10-20T00:00:00Z', timeMax: '2026-10-21T00:00:00Z', items: [{ id: 'primary' }] },
    });
    assert.equal(freeBusy.status, 200);
    assert.equal((await call(`${url}/__svc/channels`)).json.channels.length, CHANNELS);
    assert.equal(hook.open, MAX_DELIVERIES_IN_FLIGHT);

    hook.release();
    await hook.until(() => [...hook.messages.values()].every((list) => list.length >= 1 + WRITES));
    assert.ok(hook.maxOpen <= MAX_DELIVERIES_IN_FLIGHT, `at most ${MAX_DELIVERIES_IN_FLIGHT} deliveries in flight, saw ${hook.maxOpen}`);
    const expected = ['1:sync', ...Array.from({ length: WRITES }, (_, w) => `${w + 2}:exists`)];
    assert.equal(hook.messages.size, CHANNELS);
    for (const [path, list] of hook.messages) assert.deepEqual(list, expected, path);
  });
});
