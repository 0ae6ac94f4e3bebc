// The command line around the service (docs/cli.md): `exec`, `--export-on-exit`, the banner and
// `--quiet`, `--log-requests` (never a secret), a port in use, `--allowed-hosts`, and `token`
// reading CALENDAR_EMULATOR_URL and printing one `--field`.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { runCli, serveCli } from '../_helpers/cli-run.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { rawRequest } from '../_helpers/raw-http.ts';
import { call, postJson } from '../_helpers/service.ts';

const scratch = () => mkdtempSync(join(tmpdir(), 'cli-commands-'));
/** A node program for `exec` to run, given as `node -e`. */
const nodeProgram = (source: string) => [process.execPath, '-e', source];

describe('exec', () => {
  it('runs the command with CALENDAR_EMULATOR_URL, stops the service and passes its exit code', async () => {
    const dir = scratch();
    const seen = join(dir, 'seen.json');
    const program = `const url = process.env.CALENDAR_EMULATOR_URL;
      fetch(url + '/__svc/health').then((r) => r.json()).then((health) => {
        require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ url, health }));
        process.exit(3);
      });`;
    const result = await runCli(['exec', '--', ...nodeProgram(program)]);
    assert.equal(result.code, 3, result.stderr);
    const { url, health } = JSON.parse(readFileSync(seen, 'utf8'));
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(url, 'http://127.0.0.1:8080', 'exec picks a free port unless --port is given');
    assert.equal(health.status, 'ok');
    assert.equal(result.stdout, '', 'exec prints no Listening line of its own');
    // Stopped: nothing answers there any more.
    await assert.rejects(fetch(`${url}/__svc/health`));
  });

  it('a command killed by a signal: 128 + its number', async () => {
    const result = await runCli(['exec', '--quiet', '--', ...nodeProgram(`process.kill(process.pid, 'SIGTERM')`)]);
    assert.equal(result.code, 143, result.stderr);
  });

  it('a command that cannot be started: 127 with one line', async () => {
    const result = await runCli(['exec', '--quiet', '--', 'no-such-command-here']);
    assert.equal(result.code, 127);
    assert.match(result.stderr, /cannot run "no-such-command-here": ENOENT/);
  });

  it('options before --, the command after; no command is exit 2', async () => {
    const dir = scratch();
    const file = join(dir, 'export.json');
    const program = `fetch(process.env.CALENDAR_EMULATOR_URL + '/__svc/users/user-ben', { method: 'DELETE' }).then((r) => process.exit(r.status === 204 ? 0 : 1))`;
    const result = await runCli(['exec', '--export-on-exit', file, '--', ...nodeProgram(program)]);
    assert.equal(result.code, 0, result.stderr);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(
      exported.users.map((u: { id: string }) => u.id),
      ['user-aiko', 'user-carmen'],
    );
    const none = await runCli(['exec', '--port', '0']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /exec needs a command after --/);
  });
});

describe('serve', () => {
  it('--export-on-exit writes the export on SIGTERM, and it loads back', async () => {
    const file = join(scratch(), 'export.json');
    const serving = serveCli(['--port', '0', '--quiet', '--export-on-exit', file]);
    const url = await serving.listening;
    assert.equal((await call(`${url}/__svc/users/user-carmen`, { method: 'DELETE' })).status, 204);
    serving.child.kill('SIGTERM');
    assert.equal((await serving.exited).code, 0);
    assert.ok(existsSync(file));
    const service = await start({ port: 0, fixture: file });
    try {
      const users = (await call(`${service.url}/__svc/users`)).json.users.map((u: { id: string }) => u.id);
      assert.deepEqual(users, ['user-aiko', 'user-ben']);
    } finally {
      await service.close();
    }
  });

  it('the banner names the inspector, the client, the users and the token command; --quiet leaves it out', async () => {
    const serving = serveCli(['--port', '0']);
    const url = await serving.listening;
    await call(`${url}/__svc/health`);
    const banner = serving.stderr();
    serving.child.kill('SIGTERM');
    const { stdout } = await serving.exited;
    assert.equal(stdout, `Listening on ${url}\n`);
    assert.match(banner, new RegExp(`Inspector: +${url}/__svc/ui`));
    assert.match(banner, /Client: +local-calendar-client +redirect URI http:\/\/127\.0\.0\.1:3000\/oauth2callback/);
    assert.match(banner, /Test users: +user-aiko, user-ben, user-carmen/);
    assert.match(banner, new RegExp(`token --url ${url} --user user-aiko --field access_token`));
    assert.ok(!banner.includes('local-calendar-secret'), 'the banner prints no secret');

    // The banner goes out before the service answers its first request, as above; `exited` waits
    // for stderr to close, so whatever the process wrote is read by then.
    const quiet = serveCli(['--port', '0', '--quiet']);
    await call(`${await quiet.listening}/__svc/health`);
    quiet.child.kill('SIGTERM');
    await quiet.exited;
    assert.equal(quiet.stderr().replace('SIGTERM received, shutting down\n', ''), '');
  });

  it('a port in use: exit 2, one line naming it and suggesting --port 0', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const result = await runCli(['--port', String(port)]);
      assert.equal(result.code, 2);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`port ${port}.*in use.*--port 0`));
    } finally {
      holder.close();
    }
  });

  it('--log-requests: one line per request with status, method, path, operation and user, never a secret', async () => {
    const serving = serveCli(['--port', '0', '--quiet', '--log-requests']);
    const url = await serving.listening;
    const token = await obtainToken(url, { user: 'user-aiko', scope: ['calendar'], offline: true });
    const secrets = [token.access_token, token.refresh_token as string, 'local-calendar-secret', 'channel-secret-token'];
    await call(`${url}/calendar/v3/users/me/calendarList?access_token=${token.access_token}`);
    await call(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token.refresh_token, client_id: 'local-calendar-client', client_secret: 'local-calendar-secret' }),
    });
    await postJson(`${url}/calendar/v3/calendars/primary/events/watch`, { id: 'c1', type: 'web_hook', address: 'https://example.com/hook', token: 'channel-secret-token' }, { Authorization: `Bearer ${token.access_token}` });
    serving.child.kill('SIGTERM');
    await serving.exited;
    const lines = serving.stderr().split('\n').filter((line) => /^\d{4}-\d\d-\d\dT/.test(line));
    assert.ok(lines.length >= 6, serving.stderr());
    const listed = lines.find((line) => line.includes('calendar.calendarList.list'));
    assert.match(listed ?? '', /^\S+Z 200 GET \/calendar\/v3\/users\/me\/calendarList calendar\.calendarList\.list user-aiko - \d+\.\dms$/);
    for (const secret of secrets) {
      for (const form of [secret, encodeURIComponent(secret)]) assert.ok(!serving.stderr().includes(form), `a log line shows ${form.slice(0, 12)}…`);
    }
  });
});

