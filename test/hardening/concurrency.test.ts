// Concurrency: 50 clients at once against the real CLI on a database
// file, a fixed number of mixed reads and writes each, while another process now and then holds
// the database's write lock. No answer is a 500, no SQLite error reaches a client, and the final
// state is exactly what the acknowledged operations say. Correctness only: the throughput of
// this workload is a row of the benchmark (test/bench/run.ts, "mixed workload"), where the
// machine's load cannot fail a test.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startCli, tempDbPath } from '../_helpers/cli-process.ts';
import { Rng, SEED } from '../_helpers/fuzz.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { obtainToken } from '../_helpers/oauth.ts';

const CLIENTS = 50;
const REQUESTS_PER_CLIENT = 12;
const EVENTS = '/calendar/v3/calendars/primary/events';
const USERS = ['user-aiko', 'user-ben', 'user-carmen'];

describe('50 parallel clients on the SQLite store', { skip: SQLITE_SKIP }, () => {
  it('answer without a 500 or SQLITE_BUSY, and end in the acknowledged state', { timeout: 60_000 }, async (t) => {
    const db = tempDbPath();
    const service = await startCli(db);
    t.after(() => service.child.kill('SIGKILL'));
    const url = service.url;
    const tokens = new Map<string, string>();
    for (const user of USERS) tokens.set(user, (await obtainToken(url, { user, scope: 'calendar' })).access_token);

    // Another process's write lock, held 150 ms at a time: the service must wait it out
    // (busy_timeout), never pass SQLITE_BUSY on.
    const { DatabaseSync } = await import('node:sqlite');
    const other = new DatabaseSync(db);
    other.exec('PRAGMA busy_timeout = 5000');
    t.after(() => other.close());
    let holding = true;
    const locker = (async () => {
      while (holding) {
        other.exec('BEGIN IMMEDIATE');
        await new Promise((resolve) => setTimeout(resolve, 150));
        other.exec('COMMIT');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();

    const failures: string[] = [];
    let answered = 0;
    /** Per client: the events it owns and their acknowledged summaries (undefined: deleted). */
    const finalState = new Map<string, { token: string; events: Map<string, string | undefined> }>();

    const client = async (c: number) => {
      const r = new Rng(SEED).fork(`client-${c}`);
      const token = tokens.get(USERS[c % USERS.length] as string) as string;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const events = new Map<string, string | undefined>();
      finalState.set(`c${c}`, { token, events });
      for (let n = 0; n < REQUESTS_PER_CLIENT; n++) {
        const live = [...events].filter(([, s]) => s !== undefined).map(([id]) => id);
        const roll = r.next();
        let path: string;
        let init: RequestInit = { headers };
        let onAck = (_body: string) => {};
        if (roll < 0.25 || (roll < 0.55 && live.length === 0)) {
          const id = `cc${c}n${String(n).padStart(5, '0')}`;
          const summary = `c${c} ${n}`;
          path = EVENTS;
          init = { method: 'POST', headers, body: JSON.stringify({ id, summary, start: { dateTime: '2026-11-02T09:00:00Z' }, end: { dateTime: '2026-11-02T09:30:00Z' } }) };
          onAck = () => events.set(id, summary);
        } else if (roll < 0.45) {
          const id = r.pick(live);
          const summary = `c${c} patched ${n}`;
          path = `${EVENTS}/${id}`;
          init = { method: 'PATCH', headers, body: JSON.stringify({ summary }) };
          onAck = () => events.set(id, summary);
        } else if (roll < 0.55) {
          const id = r.pick(live);
          path = `${EVENTS}/${id}`;
          init = { method: 'DELETE', headers };
          onAck = () => events.set(id, undefined);
        } else if (roll < 0.75) {
          path = `${EVENTS}?singleEvents=true&timeMin=2026-10-01T00:00:00Z&timeMax=2026-12-01T00:00:00Z&maxResults=50`;
        } else if (roll < 0.85) {
          path = '/calendar/v3/freeBusy';
          init = { method: 'POST', headers, body: JSON.stringify({ timeMin: '2026-10-19T00:00:00Z', timeMax: '2026-11-19T00:00:00Z', items: [{ id: 'primary' }, { id: 'ben.clarke@example.com' }] }) };
        } else if (roll < 0.95) {
          path = '/calendar/v3/users/me/calendarList';
        } else {
          path = '/__svc/connections';
        }
        const answer = await fetch(`${url}${path}`, init);
        const body = await answer.text();
        answered++;
        if (answer.status >= 500 || /SQLITE|database is locked/i.test(body)) failures.push(`${init.method ?? 'GET'} ${path}: ${answer.status} ${body.slice(0, 200)}`);
        else if (answer.status >= 300) failures.push(`${init.method ?? 'GET'} ${path}: unexpected ${answer.status} ${body.slice(0, 200)}`);
        else onAck(body);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    holding = false;
    await locker;

    assert.deepEqual(failures, []);
    assert.equal(answered, CLIENTS * REQUESTS_PER_CLIENT);
    assert.doesNotMatch(service.stderr(), /SQLITE|internal error|failed to answer/i);
    for (const token of tokens.values()) assert.ok(!service.stderr().includes(token), 'an access token was logged');

    // The final state, client by client, is what was acknowledged.
    for (const [name, { token, events }] of finalState) {
      for (const [id, summary] of events) {
        const answer = await fetch(`${url}${EVENTS}/${id}`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(answer.status, 200, `${name} ${id}`);
        const event = (await answer.json()) as { summary?: string; status: string };
        if (summary === undefined) assert.equal(event.status, 'cancelled', `${name} ${id} should be deleted`);
        else assert.deepEqual([event.status, event.summary], ['confirmed', summary], `${name} ${id}`);
      }
    }
    service.child.kill('SIGTERM');
    assert.equal((await service.exited).code, 0);
  });
});
