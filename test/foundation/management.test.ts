// The management API of docs/management-api.md: every route, its errors, and the Host check.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { call, postJson, startService } from '../_helpers/service.ts';

const SMALL = {
  clients: [{ id: 'c1', secret: 's1', redirectUris: ['http://127.0.0.1:4000/cb'] }],
  users: [
    { id: 'u1', name: 'One', email: 'one@example.com', timeZone: 'Europe/Paris' },
    { id: 'u2', name: 'Two', email: 'two@example.com' },
  ],
};

/** A request with a chosen Host header (fetch does not let us set it). */
function withHost(url: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('management API', () => {
  it('GET /__svc/users lists the test users in fixture order', async (t) => {
    const url = await startService(t);
    const answer = await call(`${url}/__svc/users`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.users.map((u: { id: string }) => u.id), ['user-aiko', 'user-ben', 'user-carmen']);
    assert.deepEqual(answer.json.users[0], { id: 'user-aiko', name: 'Aiko Tanaka', email: 'aiko.tanaka@example.com', timeZone: 'Asia/Tokyo' });
  });

  it('POST /__svc/fixtures replaces the workspace and reports counts', async (t) => {
    const url = await startService(t);
    const answer = await postJson(`${url}/__svc/fixtures`, SMALL);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { loaded: { clients: 1, users: 2, calendars: 2, events: 0 } });
    const users = await call(`${url}/__svc/users`);
    assert.deepEqual(users.json.users, [
      { id: 'u1', name: 'One', email: 'one@example.com', timeZone: 'Europe/Paris' },
      { id: 'u2', name: 'Two', email: 'two@example.com', timeZone: 'UTC' },
    ]);
  });

  it('an invalid fixture is 400 invalid_fixture naming the JSON path, and changes nothing', async (t) => {
    const url = await startService(t);
    const bad = { ...SMALL, users: [SMALL.users[0], { id: 'u3', name: 'Three', email: 'one@example.com' }] };
    const answer = await postJson(`${url}/__svc/fixtures`, bad);
    assert.equal(answer.status, 400);
    assert.equal(answer.json.error, 'invalid_fixture');
    assert.match(answer.json.error_description, /^users\[1\]\.email: duplicate user email/);
    const users = await call(`${url}/__svc/users`);
    assert.equal(users.json.users[0].id, 'user-aiko');
  });

  it('a fixture whose event is invalid is refused whole', async (t) => {
    const url = await startService(t);
    const bad = {
      users: [
        {
          id: 'u1',
          name: 'One',
          email: 'one@example.com',
          calendars: [{ primary: true, events: [{ summary: 'no times' }] }],
        },
      ],
    };
    const answer = await postJson(`${url}/__svc/fixtures`, bad);
    assert.equal(answer.status, 400);
    assert.equal(answer.json.error, 'invalid_fixture');
    assert.match(answer.json.error_description, /^users\[0\]\.calendars\[0\]\.events\[0\]/);
    assert.equal((await call(`${url}/__svc/users`)).json.users.length, 3);
  });

  it('malformed JSON and non-object bodies are 400 with a message that says so', async (t) => {
    const url = await startService(t);
    const answer = await call(`${url}/__svc/fixtures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"users": [' });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.error, 'invalid_request');
    assert.match(answer.json.error_description, /not valid JSON/);
    const array = await postJson(`${url}/__svc/fixtures`, []);
    assert.equal(array.status, 400);
    assert.match(array.json.error_description, /must be a JSON object/);
  });

  it('a body over 1 MiB is 413', async (t) => {
    const url = await startService(t);
    const answer = await postJson(`${url}/__svc/fixtures`, { x: 'a'.repeat(1024 * 1024) });
    assert.equal(answer.status, 413);
    assert.equal(answer.json.error, 'payload_too_large');
  });

  it('POST /__svc/reset restores the startup fixture and real time', async (t) => {
    const url = await startService(t);
    await postJson(`${url}/__svc/fixtures`, SMALL);
    await postJson(`${url}/__svc/clock`, { advanceSeconds: 7200 });
    const reset = await call(`${url}/__svc/reset`, { method: 'POST' });
    assert.equal(reset.status, 204);
    assert.equal(reset.text, '');
    assert.equal((await call(`${url}/__svc/users`)).json.users.length, 3);
    assert.equal((await call(`${url}/__svc/clock`)).json.offsetSeconds, 0);
  });

  it('DELETE /__svc/users/{id} removes the user; an unknown id is 404 not_found', async (t) => {
    const url = await startService(t);
    const gone = await call(`${url}/__svc/users/user-ben`, { method: 'DELETE' });
    assert.equal(gone.status, 204);
    assert.deepEqual((await call(`${url}/__svc/users`)).json.users.map((u: { id: string }) => u.id), ['user-aiko', 'user-carmen']);
    const again = await call(`${url}/__svc/users/user-ben`, { method: 'DELETE' });
    assert.equal(again.status, 404);
    assert.equal(again.json.error, 'not_found');
  });

  it('the clock: GET, advanceSeconds, now, and invalid bodies', async (t) => {
    const url = await startService(t);
    const initial = await call(`${url}/__svc/clock`);
    assert.equal(initial.status, 200);
    assert.equal(initial.json.offsetSeconds, 0);
    assert.ok(Math.abs(Date.parse(initial.json.now) - Date.now()) < 5000);
    assert.match(initial.json.now, /Z$/);

    const advanced = await postJson(`${url}/__svc/clock`, { advanceSeconds: 3600 });
    assert.equal(advanced.status, 200);
    assert.equal(advanced.json.offsetSeconds, 3600);

    const set = await postJson(`${url}/__svc/clock`, { now: '2030-01-01T09:00:00+09:00' });
    assert.equal(set.status, 200);
    assert.ok(Math.abs(Date.parse(set.json.now) - Date.parse('2030-01-01T00:00:00Z')) < 5000);

    for (const body of [{}, { advanceSeconds: 'x' }, { now: '2030-01-01T09:00:00' }, { now: 'soon' }, { advanceSeconds: 1, now: '2030-01-01T00:00:00Z' }, { later: 1 }]) {
      const answer = await postJson(`${url}/__svc/clock`, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.json.error, 'invalid_request');
    }
  });

  it('POST /__svc/connections/{id}/revoke of an unknown connection is 404; GET /__svc/connections lists none at start', async (t) => {
    const url = await startService(t);
    const answer = await call(`${url}/__svc/connections/nope/revoke`, { method: 'POST' });
    assert.equal(answer.status, 404);
    assert.equal(answer.json.error, 'not_found');
    assert.deepEqual((await call(`${url}/__svc/connections`)).json, { connections: [] });
  });

  it('refuses a foreign Host header with 403 (DNS rebinding) and accepts the loopback names', async (t) => {
    const url = await startService(t);
    const port = new URL(url).port;
    const evil = await withHost(`${url}/__svc/users`, `evil.example:${port}`);
    assert.equal(evil.status, 403);
    assert.equal(JSON.parse(evil.body).error, 'forbidden');
    const reset = await withHost(`${url}/__svc/reset`, 'rebind.attacker.test', 'POST');
    assert.equal(reset.status, 403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      assert.equal((await withHost(`${url}/__svc/users`, host)).status, 200, host);
    }
  });

  it('unrouted management paths and methods are 501', async (t) => {
    const url = await startService(t);
    for (const [method, path] of [['GET', '/__svc/reset'], ['POST', '/__svc/users'], ['GET', '/__svc/nothing']]) {
      const answer = await call(`${url}${path}`, { method: method as string });
      assert.equal(answer.status, 501, `${method} ${path}`);
      assert.deepEqual(answer.json, { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' });
    }
  });
});
