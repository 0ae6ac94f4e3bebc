// Graceful shutdown under load: SIGTERM to the real CLI while 30
// clients have reads and writes in flight. Every request gets a whole answer (never a 500) or a
// clean refusal of the connection, the process exits 0, the database is closed cleanly (its WAL
// checkpointed away) and reopens with every acknowledged write and integrity_check ok.
// (test/foundation/cli.test.ts covers SIGTERM and SIGINT on an idle service.)

import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { integrityCheck, startCli, tempDbPath } from '../_helpers/cli-process.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { obtainToken } from '../_helpers/oauth.ts';

const EVENTS = '/calendar/v3/calendars/primary/events';
/** SIGTERM goes out once this many answers came back, every client with requests in flight. */
const ANSWERS_BEFORE_SIGTERM = 90;

/** Errors that mean the connection was refused or closed before an answer began: clean. */
function cleanClose(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(cause?.code ?? '');
}

describe('SIGTERM under load', { skip: SQLITE_SKIP }, () => {
  it('answers or cleanly closes every request, exits 0 and leaves a clean database', { timeout: 60_000 }, async (t) => {
    const db = tempDbPath();
    const service = await startCli(db);
    t.after(() => service.child.kill('SIGKILL'));
    const token = (await obtainToken(service.url, { scope: 'calendar' })).access_token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const acked: string[] = [];
    const problems: string[] = [];
    let answered = 0;
    let refused = 0;
    let stop = false;
    let loaded!: () => void;
    const underLoad = new Promise<void>((resolve) => (loaded = resolve));
    const client = async (c: number) => {
      for (let n = 0; !stop; n++) {
        const write = n % 2 === 0;
        const id = `sd${c}n${String(n).padStart(5, '0')}`;
        const init: RequestInit = write
          ? { method: 'POST', headers, body: JSON.stringify({ id, start: { dateTime: '2026-10-21T09:00:00Z' }, end: { dateTime: '2026-10-21T10:00:00Z' } }) }
          : { headers };
        const path = write ? EVENTS : `${EVENTS}?singleEvents=true&timeMin=2026-10-01T00:00:00Z&timeMax=2026-12-01T00:00:00Z&maxResults=20`;
        try {
          const answer = await fetch(`${service.url}${path}`, init);
          const body = await answer.text();
          if (++answered === ANSWERS_BEFORE_SIGTERM) loaded();
          if (answer.status !== 200) problems.push(`${init.method ?? 'GET'}: ${answer.status} ${body.slice(0, 200)}`);
          else if (write) acked.push(id);
          else JSON.parse(body); // a whole, parseable answer
        } catch (error) {
          if (!cleanClose(error)) problems.push(`not a clean close: ${String(error)} ${String((error as { cause?: unknown }).cause)}`);
          refused++;
          return;
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 30 }, (_, c) => client(c)));
    // Every client dies early only if something is wrong; the assertions below then say what.
    await Promise.race([underLoad, clients]);
    const before = answered;
    service.child.kill('SIGTERM');
    const exit = await service.exited;
    stop = true;
    await clients;

    assert.deepEqual(exit, { code: 0, signal: null }, service.stderr());
    assert.deepEqual(problems, []);
    assert.ok(before >= ANSWERS_BEFORE_SIGTERM, `only ${before} answers before SIGTERM`);
    assert.doesNotMatch(service.stderr(), /error/i);
    // A clean close checkpoints the WAL into the database file.
    assert.ok(!existsSync(`${db}-wal`) || statSync(`${db}-wal`).size === 0, 'the WAL was left behind');
    assert.equal(await integrityCheck(db), 'ok');

    const again = await startCli(db);
    t.after(() => again.child.kill('SIGKILL'));
    for (const id of acked) {
      const answer = await fetch(`${again.url}${EVENTS}/${id}`, { headers });
      assert.equal(answer.status, 200, `acknowledged ${id} is missing after the restart`);
    }
    again.child.kill('SIGTERM');
    assert.equal((await again.exited).code, 0);
    assert.doesNotMatch(again.stderr(), /error|recover/i);
  });
});
