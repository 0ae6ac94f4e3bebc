// The `token` command (src/cli/token.ts) as a person runs it: a spawned process against a running
// service, its stdout JSON, its one-line errors and exit codes.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { before, describe, it } from 'node:test';
import { runCli } from '../_helpers/cli-run.ts';
import { call, startService } from '../_helpers/service.ts';

/** The token command, run to completion, with no CALENDAR_EMULATOR_URL of the test's own environment. */
const run = (args: string[]) => runCli(['token', ...args], { CALENDAR_EMULATOR_URL: '' });

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let base: string;
before(async (t) => {
  base = await startService(t as never);
});

describe('token command', () => {
  it('prints the token JSON of the real consent flow', async () => {
    const res = await run(['--url', base, '--user', 'user-aiko', '--scope', 'calendar.readonly openid', '--offline']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, '');
    const token = JSON.parse(res.stdout);
    assert.deepEqual(Object.keys(token).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    assert.equal(token.scope, 'https://www.googleapis.com/auth/calendar.readonly openid');
    const me = await call(`${base}/userinfo`, { headers: { Authorization: `Bearer ${token.access_token}` } });
    assert.equal(me.json.sub, 'user-aiko');
    const connections = (await call(`${base}/__svc/connections`)).json.connections;
    assert.equal(connections.at(-1).offline, true);
  });

  it('defaults: scope calendar, online, the first user; --flag=value works', async () => {
    const res = await run([`--url=${base}/`, '--user=user-carmen']);
    assert.equal(res.code, 0, res.stderr);
    const token = JSON.parse(res.stdout);
    assert.equal(token.scope, 'https://www.googleapis.com/auth/calendar');
    assert.equal(token.refresh_token, undefined);
    const last = (await call(`${base}/__svc/connections`)).json.connections.at(-1);
    assert.equal(last.userId, 'user-carmen');
  });

  it('an OAuth error: one line on stderr naming it, exit 1', async () => {
    const res = await run(['--url', base, '--scope', 'calendar.acls']);
    assert.equal(res.code, 1);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /^error: GET \/oauth\/authorize failed: invalid_scope: .*calendar\.acls.*\n$/);
  });

  it('a wrong client secret: exit 1 with invalid_client', async () => {
    const res = await run(['--url', base, '--client-secret', 'wrong']);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^error: POST \/oauth\/token failed: invalid_client: .*\n$/);
  });

  it('an unknown user: exit 1, listing the users', async () => {
    const res = await run(['--url', base, '--user', 'nobody']);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^error: unknown test user "nobody"; the service has: user-aiko, .*\n$/);
  });

  it('an unreachable service: exit 1', async () => {
    const res = await run(['--url', `http://127.0.0.1:${await closedPort()}`]);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^error: cannot reach the service at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);
  });

  it('bad arguments: exit 2', async () => {
    for (const args of [['--nope'], ['--user'], ['--url', 'not a url'], ['--scope', ' , '], ['--url', `${base}/calendar/v3`]]) {
      const res = await run(args);
      assert.equal(res.code, 2, args.join(' '));
      assert.match(res.stderr, /^error: .+\n$/);
      assert.equal(res.stdout, '');
    }
  });

  it('--help prints the usage, exit 0', async () => {
    const res = await run(['--help']);
    assert.equal(res.code, 0);
    assert.match(res.stdout, /--offline/);
  });
});
