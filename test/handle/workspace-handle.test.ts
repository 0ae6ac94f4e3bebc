// The members that workspaces and checkpoints (docs/workspaces.md) serve: workspace(), checkpoint(),
// restore() and a workspace handle's delete() and reset(), from start(), through connect() to a
// `serve` process and from a workspace handle; and the whole handle suite once more against a
// workspace handle.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, start } from '../../src/index.ts';
import type { Handle, WorkspaceHandle } from '../../src/index.ts';
import { serveCli } from '../_helpers/cli-run.ts';
import type { Serving } from '../_helpers/cli-run.ts';
import { api, handleSuite, OWN_FIXTURE, serviceError, useHandle } from './suite.ts';
import type { HandleFactory } from './suite.ts';

let root: Handle;
handleSuite('of a workspace', {
  open: async () => {
    root = await start({ port: 0 });
    return root.workspace({ id: 'handle-suite' });
  },
  close: async (workspace) => {
    await (workspace as WorkspaceHandle | undefined)?.delete();
    await root.close();
  },
});

const EVENT = { start: { dateTime: '2026-10-20T10:00:00Z' }, end: { dateTime: '2026-10-20T11:00:00Z' } };

function workspaceSuite(name: string, factory: HandleFactory): void {
  describe(`workspaces and checkpoints, ${name}`, () => {
    const handle = useHandle(factory);
    let counter = 0;
    const fresh = (options: Parameters<Handle['workspace']>[0] = {}) => handle.workspace({ id: `ws-${process.pid}-${++counter}`, ...options });

    it('workspace(): a handle with its id and URL, isolated from the others', async () => {
      const rootConnections = await handle.connections();
      const workspace = await fresh();
      assert.match(workspace.id, /^ws-\d+-\d+$/);
      assert.ok(workspace.url.endsWith(`/w/${workspace.id}`), workspace.url);
      const token = await workspace.token();
      assert.equal((await api(workspace, token.access_token, 'users/me/calendarList')).status, 200);
      assert.equal((await api(handle, token.access_token, 'users/me/calendarList')).status, 401);
      assert.deepEqual(await handle.connections(), rootConnections);
      await workspace.delete();
    });

    it('workspace({fixture}): its data, its client for token(), and reset() back to that fixture', async () => {
      const workspace = await fresh({ fixture: OWN_FIXTURE });
      assert.deepEqual((await workspace.users()).map((u) => u.id), ['user-own']);
      await workspace.token();
      assert.equal((await workspace.connections())[0]?.clientId, 'own-client');
      await workspace.loadFixture({ users: [{ id: 'user-other', name: 'Other', email: 'other@example.com' }] });
      await workspace.reset();
      assert.deepEqual((await workspace.users()).map((u) => u.id), ['user-own']);
      assert.deepEqual(await workspace.connections(), []);
      await workspace.delete();
    });

    it("workspace({from}): a copy of another workspace's data, not its connections", async () => {
      const source = await fresh();
      const token = await source.token();
      const made = await api(source, token.access_token, 'calendars/primary/events', { method: 'POST', body: { summary: 'Copied', ...EVENT } });
      const copy = await fresh({ from: source.id });
      assert.deepEqual(await copy.connections(), []);
      const copyToken = await copy.token();
      assert.equal((await api(copy, copyToken.access_token, `calendars/primary/events/${made.json.id}`)).json.summary, 'Copied');
      await copy.delete();
      await source.delete();
    });

    it('workspace(): a refused id rejects with the status and body', async () => {
      const workspace = await fresh();
      const taken = await serviceError(handle.workspace({ id: workspace.id }));
      assert.equal(taken.status, 409);
      assert.equal((taken.body as { error: string }).error, 'conflict');
      const invalid = await serviceError(handle.workspace({ id: 'Not Valid' }));
      assert.equal(invalid.status, 400);
      await workspace.delete();
    });

    it('delete(): the workspace is gone, later calls reject with 404', async () => {
      const workspace = await fresh();
      await workspace.delete();
      const gone = await serviceError(workspace.users());
      assert.equal(gone.status, 404);
      assert.equal((gone.body as { error: string }).error, 'not_found');
      assert.equal((await serviceError(workspace.delete())).status, 404);
    });

    it('connect(workspace URL): the same workspace handle, with its id', async () => {
      const workspace = await fresh();
      const again = await connect(workspace.url);
      assert.equal(again.id, workspace.id);
      assert.equal(again.url, workspace.url);
      await again.loadFixture(OWN_FIXTURE);
      assert.deepEqual((await workspace.users()).map((u) => u.id), ['user-own']);
      await again.delete();
      assert.equal((await serviceError(workspace.users())).status, 404);
    });

    it('checkpoint(name), restore(name): data back as it was, a later token refused, the clock kept', async () => {
      await handle.reset();
      const before = await handle.token();
      const checkpoint = await handle.checkpoint('before-write');
      assert.equal(checkpoint.name, 'before-write');
      assert.match(checkpoint.createdAt, /^\d{4}-\d\d-\d\dT/);
      const made = await api(handle, before.access_token, 'calendars/primary/events', { method: 'POST', body: { summary: 'Undone', ...EVENT } });
      const later = await handle.token({ user: 'user-ben' });
      // Moved within the tokens' hour: the clock is not data, so the restore keeps it.
      await handle.clock.advance(1_800);
      const moved = Date.parse(await handle.clock.now());
      await handle.restore('before-write');
      assert.equal((await api(handle, before.access_token, `calendars/primary/events/${made.json.id}`)).status, 404);
      assert.equal((await api(handle, later.access_token, 'users/me/calendarList')).status, 401);
      const kept = Date.parse(await handle.clock.now()) - moved;
      assert.ok(kept >= 0 && kept < 60_000, `the clock went from ${new Date(moved).toISOString()} by ${kept} ms`);
      const unknown = await serviceError(handle.restore('no-such-checkpoint'));
      assert.equal(unknown.status, 404);
      assert.equal((unknown.body as { error: string }).error, 'not_found');
    });
  });
}

workspaceSuite('from start()', { open: () => start({ port: 0 }), close: async (handle) => handle?.close() });

let serving: Serving;
workspaceSuite('through connect() to a serve process', {
  open: async () => {
    serving = serveCli(['--port', '0', '--quiet']);
    return connect(await serving.listening);
  },
  close: async (handle) => {
    await handle?.close();
    serving.child.kill('SIGTERM');
    await serving.exited;
  },
});

let parent: Handle;
workspaceSuite('from a workspace handle', {
  open: async () => {
    parent = await start({ port: 0 });
    return parent.workspace({ id: 'parent' });
  },
  close: async (handle) => {
    await (handle as WorkspaceHandle | undefined)?.delete();
    await parent.close();
  },
});
