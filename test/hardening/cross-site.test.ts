// The management API against other web pages (docs/management-api.md): raw requests carrying what a
// browser sends for a cross-site form or fetch() are refused with 403 and change nothing; a body
// that is not declared JSON is 415; the service's own pages and non-browser clients pass. The same
// attacks from a real browser are in test/browser/cross-site.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOST_REFUSED } from '../../src/http/allowed-host.ts';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { freePort } from '../_helpers/ports.ts';
import { rawRequest } from '../_helpers/raw-http.ts';
import { call, postJson } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const SMALL_FIXTURE = { users: [{ id: 'intruder', name: 'Intruder', email: 'intruder@example.com' }] };

let service: RunningService;
let url: string;
let port: string;
before(async () => {
  service = await start({ port: 0 });
  url = service.url;
  port = new URL(url).port;
});
after(() => service.close());

/** The three writes a hostile page wants, each with a JSON body where it takes one. */
function attacks(headers: Record<string, string>): Array<[string, Promise<Answer>]> {
  return [
    ['reset', call(`${url}/__svc/reset`, { method: 'POST', headers })],
    ['fixtures', postJson(`${url}/__svc/fixtures`, SMALL_FIXTURE, headers)],
    ['clock', postJson(`${url}/__svc/clock`, { advanceSeconds: 86_400 }, headers)],
  ];
}

/** The workspace as management reads show it: test users and clock offset. */
async function workspace(): Promise<string> {
  const users = (await call(`${url}/__svc/users`)).text;
  const offset = (await call(`${url}/__svc/clock`)).json.offsetSeconds;
  return `${users} offset=${offset}`;
}

async function assertRefused(headers: Record<string, string>): Promise<void> {
  const before = await workspace();
  for (const [name, pending] of attacks(headers)) {
    const answer = await pending;
    assert.equal(answer.status, 403, `${name} with ${JSON.stringify(headers)}: ${answer.text}`);
    assert.equal(answer.json.error, 'forbidden');
    assert.equal(typeof answer.json.error_description, 'string');
  }
  assert.equal(await workspace(), before, `something changed despite the refusals (${JSON.stringify(headers)})`);
}

