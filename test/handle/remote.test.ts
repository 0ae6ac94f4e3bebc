// The handle's suite through connect(): a `serve` process started apart, as CI, a container or
// `exec` would run it, reached only over HTTP.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from '../../src/index.ts';
import { serveCli } from '../_helpers/cli-run.ts';
import type { Serving } from '../_helpers/cli-run.ts';
import { freePort } from '../_helpers/ports.ts';
import { handleSuite } from './suite.ts';

let serving: Serving;

handleSuite('through connect() to a serve process', {
  open: async () => {
    serving = serveCli(['--port', '0', '--quiet']);
    return connect(`${await serving.listening}/`);
  },
  close: async (handle) => {
    await handle?.close();
    serving.child.kill('SIGTERM');
    await serving.exited;
  },
});

test('connect(): rejects when nothing answers there', async () => {
  const port = await freePort();
  await assert.rejects(connect(`http://127.0.0.1:${port}`), /cannot reach the service at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
});

test('connect(): close() only forgets the service, which goes on answering', async (t) => {
  const other = serveCli(['--port', '0', '--quiet']);
  t.after(async () => {
    other.child.kill('SIGTERM');
    await other.exited;
  });
  const url = await other.listening;
  const handle = await connect(url);
  assert.equal(handle.url, url);
  await handle.close();
  assert.equal((await fetch(`${url}/__svc/health`)).status, 200);
});
