// A database file keeps its data across restarts, and the startup fixture seeds only a new one.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { call, postJson } from '../_helpers/service.ts';

describe('persistence on a database file', { skip: SQLITE_SKIP }, () => {
  it('seeds a new database once; a restart keeps its data and does not re-seed', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'cal-persist-')), 'calendar.db');
    const first = await start({ port: 0, db });
    assert.equal((await call(`${first.url}/__svc/users`)).json.users.length, 3);
    assert.equal((await call(`${first.url}/__svc/users/user-ben`, { method: 'DELETE' })).status, 204);
    await first.close();

    const second = await start({ port: 0, db });
    const users = (await call(`${second.url}/__svc/users`)).json.users.map((u: { id: string }) => u.id);
    assert.deepEqual(users, ['user-aiko', 'user-carmen']);
    await second.close();
  });

  it('a fixture loaded by the management API survives a restart with another startup fixture', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'cal-persist-')), 'calendar.db');
    const first = await start({ port: 0, db });
    const loaded = await postJson(`${first.url}/__svc/fixtures`, { users: [{ id: 'solo', name: 'Solo', email: 'solo@example.com' }] });
    assert.equal(loaded.status, 200);
    await first.close();

    const second = await start({ port: 0, db, fixture: { users: [{ id: 'other', name: 'Other', email: 'other@example.com' }] } });
    assert.deepEqual((await call(`${second.url}/__svc/users`)).json.users.map((u: { id: string }) => u.id), ['solo']);
    // reset goes back to the startup fixture of this run
    assert.equal((await call(`${second.url}/__svc/reset`, { method: 'POST' })).status, 204);
    assert.deepEqual((await call(`${second.url}/__svc/users`)).json.users.map((u: { id: string }) => u.id), ['other']);
    await second.close();
  });
});

describe(':memory: sessions', () => {
  it('start fresh from the startup fixture every time', async () => {
    const first = await start({ port: 0 });
    await call(`${first.url}/__svc/users/user-ben`, { method: 'DELETE' });
    await first.close();
    const second = await start({ port: 0 });
    assert.equal((await call(`${second.url}/__svc/users`)).json.users.length, 3);
    await second.close();
  });
});
