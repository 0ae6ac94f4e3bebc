// The Store contract: every backend must pass this suite (store.test.ts runs it on each).
// Each test opens a fresh, empty store and closes it at the end.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHANNEL_IDS_KEPT } from '../../src/store/backend-rules.ts';
import { messageBytes, OUTBOX_MAX_BYTES, OUTBOX_MAX_MESSAGES, OUTBOX_PAGE_BYTES } from '../../src/store/outbox-bounds.ts';
import type {
  AccessTokenRecord,
  CalendarListEntryRecord,
  CalendarRecord,
  ChannelRecord,
  ClientRecord,
  ConnectionRecord,
  EventRecord,
  NewOutboxMessage,
  OutboxPage,
  RefreshTokenRecord,
  Store,
  UserRecord,
} from '../../src/store/store.ts';

export interface ContractOptions {
  /** Closes the store and opens the same database again (persistent backends only). */
  reopen?: (store: Store) => Store | Promise<Store>;
}

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;
export const T0 = Date.UTC(2024, 0, 1);

export function user(id: string, position = 0, extra: Partial<UserRecord> = {}): UserRecord {
  return { id, name: `User ${id}`, email: `${id}@example.test`, timeZone: 'Europe/Paris', position, ...extra };
}
export function client(id: string): ClientRecord {
  return { id, secretHash: `hash-${id}`, redirectUris: [`http://127.0.0.1/${id}/cb`, 'http://localhost/cb'] };
}
export function calendar(id: string, ownerId: string, extra: Partial<CalendarRecord> = {}): CalendarRecord {
  return { id, ownerId, primary: false, timeZone: 'UTC', seq: 1, data: { summary: `Calendar ${id}` }, ...extra };
}
export function entry(userId: string, calendarId: string, extra: Partial<CalendarListEntryRecord> = {}): CalendarListEntryRecord {
  return { userId, calendarId, deleted: false, hidden: false, seq: 1, data: { colorId: '7' }, ...extra };
}
export function event(calendarId: string, id: string, extra: Partial<EventRecord> = {}): EventRecord {
  return {
    calendarId,
    id,
    seq: 1,
    status: 'confirmed',
    recurring: false,
    recurringEventId: null,
    originalStartMs: null,
    startMs: T0,
    endMs: T0 + 60 * 60 * 1000,
    iCalUID: `${id}@example.test`,
    updatedMs: T0,
    data: { summary: `Event ${id}`, attendees: [{ email: 'a@example.test', optional: false }], n: 1.5, x: null },
    ...extra,
  };
}
export function connection(id: string, userId: string, extra: Partial<ConnectionRecord> = {}): ConnectionRecord {
  return { id, clientId: 'client-1', userId, scopes: ['openid', 'https://www.googleapis.com/auth/calendar'], offline: true, createdAt: T0, ...extra };
}
export function accessToken(hash: string, connectionId: string, expiresAt = T0 + 3600_000): AccessTokenRecord {
  return { hash, connectionId, expiresAt };
}
export function refreshToken(hash: string, connectionId: string): RefreshTokenRecord {
  return { hash, connectionId };
}
export function channel(id: string, connectionId: string, extra: Partial<ChannelRecord> = {}): ChannelRecord {
  return {
    id,
    resourceId: `res-${id}`,
    resourceUri: `https://www.googleapis.com/calendar/v3/calendars/c/events`,
    address: 'https://hooks.example.test/notify',
    token: null,
    expiration: T0 + DAY,
    connectionId,
    resource: { kind: 'events', calendarId: 'c' },
    nextMessageNumber: 1,
    createdAt: T0,
    ...extra,
  };
}

const ids = (events: readonly EventRecord[]): string[] => events.map((e) => e.id).sort();

/** Every event of a calendar, in change order. */
function allEvents(s: Store, calendarId: string): readonly EventRecord[] {
  return s.listEventsChangedSince(calendarId, 0, Number.MAX_SAFE_INTEGER);
}

/** A comparable picture of everything reachable from the given keys. */
function snapshot(s: Store, keys: { users: string[]; calendars: string[]; hashes: string[]; meta: string[] }): unknown {
  return {
    client: s.getClient('client-1') ?? null,
    users: s.listUsers(),
    calendars: keys.users.map((u) => s.listCalendarsByOwner(u)),
    calendarsById: keys.calendars.map((c) => s.getCalendar(c) ?? null),
    entries: keys.users.map((u) => s.listCalendarListEntries(u)),
    events: keys.calendars.map((c) => allEvents(s, c)),
    bySeq: keys.calendars.map((c) => s.listEventsChangedSince(c, 0, 1000)),
    overlapping: keys.calendars.map((c) => ids(s.listEventsOverlapping(c, T0 - 365 * DAY, T0 + 365 * DAY))),
    connections: s.listConnections(),
    access: keys.hashes.map((h) => s.getAccessToken(h) ?? null),
    refresh: keys.hashes.map((h) => s.getRefreshToken(h) ?? null),
    channels: s.listChannels(),
    outbox: s.readOutbox(0, Number.MAX_SAFE_INTEGER),
    meta: keys.meta.map((k) => s.getMeta(k) ?? null),
  };
}