describe('--allowed-hosts (containers)', () => {
  let service: RunningService;
  let port: string;
  before(async () => {
    service = await start({ port: 0, allowedHosts: ['calendar', 'proxy.test:9999'] });
    port = new URL(service.url).port;
  });
  after(() => service.close());
  const withHost = (host: string, path = '/__svc/health') => rawRequest(service.url, path, { headers: { Host: host } });

  it('a listed name passes on any port, a name:port on that port only', async () => {
    assert.equal((await withHost(`calendar:${port}`)).status, 200);
    assert.equal((await withHost('calendar')).status, 200);
    assert.equal((await withHost('proxy.test:9999')).status, 200);
    assert.equal((await withHost('proxy.test:9998')).status, 403);
    assert.equal((await withHost(`calendar:${port}`, '/oauth/authorize?client_id=local-calendar-client')).status, 400, 'the consent page takes it too');
  });

  it('the 403 names the flag to use', async () => {
    const refused = await withHost(`other:${port}`);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error, 'forbidden');
    assert.match(refused.json.error_description, /--allowed-hosts/);
    assert.match(refused.json.error_description, /CALENDAR_ALLOWED_HOSTS/);
  });

  it('from the command line and the environment; a malformed name is exit 2', async () => {
    const serving = serveCli(['--port', '0', '--quiet'], { CALENDAR_ALLOWED_HOSTS: 'calendar-emulator, Other.Test' });
    const url = await serving.listening;
    try {
      assert.equal((await rawRequest(url, '/__svc/health', { headers: { Host: 'other.test' } })).status, 200);
      assert.equal((await rawRequest(url, '/__svc/health', { headers: { Host: 'calendar-emulator:80' } })).status, 200);
    } finally {
      serving.child.kill('SIGTERM');
      await serving.exited;
    }
    const bad = await runCli(['--allowed-hosts', 'evil.example/path']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--allowed-hosts takes host names/);
  });
});

describe('token', () => {
  it('--workspace runs the flow in that workspace (docs/workspaces.md)', async () => {
    const service = await start({ port: 0 });
    try {
      await postJson(`${service.url}/__svc/workspaces`, { id: 'w-1' });
      const result = await runCli(['token', '--workspace', 'w-1', '--field', 'access_token'], { CALENDAR_EMULATOR_URL: service.url });
      assert.equal(result.code, 0, result.stderr);
      const headers = { Authorization: `Bearer ${result.stdout.trim()}` };
      assert.equal((await call(`${service.url}/w/w-1/calendar/v3/users/me/calendarList`, { headers })).status, 200);
      assert.equal((await call(`${service.url}/calendar/v3/users/me/calendarList`, { headers })).status, 401);
      const refused = await runCli(['token', '--workspace', 'Not/An/Id'], { CALENDAR_EMULATOR_URL: service.url });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /--workspace must be a workspace id/);
    } finally {
      await service.close();
    }
  });

  it('reads CALENDAR_EMULATOR_URL and prints one --field', async () => {
    const service = await start({ port: 0 });
    try {
      const result = await runCli(['token', '--user', 'user-ben', '--field', 'access_token'], { CALENDAR_EMULATOR_URL: service.url });
      assert.equal(result.code, 0, result.stderr);
      const accessToken = result.stdout.trim();
      assert.equal(result.stdout, `${accessToken}\n`);
      const me = await call(`${service.url}/userinfo`, { headers: { Authorization: `Bearer ${accessToken}` } });
      assert.equal(me.status, 403, 'calendar scope only: userinfo needs openid, but the token is live');
      const list = await call(`${service.url}/calendar/v3/users/me/calendarList`, { headers: { Authorization: `Bearer ${accessToken}` } });
      assert.equal(list.status, 200);
      const missing = await runCli(['token', '--field', 'refresh_token'], { CALENDAR_EMULATOR_URL: service.url });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no field "refresh_token"/);
    } finally {
      await service.close();
    }
  });
});
