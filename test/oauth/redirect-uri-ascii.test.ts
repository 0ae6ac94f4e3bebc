// A redirect URI with characters a Location header cannot carry (`…/cb☃`) once made the consent's
// approval answer 500 after the connection was stored. Fixtures now refuse such a URI, and a
// database that still holds one (written before the rule) has its authorization requests refused
// before anything is stored.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start } from '../../src/index.ts';
import { tempDbPath } from '../_helpers/cli-process.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { authorizeQuery } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';

const SNOWMAN = 'http://127.0.0.1:3000/cb\u2603';
const fixtureWith = (redirectUri: string) => ({
  clients: [{ id: 'snow-client', secret: 'snow-secret', redirectUris: ['http://127.0.0.1:3000/ok', redirectUri] }],
  users: [{ id: 'user-aiko', name: 'Aiko', email: 'aiko@example.com' }],
});

test('a fixture whose redirect URI is not ASCII is refused with its path, and nothing changes', async (t) => {
  const service = await start({ port: 0 });
  t.after(() => service.close());
  const before = (await call(`${service.url}/__svc/users`)).text;
  for (const uri of [SNOWMAN, 'http://127.0.0.1:3000/c b', 'http://127.0.0.1:3000/cb\u00e9']) {
    const answer = await postJson(`${service.url}/__svc/fixtures`, fixtureWith(uri));
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.json.error, 'invalid_fixture');
    assert.match(answer.json.error_description, /clients\[0\]\.redirectUris\[1\]/);
    assert.match(answer.json.error_description, /ASCII/);
  }
  assert.equal((await call(`${service.url}/__svc/users`)).text, before);
  // Percent-encoded, the same address is welcome.
  assert.equal((await postJson(`${service.url}/__svc/fixtures`, fixtureWith('http://127.0.0.1:3000/cb%E2%98%83'))).status, 200);
});

test('a stored non-ASCII redirect URI: the authorization request is refused and no connection is made', { skip: SQLITE_SKIP }, async (t) => {
  const db = tempDbPath();
  let service = await start({ port: 0, db, fixture: fixtureWith('http://127.0.0.1:3000/cbX') });
  await service.close();
  // As a build before the rule could have stored it.
  const { DatabaseSync } = await import('node:sqlite');
  const file = new DatabaseSync(db);
  file.prepare('UPDATE clients SET redirect_uris = ? WHERE id = ?').run(JSON.stringify(['http://127.0.0.1:3000/ok', SNOWMAN]), 'snow-client');
  file.close();

  service = await start({ port: 0, db });
  t.after(() => service.close());
  const page = await call(`${service.url}/oauth/authorize?${authorizeQuery({ client_id: 'snow-client', redirect_uri: SNOWMAN })}`);
  assert.equal(page.status, 400, page.text.slice(0, 300));
  assert.equal(page.json.error, 'invalid_request');
  assert.match(page.json.error_description, /ASCII/);
  assert.deepEqual((await call(`${service.url}/__svc/connections`)).json.connections, []);
  // The client's other URI works as before.
  const ok = await call(`${service.url}/oauth/authorize?${authorizeQuery({ client_id: 'snow-client', redirect_uri: 'http://127.0.0.1:3000/ok' })}`);
  assert.equal(ok.status, 200);
});
