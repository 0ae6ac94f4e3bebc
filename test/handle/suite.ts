// The handle's own suite, one function run against handles made different ways (in process,
// through connect() to a `serve` process, a workspace handle): every member of the handle must do
// the same whichever way it reaches the service.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ServiceError } from '../../src/index.ts';
import type { Handle } from '../../src/index.ts';
import { startWebhook } from '../_helpers/webhook.ts';

export interface HandleFactory {
  /** Makes the handle the suite drives; called once. */
  open(): Promise<Handle>;
  /** Ends what open() made; `handle` is undefined when open() failed. */
  close(handle: Handle | undefined): Promise<void>;
}

/** A fixture of the caller's: a client and user of its own, so token() must use them. */
export const OWN_FIXTURE = {
  clients: [{ id: 'own-client', secret: 'own-secret', redirectUris: ['http://127.0.0.1:4999/back'] }],
  users: [
    {
      id: 'user-own',
      name: 'Own User',
      email: 'own@example.com',
      timeZone: 'Europe/Paris',
      calendars: [{ primary: true, summary: 'Own', events: [{ id: 'keptevent1', summary: 'Kept', start: { dateTime: '2026-10-19T10:00:00Z' }, end: { dateTime: '2026-10-19T11:00:00Z' } }] }],
    },
  ],
};

