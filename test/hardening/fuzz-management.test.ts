// Fuzzing the management API: seeded, bounded fixtures, clock
// bodies, ids in paths and Host headers. Every answer is a success or a well-formed
// {error, error_description}; an invalid fixture changes nothing (users, connections, events);
// a Host that is not a loopback name or the configured one never reaches a route.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { HOST_REFUSED } from '../../src/http/allowed-host.ts';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { DEFAULT_FIXTURE } from '../../src/config/config.ts';
import type { Logger } from '../../src/http/log.ts';
import { assertWellFormedError, hostileString, jsonValue, mutate, Rng, runCases, SEED, within } from '../_helpers/fuzz.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { rawRequest } from '../_helpers/raw-http.ts';
import { call } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const FIXTURE = JSON.parse(readFileSync(DEFAULT_FIXTURE, 'utf8')) as object;
const FIXTURE_KEYS = [
  'clients', 'users', 'id', 'secret', 'redirectUris', 'name', 'email', 'timeZone', 'calendars', 'primary', 'summary', 'events', 'hidden',
  'colorId', 'start', 'end', 'dateTime', 'date', 'recurrence', 'status', 'recurringEventId', 'originalStartTime', 'defaultReminders',
];

describe(`management API fuzzing (seed ${SEED})`, () => {
  let service: RunningService;
  let url = '';
  const internalErrors: string[] = [];
  const log: Logger = { info() {}, error: (message, error) => internalErrors.push(`${message}: ${String(error)}`) };
  const rng = new Rng(SEED).fork('management');

  before(async () => {
    service = await start({ port: 0, log });
    url = service.url;
  });
  after(async () => {
    await service.close();
    assert.deepEqual(internalErrors, [], 'the service logged internal errors');
  });

  const send = (path: string, init: RequestInit = {}): Promise<Answer> => within(5000, path.slice(0, 200), call(`${url}${path}`, init));

  /** The workspace as the APIs show it: users, connections, and the first user's events. */
  async function workspace(token: string): Promise<string> {
    const users = await send('/__svc/users');
    const connections = await send('/__svc/connections');
    const events = await send('/calendar/v3/calendars/primary/events?showDeleted=true', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(events.status, 200, events.text);
    return JSON.stringify([users.json, connections.json, events.json]);
  }

  test('POST /__svc/fixtures: 250 mutated fixtures; a refused one changes nothing', async () => {
    const r = rng.fork('fixtures');
    const user = () => (JSON.parse(state.users) as { users: Array<{ id: string }> }).users[0]?.id;
    const state = { users: '', token: '', snapshot: '' };
    const refresh = async () => {
      state.users = (await send('/__svc/users')).text;
      const first = user();
      state.token = first === undefined ? '' : (await obtainToken(url, { user: first, scope: 'calendar' })).access_token;
      state.snapshot = state.token === '' ? state.users : await workspace(state.token);
    };
    await refresh();
    let loaded = 0;
    for (let i = 0; i < 250; i++) {
      const label = `fixture case ${i} (seed ${SEED})`;
      const body = r.chance(0.05) ? JSON.stringify(jsonValue(r, 3)) : r.chance(0.03) ? hostileString(r) : JSON.stringify(mutate(r, FIXTURE, FIXTURE_KEYS));
      const answer = await send('/__svc/fixtures', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (answer.status === 200) {
        loaded++;
        // A loaded fixture may have no client for the token flow: go back to the default one.
        await send('/__svc/reset', { method: 'POST' });
        await refresh();
        continue;
      }
      assertWellFormedError(answer, 'management', label);
      assert.ok(answer.json.error === 'invalid_fixture' || answer.json.error === 'invalid_request', `${label}: ${answer.text}`);
      const now = state.token === '' ? (await send('/__svc/users')).text : await workspace(state.token);
      assert.equal(now, state.snapshot, `${label}: a refused fixture changed the workspace`);
    }
    assert.ok(loaded > 0 && loaded < 250, `${loaded} fixtures loaded: the generator is not reaching both paths`);
  });

  test('clock bodies, ids in paths, methods: 400 requests, each a success or a well-formed error', async () => {
    const r = rng.fork('requests');
    await runCases(400, 4, async (i) => {
      const label = `request case ${i} (seed ${SEED})`;
      const id = encodeURIComponent(hostileString(r).toWellFormed() || 'x');
      const [method, path, body] = r.pick<[string, string, string | undefined]>([
        ['POST', '/__svc/clock', JSON.stringify(r.chance(0.5) ? mutate(r, { advanceSeconds: 60 }, ['advanceSeconds', 'now']) : mutate(r, { now: '2026-10-19T00:00:00Z' }, ['advanceSeconds', 'now']))],
        ['POST', '/__svc/clock', hostileString(r)],
        ['DELETE', `/__svc/users/${id}`, undefined],
        ['POST', `/__svc/connections/${id}/revoke`, undefined],
        [r.pick(['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']), r.pick(['/__svc/reset', '/__svc/fixtures', '/__svc/clock', `/__svc/${id}`, '/__svc', '/__svc/'])!, undefined],
      ]);
      const answer = await send(path, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }) });
      if (answer.status < 300) return;
      if (answer.status === 501) {
        assert.deepEqual(answer.json, { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' }, label);
        return;
      }
      assertWellFormedError(answer, 'management', `${label}: ${method} ${path.slice(0, 100)}`);
    });
    // The clock moved at most where the bodies said; the service still answers sensibly.
    assert.equal((await send('/__svc/clock')).status, 200);
    assert.equal((await send('/__svc/reset', { method: 'POST' })).status, 204);
  });

  test('Host headers: 300 variants; only loopback names and the configured host reach a route', async () => {
    const r = rng.fork('hosts');
    const port = new URL(url).port;
    const allowed = new Set(['localhost', '127.0.0.1', '[::1]']);
    const variants = [
      'localhost', '127.0.0.1', '[::1]', `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST', `LocalHost:${port}`,
      'evil.example', `evil.example:${port}`, '127.0.0.1.evil.example', 'localhost.evil.example', 'evil.localhost', `localhost@evil.example`,
      '127.0.0.2', '0.0.0.0', '[::ffff:127.0.0.1]', '2130706433', '0x7f.1', `127.0.0.1:${port}@evil.example`, 'evil.example#127.0.0.1',
      '[::1', '::1', '', ' ', 'localhost ', ' 127.0.0.1',
    ];
    await runCases(300, 4, async (i) => {
      const host = r.chance(0.85) ? r.pick(variants) : hostileString(r).replace(/[^\x21-\x7e]/g, '');
      const path = r.pick(['/__svc/users', '/__svc/connections', '/__svc/clock']);
      let answer: Answer;
      try {
        answer = await rawRequest(url, path, { headers: { host } });
      } catch {
        return; // node:http refused to send these header bytes; nothing reached the service
      }
      const name = host.trim().toLowerCase().replace(/:\d+$/, '');
      const expected = allowed.has(name) ? 200 : 403;
      if (answer.status === 400 && !allowed.has(name)) return; // node:http's own parser refused it
      assert.equal(answer.status, expected, `host case ${i} (seed ${SEED}): Host ${JSON.stringify(host)} -> ${answer.status}`);
      if (expected === 403) assert.deepEqual(answer.json, { error: 'forbidden', error_description: HOST_REFUSED });
    });
  });
});
