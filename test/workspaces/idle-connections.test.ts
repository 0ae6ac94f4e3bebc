// Idle workspaces on SQLite keep no connection open (docs/workspaces.md "Cost"): at most
// OPEN_CONNECTIONS workspace connections stay open, and a workspace whose connection closed
// answers exactly as before on its next request: its data and etags, its sync tokens, its push
// channel's message numbers, its journal and outbox. One holding a checkpoint stays open.
//
// A workspace's connection counts as closed once its WAL file is gone: the connection closing
// last deletes it.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { start } from '../../src/index.ts';
import { OPEN_CONNECTIONS } from '../../src/store/connection-budget.ts';
import { databaseFor } from '../_helpers/backends.ts';
import { api } from '../_helpers/calendar.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { OPEN_FILES_SKIP, openFiles } from '../_helpers/open-files.ts';
import { eventually } from '../_helpers/page.ts';
import { call, postJson } from '../_helpers/service.ts';
import { startWebhook } from '../_helpers/webhook.ts';

const EVENT = { summary: 'Before', start: { dateTime: '2030-01-01T10:00:00Z' }, end: { dateTime: '2030-01-01T11:00:00Z' }, attendees: [{ email: 'ben.carter@example.com' }] };

async function service(t: TestContext): Promise<{ url: string; db: string }> {
  const db = databaseFor(t, 'sqlite');
  const running = await start({ port: 0, db, maxWorkspaces: OPEN_CONNECTIONS + 20 });
  t.after(() => running.close());
  return { url: running.url, db };
}

/** Creates `count` more workspaces, which close the least recently used connections. */
async function createMore(url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) assert.equal((await postJson(`${url}/__svc/workspaces`, { id: `other-${i}` })).status, 201);
}

const connectionOpen = (db: string, id: string): boolean => existsSync(`${db}.workspaces/${id}.db-wal`);

describe('idle workspaces on SQLite', { skip: SQLITE_SKIP }, () => {
  it('a workspace whose connection closed answers as before: data, etags, sync tokens, channels, journal, outbox', async (t) => {
    const { url, db } = await service(t);
    const hook = await startWebhook(t);
    await postJson(`${url}/__svc/workspaces`, { id: 'a' });
    const base = `${url}/w/a`;
    const { access_token: token } = await obtainToken(base, { scope: 'calendar', offline: true });
    const inserted = await api(base, token, 'calendars/primary/events?sendUpdates=all', { method: 'POST', body: EVENT });
    assert.equal(inserted.status, 200, inserted.text);
    const watched = await api(base, token, 'calendars/primary/events/watch', { method: 'POST', body: { id: 'ch-a', type: 'web_hook', address: `${hook.url}/ch-a` } });
    assert.equal(watched.status, 200, watched.text);
    await hook.waitFor('/ch-a', 1);
    const listed = await api(base, token, 'calendars/primary/events');
    const reads = async () => ({
      event: (await api(base, token, `calendars/primary/events/${inserted.json.id}`)).json,
      list: (await api(base, token, 'calendars/primary/events')).json,
      channels: (await call(`${base}/__svc/channels`)).json.channels.map((c: { id: string; resourceId: string }) => [c.id, c.resourceId]),
      outbox: (await call(`${base}/__svc/outbox`)).json,
    });
    const before = await reads();
    const journal = (await call(`${base}/__svc/requests`)).json.last;

    await createMore(url, OPEN_CONNECTIONS + 1);
    await eventually(() => !connectionOpen(db, 'a'), "a's connection closed");

    assert.deepEqual(await reads(), before);
    assert.equal((await api(base, token, `calendars/primary/events?syncToken=${encodeURIComponent(listed.json.nextSyncToken)}`)).json.items.length, 0, 'the sync token still holds');
    assert.ok((await call(`${base}/__svc/requests`)).json.last > journal, 'the journal goes on');
    const later = await api(base, token, 'calendars/primary/events?sendUpdates=all', { method: 'POST', body: { ...EVENT, summary: 'After' } });
    assert.equal(later.status, 200, later.text);
    assert.notEqual(later.json.etag, before.event.etag);
    const [, changed] = await hook.waitFor('/ch-a', 2);
    assert.equal(changed?.headers['x-goog-message-number'], '2');
    assert.equal(changed?.headers['x-goog-resource-state'], 'exists');
    const synced = await api(base, token, `calendars/primary/events?syncToken=${encodeURIComponent(listed.json.nextSyncToken)}`);
    assert.deepEqual(synced.json.items.map((e: { id: string }) => e.id), [later.json.id]);
    const outbox = (await call(`${base}/__svc/outbox`)).json;
    assert.deepEqual(outbox.messages.slice(0, before.outbox.messages.length), before.outbox.messages);
    assert.ok(outbox.last > before.outbox.last, 'the outbox numbers on');
  });

  it('keeps at most OPEN_CONNECTIONS workspace connections open', { skip: OPEN_FILES_SKIP }, async (t) => {
    const { url, db } = await service(t);
    await createMore(url, OPEN_CONNECTIONS + 8);
    const folder = `${db}.workspaces/`;
    const open = (): number => openFiles((path) => path.startsWith(folder) && path.endsWith('.db'));
    await eventually(() => open() <= OPEN_CONNECTIONS, `at most ${OPEN_CONNECTIONS} workspace database files open`);
    assert.equal((await call(`${url}/__svc/workspaces`)).json.workspaces.length, OPEN_CONNECTIONS + 8, 'every one is listed, each opened to count its events');
  });

  it('a workspace holding a checkpoint keeps its connection, and restores', async (t) => {
    const { url, db } = await service(t);
    await postJson(`${url}/__svc/workspaces`, { id: 'a' });
    const base = `${url}/w/a`;
    const { access_token: token } = await obtainToken(base, { scope: 'calendar' });
    const inserted = await api(base, token, 'calendars/primary/events', { method: 'POST', body: EVENT });
    assert.equal((await postJson(`${base}/__svc/checkpoints`, { name: 'kept' })).status, 201);
    await api(base, token, `calendars/primary/events/${inserted.json.id}`, { method: 'PATCH', body: { summary: 'Changed' } });

    await createMore(url, OPEN_CONNECTIONS + 1);
    // The last workspace created is open; had a's connection closed, it would be gone by then.
    await eventually(() => !connectionOpen(db, 'other-0'), "other-0's connection closed");
    assert.ok(connectionOpen(db, 'a'));
    assert.equal((await postJson(`${base}/__svc/checkpoints/kept/restore`, {})).status, 204);
    assert.equal((await api(base, token, `calendars/primary/events/${inserted.json.id}`)).json.summary, 'Before');
  });
});