export async function api(handle: Handle, token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; json: any }> {
  const response = await fetch(`${handle.url}/calendar/v3/${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/** Resolves to the ServiceError the promise rejects with. */
export async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ServiceError, `not a ServiceError: ${String(error)}`);
  return error;
}

/**
 * Opens the factory's handle before the enclosing describe's tests and closes it after them; the
 * handle is a proxy so that tests can name it before it exists.
 */
export function useHandle(factory: HandleFactory): Handle {
  let opened: Handle | undefined;
  before(async () => {
    opened = await factory.open();
  });
  after(() => factory.close(opened));
  return new Proxy({} as Handle, { get: (_, member) => (opened as unknown as Record<PropertyKey, unknown>)[member] });
}

export function handleSuite(name: string, factory: HandleFactory): void {
  describe(`the test handle, ${name}`, () => {
    const handle = useHandle(factory);
    beforeEach(() => handle.reset());

    it('url is the base URL the Calendar API answers at', async () => {
      assert.match(handle.url, /^http:\/\/127\.0\.0\.1:\d+(\/w\/[a-z0-9-]+)?$/);
      const answer = await fetch(`${handle.url}/calendar/v3/users/me/calendarList`);
      assert.equal(answer.status, 401);
    });

    it('token(): the first user, scope calendar and the fixture client by default; the token works', async () => {
      const token = await handle.token();
      assert.equal(token.token_type, 'Bearer');
      assert.equal(token.scope, 'https://www.googleapis.com/auth/calendar');
      assert.equal(token.refresh_token, undefined);
      const list = await api(handle, token.access_token, 'users/me/calendarList');
      assert.equal(list.status, 200);
      assert.ok(list.json.items.some((c: { id: string }) => c.id === 'aiko.tanaka@example.com'));
      const [connection] = await handle.connections();
      assert.deepEqual({ clientId: connection?.clientId, userId: connection?.userId }, { clientId: 'local-calendar-client', userId: 'user-aiko' });
    });

    it('token(): a user, short and full scopes, offline', async () => {
      const token = await handle.token({ user: 'user-ben', scopes: ['calendar.readonly', 'https://www.googleapis.com/auth/calendar.events', 'email'], offline: true });
      assert.equal(token.scope, 'https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/calendar.events email');
      assert.equal(typeof token.refresh_token, 'string');
      const [connection] = await handle.connections();
      assert.equal(connection?.userId, 'user-ben');
      assert.equal(connection?.offline, true);
    });

    it("token(): the service's refusal rejects with its status and OAuth body", async () => {
      const scope = await serviceError(handle.token({ scopes: ['calendar.acls'] }));
      assert.equal(scope.status, 400);
      assert.equal((scope.body as { error: string }).error, 'invalid_scope');
      const secret = await serviceError(handle.token({ clientSecret: 'wrong' }));
      assert.equal(secret.status, 400);
      assert.equal((secret.body as { error: string }).error, 'invalid_client');
      await assert.rejects(handle.token({ user: 'nobody' }), /unknown test user "nobody"/);
    });

    it('loadFixture(): counts, the users, and token() then uses its first client', async () => {
      assert.deepEqual(await handle.loadFixture(OWN_FIXTURE), { clients: 1, users: 1, calendars: 1, events: 1 });
      assert.deepEqual(await handle.users(), [{ id: 'user-own', name: 'Own User', email: 'own@example.com', timeZone: 'Europe/Paris' }]);
      const token = await handle.token();
      assert.equal((await api(handle, token.access_token, 'calendars/primary/events/keptevent1')).json.summary, 'Kept');
      const [connection] = await handle.connections();
      assert.equal(connection?.clientId, 'own-client');
      const invalid = await serviceError(handle.loadFixture({ users: [{ id: 'x', name: 'X', email: 'not an e-mail' }] }));
      assert.equal(invalid.status, 400);
      assert.equal((invalid.body as { error: string }).error, 'invalid_fixture');
    });

    it('reset(): back to the startup fixture, connections gone, token() on its client again', async () => {
      await handle.loadFixture(OWN_FIXTURE);
      await handle.token();
      await handle.reset();
      assert.deepEqual(await handle.connections(), []);
      assert.deepEqual((await handle.users()).map((u) => u.id), ['user-aiko', 'user-ben', 'user-carmen']);
      await handle.token();
      assert.equal((await handle.connections())[0]?.clientId, 'local-calendar-client');
    });

    it('exportFixture(): the workspace as a fixture that loads back', async () => {
      const token = await handle.token();
      await api(handle, token.access_token, 'calendars/primary/events', { method: 'POST', body: { id: 'savedevent1', summary: 'Exported', start: { dateTime: '2026-10-20T10:00:00Z' }, end: { dateTime: '2026-10-20T11:00:00Z' } } });
      const fixture = await handle.exportFixture();
      assert.equal(fixture.clients?.[0]?.id, 'local-calendar-client');
      assert.match(fixture.clients?.[0]?.secretSha256 ?? '', /^[0-9a-f]{64}$/);
      const aiko = fixture.users?.find((u) => u.id === 'user-aiko');
      assert.ok(JSON.stringify(aiko?.calendars).includes('savedevent1'));
      await handle.reset();
      assert.equal((await handle.loadFixture(fixture)).users, 3);
    });

    it('clock: now(), set(iso), advance(seconds) resolve to the RFC 3339 time', async () => {
      assert.match(await handle.clock.now(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      assert.ok((await handle.clock.set('2030-01-01T00:00:00Z')).startsWith('2030-01-01T00:00:0'));
      const moved = await handle.clock.advance(3600);
      assert.ok(moved.startsWith('2030-01-01T01:00:0'), moved);
      assert.ok((await handle.clock.now()).startsWith('2030-01-01T01:'));
      const bad = await serviceError(handle.clock.set('tomorrow'));
      assert.equal(bad.status, 400);
    });

    it('faults: add, list, remove, clear; a fault answers the app', async () => {
      const token = await handle.token();
      const rule = await handle.faults.add({ match: { method: 'calendar.events.list' }, error: 'rateLimitExceeded', times: 1 });
      assert.deepEqual({ remaining: rule.remaining, hits: rule.hits, error: rule.error }, { remaining: 1, hits: 0, error: 'rateLimitExceeded' });
      const failed = await api(handle, token.access_token, 'calendars/primary/events');
      assert.equal(failed.status, 403);
      assert.equal(failed.json.error.errors[0].reason, 'rateLimitExceeded');
      assert.equal((await api(handle, token.access_token, 'calendars/primary/events')).status, 200);
      assert.deepEqual((await handle.faults.list()).map((f) => [f.id, f.hits, f.remaining]), [[rule.id, 1, 0]]);
      await handle.faults.remove(rule.id);
      assert.deepEqual(await handle.faults.list(), []);
      await handle.faults.add({ match: { method: '*' }, delayMs: 1 });
      await handle.faults.add({ match: { method: 'oauth.token' }, error: 'invalid_grant' });
      await handle.faults.clear();
      assert.deepEqual(await handle.faults.list(), []);
      const invalid = await serviceError(handle.faults.add({ match: { method: 'calendar.events.list' }, error: 'invalid_grant' }));
      assert.equal(invalid.status, 400);
      assert.equal((invalid.body as { error: string }).error, 'invalid_fault');
      const unknown = await serviceError(handle.faults.remove('no-such-rule'));
      assert.equal(unknown.status, 404);
    });

    it('requests(): what the app sent, filtered, limited, from an id on', async () => {
      const token = await handle.token();
      await api(handle, token.access_token, 'calendars/primary/events', { method: 'POST', body: { summary: 'Sent', start: { dateTime: '2026-10-20T10:00:00Z' }, end: { dateTime: '2026-10-20T11:00:00Z' } } });
      await api(handle, token.access_token, 'calendars/primary/events/nonexistent');
      const all = await handle.requests();
      assert.deepEqual(
        all.map((r) => r.operation),
        ['oauth.authorize', 'oauth.consent', 'oauth.token', 'calendar.events.insert', 'calendar.events.get'],
      );
      const [insert] = await handle.requests({ operation: 'calendar.events.insert' });
      assert.equal((insert?.body as { summary: string }).summary, 'Sent');
      assert.equal(insert?.userId, 'user-aiko');
      assert.deepEqual((await handle.requests({ status: 404 })).map((r) => r.error), ['notFound']);
      assert.deepEqual(await handle.requests({ limit: 2 }), all.slice(0, 2));
      assert.deepEqual(await handle.requests({ since: all[2]?.id as number, limit: 1 }), [all[3]]);
      const bad = await serviceError(handle.requests({ status: 42 }));
      assert.equal(bad.status, 400);
    });

    it('outbox(): the invitations Google would have sent', async () => {
      const token = await handle.token();
      const insert = await api(handle, token.access_token, 'calendars/primary/events?sendUpdates=all', {
        method: 'POST',
        body: { summary: 'Invite', start: { dateTime: '2026-10-20T10:00:00Z' }, end: { dateTime: '2026-10-20T11:00:00Z' }, attendees: [{ email: 'ben@example.org' }, { email: 'guest@example.net' }] },
      });
      assert.equal(insert.status, 200);
      const messages = await handle.outbox();
      assert.deepEqual(messages.map((m) => [m.kind, m.to, m.eventId, m.fromUserId]).sort(), [
        ['invitation', 'ben@example.org', insert.json.id, 'user-aiko'],
        ['invitation', 'guest@example.net', insert.json.id, 'user-aiko'],
      ]);
    });

    it('users(), connections(), revoke(connectionId): the token stops working', async () => {
      assert.deepEqual(
        (await handle.users()).map((u) => [u.id, u.timeZone]),
        [
          ['user-aiko', 'Asia/Tokyo'],
          ['user-ben', 'Europe/London'],
          ['user-carmen', 'America/New_York'],
        ],
      );
      const token = await handle.token({ user: 'user-carmen' });
      const [connection] = await handle.connections();
      assert.equal(connection?.userId, 'user-carmen');
      await handle.revoke(connection?.id as string);
      assert.equal((await api(handle, token.access_token, 'users/me/calendarList')).status, 401);
      const unknown = await serviceError(handle.revoke('no-such-connection'));
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.body, { error: 'not_found', error_description: 'No connection with id "no-such-connection".' });
    });

    it('channels(): the watch channels and their deliveries', async (t) => {
      const hook = await startWebhook(t);
      const token = await handle.token();
      const watch = await api(handle, token.access_token, 'calendars/primary/events/watch', { method: 'POST', body: { id: 'handle-channel', type: 'web_hook', address: `${hook.url}/h` } });
      assert.equal(watch.status, 200);
      const [channel] = await handle.channels();
      assert.equal(channel?.id, 'handle-channel');
      assert.equal(channel?.address, `${hook.url}/h`);
      assert.ok(Array.isArray(channel?.deliveries));
    });
  });
}
