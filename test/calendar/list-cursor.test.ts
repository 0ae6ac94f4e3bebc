// Page tokens of events listings (src/calendar/events/list-cursor.ts): every cursor kind comes back as
// it went in, the wire keeps the compact fields tokens had before cursors were typed (a token
// made then still reads the same), and a token that does not hold the kind its query reads by
// is 400 invalid, as a token that is not a page token at all.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { App } from '../../src/app/app.ts';
import { GoogleApiError } from '../../src/api/google-error.ts';
import { Clock } from '../../src/domain/clock.ts';
import { parseFixture } from '../../src/fixtures/fixture.ts';
import { silentLogger } from '../../src/http/log.ts';
import { MemoryStore } from '../../src/store/memory.ts';
import { makeListToken, readListToken } from '../../src/calendar/events/list-cursor.ts';
import type { ListCursor } from '../../src/calendar/events/list-cursor.ts';
import { makePageToken } from '../../src/calendar/paging.ts';

const app = new App({ store: new MemoryStore(), clock: new Clock(), log: silentLogger, startupFixture: () => parseFixture({ clients: [], users: [] }), host: '127.0.0.1' });
const FINGERPRINT = 'fingerprint';

const CURSORS: ListCursor[] = [
  { kind: 'changes', afterSeq: 41 },
  { kind: 'window', afterKey: 'event0001', watermark: 7 },
  { kind: 'singleEvents', after: { start: 1_900_000_000_000, id: 'series_20300302T090000Z' }, watermark: 9, seriesTo: 1_950_000_000_000 },
  { kind: 'singleEventsByUpdated', offset: 250, watermark: 9, seriesTo: 1_950_000_000_000 },
  { kind: 'instanceSync', afterSeq: 3, within: undefined, seriesTo: 5 },
  { kind: 'instanceSync', afterSeq: 3, within: { seq: 4, position: undefined }, seriesTo: 5 },
  { kind: 'instanceSync', afterSeq: 3, within: { seq: 4, position: { phase: 'listedNow', after: undefined } }, seriesTo: 5 },
  { kind: 'instanceSync', afterSeq: 3, within: { seq: 4, position: { phase: 'listedNow', after: { start: 10, id: 'a_1' } } }, seriesTo: 5 },
  { kind: 'instanceSync', afterSeq: 3, within: { seq: 4, position: { phase: 'formerGone', afterKey: 0 } }, seriesTo: 5 },
  { kind: 'instanceSync', afterSeq: 3, within: { seq: 4, position: { phase: 'exceptionsGone', afterId: 'b_2' } }, seriesTo: 5 },
  { kind: 'instances', after: { start: 10, id: 'a_1' } },
];

function invalidToken(error: unknown): boolean {
  return error instanceof GoogleApiError && error.detail.status === 400 && error.detail.location === 'pageToken';
}

test('every cursor kind reads back as it was made', () => {
  for (const cursor of CURSORS) {
    assert.deepEqual(readListToken(app, FINGERPRINT, makeListToken(app, FINGERPRINT, cursor), cursor.kind), cursor);
  }
});

test('tokens keep their compact wire fields', () => {
  const token = (fields: Record<string, unknown>): string => makePageToken(app, FINGERPRINT, fields as never);
  assert.deepEqual(readListToken(app, FINGERPRINT, token({ s: 41 }), 'changes'), { kind: 'changes', afterSeq: 41 });
  assert.deepEqual(readListToken(app, FINGERPRINT, token({ t: 10, i: 'a_1', w: 9, h: 5 }), 'singleEvents'), {
    kind: 'singleEvents',
    after: { start: 10, id: 'a_1' },
    watermark: 9,
    seriesTo: 5,
  });
  assert.deepEqual(readListToken(app, FINGERPRINT, token({ a: 3, q: 4, r: { p: 'b', k: 12 }, h: 5 }), 'instanceSync'), {
    kind: 'instanceSync',
    afterSeq: 3,
    within: { seq: 4, position: { phase: 'formerGone', afterKey: 12 } },
    seriesTo: 5,
  });
});

test('a token without the cursor its query reads by is 400 invalid', () => {
  const changes = makeListToken(app, FINGERPRINT, { kind: 'changes', afterSeq: 1 });
  assert.throws(() => readListToken(app, FINGERPRINT, changes, 'window'), invalidToken);
  assert.throws(() => readListToken(app, FINGERPRINT, changes, 'instances'), invalidToken);
  const badPosition = makePageToken(app, FINGERPRINT, { a: 1, q: 2, r: { p: 'z' }, h: 3 });
  assert.throws(() => readListToken(app, FINGERPRINT, badPosition, 'instanceSync'), invalidToken);
  assert.throws(() => readListToken(app, 'another query', changes, 'changes'), invalidToken);
  assert.throws(() => readListToken(app, FINGERPRINT, '!!!', 'changes'), invalidToken);
});
