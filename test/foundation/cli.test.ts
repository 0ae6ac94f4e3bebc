// The CLI as a user runs it: spawned processes, real signals, exit codes and the one stdout line.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli as run, serveCli as serve } from '../_helpers/cli-run.ts';
import { sqliteAvailable } from '../_helpers/node.ts';

describe('CLI', () => {
  it('--help prints usage and exits 0', async () => {
    const result = await run(['--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage:/);
    for (const flag of ['--host', '--port', '--db', '--fixture', '--base-url', '--version']) assert.ok(result.stdout.includes(flag), flag);
  });

  it('--version prints the package version', async () => {
    const result = await run(['--version']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  for (const [args, pattern] of [
    [['--bogus'], /unknown option "--bogus"/],
    [['--port', 'eighty'], /--port must be an integer/],
    [['--port', '70000'], /--port must be an integer/],
    [['--port'], /--port needs a value/],
    [['--base-url', 'ftp://x'], /--base-url must be an absolute http/],
  ] as const) {
    it(`exits 2 with one line for ${args.join(' ')}`, async () => {
      const result = await run([...args]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, pattern);
      assert.equal(result.stderr.trim().split('\n').length, 1);
      assert.equal(result.stdout, '');
    });
  }

  it('exits 2 naming the JSON path of an invalid startup fixture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cal-cli-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ clients: [], users: [{ id: 'u', name: 'U', email: 'not-an-email' }] }));
    const result = await run(['--fixture', file, '--port', '0']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /users\[0\]\.email/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  // docs/cli.md: the path and the rule on one line, never the fixture's text: it may hold client
  // secrets, and JSON.parse's own message quotes the text around a syntax error.
  const SECRET = 'sup3r-s3cret-value';
  const client = `{"id": "c", "secret": "${SECRET}", "redirectUris": ["http://127.0.0.1:3000/cb"]}`;
  for (const [what, text, expected] of [
    [
      'an unknown event member',
      `{"clients": [${client}], "users": [{"id": "u", "name": "U", "email": "u@example.com", "calendars": [{"primary": true, "events": [{"summary": "${SECRET}", "start": {"dateTime": "2026-10-19T10:00:00Z", "Timezone": "UTC"}, "end": {"dateTime": "2026-10-19T11:00:00Z"}}]}]}]}`,
      'users[0].calendars[0].events[0].start.Timezone: unknown key (names are case-sensitive: did you mean timeZone?)',
    ],
    ['an unquoted secret (JSON syntax)', `{"clients": [{"id": "c", "secret": ${SECRET}}]}`, 'fixture file FILE is not valid JSON (line 1, column 36)'],
    ['a syntax error after the secret', `{"clients": [{"id": "c", "secret": "${SECRET}" "redirectUris": []}]}`, 'fixture file FILE is not valid JSON (line 1, column 57)'],
    ['an own __proto__ beside the secret', `{"clients": [{"id": "c", "secret": "${SECRET}", "__proto__": {"secret": "${SECRET}"}}]}`, 'clients[0].__proto__: unknown key'],
    ['a control character in a client id', `{"clients": [{"id": "${SECRET}\u0085", "secret": "${SECRET}"}]}`, 'clients[0].id: must not contain control characters (U+0000-U+001F, U+007F-U+009F)'],
    ['a line break in an unknown key', `{"clients": [{"id": "c", "secret": "${SECRET}", "a\\nb": 1}]}`, 'clients[0]["a\\nb"]: unknown key'],
  ] as const) {
    it(`a bad startup fixture (${what}): exit 2, one stderr line with the path and the rule, never the secret`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cal-cli-'));
      const file = join(dir, 'bad.json');
      writeFileSync(file, text);
      const result = await run(['--fixture', file, '--port', '0']);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      assert.equal(result.stderr, `error: invalid fixture: ${expected.replace('FILE', file)}\n`);
      assert.ok(!result.stderr.includes(SECRET));
    });
  }

  it('a line break in the fixture file name cannot break the error line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cal-cli-'));
    const result = await run(['--fixture', join(dir, 'no\nerror: forged.json'), '--port', '0']);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.split('\n').length, 2, result.stderr);
    assert.ok(result.stderr.includes('no\\u000aerror: forged.json'), result.stderr);
  });

  it('exits 2 for a fixture file that does not exist', async () => {
    const result = await run(['--fixture', '/nonexistent/fixture.json', '--port', '0']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /cannot read fixture file/);
  });

  it('a file database without node:sqlite exits 2 naming the Node version needed', { skip: sqliteAvailable ? 'node:sqlite is available here' : false }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cal-cli-'));
    const result = await run(['--db', join(dir, 'cal.db'), '--port', '0']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /22\.13/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  it('starts with --port 0, prints exactly one Listening line and stops on SIGTERM with exit 0', async () => {
    const { child, listening, exited } = serve(['--port', '0']);
    const url = await listening;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const users = (await (await fetch(`${url}/__svc/users`)).json()) as { users: Array<{ id: string }> };
    assert.equal(users.users[0]?.id, 'user-aiko');
    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    assert.equal(code, 0);
    assert.equal(stdout, `Listening on ${url}\n`);
  });

  it('stops on SIGINT with exit 0', async () => {
    const { child, listening, exited } = serve(['--port', '0']);
    await listening;
    child.kill('SIGINT');
    assert.equal((await exited).code, 0);
  });

  it('reads options from the environment, and flags win over it', async () => {
    const { child, listening, exited } = serve(['--port', '0'], { PORT: '1', HOST: '127.0.0.1', BASE_URL: 'http://calendar.test:9999' });
    const url = await listening;
    assert.equal(url, 'http://calendar.test:9999');
    child.kill('SIGTERM');
    await exited;
  });

  it('a bad environment value exits 2', async () => {
    const result = await run([], { PORT: 'x' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--port must be an integer/);
  });
});