describe('cross-site requests to /__svc/ (docs/management-api.md)', () => {
  it('Sec-Fetch-Site cross-site or same-site: 403 forbidden, nothing changes', async () => {
    await assertRefused({ 'Sec-Fetch-Site': 'cross-site' });
    // another port of localhost is same-site but not same-origin: still another web page
    await assertRefused({ 'Sec-Fetch-Site': 'same-site' });
    await assertRefused({ 'Sec-Fetch-Site': 'cross-site', Origin: url });
  });

  it('a foreign Origin: 403 forbidden, nothing changes, also beside Sec-Fetch-Site same-origin', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${Number(port) + 1}`, `https://127.0.0.1:${port}`, `http://evil.example:${port}`, `${url}/`]) {
      await assertRefused({ Origin: origin });
      await assertRefused({ Origin: origin, 'Sec-Fetch-Site': 'same-origin' });
    }
  });

  it('reads are refused cross-site too (GET /__svc/users from another page)', async () => {
    const answer = await call(`${url}/__svc/users`, { headers: { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' } });
    assert.equal(answer.status, 403);
    assert.equal(answer.json.error, 'forbidden');
  });

  it('a CORS preflight from another origin is 403, without CORS headers (docs/calendar-api.md#browser-apps)', async () => {
    const answer = await call(`${url}/__svc/reset`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST', 'Sec-Fetch-Site': 'cross-site' },
    });
    assert.equal(answer.status, 403);
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
  });

  it('the service itself passes: Sec-Fetch-Site same-origin or none, Origin of any accepted host name with its port', async () => {
    for (const headers of [
      { 'Sec-Fetch-Site': 'same-origin' },
      { 'Sec-Fetch-Site': 'none' },
      { Origin: url },
      { Origin: `http://localhost:${port}`, 'Sec-Fetch-Site': 'same-origin' },
      { Origin: `http://[::1]:${port}` },
    ]) {
      const answer = await postJson(`${url}/__svc/clock`, { advanceSeconds: 1 }, headers);
      assert.equal(answer.status, 200, `${JSON.stringify(headers)}: ${answer.text}`);
    }
    assert.equal((await call(`${url}/__svc/users`, { headers: { Origin: `http://localhost:${port}` } })).status, 200);
    assert.equal((await call(`${url}/__svc/reset`, { method: 'POST', headers: { 'Sec-Fetch-Site': 'same-origin', Origin: url } })).status, 204);
  });

  it('a client sending neither header (curl, a test) passes', async () => {
    assert.equal((await postJson(`${url}/__svc/clock`, { advanceSeconds: 1 })).status, 200);
    assert.equal((await call(`${url}/__svc/reset`, { method: 'POST' })).status, 204);
  });

  it('GET /__svc/ui, the inspector document, is the one request another site may make', async () => {
    const headers = { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' };
    assert.notEqual((await call(`${url}/__svc/ui`, { headers })).status, 403);
    assert.equal((await call(`${url}/__svc/ui`, { method: 'POST', headers })).status, 403);
    assert.equal((await call(`${url}/__svc/ui/anything`, { headers })).status, 403);
  });

  it('the Host check still comes first', async () => {
    const answer = await rawRequest(url, '/__svc/users', { headers: { host: 'evil.example', 'sec-fetch-site': 'same-origin' } });
    assert.equal(answer.status, 403);
    assert.equal(answer.json.error_description, HOST_REFUSED);
  });
});

describe('management bodies must be declared JSON (docs/management-api.md)', () => {
  it('a body without Content-Type: application/json is 415 unsupported_media_type naming the header, and changes nothing', async () => {
    const before = await workspace();
    for (const type of [undefined, 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json-patch+json', 'text/json']) {
      const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
      for (const [path, body] of [['/__svc/clock', { advanceSeconds: 86_400 }], ['/__svc/fixtures', SMALL_FIXTURE]] as const) {
        const answer = await rawRequest(url, path, { method: 'POST', headers, body: JSON.stringify(body) });
        assert.equal(answer.status, 415, `${path} ${String(type)}: ${answer.text}`);
        assert.equal(answer.json.error, 'unsupported_media_type');
        assert.match(answer.json.error_description, /Content-Type: application\/json/);
      }
    }
    assert.equal(await workspace(), before);
  });

  it('a chunked body without a type is 415 too', async () => {
    const answer = await rawRequest(url, '/__svc/fixtures', { method: 'POST', headers: { 'transfer-encoding': 'chunked' }, body: JSON.stringify(SMALL_FIXTURE) });
    assert.equal(answer.status, 415);
    assert.equal((await call(`${url}/__svc/users`)).json.users.length, 3);
  });

  it('application/json with parameters or in other letter case passes', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', 'application/json ; charset=utf-8']) {
      const answer = await rawRequest(url, '/__svc/clock', { method: 'POST', headers: { 'content-type': type }, body: '{"advanceSeconds":1}' });
      assert.equal(answer.status, 200, type);
    }
    assert.equal((await call(`${url}/__svc/reset`, { method: 'POST' })).status, 204);
  });

  it('a request without a body needs no type (POST /__svc/reset, DELETE /__svc/users/{id})', async () => {
    const reset = await rawRequest(url, '/__svc/reset', { method: 'POST', headers: { 'content-length': '0', 'content-type': 'text/plain' } });
    assert.equal(reset.status, 204);
    assert.equal((await call(`${url}/__svc/users/user-carmen`, { method: 'DELETE' })).status, 204);
    assert.equal((await call(`${url}/__svc/reset`, { method: 'POST' })).status, 204);
  });

  it('the cross-site check comes before the type check', async () => {
    const answer = await rawRequest(url, '/__svc/clock', { method: 'POST', headers: { 'content-type': 'text/plain', origin: 'http://evil.example' }, body: '{"advanceSeconds":60}' });
    assert.equal(answer.status, 403);
  });
});

describe('the service itself behind --base-url (docs/management-api.md)', () => {
  let proxied: RunningService;
  let direct: string;
  before(async () => {
    const listening = await freePort();
    proxied = await start({ port: listening, baseUrl: 'https://calendar.example.test' });
    direct = `http://127.0.0.1:${listening}`;
  });
  after(() => proxied.close());

  it("the base URL's origin passes, and http:// with its host name and the service's port", async () => {
    for (const origin of ['https://calendar.example.test', `http://calendar.example.test:${new URL(direct).port}`, direct]) {
      assert.equal((await postJson(`${direct}/__svc/clock`, { advanceSeconds: 1 }, { Origin: origin, 'Sec-Fetch-Site': 'same-origin' })).status, 200, origin);
    }
  });

  it('other origins of that host are refused', async () => {
    for (const origin of ['http://calendar.example.test', 'https://calendar.example.test:8443', 'https://evil.calendar.example.test']) {
      assert.equal((await postJson(`${direct}/__svc/clock`, { advanceSeconds: 1 }, { Origin: origin })).status, 403, origin);
    }
  });
});
