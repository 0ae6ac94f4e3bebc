// Isolation, adversarially (docs/workspaces.md): random operations run in several workspaces of one
// service at once, interleaved, and each workspace is checked against a fresh service of its own
// that was fed the same operations one after another. Whatever one workspace did must show
// nowhere else: its events (ids chosen to collide across workspaces), its journal entries, fault
// rules, clock, connections, outbox messages and channels; its tokens answer 401 everywhere else.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { api } from '../_helpers/calendar.ts';
import { Rng, SEED } from '../_helpers/fuzz.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';

const WORKSPACES = 3;
const OPERATIONS = 40;
const GUESTS = ['ben.carter@example.com', 'carmen.diaz@example.com'];

/** One operation, the same for the shared service and the workspace's own. */
type Operation = (base: string, token: string) => Promise<unknown>;

function operations(rng: Rng): Operation[] {
  const ops: Operation[] = [];
  for (let n = 0; n < OPERATIONS; n++) {
    // Ids shared by every workspace's stream, so that a leak would show as a collision.
    const id = `ev${rng.int(0, 9)}`;
    const kind = rng.pick(['insert', 'insert', 'patch', 'delete', 'fault', 'clock', 'list', 'invite', 'watch']);
    const summary = `s${rng.int(0, 999)}`;
    const day = String(rng.int(1, 28)).padStart(2, '0');
    // Every draw here, none inside an operation: replaying one must send the same requests.
    const times = rng.int(1, 3);
    const guest = rng.pick(GUESTS);
    const body = { id, summary, start: { dateTime: `2030-03-${day}T10:00:00Z` }, end: { dateTime: `2030-03-${day}T11:00:00Z` } };
    ops.push(
      {
        insert: (base: string, token: string) => api(base, token, 'calendars/primary/events', { method: 'POST', body }),
        patch: (base: string, token: string) => api(base, token, `calendars/primary/events/${id}`, { method: 'PATCH', body: { summary } }),
        delete: (base: string, token: string) => api(base, token, `calendars/primary/events/${id}`, { method: 'DELETE' }),
        fault: (base: string) => postJson(`${base}/__svc/faults`, { match: { method: 'calendar.freebusy.query' }, error: 'backendError', times }),
        clock: (base: string) => postJson(`${base}/__svc/clock`, { advanceSeconds: 60 }),
        list: (base: string, token: string) => api(base, token, 'calendars/primary/events?showDeleted=true'),
        invite: (base: string, token: string) => api(base, token, 'calendars/primary/events?sendUpdates=all', { method: 'POST', body: { ...body, id: `${id}inv`, attendees: [{ email: guest }] } }),
        watch: (base: string, token: string) => api(base, token, 'calendars/primary/events/watch', { method: 'POST', body: { id: `ch-${summary}`, type: 'web_hook', address: 'https://hooks.example.com/notify' } }),
      }[kind] as Operation,
    );
  }
  return ops;
}

/** What a workspace shows of itself, with what differs by nature between two services left out. */
async function picture(base: string, token: string): Promise<unknown> {
  const events = (await api(base, token, 'calendars/primary/events?showDeleted=true&maxResults=2500')).json.items.map((e: Record<string, unknown>) => [e.id, e.summary, e.status]);
  const journal = (await call(`${base}/__svc/requests?limit=1000`)).json.requests.map((r: Record<string, unknown>) => [r.id, r.method, r.path, r.operation, r.status, r.error, r.fault]);
  const faults = (await call(`${base}/__svc/faults`)).json.faults.map((f: Record<string, unknown>) => [f.id, f.remaining, f.hits]);
  const outbox = (await call(`${base}/__svc/outbox`)).json.messages.map((m: Record<string, unknown>) => [m.to, m.kind, m.eventId]);
  const channels = (await call(`${base}/__svc/channels`)).json.channels.map((c: Record<string, unknown>) => c.id);
  const connections = (await call(`${base}/__svc/connections`)).json.connections.length;
  const clock = (await call(`${base}/__svc/clock`)).json.offsetSeconds;
  return { events, journal, faults, outbox, channels, connections, clock };
}

for (const backend of BACKENDS) {
  describe(`isolation between workspaces (${backend})`, { skip: skipUnless(backend) }, () => {
    it(`${WORKSPACES} workspaces at once each match a service of their own (seed ${SEED})`, { timeout: 120_000 }, async (t) => {
      const shared = await start({ port: 0, db: databaseFor(t, backend) });
      t.after(() => shared.close());
      const alone = await Promise.all(Array.from({ length: WORKSPACES }, () => start({ port: 0, db: databaseFor(t, backend) })));
      t.after(() => Promise.all(alone.map((service) => service.close())));
      const rng = new Rng(SEED);
      const bases = [shared.url];
      for (let w = 0; w < WORKSPACES; w++) {
        assert.equal((await postJson(`${shared.url}/__svc/workspaces`, { id: `w${w}` })).status, 201);
        bases.push(`${shared.url}/w/w${w}`);
      }
      // The root runs a stream of its own too: it is a workspace like the others.
      const streams = bases.map((_, w) => operations(rng.fork(`workspace ${w}`)));
      const references = [shared.url, ...alone.map((service) => service.url)];
      // Tokens first, one per workspace, so the journals start alike.
      const tokens = await Promise.all(bases.map(async (base) => (await obtainToken(base, { scope: 'calendar' })).access_token));
      const referenceTokens = await Promise.all(references.slice(1).map(async (base) => (await obtainToken(base, { scope: 'calendar' })).access_token));

      // Every workspace's stream at once on the shared service, interleaved by the event loop.
      await Promise.all(
        streams.map(async (stream, w) => {
          for (const op of stream) await op(bases[w] as string, tokens[w] as string);
        }),
      );
      for (let w = 1; w < bases.length; w++) {
        const reference = references[w] as string;
        for (const op of streams[w] as Operation[]) await op(reference, referenceTokens[w - 1] as string);
        assert.deepEqual(await picture(bases[w] as string, tokens[w] as string), await picture(reference, referenceTokens[w - 1] as string), `workspace w${w - 1}`);
      }
      // Each token answers in its own workspace alone.
      for (const [w, token] of tokens.entries()) {
        for (const [v, base] of bases.entries()) {
          const status = (await api(base, token, 'users/me/calendarList')).status;
          assert.equal(status, w === v ? 200 : 401, `token of ${w} at ${v}`);
        }
      }
    });
  });
}