export function outboxMessage(n: number, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage {
  return { at: T0 + n, to: `guest${n}@example.test`, kind: 'invitation', eventId: 'ev1', calendarId: 'alice@example.test', fromUserId: 'alice', summary: 'Sync', ...extra };
}

/** Messages `from` to `to` (inclusive) of outboxMessage. */
function outboxMessages(from: number, to: number, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage[] {
  return Array.from({ length: to - from + 1 }, (_, i) => outboxMessage(from + i, extra));
}

/** The whole outbox, read a page of 1,000 at a time as a client would. */
function wholeOutbox(s: Store): OutboxPage {
  const messages = [];
  for (let page = s.readOutbox(0, 1000); page.messages.length > 0; page = s.readOutbox(page.messages.at(-1)?.id ?? 0, 1000)) messages.push(...page.messages);
  return { messages, last: s.readOutbox(0, 1).last };
}

export function storeContract(name: string, open: () => Promise<Store> | Store, opts: ContractOptions = {}): void {
  async function withStore(fn: (s: Store) => void | Promise<void>): Promise<void> {
    const s = await open();
    try {
      await fn(s);
    } finally {
      s.close();
    }
  }

  describe(`Store contract: ${name}`, () => {
    it('reports its backend', () =>
      withStore((s) => {
        assert.ok(s.backend === 'sqlite' || s.backend === 'memory');
      }));

    describe('meta and sequence', () => {
      it('gets, sets and overwrites meta values', () =>
        withStore((s) => {
          assert.equal(s.getMeta('fixture'), undefined);
          s.setMeta('fixture', 'a');
          assert.equal(s.getMeta('fixture'), 'a');
          s.setMeta('fixture', '');
          assert.equal(s.getMeta('fixture'), '');
        }));

      it('lists meta entries by key prefix in key order, and deletes one (a rollback restores it)', () =>
        withStore((s) => {
          s.setMeta('workspace:b', '2');
          s.setMeta('workspace:a', '1');
          s.setMeta('workspaces', 'not under the prefix');
          s.setMeta('other', 'x');
          assert.deepEqual(s.listMeta('workspace:'), [{ key: 'workspace:a', value: '1' }, { key: 'workspace:b', value: '2' }]);
          s.deleteMeta('workspace:a');
          assert.equal(s.getMeta('workspace:a'), undefined);
          assert.deepEqual(s.listMeta('workspace:').map((e) => e.key), ['workspace:b']);
          assert.throws(() =>
            s.transaction(() => {
              s.deleteMeta('workspace:b');
              throw new Error('roll back');
            }),
          );
          assert.equal(s.getMeta('workspace:b'), '2');
          s.deleteMeta('never set');
          assert.deepEqual(s.listMeta('nothing:'), []);
        }));

      it('nextSeq is positive and strictly increasing', () =>
        withStore((s) => {
          let last = 0;
          for (let i = 0; i < 200; i++) {
            const n = s.nextSeq();
            assert.ok(Number.isSafeInteger(n));
            assert.ok(n > last, `${n} > ${last}`);
            last = n;
          }
          last = s.transaction(() => s.nextSeq());
          assert.ok(s.nextSeq() > last);
        }));
    });

    describe('clients and users', () => {
      it('puts, gets and replaces clients', () =>
        withStore((s) => {
          assert.equal(s.getClient('b'), undefined);
          s.putClient(client('b'));
          s.putClient(client('a'));
          assert.deepEqual(s.getClient('b'), client('b'));
          s.putClient({ ...client('b'), redirectUris: [] });
          assert.deepEqual(s.getClient('b')?.redirectUris, []);
          assert.deepEqual(s.getClient('a'), client('a'));
          assert.deepEqual(s.listClients(), [client('a'), { ...client('b'), redirectUris: [] }], 'listClients: every client, by id');
        }));

      it('lists users by position, then id', () =>
        withStore((s) => {
          s.putUser(user('z', 1));
          s.putUser(user('y', 2));
          s.putUser(user('x', 3));
          s.putUser(user('w', 2));
          assert.deepEqual(s.listUsers().map((u) => u.id), ['z', 'w', 'y', 'x']);
          assert.deepEqual(s.getUser('y'), user('y', 2));
          s.putUser(user('x', 0, { name: 'Renamed' }));
          assert.deepEqual(s.listUsers().map((u) => u.id), ['x', 'z', 'w', 'y']);
          assert.equal(s.getUser('x')?.name, 'Renamed');
          assert.equal(s.getUser('nobody'), undefined);
        }));

      it('lists users as they stand after every kind of write, a rolled-back one included', () =>
        withStore((s) => {
          s.putUser(user('a', 1));
          assert.deepEqual(s.listUsers().map((u) => u.id), ['a']);
          s.putUser(user('b', 2));
          assert.deepEqual(s.listUsers().map((u) => u.id), ['a', 'b']);
          s.putUser(user('b', 2, { email: 'b.renamed@example.com' }));
          assert.equal(s.listUsers()[1]?.email, 'b.renamed@example.com');
          assert.throws(() => s.transaction(() => {
            s.putUser(user('c', 3));
            assert.deepEqual(s.listUsers().map((u) => u.id), ['a', 'b', 'c']);
            throw new Error('refused');
          }), /refused/);
          assert.deepEqual(s.listUsers().map((u) => u.id), ['a', 'b']);
          s.deleteUser('a');
          assert.deepEqual(s.listUsers().map((u) => u.id), ['b']);
          s.clearWorkspace();
          assert.deepEqual(s.listUsers(), []);
        }));
    });

    describe('calendars and calendar list', () => {
      it('puts, gets, replaces and lists calendars by owner', () =>
        withStore((s) => {
          s.putCalendar(calendar('c2', 'u1'));
          s.putCalendar(calendar('c1', 'u1', { primary: true, data: { summary: 'Main', nested: { a: [1, 'x', true] } } }));
          s.putCalendar(calendar('c3', 'u2'));
          assert.deepEqual(s.getCalendar('c1'), calendar('c1', 'u1', { primary: true, data: { summary: 'Main', nested: { a: [1, 'x', true] } } }));
          assert.equal(s.getCalendar('c2')?.primary, false);
          assert.deepEqual(s.listCalendarsByOwner('u1').map((c) => c.id), ['c1', 'c2']);
          assert.deepEqual(s.listCalendarsByOwner('nobody'), []);
          s.putCalendar(calendar('c2', 'u2', { seq: 9 }));
          assert.deepEqual(s.listCalendarsByOwner('u1').map((c) => c.id), ['c1']);
          assert.deepEqual(s.listCalendarsByOwner('u2').map((c) => c.id), ['c2', 'c3']);
          assert.equal(s.getCalendar('c2')?.seq, 9);
        }));

      it('keeps list entries per user, deleted ones included, ordered by calendar id', () =>
        withStore((s) => {
          s.putCalendarListEntry(entry('u1', 'cb'));
          s.putCalendarListEntry(entry('u1', 'ca', { hidden: true }));
          s.putCalendarListEntry(entry('u1', 'cc', { deleted: true }));
          s.putCalendarListEntry(entry('u2', 'ca'));
          assert.deepEqual(s.listCalendarListEntries('u1').map((e) => e.calendarId), ['ca', 'cb', 'cc']);
          assert.deepEqual(s.getCalendarListEntry('u1', 'ca'), entry('u1', 'ca', { hidden: true }));
          assert.equal(s.getCalendarListEntry('u1', 'cc')?.deleted, true);
          assert.equal(s.getCalendarListEntry('u2', 'cb'), undefined);
          s.putCalendarListEntry(entry('u1', 'cc', { deleted: false, seq: 5, data: { summaryOverride: 'x' } }));
          assert.deepEqual(s.getCalendarListEntry('u1', 'cc'), entry('u1', 'cc', { seq: 5, data: { summaryOverride: 'x' } }));
          assert.deepEqual(s.listCalendarListEntries('u2').map((e) => e.calendarId), ['ca']);
          assert.deepEqual(s.listCalendarListEntries('nobody'), []);
        }));
    });

    describe('events', () => {
      it('puts, gets and replaces events with every field', () =>
        withStore((s) => {
          const master = event('c', 'm', { recurring: true, endMs: Number.MAX_SAFE_INTEGER, seq: 3 });
          const exception = event('c', 'm_20240102', {
            status: 'cancelled',
            recurringEventId: 'm',
            originalStartMs: T0 + DAY,
            iCalUID: master.iCalUID,
            updatedMs: T0 + 5,
          });
          s.putEvent(master);
          s.putEvent(exception);
          assert.deepEqual(s.getEvent('c', 'm'), master);
          assert.deepEqual(s.getEvent('c', 'm_20240102'), exception);
          assert.equal(s.getEvent('other', 'm'), undefined);
          const replaced = event('c', 'm', { status: 'tentative', seq: 4, data: { summary: 'new' } });
          s.putEvent(replaced);
          assert.deepEqual(s.getEvent('c', 'm'), replaced);
          assert.equal(allEvents(s, 'c').length, 2);
          assert.equal(allEvents(s, 'other').length, 0);
        }));

      it('isolates stored records from the objects passed in and handed out', () =>
        withStore((s) => {
          const e = event('c', 'e');
          s.putEvent(e);
          (e.data['attendees'] as { email: string }[])[0]!.email = 'changed-input@example.test';
          e.seq = 99;
          const got = s.getEvent('c', 'e')!;
          assert.deepEqual(got, event('c', 'e'));
          // Records read are read-only (Store): an edit either throws (memory: shared and
          // frozen) or stays on the caller's own copy (SQLite); it never reaches the store.
          const attempt = (edit: () => void): void => {
            try {
              edit();
            } catch (err) {
              assert.ok(err instanceof TypeError, String(err));
            }
          };
          attempt(() => (got.data['summary'] = 'changed-output'));
          attempt(() => (got.data['attendees'] as { email: string }[]).push({ email: 'x' }));
          attempt(() => (got.seq = 42));
          assert.deepEqual(s.getEvent('c', 'e'), event('c', 'e'));
          const listed = s.listEventsChangedSince('c', 0, 10)[0]!;
          attempt(() => (listed.data['summary'] = 'changed-list'));
          assert.deepEqual(s.getEvent('c', 'e'), event('c', 'e'));

          const cl = client('k');
          s.putClient(cl);
          cl.redirectUris.push('http://evil.test/');
          attempt(() => s.getClient('k')!.redirectUris.push('http://evil.test/'));
          assert.deepEqual(s.getClient('k'), client('k'));
        }));

      it('lists events changed since a seq, in seq order, with paging', () =>
        withStore((s) => {
          for (let i = 1; i <= 30; i++) s.putEvent(event('c', `e${31 - i}`, { seq: i * 2 }));
          s.putEvent(event('d', 'x', { seq: 5 }));
          // e30 had seq 2; rewriting it moves it to the end.
          s.putEvent(event('c', 'e30', { seq: 100 }));
          const all = s.listEventsChangedSince('c', 0, 1000);
          assert.equal(all.length, 30);
          assert.deepEqual(all.map((e) => e.seq), [...Array.from({ length: 29 }, (_, i) => (i + 2) * 2), 100]);
          assert.equal(all[29]!.id, 'e30');
          assert.deepEqual(s.listEventsChangedSince('c', 10, 3).map((e) => e.seq), [12, 14, 16]);
          assert.deepEqual(s.listEventsChangedSince('c', 11, 2).map((e) => e.seq), [12, 14]);
          assert.deepEqual(s.listEventsChangedSince('c', 100, 10), []);
          assert.deepEqual(s.listEventsChangedSince('c', 0, 0), []);
          // Paging through reaches every event exactly once.
          const seen: string[] = [];
          let after = 0;
          for (;;) {
            const page = s.listEventsChangedSince('c', after, 7);
            if (page.length === 0) break;
            seen.push(...page.map((e) => e.id));
            after = page[page.length - 1]!.seq;
          }
          assert.equal(new Set(seen).size, 30);
          assert.equal(seen.length, 30);
        }));

      it('lists the exceptions of a series', () =>
        withStore((s) => {
          s.putEvent(event('c', 'm', { recurring: true, endMs: Number.MAX_SAFE_INTEGER }));
          s.putEvent(event('c', 'm_1', { recurringEventId: 'm', originalStartMs: T0 + DAY }));
          s.putEvent(event('c', 'm_2', { recurringEventId: 'm', originalStartMs: T0 + 2 * DAY, status: 'cancelled' }));
          s.putEvent(event('c', 'n_1', { recurringEventId: 'n', originalStartMs: T0 + DAY }));
          s.putEvent(event('d', 'm_3', { recurringEventId: 'm', originalStartMs: T0 + 3 * DAY }));
          assert.deepEqual(ids(s.listExceptions('c', 'm')), ['m_1', 'm_2']);
          assert.deepEqual(ids(s.listExceptions('c', 'n')), ['n_1']);
          assert.deepEqual(ids(s.listExceptions('d', 'm')), ['m_3']);
          assert.deepEqual(s.listExceptions('c', 'none'), []);
          s.putEvent(event('c', 'm_1'));
          assert.deepEqual(ids(s.listExceptions('c', 'm')), ['m_2']);
          s.putEvent(event('c', 'm_1', { recurringEventId: 'n' }));
          assert.deepEqual(ids(s.listExceptions('c', 'n')), ['m_1', 'n_1']);
        }));

    });

    describe('listEventsOverlapping', () => {
      const from = T0 + 100 * DAY + 3_600_000;
      const to = from + WEEK;

      it('uses half-open intervals: startMs < to and endMs > from', () =>
        withStore((s) => {
          const put = (id: string, startMs: number, endMs: number): void => s.putEvent(event('c', id, { startMs, endMs }));
          put('ends-at-from', from - 3_600_000, from);
          put('ends-just-after-from', from - 3_600_000, from + 1);
          put('starts-at-to', to, to + 3_600_000);
          put('starts-just-before-to', to - 1, to + 3_600_000);
          put('inside', from + DAY, from + DAY + 1);
          put('covers', from - 1, to + 1);
          put('zero-length-inside', from + DAY, from + DAY);
          put('zero-length-at-from', from, from);
          put('zero-length-at-to', to, to);
          put('before', from - 3 * DAY, from - 2 * DAY);
          put('after', to + DAY, to + 2 * DAY);
          s.putEvent(event('other', 'other-calendar', { startMs: from + DAY, endMs: from + 2 * DAY }));
          assert.deepEqual(ids(s.listEventsOverlapping('c', from, to)), [
            'covers',
            'ends-just-after-from',
            'inside',
            'starts-just-before-to',
            'zero-length-inside',
          ].sort());
          assert.deepEqual(s.listEventsOverlapping('none', from, to), []);
          // The rule is the formula, even for an inverted window (the API layer rejects those).
          assert.deepEqual(ids(s.listEventsOverlapping('c', to, from)), ['covers']);
        }));

      it('finds events of exactly 7 days and just over, and long events', () =>
        withStore((s) => {
          const put = (id: string, startMs: number, endMs: number, recurring = false): void =>
            s.putEvent(event('c', id, { startMs, endMs, recurring }));
          put('week-ending-at-from', from - WEEK, from);
          put('week-ending-after-from', from - WEEK + 1, from + 1);
          put('week+1-ending-at-from', from - WEEK - 1, from);
          put('week+1-ending-after-from', from - WEEK, from + 1);
          put('week+1ms-ending-just-after', from - WEEK - 1 + 1, from + 1);
          put('month-covering', from - 30 * DAY, to + 30 * DAY);
          put('month-ending-inside', from - 30 * DAY, from + DAY);
          put('month-before', from - 60 * DAY, from - 30 * DAY);
          put('years-long', from - 900 * DAY, to + 900 * DAY);
          put('series-unbounded', from - 400 * DAY, Number.MAX_SAFE_INTEGER, true);
          put('series-ended', from - 400 * DAY, from - 10 * DAY, true);
          put('series-later', to, Number.MAX_SAFE_INTEGER, true);
          put('series-short-span', from + DAY, from + DAY + 3_600_000, true);
          put('series-short-span-before', from - 2 * DAY, from - DAY, true);
          assert.deepEqual(ids(s.listEventsOverlapping('c', from, to)), [
            'month-covering',
            'month-ending-inside',
            'series-short-span',
            'series-unbounded',
            'week+1-ending-after-from',
            'week+1ms-ending-just-after',
            'week-ending-after-from',
            'years-long',
          ].sort());
        }));

      it('follows replacements between short, long and recurring', () =>
        withStore((s) => {
          s.putEvent(event('c', 'e', { startMs: from - 30 * DAY, endMs: to + DAY }));
          assert.deepEqual(ids(s.listEventsOverlapping('c', from, to)), ['e']);
          s.putEvent(event('c', 'e', { startMs: to + DAY, endMs: to + 2 * DAY }));
          assert.deepEqual(ids(s.listEventsOverlapping('c', from, to)), []);
          s.putEvent(event('c', 'e', { startMs: from - 300 * DAY, endMs: Number.MAX_SAFE_INTEGER, recurring: true }));
          assert.deepEqual(ids(s.listEventsOverlapping('c', from, to)), ['e']);
          s.putEvent(event('c', 'e', { startMs: from - 300 * DAY, endMs: from - 299 * DAY }));
          assert.deepEqual(ids(s.listEventsOverlapping('c', from, to)), []);
          s.putEvent(event('c', 'e', { startMs: from + DAY, endMs: from + 2 * DAY }));
          assert.deepEqual(ids(s.listEventsOverlapping('c', from, to)), ['e']);
          assert.equal(allEvents(s, 'c').length, 1);
        }));

      it('agrees with a brute-force filter on random events and windows', () =>
        withStore((s) => {
          let seed = 12345;
          const rand = (): number => {
            seed = (seed * 1103515245 + 12345) % 2147483648;
            return seed / 2147483648;
          };
          const spans = [0, 1, 3_600_000, DAY, WEEK - 1, WEEK, WEEK + 1, 20 * DAY];
          const events: EventRecord[] = [];
          for (let i = 0; i < 600; i++) {
            const startMs = T0 + Math.floor(rand() * 200 * DAY) - 50 * DAY;
            const recurring = rand() < 0.05;
            const span = spans[Math.floor(rand() * spans.length)]!;
            const endMs = recurring && rand() < 0.5 ? Number.MAX_SAFE_INTEGER : startMs + span;
            const e = event('c', `r${i}`, { startMs, endMs, recurring });
            events.push(e);
            s.putEvent(e);
          }
          for (let w = 0; w < 60; w++) {
            const wFrom = T0 + Math.floor(rand() * 250 * DAY) - 80 * DAY;
            const wTo = wFrom + [1, 3_600_000, DAY, WEEK, 40 * DAY][w % 5]!;
            const expected = events.filter((e) => e.startMs < wTo && e.endMs > wFrom).map((e) => e.id).sort();
            assert.deepEqual(ids(s.listEventsOverlapping('c', wFrom, wTo)), expected, `window ${wFrom}..${wTo}`);
          }
          const everything = s.listEventsOverlapping('c', -8.64e15, Number.MAX_SAFE_INTEGER);
          assert.equal(everything.length, events.length);
        }));
    });

    describe('shared copies', () => {
      const copy = (extra: Partial<EventRecord> = {}): EventRecord => event('org', 'm1', { seq: 10, data: { summary: 'Meeting', organizer: { email: 'org' } }, ...extra });
      const seen = (s: Store, holder: string): string[] => allEvents(s, holder).map((e) => `${e.id}@${e.seq}`);

      it('reads on each holder as an event of that calendar, and nowhere else', () =>
        withStore((s) => {
          s.putSharedCopy({ event: copy(), holders: ['b', 'c'] });
          assert.deepEqual(s.getEvent('b', 'm1'), { ...copy(), calendarId: 'b' });
          assert.deepEqual(s.getEvent('c', 'm1'), { ...copy(), calendarId: 'c' });
          assert.equal(s.getEvent('d', 'm1'), undefined);
          assert.equal(s.getEvent('org', 'm1'), undefined, "the organizer's record is not the copy");
          assert.deepEqual(s.getSharedCopy('org', 'm1'), { event: copy(), holders: ['b', 'c'] });
          assert.equal(s.getSharedCopy('b', 'm1'), undefined);
          assert.deepEqual(s.listEventsOverlapping('b', T0, T0 + DAY).map((e) => [e.calendarId, e.id]), [['b', 'm1']]);
          assert.deepEqual(s.listEventsOverlapping('b', T0 + DAY, T0 + 2 * DAY), []);
          assert.deepEqual(s.listEventsOverlapping('d', T0, T0 + DAY), []);
          assert.deepEqual(s.listEventsChangedSince('c', 0, 10).map((e) => e.calendarId), ['c']);
          assert.deepEqual(s.listEventsChangedSince('c', 10, 10), []);
        }));

      it('finds long copies (series) by their span too', () =>
        withStore((s) => {
          const series = copy({ recurring: true, endMs: Number.MAX_SAFE_INTEGER });
          s.putSharedCopy({ event: series, holders: ['b'] });
          assert.deepEqual(s.listEventsOverlapping('b', T0 + 400 * DAY, T0 + 401 * DAY).map((e) => e.id), ['m1']);
          assert.deepEqual(s.listEventsOverlapping('b', T0 - DAY, T0 - 1), []);
        }));

      it("gives way to an event of the holder's own under the same id", () =>
        withStore((s) => {
          s.putSharedCopy({ event: copy(), holders: ['b', 'c'] });
          assert.equal(s.getEvent('b', 'm1')?.seq, 10, 'read once, so a cache may hold it');
          assert.equal(s.listEventsChangedSince('b', 0, 10).length, 1);
          const own = event('b', 'm1', { seq: 5, data: { summary: 'Mine' } });
          s.putEvent(own);
          assert.deepEqual(s.getEvent('b', 'm1'), own);
          assert.deepEqual(s.listEventsOverlapping('b', T0, T0 + DAY), [own]);
          assert.deepEqual(seen(s, 'b'), ['m1@5']);
          assert.deepEqual(seen(s, 'c'), ['m1@10']);
        }));

      it("merges with the holder's own events in change order, at most `limit`", () =>
        withStore((s) => {
          s.putEvent(event('b', 'a', { seq: 9 }));
          s.putEvent(event('b', 'z', { seq: 11 }));
          s.putSharedCopy({ event: copy(), holders: ['b'] });
          s.putSharedCopy({ event: copy({ calendarId: 'org2', id: 'k', seq: 12 }), holders: ['b'] });
          s.putSharedCopy({ event: copy({ calendarId: 'org2', id: 'j', seq: 8 }), holders: ['c'] });
          assert.deepEqual(seen(s, 'b'), ['a@9', 'm1@10', 'z@11', 'k@12']);
          assert.deepEqual(s.listEventsChangedSince('b', 0, 2).map((e) => e.id), ['a', 'm1']);
          assert.deepEqual(s.listEventsChangedSince('b', 10, 1).map((e) => e.id), ['z']);
          assert.deepEqual(s.listEventsChangedSince('b', 11, 5).map((e) => e.calendarId), ['b']);
        }));

      it('is replaced whole, holders included, and removed by an empty holder list', () =>
        withStore((s) => {
          s.putSharedCopy({ event: copy(), holders: ['b', 'c'] });
          assert.ok(s.getEvent('b', 'm1'));
          assert.equal(s.listEventsChangedSince('b', 0, 10).length, 1);
          s.putSharedCopy({ event: copy({ seq: 20, data: { summary: 'Moved' } }), holders: ['c', 'd'] });
          assert.equal(s.getEvent('b', 'm1'), undefined);
          assert.deepEqual(s.listEventsChangedSince('b', 0, 10), []);
          assert.deepEqual(s.getEvent('c', 'm1')?.data, { summary: 'Moved' });
          assert.equal(s.getEvent('d', 'm1')?.seq, 20);
          s.putSharedCopy({ event: copy(), holders: [] });
          assert.equal(s.getSharedCopy('org', 'm1'), undefined);
          assert.equal(s.getEvent('c', 'm1'), undefined);
          assert.deepEqual(s.listEventsOverlapping('d', T0, T0 + DAY), []);
        }));

      it('is put in the transaction: a rollback brings back the copy it replaced', () =>
        withStore((s) => {
          s.putSharedCopy({ event: copy(), holders: ['b'] });
          assert.equal(s.getEvent('b', 'm1')?.seq, 10);
          assert.throws(() =>
            s.transaction(() => {
              s.putSharedCopy({ event: copy({ seq: 30 }), holders: ['c'] });
              assert.equal(s.getEvent('c', 'm1')?.seq, 30);
              throw new Error('boom');
            }),
          );
          assert.deepEqual(s.getSharedCopy('org', 'm1'), { event: copy(), holders: ['b'] });
          assert.equal(s.getEvent('b', 'm1')?.seq, 10);
          assert.equal(s.getEvent('c', 'm1'), undefined);
        }));

      it("deleteUser makes the organizer's copies their holders' own, and drops the user's calendars from holders", () =>
        withStore((s) => {
          for (const [id, n] of [['olga', 0], ['ben', 1], ['cy', 2]] as const) {
            s.putUser(user(id, n));
            s.putCalendar(calendar(id, id, { primary: true }));
          }
          s.putEvent(event('ben', 'm1', { seq: 3, data: { summary: "Ben's own" } }));
          s.putSharedCopy({ event: copy({ calendarId: 'olga' }), holders: ['ben', 'cy'] });
          s.putSharedCopy({ event: copy({ calendarId: 'cy', id: 'm2', seq: 11 }), holders: ['ben', 'olga'] });
          s.deleteUser('olga');
          assert.equal(s.getSharedCopy('olga', 'm1'), undefined);
          assert.deepEqual(s.getEvent('cy', 'm1'), { ...copy(), calendarId: 'cy' });
          assert.equal(s.getEvent('ben', 'm1')?.data.summary, "Ben's own", 'an event of their own is left alone');
          assert.deepEqual(s.getSharedCopy('cy', 'm2')?.holders, ['ben']);
          s.deleteUser('ben');
          assert.equal(s.getSharedCopy('cy', 'm2'), undefined);
        }));

      it('clearWorkspace removes them', () =>
        withStore((s) => {
          s.putSharedCopy({ event: copy(), holders: ['b'] });
          s.clearWorkspace();
          assert.equal(s.getSharedCopy('org', 'm1'), undefined);
          assert.equal(s.getEvent('b', 'm1'), undefined);
        }));
    });

    describe('connections, tokens and channels', () => {
      it('puts, gets and lists connections by createdAt, then id', () =>
        withStore((s) => {
          s.putConnection(connection('k2', 'u1', { createdAt: T0 + 5 }));
          s.putConnection(connection('k1', 'u1', { createdAt: T0 + 5, offline: false, scopes: [] }));
          s.putConnection(connection('k3', 'u2', { createdAt: T0 }));
          assert.deepEqual(s.listConnections().map((c) => c.id), ['k3', 'k1', 'k2']);
          assert.deepEqual(s.getConnection('k1'), connection('k1', 'u1', { createdAt: T0 + 5, offline: false, scopes: [] }));
          assert.equal(s.getConnection('k1')?.offline, false);
          assert.equal(s.getConnection('nope'), undefined);
        }));

      it('puts and gets access and refresh tokens by hash', () =>
        withStore((s) => {
          s.putAccessToken(accessToken('h1', 'k1'));
          s.putRefreshToken(refreshToken('h2', 'k1'));
          assert.deepEqual(s.getAccessToken('h1'), accessToken('h1', 'k1'));
          assert.equal(s.getAccessToken('h2'), undefined);
          assert.deepEqual(s.getRefreshToken('h2'), refreshToken('h2', 'k1'));
          assert.equal(s.getRefreshToken('h1'), undefined);
          // With the expiry the token was put with (a token's text carries it), or without.
          assert.deepEqual(s.getAccessToken('h1', T0 + 3600_000), accessToken('h1', 'k1'));
          assert.equal(s.getAccessToken('h1', T0), undefined);
          s.putAccessToken(accessToken('h3', 'k1', T0));
          assert.deepEqual(s.getAccessToken('h3', T0), accessToken('h3', 'k1', T0));
          assert.equal(s.getAccessToken('h3', T0 + 3600_000), undefined);
          s.putRefreshToken(refreshToken('h2', 'k2'));
          assert.deepEqual(s.getRefreshToken('h2'), refreshToken('h2', 'k2'));
        }));

      it('puts, gets, lists and deletes channels', () =>
        withStore((s) => {
          const a = channel('ch-a', 'k1', { token: 'secret', createdAt: T0 + 1 });
          const b = channel('ch-b', 'k1', { resource: { kind: 'calendarList', userId: 'u1' } });
          s.putChannel(a);
          s.putChannel(b);
          assert.deepEqual(s.getChannel('ch-a'), a);
          assert.deepEqual(s.getChannel('ch-b'), b);
          assert.deepEqual(s.listChannels().map((c) => c.id), ['ch-b', 'ch-a']);
          s.putChannel({ ...a, nextMessageNumber: 2 });
          assert.equal(s.getChannel('ch-a')?.nextMessageNumber, 2);
          s.deleteChannel('ch-a');
          s.deleteChannel('ch-missing');
          assert.equal(s.getChannel('ch-a'), undefined);
          assert.deepEqual(s.listChannels(), [b]);
        }));

      it('lists the channels watching one resource, by kind and key, in creation order', () =>
        withStore((s) => {
          s.putChannel(channel('late', 'k1', { createdAt: T0 + 2, resource: { kind: 'events', calendarId: 'cal' } }));
          s.putChannel(channel('early', 'k2', { createdAt: T0 + 1, resource: { kind: 'events', calendarId: 'cal' } }));
          s.putChannel(channel('other-cal', 'k1', { resource: { kind: 'events', calendarId: 'cal2' } }));
          s.putChannel(channel('same-key-list', 'k1', { resource: { kind: 'calendarList', userId: 'cal' } }));
          assert.deepEqual(s.listChannelsWatching({ kind: 'events', calendarId: 'cal' }).map((c) => c.id), ['early', 'late']);
          assert.deepEqual(s.listChannelsWatching({ kind: 'calendarList', userId: 'cal' }).map((c) => c.id), ['same-key-list']);
          assert.deepEqual(s.listChannelsWatching({ kind: 'calendarList', userId: 'nobody' }), []);
          const [first] = s.listChannelsWatching({ kind: 'events', calendarId: 'cal2' });
          assert.deepEqual(first, s.getChannel('other-cal'));
          s.deleteChannel('early');
          assert.deepEqual(s.listChannelsWatching({ kind: 'events', calendarId: 'cal' }).map((c) => c.id), ['late']);
          // A channel written after a listing shows in the next one, as it now is.
          s.putChannel(channel('new', 'k3', { createdAt: T0 + 3, resource: { kind: 'events', calendarId: 'cal' } }));
          s.putChannel({ ...(s.getChannel('late') as ChannelRecord), nextMessageNumber: 7 });
          const listed = s.listChannelsWatching({ kind: 'events', calendarId: 'cal' });
          assert.deepEqual(listed.map((c) => [c.id, c.nextMessageNumber]), [['late', 7], ['new', 1]]);
          assert.deepEqual(s.listChannelsWatching({ kind: 'calendarList', userId: 'cal' }).map((c) => c.id), ['same-key-list']);
        }));

      it('remembers used channel ids, rolled back with a transaction, forgotten by clearWorkspace', () =>
        withStore((s) => {
          assert.equal(s.isChannelIdRemembered('used'), false);
          s.rememberChannelId('used');
          s.rememberChannelId('used');
          assert.equal(s.isChannelIdRemembered('used'), true);
          assert.equal(s.isChannelIdRemembered('USED'), false);
          assert.throws(() => s.transaction(() => {
            s.rememberChannelId('rolled-back');
            throw new Error('boom');
          }), /boom/);
          assert.equal(s.isChannelIdRemembered('rolled-back'), false);
          assert.equal(s.isChannelIdRemembered('used'), true);
          s.clearWorkspace();
          assert.equal(s.isChannelIdRemembered('used'), false);
        }));

      it(`keeps the newest ${CHANNEL_IDS_KEPT} used channel ids, forgetting the oldest first`, () =>
        withStore((s) => {
          s.transaction(() => {
            for (let i = 0; i <= CHANNEL_IDS_KEPT + 1; i++) s.rememberChannelId(`id-${i}`);
          });
          assert.equal(s.isChannelIdRemembered('id-0'), false);
          assert.equal(s.isChannelIdRemembered('id-1'), false);
          assert.equal(s.isChannelIdRemembered('id-2'), true);
          assert.equal(s.isChannelIdRemembered(`id-${CHANNEL_IDS_KEPT + 1}`), true);
          // remembering a kept id again does not make room by forgetting another
          s.rememberChannelId('id-2');
          assert.equal(s.isChannelIdRemembered('id-2'), true);
          assert.equal(s.isChannelIdRemembered('id-3'), true);
        }));

      it('deleteConnection removes its tokens and channels and nothing else', () =>
        withStore((s) => {
          s.putConnection(connection('k1', 'u1'));
          s.putConnection(connection('k2', 'u1'));
          s.putAccessToken(accessToken('a1', 'k1'));
          s.putAccessToken(accessToken('a1b', 'k1'));
          s.putAccessToken(accessToken('a2', 'k2'));
          s.putRefreshToken(refreshToken('r1', 'k1'));
          s.putRefreshToken(refreshToken('r2', 'k2'));
          s.putChannel(channel('c1', 'k1'));
          s.putChannel(channel('c2', 'k2'));
          s.deleteConnection('k1');
          assert.equal(s.getConnection('k1'), undefined);
          assert.equal(s.getAccessToken('a1'), undefined);
          assert.equal(s.getAccessToken('a1b'), undefined);
          assert.equal(s.getRefreshToken('r1'), undefined);
          assert.equal(s.getChannel('c1'), undefined);
          assert.deepEqual(s.listConnections().map((c) => c.id), ['k2']);
          assert.deepEqual(s.getAccessToken('a2'), accessToken('a2', 'k2'));
          assert.deepEqual(s.getRefreshToken('r2'), refreshToken('r2', 'k2'));
          assert.deepEqual(s.listChannels().map((c) => c.id), ['c2']);
          s.deleteConnection('missing');
          assert.equal(s.listConnections().length, 1);
        }));

      // The purge of expired access tokens (oauth/tokens.ts): by each token's own expiry, soonest
      // first, in bounded steps; what it keeps is found, and cascades, exactly as before.
      it('deletes access tokens expiring before a time, soonest first, at most `limit` at a time', () =>
        withStore((s) => {
          // Put out of expiry order, as after the service clock moved back; two share an expiry.
          s.putAccessToken(accessToken('later', 'k1', T0 + 1000));
          s.putAccessToken(accessToken('second-to-last', 'k1', T0 - 1000));
          s.putAccessToken(accessToken('at-before', 'k1', T0));
          s.putAccessToken(accessToken('first', 'k1', T0 - 3000));
          s.putAccessToken(accessToken('tied-b', 'k2', T0 - 2000));
          s.putAccessToken(accessToken('tied-a', 'k1', T0 - 2000));
          assert.equal(s.deleteAccessTokensExpiringBefore(T0, 0), 0);
          assert.equal(s.deleteAccessTokensExpiringBefore(T0, 2), 2);
          assert.equal(s.getAccessToken('first'), undefined);
          assert.equal(s.getAccessToken('tied-a'), undefined);
          assert.deepEqual(s.getAccessToken('tied-b', T0 - 2000), accessToken('tied-b', 'k2', T0 - 2000));
          assert.equal(s.deleteAccessTokensExpiringBefore(T0, 10), 2);
          assert.equal(s.getAccessToken('tied-b'), undefined);
          assert.equal(s.getAccessToken('second-to-last'), undefined);
          assert.equal(s.deleteAccessTokensExpiringBefore(T0, 10), 0);
          // A token expiring at `before` or later is never touched.
          assert.deepEqual(s.getAccessToken('at-before'), accessToken('at-before', 'k1', T0));
          assert.deepEqual(s.getAccessToken('later'), accessToken('later', 'k1', T0 + 1000));
          // What a purge leaves stays consistent: later purges and cascades find it as ever.
          assert.equal(s.deleteAccessTokensExpiringBefore(T0 + 1, 10), 1);
          s.putAccessToken(accessToken('older', 'k2', T0 - 5000));
          s.deleteConnection('k1');
          assert.equal(s.getAccessToken('later'), undefined);
          assert.deepEqual(s.getAccessToken('older'), accessToken('older', 'k2', T0 - 5000));
          assert.equal(s.deleteAccessTokensExpiringBefore(T0 + 10_000, 10), 1);
        }));

      it('a purge inside a transaction that throws is undone', () =>
        withStore((s) => {
          s.putAccessToken(accessToken('old', 'k1', T0 - 1));
          assert.throws(() =>
            s.transaction(() => {
              assert.equal(s.deleteAccessTokensExpiringBefore(T0, 10), 1);
              throw new Error('refused');
            }),
          );
          assert.deepEqual(s.getAccessToken('old'), accessToken('old', 'k1', T0 - 1));
          assert.equal(s.deleteAccessTokensExpiringBefore(T0, 10), 1);
        }));

      it("othersCommitted does not move with this store's own writes", () =>
        withStore((s) => {
          const before = s.othersCommitted();
          s.putUser(user('u1'));
          s.putConnection(connection('k1', 'u1'));
          s.putAccessToken(accessToken('h1', 'k1'));
          s.transaction(() => s.deleteUser('u1'));
          assert.equal(s.getUser('u1'), undefined);
          assert.equal(s.othersCommitted(), before);
        }));
    });

    describe('outbox', () => {
      it('numbers messages by one in the order they are recorded, reads pages after an id, and numbering goes on after clearing', () =>
        withStore((s) => {
          assert.deepEqual(s.readOutbox(0, 100), { messages: [], last: 0 });
          s.addOutboxMessages([outboxMessage(1, { kind: 'reply', summary: null }), outboxMessage(2, { kind: 'cancellation', to: 'x@example.test' }), outboxMessage(3)]);
          s.addOutboxMessages([]);
          s.addOutboxMessages(outboxMessages(4, 5, { kind: 'update' }));
          assert.deepEqual(s.readOutbox(0, 100), {
            messages: [
              { ...outboxMessage(1, { kind: 'reply', summary: null }), id: 1 },
              { ...outboxMessage(2, { kind: 'cancellation', to: 'x@example.test' }), id: 2 },
              { ...outboxMessage(3), id: 3 },
              { ...outboxMessage(4, { kind: 'update' }), id: 4 },
              { ...outboxMessage(5, { kind: 'update' }), id: 5 },
            ],
            last: 5,
          });
          assert.deepEqual(s.readOutbox(2, 2).messages.map((m) => m.to), ['guest3@example.test', 'guest4@example.test']);
          assert.deepEqual(s.readOutbox(4, 2), { messages: [{ ...outboxMessage(5, { kind: 'update' }), id: 5 }], last: 5 });
          assert.deepEqual(s.readOutbox(5, 100), { messages: [], last: 5 });
          assert.deepEqual(s.readOutbox(Number.MAX_SAFE_INTEGER, 100), { messages: [], last: 5 });
          s.clearOutbox();
          assert.deepEqual(s.readOutbox(0, 100), { messages: [], last: 0 });
          s.addOutboxMessages([outboxMessage(9)]);
          assert.deepEqual(s.readOutbox(0, 100), { messages: [{ ...outboxMessage(9), id: 6 }], last: 6 });
        }));

      it('a rolled-back transaction records none and drops none, and clearWorkspace empties the outbox', () =>
        withStore((s) => {
          // Two messages of 10 MiB cannot both be held, so the second write would drop the first.
          const big = outboxMessage(1, { summary: 'x'.repeat(10 * 1024 * 1024) });
          s.addOutboxMessages([big]);
          assert.throws(() =>
            s.transaction(() => {
              s.addOutboxMessages([outboxMessage(2, { summary: 'y'.repeat(10 * 1024 * 1024) })]);
              assert.deepEqual(s.readOutbox(0, 10).messages.map((m) => m.id), [2]);
              s.clearOutbox();
              throw new Error('boom');
            }),
          );
          assert.deepEqual(s.readOutbox(0, 10), { messages: [{ ...big, id: 1 }], last: 1 });
          s.addOutboxMessages([outboxMessage(3)]);
          assert.deepEqual(wholeOutbox(s).messages.map((m) => m.id), [1, 2]);
          s.clearWorkspace();
          assert.deepEqual(s.readOutbox(0, 10), { messages: [], last: 0 });
        }));

      it(`keeps the newest ${OUTBOX_MAX_MESSAGES} messages, the oldest dropped first`, () =>
        withStore((s) => {
          s.addOutboxMessages(outboxMessages(1, OUTBOX_MAX_MESSAGES - 1));
          s.addOutboxMessages(outboxMessages(OUTBOX_MAX_MESSAGES, OUTBOX_MAX_MESSAGES + 2));
          let held = wholeOutbox(s);
          assert.equal(held.messages.length, OUTBOX_MAX_MESSAGES);
          assert.equal(held.messages[0]?.id, 3);
          assert.equal(held.messages[0]?.to, 'guest3@example.test');
          assert.equal(held.last, OUTBOX_MAX_MESSAGES + 2);
          // One write of more than the bound keeps its own newest.
          s.addOutboxMessages(outboxMessages(1, OUTBOX_MAX_MESSAGES + 5, { kind: 'update' }));
          held = wholeOutbox(s);
          assert.equal(held.messages.length, OUTBOX_MAX_MESSAGES);
          assert.deepEqual(held.messages.map((m) => m.kind).filter((k) => k !== 'update'), []);
          assert.equal(held.messages[0]?.to, 'guest6@example.test');
          assert.ok(consecutive(held));
        }));

      it(`holds at most ${OUTBOX_MAX_BYTES} bytes of messages (the bytes of their stored fields), the oldest dropped first`, () =>
        withStore((s) => {
          // Two bytes a character, so a count of characters instead of bytes would keep too many.
          const summary = (n: number, kib: number): Partial<NewOutboxMessage> => ({ summary: `${n}`.padEnd(kib * 512, 'é') });
          const written: NewOutboxMessage[] = [];
          const add = (messages: NewOutboxMessage[]): void => {
            s.addOutboxMessages(messages);
            written.push(...messages);
          };
          // Reading 16 MiB back takes a while on SQLite, so the outbox is checked at the turns only.
          const heldFirst = (): string | undefined => {
            const held = wholeOutbox(s);
            assert.deepEqual(held.messages.map((m) => m.to), newestWithin(written).map((m) => m.to));
            assert.ok(consecutive(held));
            return held.messages[0]?.to;
          };
          for (let n = 1; n <= 15; n++) add([outboxMessage(n, summary(n, 1024))]);
          add([outboxMessage(16, summary(16, 3))]);
          assert.equal(heldFirst(), 'guest1@example.test');
          add([outboxMessage(17, summary(17, 1024))]);
          assert.equal(heldFirst(), 'guest2@example.test');
          // One write larger than the bound: its own newest stay, every message held before goes.
          add(outboxMessages(18, 40).map((m, i) => ({ ...m, ...summary(18 + i, 1024) })));
          assert.equal(heldFirst(), 'guest26@example.test');
          add([...outboxMessages(41, 44), outboxMessage(45, summary(45, 1024))]);
          assert.equal(heldFirst(), 'guest27@example.test');
          // A page ends before the first message starting OUTBOX_PAGE_BYTES after its own first.
          const held = newestWithin(written);
          const starts = held.map((_, i) => held.slice(0, i).reduce((n, m) => n + messageBytes(m), 0));
          const page = s.readOutbox(0, 1000);
          assert.equal(page.messages.length, starts.filter((start) => start < OUTBOX_PAGE_BYTES).length);
          assert.ok(page.messages.length > 1 && page.messages.length < held.length);
          assert.equal(s.readOutbox(0, 2).messages.length, 2);
        }));
    });

    describe('cascades and clearing', () => {
      /** Two users with calendars, shared entries, events, connections, tokens, channels. */
      function seed(s: Store): void {
        s.putClient(client('client-1'));
        s.putUser(user('alice', 0));
        s.putUser(user('bob', 1));
        s.putCalendar(calendar('alice@example.test', 'alice', { primary: true }));
        s.putCalendar(calendar('alice-team', 'alice'));
        s.putCalendar(calendar('bob@example.test', 'bob', { primary: true }));
        s.putCalendarListEntry(entry('alice', 'alice@example.test'));
        s.putCalendarListEntry(entry('alice', 'alice-team'));
        s.putCalendarListEntry(entry('alice', 'bob@example.test'));
        s.putCalendarListEntry(entry('bob', 'bob@example.test'));
        s.putCalendarListEntry(entry('bob', 'alice-team'));
        for (const cal of ['alice@example.test', 'alice-team', 'bob@example.test']) {
          s.putEvent(event(cal, 'e1'));
          s.putEvent(event(cal, 'e2', { startMs: T0 - 60 * DAY, endMs: T0 + 60 * DAY }));
        }
        s.putConnection(connection('ka', 'alice'));
        s.putConnection(connection('kb', 'bob'));
        s.putAccessToken(accessToken('ha', 'ka'));
        s.putRefreshToken(refreshToken('hra', 'ka'));
        s.putAccessToken(accessToken('hb', 'kb'));
        s.putRefreshToken(refreshToken('hrb', 'kb'));
        s.putChannel(channel('ch-alice-on-bob', 'ka', { resource: { kind: 'events', calendarId: 'bob@example.test' } }));
        s.putChannel(channel('ch-alice-list', 'ka', { resource: { kind: 'calendarList', userId: 'alice' } }));
        s.putChannel(channel('ch-bob-on-alice-team', 'kb', { resource: { kind: 'events', calendarId: 'alice-team' } }));
        s.putChannel(channel('ch-bob-own', 'kb', { resource: { kind: 'events', calendarId: 'bob@example.test' } }));
        s.putChannel(channel('ch-bob-list', 'kb', { resource: { kind: 'calendarList', userId: 'bob' } }));
        s.setMeta('fixture', 'default');
      }

      it('deleteUser removes the user and everything hanging off them, and nothing else', () =>
        withStore((s) => {
          seed(s);
          s.deleteUser('alice');
          assert.equal(s.getUser('alice'), undefined);
          assert.deepEqual(s.listUsers().map((u) => u.id), ['bob']);
          assert.equal(s.getCalendar('alice@example.test'), undefined);
          assert.equal(s.getCalendar('alice-team'), undefined);
          assert.deepEqual(s.listCalendarsByOwner('alice'), []);
          for (const cal of ['alice@example.test', 'alice-team']) {
            assert.equal(allEvents(s, cal).length, 0);
            assert.equal(s.getEvent(cal, 'e1'), undefined);
            assert.deepEqual(s.listEventsOverlapping(cal, T0 - 365 * DAY, T0 + 365 * DAY), []);
            assert.deepEqual(s.listEventsChangedSince(cal, 0, 10), []);
          }
          assert.deepEqual(s.listCalendarListEntries('alice'), []);
          // Bob's entry for Alice's calendar goes with the calendar.
          assert.deepEqual(s.listCalendarListEntries('bob').map((e) => e.calendarId), ['bob@example.test']);
          assert.equal(s.getConnection('ka'), undefined);
          assert.equal(s.getAccessToken('ha'), undefined);
          assert.equal(s.getRefreshToken('hra'), undefined);
          // Alice's channels go with her connection; Bob's channel on her deleted calendar goes too.
          assert.deepEqual(s.listChannels().map((c) => c.id).sort(), ['ch-bob-list', 'ch-bob-own']);

          // Bob's world is intact.
          assert.ok(s.getCalendar('bob@example.test'));
          assert.equal(allEvents(s, 'bob@example.test').length, 2);
          assert.deepEqual(ids(s.listEventsOverlapping('bob@example.test', T0 - DAY, T0 + DAY)), ['e1', 'e2']);
          assert.ok(s.getConnection('kb'));
          assert.ok(s.getAccessToken('hb'));
          assert.ok(s.getRefreshToken('hrb'));
          assert.ok(s.getClient('client-1'));
          assert.equal(s.getMeta('fixture'), 'default');
          s.deleteUser('nobody');
        }));

      it('clearWorkspace deletes every workspace record but keeps meta and the sequence', () =>
        withStore((s) => {
          seed(s);
          const before = s.nextSeq();
          s.clearWorkspace();
          assert.equal(s.getClient('client-1'), undefined);
          assert.deepEqual(s.listUsers(), []);
          assert.deepEqual(s.listCalendarsByOwner('alice'), []);
          assert.equal(s.getCalendar('bob@example.test'), undefined);
          assert.deepEqual(s.listCalendarListEntries('bob'), []);
          assert.equal(allEvents(s, 'bob@example.test').length, 0);
          assert.deepEqual(s.listEventsOverlapping('bob@example.test', T0 - DAY, T0 + DAY), []);
          assert.deepEqual(s.listConnections(), []);
          assert.equal(s.getAccessToken('hb'), undefined);
          assert.equal(s.getRefreshToken('hrb'), undefined);
          assert.deepEqual(s.listChannels(), []);
          assert.equal(s.getMeta('fixture'), 'default');
          assert.ok(s.nextSeq() > before);
          // The store is usable afterwards.
          seed(s);
          assert.equal(allEvents(s, 'alice-team').length, 2);
        }));

      const keys = {
        users: ['alice', 'bob', 'carol'],
        calendars: ['alice@example.test', 'alice-team', 'bob@example.test', 'new'],
        hashes: ['ha', 'hra', 'hb', 'hrb', 'hnew', 'hc'],
        meta: ['fixture', 'other'],
      };

      /** Writes of every kind, including ones that replace existing records. */
      function writeEverything(s: Store): void {
        s.setMeta('fixture', 'changed');
        s.setMeta('other', 'x');
        s.nextSeq();
        s.putClient(client('client-2'));
        s.putClient({ ...client('client-1'), redirectUris: [] });
        s.putUser(user('carol', 5));
        s.putUser(user('bob', 9));
        s.putCalendar(calendar('new', 'carol'));
        s.putCalendar(calendar('bob@example.test', 'bob', { seq: 77 }));
        s.putCalendarListEntry(entry('carol', 'new'));
        s.putCalendarListEntry(entry('bob', 'bob@example.test', { deleted: true }));
        s.putEvent(event('new', 'n1'));
        s.putEvent(event('bob@example.test', 'e1', { seq: 50, startMs: T0 + 3 * DAY, endMs: T0 + 40 * DAY, iCalUID: 'other' }));
        s.putEvent(event('bob@example.test', 'e3', { seq: 51, recurringEventId: 'e1' }));
        s.putConnection(connection('kc', 'carol'));
        s.putAccessToken(accessToken('hnew', 'kc'));
        s.putAccessToken(accessToken('hc', 'kc', T0 + 7200_000));
        s.putRefreshToken(refreshToken('hrb', 'kc'));
        s.putChannel(channel('ch-new', 'kc'));
        s.putChannel(channel('ch-bob-own', 'kb', { nextMessageNumber: 9 }));
        s.deleteChannel('ch-bob-list');
        s.addOutboxMessages([outboxMessage(900)]);
        s.clearOutbox();
        s.addOutboxMessages([outboxMessage(901)]);
        s.deleteConnection('ka');
        s.deleteUser('alice');
        s.putEvent(event('alice-team', 'revived'));
      }

      /** Everything a snapshot keeps: the picture without the outbox and meta. */
      function data(s: Store): unknown {
        const { outbox: _outbox, meta: _meta, ...rest } = snapshot(s, keys) as Record<string, unknown>;
        return rest;
      }

      it('restoreSnapshot puts back every record but the outbox, meta and sequence, as often as asked', () =>
        withStore((s) => {
          seed(s);
          s.putSharedCopy({ event: event('alice@example.test', 'shared'), holders: ['bob@example.test'] });
          const before = data(s);
          const eventsBefore = s.countEvents();
          const id = s.takeSnapshot();
          for (let round = 0; round < 2; round++) {
            writeEverything(s);
            s.addOutboxMessages([outboxMessage(s.nextSeq())]);
            s.putSharedCopy({ event: event('alice@example.test', 'shared'), holders: [] });
            assert.notDeepEqual(data(s), before);
            const outbox = s.readOutbox(0, 1000);
            const seq = s.nextSeq();
            s.restoreSnapshot(id);
            assert.deepEqual(data(s), before);
            assert.equal(s.countEvents(), eventsBefore);
            assert.equal(s.getEvent('bob@example.test', 'shared')?.calendarId, 'bob@example.test', 'the shared copy is back');
            assert.deepEqual(s.readOutbox(0, 1000), outbox, 'the outbox stays');
            assert.equal(s.getMeta('other'), 'x', 'meta stays');
            assert.ok(s.nextSeq() > seq, 'the sequence never goes back');
          }
          // Restored records are written over like any others.
          s.putEvent(event('bob@example.test', 'e1', { seq: 99 }));
          assert.equal(s.getEvent('bob@example.test', 'e1')?.seq, 99);
          s.dropSnapshot(id);
          assert.throws(() => s.restoreSnapshot(id));
        }));

      it('a restore keeps the channel ids used since the snapshot: an id stays spent (channelIdNotUnique)', () =>
        withStore((s) => {
          s.rememberChannelId('before');
          const id = s.takeSnapshot();
          s.rememberChannelId('after');
          s.restoreSnapshot(id);
          assert.equal(s.isChannelIdRemembered('before'), true);
          assert.equal(s.isChannelIdRemembered('after'), true);
        }));

      it('a restore inside a transaction that throws is undone, and snapshots are independent', () =>
        withStore((s) => {
          seed(s);
          const first = s.takeSnapshot();
          writeEverything(s);
          const second = s.takeSnapshot();
          const after = data(s);
          assert.throws(() =>
            s.transaction(() => {
              s.restoreSnapshot(first);
              throw new Error('boom');
            }),
          );
          assert.deepEqual(data(s), after);
          s.restoreSnapshot(first);
          s.dropSnapshot(first);
          s.restoreSnapshot(second);
          assert.deepEqual(data(s), after);
        }));

      it('releaseMemory keeps every record, and the store reads and writes on as before', () =>
        withStore((s) => {
          seed(s);
          const before = snapshot(s, keys);
          s.releaseMemory();
          assert.deepEqual(snapshot(s, keys), before);
          writeEverything(s);
          const written = snapshot(s, keys);
          s.releaseMemory();
          assert.deepEqual(snapshot(s, keys), written);
        }));

      it('countEvents counts every calendar\'s own events and each shared copy once', () =>
        withStore((s) => {
          assert.equal(s.countEvents(), 0);
          seed(s);
          assert.equal(s.countEvents(), 6);
          s.putSharedCopy({ event: event('alice@example.test', 'shared'), holders: ['bob@example.test', 'alice-team'] });
          assert.equal(s.countEvents(), 7);
          assert.deepEqual(s.sizes(), { users: s.listUsers().length, events: 7 });
        }));

      it('transaction commits every write and returns the value of fn', () =>
        withStore((s) => {
          seed(s);
          const value = s.transaction(() => {
            writeEverything(s);
            return 'done';
          });
          assert.equal(value, 'done');
          assert.equal(s.getUser('alice'), undefined);
          assert.equal(s.getEvent('bob@example.test', 'e1')?.seq, 50);
          assert.equal(s.getMeta('fixture'), 'changed');
          assert.equal(allEvents(s, 'alice-team').length, 1);
        }));

      it('transaction leaves everything unchanged when fn throws', () =>
        withStore((s) => {
          seed(s);
          const seqBefore = s.nextSeq();
          const before = snapshot(s, keys);
          const boom = new Error('boom');
          assert.throws(
            () =>
              s.transaction(() => {
                writeEverything(s);
                s.clearWorkspace();
                s.putEvent(event('bob@example.test', 'after-clear'));
                throw boom;
              }),
            (err) => err === boom,
          );
          assert.deepEqual(snapshot(s, keys), before);
          assert.ok(s.nextSeq() > seqBefore);
          // Still usable, and later writes commit.
          s.transaction(() => s.putUser(user('dave', 7)));
          assert.ok(s.getUser('dave'));
        }));

      it('a nested transaction that throws undoes only its own writes', () =>
        withStore((s) => {
          seed(s);
          const before = snapshot(s, keys);
          s.transaction(() => {
            s.putUser(user('carol', 5));
            assert.throws(() =>
              s.transaction(() => {
                writeEverything(s);
                throw new Error('inner');
              }),
            );
            // Inside the outer transaction, the inner writes are already gone.
            assert.equal(s.getMeta('fixture'), 'default');
            assert.ok(s.getUser('alice'));
            s.putEvent(event('bob@example.test', 'outer'));
          });
          assert.ok(s.getUser('carol'));
          assert.ok(s.getEvent('bob@example.test', 'outer'));
          assert.ok(s.getUser('alice'));
          assert.equal(s.getEvent('bob@example.test', 'e1')?.seq, 1);
          assert.equal(s.getEvent('new', 'n1'), undefined);
          s.transaction(() => {
            s.deleteUser('carol');
          });
          assert.equal(allEvents(s, 'bob@example.test').length, 3);
          assert.deepEqual((snapshot(s, keys) as { users: unknown }).users, (before as { users: unknown }).users);
        }));

      it('an outer transaction that throws undoes its committed nested transactions', () =>
        withStore((s) => {
          seed(s);
          const before = snapshot(s, keys);
          assert.throws(() =>
            s.transaction(() => {
              s.transaction(() => writeEverything(s));
              s.transaction(() => s.transaction(() => s.putEvent(event('new', 'deep'))));
              throw new Error('outer');
            }),
          );
          assert.deepEqual(snapshot(s, keys), before);
        }));

      // A transaction's first write may wait for its next statement (SQLite takes no savepoint for
      // a transaction whose one write is its last): whatever comes next must see it, and a failure
      // after it must undo it.
      it('what a transaction reads right after its first write shows that write', () =>
        withStore((s) => {
          seed(s);
          s.transaction(() => {
            s.putEvent(event('bob@example.test', 'fresh', { seq: 70 }));
            assert.equal(s.getEvent('bob@example.test', 'fresh')?.seq, 70);
          });
          s.transaction(() => {
            s.putEvent(event('bob@example.test', 'listed', { seq: 71 }));
            assert.deepEqual(s.listEventsChangedSince('bob@example.test', 70, 10).map((e) => e.id), ['listed']);
          });
          s.transaction(() => {
            s.putUser(user('carol', 5));
            assert.deepEqual(s.listUsers().map((u) => u.id).sort(), ['alice', 'bob', 'carol']);
          });
          assert.ok(s.getEvent('bob@example.test', 'fresh'));
          assert.ok(s.getEvent('bob@example.test', 'listed'));
        }));

      it('a first write is undone by a failure after it, however the transaction goes on', () =>
        withStore((s) => {
          seed(s);
          const before = snapshot(s, keys);
          const attempts: Array<() => void> = [
            () => {
              s.putUser(user('carol', 5));
              s.getUser('carol');
            },
            () => {
              s.putUser(user('carol', 5));
              s.transaction(() => s.setMeta('fixture', 'changed'));
            },
            () => {
              s.putUser(user('carol', 5));
              assert.throws(() => s.transaction(() => {
                s.setMeta('fixture', 'changed');
                throw new Error('inner');
              }));
              assert.ok(s.getUser('carol'));
              assert.equal(s.getMeta('fixture'), 'default');
            },
            () => s.putUser(user('carol', 5)),
          ];
          for (const attempt of attempts) {
            assert.throws(() => s.transaction(() => {
              attempt();
              throw new Error('after the write');
            }), /after the write/);
            assert.deepEqual(snapshot(s, keys), before);
          }
          // Nothing of a failed transaction comes back with the next one.
          s.transaction(() => {
            s.putUser(user('dave', 6));
            s.setMeta('other', 'y');
          });
          assert.equal(s.getUser('carol'), undefined);
          s.transaction(() => {
            s.putUser(user('carol', 5));
            s.transaction(() => s.setMeta('fixture', 'changed'));
          });
          assert.ok(s.getUser('carol'));
          assert.equal(s.getMeta('fixture'), 'changed');
        }));

      it('transaction refuses an async function and rolls back its synchronous part', () =>
        withStore(async (s) => {
          seed(s);
          const before = snapshot(s, keys);
          assert.throws(
            () =>
              s.transaction(async () => {
                s.putUser(user('carol'));
              }),
            TypeError,
          );
          assert.deepEqual(snapshot(s, keys), before);
        }));
    });

    if (opts.reopen !== undefined) {
      const reopen = opts.reopen;
      it('keeps every record across a reopen', async () => {
        let s = await open();
        try {
          s.putClient(client('c1'));
          s.putUser(user('u1', 3));
          s.putCalendar(calendar('cal', 'u1', { primary: true }));
          s.putCalendarListEntry(entry('u1', 'cal', { hidden: true }));
          const e = event('cal', 'e', { recurring: true, endMs: Number.MAX_SAFE_INTEGER });
          s.putEvent(e);
          s.putConnection(connection('k', 'u1'));
          s.putAccessToken(accessToken('h', 'k'));
          s.putRefreshToken(refreshToken('r', 'k'));
          const ch = channel('ch', 'k', { resource: { kind: 'calendarList', userId: 'u1' }, token: 't' });
          s.putChannel(ch);
          s.setMeta('m', 'v');
          const seq = s.nextSeq();
          s = await reopen(s);
          assert.deepEqual(s.getClient('c1'), client('c1'));
          assert.deepEqual(s.getUser('u1'), user('u1', 3));
          assert.deepEqual(s.getCalendar('cal'), calendar('cal', 'u1', { primary: true }));
          assert.deepEqual(s.getCalendarListEntry('u1', 'cal'), entry('u1', 'cal', { hidden: true }));
          assert.deepEqual(s.getEvent('cal', 'e'), e);
          assert.deepEqual(ids(s.listEventsOverlapping('cal', T0, T0 + DAY)), ['e']);
          assert.deepEqual(s.getConnection('k'), connection('k', 'u1'));
          assert.deepEqual(s.getAccessToken('h'), accessToken('h', 'k'));
          assert.deepEqual(s.getRefreshToken('r'), refreshToken('r', 'k'));
          assert.deepEqual(s.getChannel('ch'), ch);
          assert.equal(s.getMeta('m'), 'v');
          assert.ok(s.nextSeq() > seq);
        } finally {
          s.close();
        }
      });
    }
  });
}

/** The newest of `written` that the outbox's bounds let it hold (store/outbox-bounds.ts). */
function newestWithin(written: readonly NewOutboxMessage[]): NewOutboxMessage[] {
  let bytes = 0;
  let first = written.length;
  for (; first > 0 && written.length - first < OUTBOX_MAX_MESSAGES; first--) {
    bytes += messageBytes(written[first - 1] as NewOutboxMessage);
    if (bytes > OUTBOX_MAX_BYTES) break;
  }
  return written.slice(first);
}

/** Whether the ids held run by one up to `last`. */
function consecutive(page: OutboxPage): boolean {
  return page.messages.every((m, i) => m.id === page.last - page.messages.length + 1 + i);
}
