// Crash safety: the real CLI on a database file takes a mixed burst of
// writes (events inserted, patched and deleted, access tokens issued, channels opened) from eight
// clients and is killed with SIGKILL mid-burst. After a restart every acknowledged write is there
// exactly as acknowledged, nothing appears that was never sent, and PRAGMA integrity_check is ok.
// (test/store/store.test.ts proves the same for the store alone; this is the whole service.)

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { DEFAULT_CLIENT } from '../../src/handle/consent.ts';
import { integrityCheck, startCli, tempDbPath } from '../_helpers/cli-process.ts';
import { Rng, SEED } from '../_helpers/fuzz.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { obtainToken } from '../_helpers/oauth.ts';

const EVENTS = '/calendar/v3/calendars/primary/events';
/** SIGKILL goes out on this acknowledgement, mid-burst: the other workers have requests in flight. */
const KILL_AT_ACK = 300;

interface EventState {
  summary: string;
  cancelled: boolean;
}

describe('SIGKILL during a write burst', { skip: SQLITE_SKIP }, () => {
  it('keeps every acknowledged write and nothing half-written', { timeout: 60_000 }, async (t) => {
    const receiver = createServer((_req, res) => res.end()).listen(0, '127.0.0.1');
    t.after(() => receiver.close());
    await new Promise((resolve) => receiver.once('listening', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const db = tempDbPath();
    const first = await startCli(db);
    const base = first.url;
    const grant = await obtainToken(base, { scope: 'calendar', offline: true });
    const bearer = { authorization: `Bearer ${grant.access_token}`, 'content-type': 'application/json' };

    const acked = new Map<string, EventState>();
    /** Events a request was in flight for when the process died: either state may have committed. */
    const uncertain = new Set<string>();
    const sent = new Set<string>();
    const tokens: string[] = [];
    const channels: string[] = [];
    let acks = 0;
    let killed = false;

    const worker = async (w: number) => {
      const r = new Rng(SEED).fork(`crash-${w}`);
      const mine: string[] = [];
      for (let n = 0; !killed; n++) {
        const live = mine.filter((id) => !acked.get(id)?.cancelled);
        const roll = r.next();
        let id: string | undefined;
        let apply: (() => void) | undefined;
        let request: [string, RequestInit];
        if (roll < 0.45 || live.length === 0) {
          id = `ev${w}n${String(n).padStart(5, '0')}`;
          const summary = `w${w} insert ${n}`;
          request = [EVENTS, { method: 'POST', headers: bearer, body: JSON.stringify({ id, summary, start: { dateTime: '2026-10-20T10:00:00Z' }, end: { dateTime: '2026-10-20T11:00:00Z' } }) }];
          const created = id;
          apply = () => {
            acked.set(created, { summary, cancelled: false });
            mine.push(created);
          };
        } else if (roll < 0.7) {
          id = r.pick(live);
          const summary = `w${w} patch ${n}`;
          request = [`${EVENTS}/${id}`, { method: 'PATCH', headers: bearer, body: JSON.stringify({ summary }) }];
          const target = id;
          apply = () => acked.set(target, { summary, cancelled: false });
        } else if (roll < 0.8) {
          id = r.pick(live);
          request = [`${EVENTS}/${id}`, { method: 'DELETE', headers: bearer }];
          const target = id;
          apply = () => acked.set(target, { ...(acked.get(target) as EventState), cancelled: true });
        } else if (roll < 0.95) {
          request = ['/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: grant.refresh_token ?? '', client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret }).toString() }];
        } else {
          request = [`${EVENTS}/watch`, { method: 'POST', headers: bearer, body: JSON.stringify({ id: `chan-${w}-${n}`, type: 'web_hook', address: hook }) }];
        }
        if (id !== undefined) {
          sent.add(id);
          uncertain.add(id);
        }
        let answer: Response;
        try {
          answer = await fetch(`${base}${request[0]}`, request[1]);
        } catch {
          return; // the process died with this request in flight: unacknowledged
        }
        const text = await answer.text().catch(() => undefined);
        if (text === undefined) return;
        assert.ok(answer.status < 300, `${request[1].method} ${request[0]}: ${answer.status} ${text}`);
        if (id !== undefined) uncertain.delete(id);
        apply?.();
        if (request[0] === '/oauth/token') tokens.push((JSON.parse(text) as { access_token: string }).access_token);
        if (request[0].endsWith('/watch')) channels.push((JSON.parse(text) as { id: string }).id);
        if (++acks === KILL_AT_ACK) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    const death = await first.exited;
    assert.equal(death.signal, 'SIGKILL', `the service ended on its own: ${first.stderr()}`);

    assert.equal(await integrityCheck(db), 'ok');
    const second = await startCli(db);
    t.after(() => second.child.kill('SIGKILL'));
    const url = second.url;
    const get = (path: string, token = grant.access_token) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });

    const listed = await get(`${EVENTS}?showDeleted=true&maxResults=2500`);
    assert.equal(listed.status, 200);
    const items = ((await listed.json()) as { items: Array<{ id: string; summary?: string; status: string }> }).items;
    const byId = new Map(items.map((e) => [e.id, e]));
    for (const [id, state] of acked) {
      if (uncertain.has(id)) continue;
      const event = byId.get(id);
      assert.ok(event, `acknowledged event ${id} is missing`);
      assert.equal(event.summary, state.summary, `${id}: not the acknowledged summary`);
      assert.equal(event.status === 'cancelled', state.cancelled, `${id}: not the acknowledged status`);
    }
    for (const event of items) {
      if (event.id.startsWith('ev') && /^ev\dn/.test(event.id)) assert.ok(sent.has(event.id), `${event.id} was never sent`);
    }
    for (const token of tokens) assert.equal((await get('/calendar/v3/users/me/calendarList', token)).status, 200, 'an acknowledged access token is gone');
    const stored = ((await (await fetch(`${url}/__svc/channels`)).json()) as { channels: Array<{ id: string }> }).channels.map((c) => c.id);
    for (const id of channels) assert.ok(stored.includes(id), `acknowledged channel ${id} is gone`);

    second.child.kill('SIGTERM');
    assert.equal((await second.exited).code, 0);
    assert.equal(await integrityCheck(db), 'ok');
  });
});
