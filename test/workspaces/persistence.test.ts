// Workspaces on a database file survive a restart, SIGKILL included, like the root's data
// (docs/workspaces.md "Persistence"); under :memory: they live as long as the process. A deleted
// workspace stays deleted.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { databaseFor } from '../_helpers/backends.ts';
import { api } from '../_helpers/calendar.ts';
import { startCli, tempDbPath } from '../_helpers/cli-process.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';

const EVENT = { summary: 'Kept', start: { dateTime: '2030-01-01T10:00:00Z' }, end: { dateTime: '2030-01-01T11:00:00Z' } };

describe('workspaces on a database file', { skip: SQLITE_SKIP }, () => {
  it('are listed again after a restart, with their data, tokens and a new port', async (t) => {
    const db = databaseFor(t, 'sqlite');
    const first = await start({ port: 0, db });
    await postJson(`${first.url}/__svc/workspaces`, { id: 'kept' });
    await postJson(`${first.url}/__svc/workspaces`, { id: 'ported', port: 0 });
    await postJson(`${first.url}/__svc/workspaces`, { id: 'own', fixture: { users: [{ id: 'solo', name: 'Solo', email: 'solo@example.com', timeZone: 'UTC' }] } });
    await postJson(`${first.url}/__svc/workspaces`, { id: 'gone' });
    assert.equal((await call(`${first.url}/__svc/workspaces/gone`, { method: 'DELETE' })).status, 204);
    assert.ok(!existsSync(`${db}.workspaces/gone.db`), "a deleted workspace's file goes");
    const token = (await obtainToken(`${first.url}/w/kept`, { scope: 'calendar' })).access_token;
    const inserted = await api(`${first.url}/w/kept`, token, 'calendars/primary/events', { method: 'POST', body: EVENT });
    await first.close();

    const second = await start({ port: 0, db });
    t.after(() => second.close());
    const listed = (await call(`${second.url}/__svc/workspaces`)).json.workspaces;
    assert.deepEqual(listed.map((w: { id: string }) => w.id), ['kept', 'ported', 'own']);
    assert.match(listed[1].portUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await call(`${listed[1].portUrl}/__svc/health`)).status, 200);
    const again = await api(`${second.url}/w/kept`, token, `calendars/primary/events/${inserted.json.id}`);
    assert.equal(again.status, 200);
    assert.equal(again.json.summary, 'Kept');
    assert.equal((await call(`${second.url}/w/gone/__svc/users`)).status, 404);
    // A workspace's own fixture is still what its reset returns to.
    assert.equal((await call(`${second.url}/w/own/__svc/reset`, { method: 'POST' })).status, 204);
    assert.deepEqual((await call(`${second.url}/w/own/__svc/users`)).json.users.map((u: { id: string }) => u.id), ['solo']);
  });

  it('are found in a file whose registry is one value listing them all, which becomes a key each', async (t) => {
    const db = databaseFor(t, 'sqlite');
    const first = await start({ port: 0, db });
    await postJson(`${first.url}/__svc/workspaces`, { id: 'older' });
    await postJson(`${first.url}/__svc/workspaces`, { id: 'newer', port: 0 });
    await first.close();
    // The registry as an earlier build wrote it: one meta value listing every workspace.
    const { DatabaseSync } = await import('node:sqlite');
    const file = new DatabaseSync(db);
    const keys = file.prepare("SELECT key, value FROM meta WHERE key LIKE 'workspace:%' ORDER BY key DESC").all() as Array<{ key: string; value: string }>;
    assert.equal(keys.length, 2);
    const listed = keys.map((row) => JSON.parse(row.value) as { createdAt: string }).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    file.prepare("INSERT INTO meta (key, value) VALUES ('workspaces', ?)").run(JSON.stringify(listed));
    file.exec("DELETE FROM meta WHERE key LIKE 'workspace:%'");
    file.close();

    const second = await start({ port: 0, db });
    const workspaces = (await call(`${second.url}/__svc/workspaces`)).json.workspaces;
    assert.deepEqual(workspaces.map((w: { id: string }) => w.id), ['older', 'newer']);
    assert.match(workspaces[1].portUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await call(`${second.url}/__svc/workspaces/older`, { method: 'DELETE' })).status, 204);
    await second.close();
    const third = await start({ port: 0, db });
    t.after(() => third.close());
    assert.deepEqual((await call(`${third.url}/__svc/workspaces`)).json.workspaces.map((w: { id: string }) => w.id), ['newer']);
  });

  it('survive SIGKILL right after they were acknowledged', { timeout: 60_000 }, async () => {
    const db = tempDbPath();
    const first = await startCli(db);
    assert.equal((await postJson(`${first.url}/__svc/workspaces`, { id: 'w-1' })).status, 201);
    const token = (await obtainToken(`${first.url}/w/w-1`, { scope: 'calendar' })).access_token;
    const inserted = await api(`${first.url}/w/w-1`, token, 'calendars/primary/events', { method: 'POST', body: EVENT });
    assert.equal(inserted.status, 200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startCli(db);
    try {
      assert.deepEqual((await call(`${second.url}/__svc/workspaces`)).json.workspaces.map((w: { id: string }) => w.id), ['w-1']);
      assert.equal((await api(`${second.url}/w/w-1`, token, `calendars/primary/events/${inserted.json.id}`)).json.summary, 'Kept');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});

describe('workspaces under :memory:', () => {
  it('live as long as the process', async () => {
    const first = await start({ port: 0 });
    await postJson(`${first.url}/__svc/workspaces`, { id: 'w' });
    await first.close();
    const second = await start({ port: 0 });
    try {
      assert.deepEqual((await call(`${second.url}/__svc/workspaces`)).json.workspaces, []);
    } finally {
      await second.close();
    }
  });
});
