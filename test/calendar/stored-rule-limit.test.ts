// A database written before the per-period candidate cap (issue 15) may hold a series whose rule
// the cap now refuses. Reading it must be the caller's 400, as a rule too costly to expand is,
// never a 500: the rule is refused when it is compiled, on every read that meets it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start } from '../../src/index.ts';
import { AIKO, CALENDAR_FIXTURE, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';

const range = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
/** 366 days x 24 hours x 60 minutes candidates in one period: far over the cap. */
const HOSTILE = `RRULE:FREQ=YEARLY;BYYEARDAY=${range(1, 366)};BYHOUR=${range(0, 23)};BYMINUTE=${range(0, 59)}`;

test('a stored series whose rule is now over the cap reads as 400 invalid, not 500', { skip: SQLITE_SKIP }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stored-rule-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'calendar.db');

  // Written today (a rule well under the cap), then rewritten in the file as an older build could have.
  let service = await start({ port: 0, db, fixture: CALENDAR_FIXTURE });
  const token = await tokenFor(service.url, 'calendar');
  const created = await api(service.url, token, `calendars/${encodeURIComponent(AIKO)}/events`, {
    method: 'POST',
    body: {
      summary: 'Old rule',
      start: { dateTime: '2026-01-01T00:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-01-01T00:01:00', timeZone: 'UTC' },
      recurrence: ['RRULE:FREQ=DAILY'],
    },
  });
  assert.equal(created.status, 200, created.text);
  await service.close();

  const { DatabaseSync } = await import('node:sqlite');
  const file = new DatabaseSync(db);
  const row = file.prepare('SELECT data FROM events WHERE id = ?').get(created.json.id) as { data: string };
  const data = JSON.parse(row.data) as { recurrence: string[] };
  data.recurrence = [HOSTILE];
  file.prepare('UPDATE events SET data = ? WHERE id = ?').run(JSON.stringify(data), created.json.id);
  file.close();

  service = await start({ port: 0, db });
  t.after(() => service.close());
  const fresh = await tokenFor(service.url, 'calendar');
  const listed = await api(
    service.url,
    fresh,
    `calendars/${encodeURIComponent(AIKO)}/events?singleEvents=true&timeMin=2026-01-01T00:00:00Z&timeMax=2026-01-08T00:00:00Z`,
  );
  assert.equal(listed.status, 400, listed.text.slice(0, 300));
  assert.equal(reason(listed).reason, 'invalid');
  assert.match(reason(listed).message ?? '', /10000/);
});
