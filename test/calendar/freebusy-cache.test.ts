// Busy times kept in the window cache (src/calendar/freebusy.ts, window-cache.ts): a repeated
// freebusy.query is answered without expanding the calendar again, and a kept answer is never one
// a write has changed. The latter is checked as a property, after random edits, on both stores and
// with two processes on one SQLite file (one writes, the other answers): each kept answer (the
// same window in UTC, asked again and again) must equal a fresh one, asked in a time zone never
// asked before (a key no entry has), compared as instants.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { freebusyQuery } from '../../src/calendar/freebusy.ts';
import { AIKO, CALENDAR_FIXTURE, api, tokenFor } from '../_helpers/calendar.ts';
import { Rng } from '../_helpers/fuzz.ts';
import { countedApp } from '../_helpers/counted-app.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { startCli, tempDbPath } from '../_helpers/cli-process.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { postJson, startService } from '../_helpers/service.ts';
import { Editor, SyncClient } from './sync-client.ts';

const DAY = 86_400_000;

describe('a repeated freebusy.query is not expanded again', () => {
  const event = (id: string, start: string, end: string): unknown => ({ id, start: { dateTime: start }, end: { dateTime: end } });
  const events = [event('inside0001', '2030-03-05T12:00:00Z', '2030-03-05T13:00:00Z'), event('later00001', '2031-01-01T10:00:00Z', '2031-01-01T11:00:00Z')];
  const { memory, calls, call } = countedApp(events);
  const expansions = (): number => calls.get('listEventsOverlapping') ?? 0;
  const query = (): string => {
    const body = { timeMin: '2030-03-04T00:00:00Z', timeMax: '2030-03-11T00:00:00Z', items: [{ id: 'primary' }] };
    const request = call({ method: 'POST', path: '/calendar/v3/freeBusy', body });
    const result = freebusyQuery(request) as { status: number; body: Buffer | Buffer[] };
    assert.equal(result.status, 200);
    return Buffer.concat(Array.isArray(result.body) ? result.body : [result.body]).toString('utf8');
  };
  const stored = (id: string) => {
    const record = memory.getEvent('u@example.com', id);
    assert.ok(record);
    return record;
  };

  test('the same query twice: one expansion', () => {
    const first = query();
    const before = expansions();
    assert.equal(query(), first);
    assert.equal(expansions(), before);
  });

  test('a write elsewhere in the calendar keeps the answer; one in the window computes it anew', () => {
    const first = query();
    const before = expansions();
    memory.putEvent({ ...stored('later00001'), seq: memory.nextSeq(), data: { ...stored('later00001').data, summary: 'Renamed' } });
    assert.equal(query(), first);
    assert.equal(expansions(), before);
    const inside = stored('inside0001');
    memory.putEvent({ ...inside, seq: memory.nextSeq(), data: { ...inside.data, transparency: 'transparent' } });
    assert.doesNotMatch(query(), /2030-03-05T12:00:00Z/);
    assert.equal(expansions(), before + 1);
  });
});

/** `[start, end]` instants of every busy interval of the calendar in a freeBusy answer. */
async function busy(url: string, token: string, calendar: string, from: number, timeZone: string): Promise<number[][]> {
  const body = { timeMin: new Date(from).toISOString(), timeMax: new Date(from + 7 * DAY).toISOString(), timeZone, items: [{ id: calendar }] };
  const answer = await api(url, token, 'freeBusy', { method: 'POST', body });
  assert.equal(answer.status, 200, answer.text);
  const intervals = answer.json.calendars[calendar].busy as Array<{ start: string; end: string }>;
  return intervals.map((b) => [Date.parse(b.start), Date.parse(b.end)]);
}

/**
 * Random edits (by `writer`'s editor) with freeBusy asked of `reader` after each: the kept UTC
 * answer of each window equals a fresh one in a zone not asked before.
 */
async function keptEqualsFresh(writerUrl: string, readerUrl: string, token: string, now: number): Promise<void> {
  const rng = new Rng(11);
  const editor = new Editor(new SyncClient(writerUrl, token, AIKO, true), rng, now);
  for (let i = 0; i < 4; i++) await editor.insertSeries();
  for (let i = 0; i < 6; i++) await editor.insertSingle();
  const zones = Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC');
  let zone = 0;
  const windows = [0, 14, 60].map((days) => now + days * DAY);
  for (let step = 0; step < 40; step++) {
    for (const from of windows) {
      const kept = await busy(readerUrl, token, AIKO, from, 'UTC');
      const fresh = await busy(readerUrl, token, AIKO, from, zones[zone++ % zones.length] as string);
      assert.deepEqual(kept, fresh, `step ${step}, window from ${new Date(from).toISOString()}, edits: ${editor.log.join('; ')}`);
    }
    if (step % 5 === 4) {
      // Transparency decides busy time without moving the event: only the kept answer's shown
      // events can tell the change.
      const { singles } = await editor.records();
      const single = singles.length > 0 ? rng.pick(singles) : undefined;
      if (single !== undefined) {
        await editor.call('PATCH', `${editor.client.path}/${single.id}`, { transparency: single.transparency === 'transparent' ? 'opaque' : 'transparent' });
        editor.log.push('toggle transparency');
      }
    } else {
      await editor.edit();
    }
  }
}

const NOW = '2030-03-06T12:00:00Z';

for (const backend of BACKENDS) {
  test(`kept busy times equal fresh ones after random edits (${backend} store)`, { skip: skipUnless(backend) }, async (t: TestContext) => {
    const url = await startService(t, { fixture: CALENDAR_FIXTURE, db: databaseFor(t, backend) });
    await postJson(`${url}/__svc/clock`, { now: NOW });
    await keptEqualsFresh(url, url, await tokenFor(url, 'calendar'), Date.parse(NOW));
  });
}

test('kept busy times equal fresh ones when another process on the file writes', { skip: SQLITE_SKIP, timeout: 120_000 }, async () => {
  const db = tempDbPath();
  const writer = await startCli(db);
  const reader = await startCli(db);
  try {
    await keptEqualsFresh(writer.url, reader.url, await tokenFor(writer.url, 'calendar'), Math.floor(Date.now() / DAY) * DAY);
  } finally {
    writer.child.kill('SIGKILL');
    reader.child.kill('SIGKILL');
  }
});
