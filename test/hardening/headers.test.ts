// Header rules that hold on every surface (SECURITY.md): a request with two Host headers is
// refused, since the Host rules of the management API and the consent page judge the one Host a
// request names; the consent page applies the management API's Host rule (DNS rebinding must not
// read the test users' names and e-mails); every JSON answer says nosniff.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HOST_REFUSED } from '../../src/http/allowed-host.ts';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { authorizeQuery, OAUTH_FIXTURE } from '../_helpers/oauth.ts';
import { rawRequest } from '../_helpers/raw-http.ts';
import { call } from '../_helpers/service.ts';

let service: RunningService;
let url: string;
let port: string;
before(async () => {
  service = await start({ port: 0, fixture: OAUTH_FIXTURE });
  url = service.url;
  port = new URL(url).port;
});
after(() => service.close());

/** One request with exactly the header lines given, written on a socket (node:http sends one Host only). */
function withHeaders(path: string, headers: Record<string, string | string[]>, method = 'GET'): Promise<{ status: number; text: string; json: any }> {
  const lines = [`${method} ${path} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) for (const one of [value].flat()) lines.push(`${name}: ${one}`);
  lines.push('Connection: close', method === 'POST' ? 'Content-Length: 0' : '', '', '');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(lines.filter((line, i) => line !== '' || i >= lines.length - 2).join('\r\n')));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(raw.slice(9, 12)), text, json });
    });
  });
}

describe('two Host headers (RFC 9112 §3.2)', () => {
  const twoHosts = () => ({ Host: [`127.0.0.1:${port}`, 'evil.example'] });
  const surfaces: Array<[string, string, string, (json: any) => void]> = [
    ['management', 'GET', '/__svc/users', (json) => assert.equal(json.error, 'invalid_request')],
    ['management, the rebinding order', 'GET', '/__svc/health', (json) => assert.equal(json.error, 'invalid_request')],
    ['consent page', 'GET', `/oauth/authorize?${authorizeQuery()}`, (json) => assert.equal(json.error, 'invalid_request')],
    ['token endpoint', 'POST', '/oauth/token', (json) => assert.equal(json.error, 'invalid_request')],
    ['calendar API', 'GET', '/calendar/v3/users/me/calendarList', (json) => assert.equal(json.error.errors[0].reason, 'badRequest')],
    ['unrouted', 'GET', '/nowhere', (json) => assert.equal(json.error, 'invalid_request')],
  ];
  for (const [name, method, path, check] of surfaces) {
    it(`${name}: 400, in the surface's own error shape`, async () => {
      const answer = await withHeaders(path, twoHosts(), method);
      assert.equal(answer.status, 400, answer.text);
      check(answer.json);
      assert.match(answer.text, /more than one Host header/);
    });
  }

  it('the foreign Host first is refused the same way, and one Host still passes', async () => {
    const reversed = await withHeaders('/__svc/users', { Host: ['evil.example', `127.0.0.1:${port}`] });
    assert.equal(reversed.status, 400);
    const single = await withHeaders('/__svc/users', { Host: `127.0.0.1:${port}` });
    assert.equal(single.status, 200);
  });
});

describe('GET /oauth/authorize applies the Host rule (SECURITY.md)', () => {
  it('a page reached through DNS rebinding gets 403 and no user name or e-mail', async () => {
    const answer = await withHeaders(`/oauth/authorize?${authorizeQuery()}`, { Host: `evil.example:${port}` });
    assert.equal(answer.status, 403, answer.text);
    assert.deepEqual(answer.json, { error: 'forbidden', error_description: HOST_REFUSED });
    for (const user of OAUTH_FIXTURE.users) {
      assert.ok(!answer.text.includes(user.email), `the answer shows ${user.email}`);
      assert.ok(!answer.text.includes(user.id), `the answer shows ${user.id}`);
    }
  });

  it('every name of the service itself still opens the page', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const answer = await withHeaders(`/oauth/authorize?${authorizeQuery()}`, { Host: host });
      assert.equal(answer.status, 200, `${host}: ${answer.text.slice(0, 200)}`);
      assert.ok(answer.text.includes(OAUTH_FIXTURE.users[0]!.email));
    }
  });

  it('the token endpoint stays open to any Host (an app in a container names the service as it likes)', async () => {
    const answer = await rawRequest(url, '/oauth/token', {
      method: 'POST',
      headers: { Host: `calendar-emulator:${port}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=nope&client_id=local-calendar-client&client_secret=local-calendar-secret',
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.error, 'invalid_grant');
  });
});

describe('X-Content-Type-Options: nosniff on every JSON answer (SECURITY.md)', () => {
  const answers: Array<[string, () => Promise<{ status: number; headers: Headers }>]> = [
    ['calendar API error', () => call(`${url}/calendar/v3/users/me/calendarList`)],
    ['calendar API preflight-less CORS error', () => call(`${url}/calendar/v3/users/me/calendarList`, { headers: { Origin: 'http://app.example' } })],
    ['OAuth error', () => call(`${url}/oauth/token`, { method: 'POST' })],
    ['userinfo error', () => call(`${url}/userinfo`)],
    ['management answer', () => call(`${url}/__svc/users`)],
    ['management error', () => call(`${url}/__svc/users/nobody`, { method: 'DELETE' })],
    ['health', () => call(`${url}/__svc/health`)],
    ['unrouted 501', () => call(`${url}/calendar/v3/colors`)],
  ];
  for (const [name, send] of answers) {
    it(name, async () => {
      const answer = await send();
      assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', `${name} (${answer.status})`);
    });
  }
});
