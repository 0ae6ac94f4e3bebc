// The read-only views and the health probe of docs/management-api.md: a user's calendars, a calendar's
// events over a window exactly as its owner's events.list with singleEvents=true,
// orderBy=startTime and showDeleted=true lists them, and GET /__svc/health, on both stores.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { api, tokenFor } from '../_helpers/calendar.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { call, postJson, startService } from '../_helpers/service.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const CARMEN = 'carmen.diaz@example.com';

function managementError(answer: { status: number; json: any }, status: number, error: string): void {
  assert.equal(answer.status, status);
  assert.equal(answer.json.error, error);
  assert.equal(typeof answer.json.error_description, 'string');
}

for (const backend of BACKENDS) {
  describe(`read-only views and health (${backend} store)`, { skip: skipUnless(backend) }, () => {
    it("lists a user's calendars, the primary first; an unknown user is 404", async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend) });
      const answer = await call(`${url}/__svc/users/user-aiko/calendars`);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json, {
        calendars: [
          { id: 'aiko.tanaka@example.com', summary: 'Aiko Tanaka', timeZone: 'Asia/Tokyo', primary: true },
          { id: 'team-aiko@group.calendar.example.com', summary: 'Team', timeZone: 'Asia/Tokyo', primary: false },
        ],
      });
      managementError(await call(`${url}/__svc/users/nobody/calendars`), 404, 'not_found');
    });

    it("shows a window of events exactly as the owner's expanded listing with deletions", async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend) });
      const token = await tokenFor(url, 'calendar', 'user-carmen');
      // A deleted event and a cancelled instance beside the fixture's moved and cancelled ones.
      const inserted = await api(url, token, 'calendars/primary/events', {
        method: 'POST',
        body: { summary: 'Gone', start: { dateTime: '2026-10-28T09:00:00-04:00' }, end: { dateTime: '2026-10-28T09:30:00-04:00' } },
      });
      assert.equal((await api(url, token, `calendars/primary/events/${inserted.json.id}`, { method: 'DELETE' })).status, 204);
      const window = 'timeMin=2026-10-24T00:00:00Z&timeMax=2026-11-08T00:00:00Z';
      const listed = await api(url, token, `calendars/primary/events?singleEvents=true&orderBy=startTime&showDeleted=true&maxResults=2500&${window}`);
      assert.equal(listed.status, 200, listed.text);
      const viewed = await call(`${url}/__svc/calendars/${encodeURIComponent(CARMEN)}/events?${window}`);
      assert.equal(viewed.status, 200, viewed.text);
      assert.deepEqual(viewed.json, { timeZone: 'America/New_York', items: listed.json.items });
      const statuses = new Set(viewed.json.items.map((e: { status: string }) => e.status));
      assert.ok(statuses.has('cancelled') && statuses.has('confirmed'), 'the window holds live and cancelled events');
      assert.ok(viewed.json.items.some((e: { recurringEventId?: string }) => e.recurringEventId !== undefined), 'series are expanded');
      // An empty window is an empty list.
      const empty = await call(`${url}/__svc/calendars/${encodeURIComponent(CARMEN)}/events?timeMin=2001-01-01T00:00:00Z&timeMax=2001-01-02T00:00:00Z`);
      assert.deepEqual(empty.json, { timeZone: 'America/New_York', items: [] });
    });

    it('refuses an unknown calendar (404) and a bad or missing window (400)', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend) });
      const events = `${url}/__svc/calendars/${encodeURIComponent(CARMEN)}/events`;
      managementError(await call(`${url}/__svc/calendars/nobody%40example.com/events?timeMin=2026-10-24T00:00:00Z&timeMax=2026-11-08T00:00:00Z`), 404, 'not_found');
      for (const query of ['', '?timeMin=2026-10-24T00:00:00Z', '?timeMax=2026-10-24T00:00:00Z', '?timeMin=yesterday&timeMax=2026-11-08T00:00:00Z', '?timeMin=2026-10-24T00:00:00Z&timeMax=2026-10-24T00:00:00Z']) {
        managementError(await call(`${events}${query}`), 400, 'invalid_request');
      }
    });

    it('reports health: the store, the version and real uptime, not the service clock', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend) });
      await postJson(`${url}/__svc/clock`, { advanceSeconds: 86_400 });
      const answer = await call(`${url}/__svc/health`);
      assert.equal(answer.status, 200, answer.text);
      const { uptimeSeconds, ...rest } = answer.json;
      assert.deepEqual(rest, { status: 'ok', store: backend, version: VERSION });
      assert.ok(Number.isInteger(uptimeSeconds) && uptimeSeconds >= 0 && uptimeSeconds < 3600, `uptimeSeconds ${uptimeSeconds}`);
    });
  });
}
