// Workspaces (docs/workspaces.md): the API that creates, lists and deletes them, every surface under
// a workspace's prefix and on its own port, URLs that carry the prefix, and tokens that work
// only where they were issued. Each on both stores.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { api, AUTH_ERROR } from '../_helpers/calendar.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';
import { startWebhook } from '../_helpers/webhook.ts';

const AIKO = 'aiko.tanaka@example.com';

async function startFor(t: { after(fn: () => unknown): void }, backend: (typeof BACKENDS)[number], options: { maxWorkspaces?: number } = {}): Promise<string> {
  const service = await start({ port: 0, db: databaseFor(t, backend), ...options });
  t.after(() => service.close());
  return service.url;
}

for (const backend of BACKENDS) {
  describe(`workspaces API (${backend})`, { skip: skipUnless(backend) }, () => {
    it('creates, lists and deletes workspaces, with the errors of docs/workspaces.md', async (t) => {
      const url = await startFor(t, backend, { maxWorkspaces: 2 });
      const created = await postJson(`${url}/__svc/workspaces`, { id: 'w-1' });
      assert.equal(created.status, 201);
      assert.equal(created.json.id, 'w-1');
      assert.equal(created.json.baseUrl, `${url}/w/w-1`);
      assert.ok(!Number.isNaN(Date.parse(created.json.createdAt)));
      assert.deepEqual(Object.keys(created.json).sort(), ['baseUrl', 'createdAt', 'id'], 'the create answer is where and when, as documented');

      assert.equal((await postJson(`${url}/__svc/workspaces`, { id: 'w-1' })).json.error, 'conflict');
      assert.equal((await postJson(`${url}/__svc/workspaces`, { id: 'w-1' })).status, 409);
      for (const id of ['', 'UPPER', 'a_b', 'x'.repeat(41), 7]) {
        const refused = await postJson(`${url}/__svc/workspaces`, { id });
        assert.equal(refused.status, 400, `id ${JSON.stringify(id)}`);
        assert.equal(refused.json.error, 'invalid_request');
      }
      assert.equal((await postJson(`${url}/__svc/workspaces`, { from: 'nobody' })).status, 404);
      assert.equal((await postJson(`${url}/__svc/workspaces`, { fixture: { users: 'no' } })).status, 400);

      const generated = await postJson(`${url}/__svc/workspaces`, {});
      assert.equal(generated.status, 201);
      assert.match(generated.json.id, /^[a-z0-9-]{1,40}$/);
      const full = await postJson(`${url}/__svc/workspaces`, {});
      assert.equal(full.status, 429);
      assert.equal(full.json.error, 'too_many_workspaces');

      const listed = await call(`${url}/__svc/workspaces`);
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.json.workspaces.map((w: { id: string }) => w.id), ['w-1', generated.json.id]);
      const first = listed.json.workspaces[0];
      assert.equal(first.users, 3);
      assert.equal(typeof first.events, 'number');
      assert.equal(first.lastRequestAt, null);

      assert.equal((await call(`${url}/__svc/workspaces/w-1`, { method: 'DELETE' })).status, 204);
      assert.equal((await call(`${url}/__svc/workspaces/w-1`, { method: 'DELETE' })).status, 404);
      const gone = await call(`${url}/w/w-1/__svc/users`);
      assert.equal(gone.status, 404);
      assert.equal(gone.json.error, 'not_found');
      // The id is free again, and the new workspace starts afresh.
      assert.equal((await postJson(`${url}/__svc/workspaces`, { id: 'w-1' })).status, 201);
    });

    it('starts from the startup fixture, a given fixture, or a copy of another workspace', async (t) => {
      const url = await startFor(t, backend);
      await postJson(`${url}/__svc/workspaces`, { id: 'plain' });
      const fixture = { clients: [{ id: 'c', secret: 's', redirectUris: ['http://127.0.0.1/cb'] }], users: [{ id: 'only', name: 'Only', email: 'only@example.com', timeZone: 'UTC' }] };
      await postJson(`${url}/__svc/workspaces`, { id: 'own', fixture });
      const users = async (prefix: string) => (await call(`${url}${prefix}/__svc/users`)).json.users.map((u: { id: string }) => u.id);
      assert.deepEqual(await users('/w/plain'), await users(''));
      assert.deepEqual(await users('/w/own'), ['only']);

      // A copy takes the data as it is now; a reset returns it to what it was copied from.
      assert.equal((await call(`${url}/w/plain/__svc/users/user-ben`, { method: 'DELETE' })).status, 204);
      await postJson(`${url}/__svc/workspaces`, { id: 'copy', from: 'plain' });
      assert.deepEqual(await users('/w/copy'), await users('/w/plain'));
      assert.equal((await call(`${url}/w/copy/__svc/users/user-aiko`, { method: 'DELETE' })).status, 204);
      assert.equal((await call(`${url}/w/copy/__svc/reset`, { method: 'POST' })).status, 204);
      assert.deepEqual(await users('/w/copy'), await users('/w/plain'));
      assert.equal((await call(`${url}/w/own/__svc/reset`, { method: 'POST' })).status, 204);
      assert.deepEqual(await users('/w/own'), ['only']);
      // The root was never touched.
      assert.ok((await users('')).includes('user-ben'));
    });

    it('a token works only in the workspace that issued it', async (t) => {
      const url = await startFor(t, backend);
      await postJson(`${url}/__svc/workspaces`, { id: 'a' });
      await postJson(`${url}/__svc/workspaces`, { id: 'b' });
      const places = [url, `${url}/w/a`, `${url}/w/b`];
      for (const issuer of places) {
        const token = (await obtainToken(issuer, { scope: 'calendar' })).access_token;
        for (const place of places) {
          const answer = await api(place, token, 'users/me/calendarList');
          if (place === issuer) assert.equal(answer.status, 200, `${issuer} at ${place}`);
          else {
            assert.equal(answer.status, 401, `${issuer} at ${place}`);
            assert.deepEqual(answer.json, AUTH_ERROR);
          }
        }
      }
    });

    it('every surface answers under the prefix, and the URLs it writes carry it', async (t) => {
      const url = await startFor(t, backend);
      await postJson(`${url}/__svc/workspaces`, { id: 'w' });
      const base = `${url}/w/w`;

      const consent = await call(`${base}/oauth/authorize?client_id=local-calendar-client&redirect_uri=${encodeURIComponent('http://127.0.0.1:3000/oauth2callback')}&response_type=code&scope=${encodeURIComponent('https://www.googleapis.com/auth/calendar')}`);
      assert.equal(consent.status, 200, consent.text);
      assert.match(consent.text, /<form method="post" action="\/w\/w\/oauth\/authorize">/);

      const token = await obtainToken(base, { scope: ['calendar', 'openid', 'email'], offline: true });
      assert.equal((await call(`${base}/userinfo`, { headers: { authorization: `Bearer ${token.access_token}` } })).json.email, AIKO);
      const refreshed = await call(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token.refresh_token as string, client_id: 'local-calendar-client', client_secret: 'local-calendar-secret' }).toString(),
      });
      assert.equal(refreshed.status, 200, refreshed.text);

      const inserted = await api(base, token.access_token, 'calendars/primary/events', { method: 'POST', body: { summary: 'Here', start: { dateTime: '2030-01-01T10:00:00Z' }, end: { dateTime: '2030-01-01T11:00:00Z' } } });
      assert.equal(inserted.status, 200, inserted.text);
      assert.ok(inserted.json.htmlLink.startsWith(`${base}/calendar/event?eid=`), inserted.json.htmlLink);
      assert.equal((await api(url, undefined, 'users/me/calendarList')).status, 401);

      const hooks = await startWebhook(t);
      const watched = await api(base, token.access_token, 'calendars/primary/events/watch', { method: 'POST', body: { id: 'ch-1', type: 'web_hook', address: `${hooks.url}/hook` } });
      assert.equal(watched.status, 200, watched.text);
      assert.ok(watched.json.resourceUri.startsWith(`${base}/calendar/v3/`), watched.json.resourceUri);
      await api(base, token.access_token, 'calendars/primary/events', { method: 'POST', body: { summary: 'Again', start: { dateTime: '2030-01-02T10:00:00Z' }, end: { dateTime: '2030-01-02T11:00:00Z' } } });
      const [sync, exists] = await hooks.waitFor('/hook', 2);
      assert.equal(sync?.headers['x-goog-resource-state'], 'sync');
      assert.equal(exists?.headers['x-goog-resource-uri'], watched.json.resourceUri);
      assert.equal((await call(`${base}/__svc/channels`)).json.channels.length, 1);
      assert.equal((await call(`${url}/__svc/channels`)).json.channels.length, 0);

      // The management paths (docs/management-api.md) act on the workspace alone.
      const rule = await postJson(`${base}/__svc/faults`, { match: { method: 'calendar.events.list' }, error: 'backendError' });
      assert.equal(rule.status, 201);
      assert.equal((await api(base, token.access_token, 'calendars/primary/events')).status, 500);
      assert.equal((await call(`${url}/__svc/faults`)).json.faults.length, 0);
      assert.equal((await call(`${base}/__svc/faults`, { method: 'DELETE' })).status, 204);
      const journal = (await call(`${base}/__svc/requests`)).json.requests;
      assert.ok(journal.some((entry: { path: string }) => entry.path === '/calendar/v3/calendars/primary/events'), 'the journal shows the path the workspace sees');
      const rootJournal = (await call(`${url}/__svc/requests`)).json.requests;
      assert.deepEqual(rootJournal.map((entry: { path: string }) => entry.path), ['/calendar/v3/users/me/calendarList'], "the root's journal has its own request alone");
      assert.equal((await postJson(`${base}/__svc/clock`, { advanceSeconds: 3600 })).json.offsetSeconds, 3600);
      assert.equal((await call(`${url}/__svc/clock`)).json.offsetSeconds, 0);
      assert.equal((await call(`${base}/__svc/health`)).json.status, 'ok');
      assert.equal((await call(`${base}/__svc/outbox`)).status, 200);
      assert.equal((await call(`${base}/__svc/connections`)).json.connections.length, 1);
      assert.equal((await call(`${url}/__svc/connections`)).json.connections.length, 0);
      const exported = await call(`${base}/__svc/fixtures`);
      assert.ok(JSON.stringify(exported.json).includes('Here'));
      assert.ok(!(await call(`${url}/__svc/fixtures`)).text.includes('"Here"'));
      assert.equal((await call(`${base}/__svc/users/user-aiko/calendars`)).status, 200);
      assert.equal((await postJson(`${base}/__svc/fixtures`, exported.json)).status, 200);
      assert.equal((await call(`${base}/__svc/connections`)).json.connections.length, 0, 'the fixture load ended the connection');
      assert.equal((await call(`${base}/__svc/reset`, { method: 'POST' })).status, 204);
      // Unrouted paths answer as docs/calendar-api.md says, in the workspace as at the root.
      assert.equal((await call(`${base}/nowhere`)).status, 501);
    });

    it("the inspector's links and calls carry the prefix", async (t) => {
      const url = await startFor(t, backend);
      await postJson(`${url}/__svc/workspaces`, { id: 'w' });
      const page = await call(`${url}/w/w/__svc/ui`);
      assert.equal(page.status, 200);
      const links = [...page.text.matchAll(/(?:href|src)="([^"#]+)"/g)].map((m) => m[1] as string);
      assert.ok(links.length >= 4);
      for (const link of links) {
        assert.ok(link.startsWith('/w/w/__svc/'), link);
        assert.equal((await call(`${url}${link}`)).status, 200, link);
      }
      const root = await call(`${url}/__svc/ui`);
      assert.ok(root.text.includes('href="/__svc/ui/inspector.css"'));
      assert.ok(root.text.includes('id="workspace-picker"'));
      const script = await call(`${url}/w/w/__svc/ui/api.js`);
      assert.match(script.text, /fetch\(PREFIX \+ path/);
    });

    it('a workspace can have a listener of its own, closed on delete', async (t) => {
      const url = await startFor(t, backend);
      const created = await postJson(`${url}/__svc/workspaces`, { id: 'ported', port: 0 });
      assert.equal(created.status, 201, created.text);
      const portUrl = created.json.portUrl as string;
      assert.match(portUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal((await call(`${url}/__svc/workspaces`)).json.workspaces[0].portUrl, portUrl);
      const token = (await obtainToken(portUrl, { scope: 'calendar' })).access_token;
      const inserted = await api(portUrl, token, 'calendars/primary/events', { method: 'POST', body: { summary: 'Port', start: { dateTime: '2030-01-01T10:00:00Z' }, end: { dateTime: '2030-01-01T11:00:00Z' } } });
      assert.ok(inserted.json.htmlLink.startsWith(`${portUrl}/calendar/event`), inserted.json.htmlLink);
      // The same workspace through the prefix: the same token, the same event.
      assert.equal((await api(`${url}/w/ported`, token, `calendars/primary/events/${inserted.json.id}`)).status, 200);
      assert.equal((await api(url, token, 'calendars/primary/events')).status, 401);
      assert.equal((await call(`${portUrl}/__svc/workspaces`)).status, 501, 'the root alone manages workspaces');
      assert.equal((await call(`${url}/__svc/workspaces/ported`, { method: 'DELETE' })).status, 204);
      await assert.rejects(fetch(`${portUrl}/__svc/health`));
    });
  });
}
