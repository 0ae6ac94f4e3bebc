// An event's recurrence is bounded as a whole at write time (SECURITY.md, src/domain/recurrence/
// cost.ts), so every event the service accepts can be expanded within one request's budget, as
// its owner's and as the copy of every test user it invites. The reproduction: 120 RRULE lines,
// each under the per-line cap, inviting Ben, were accepted; Ben's week, freeBusy and incremental
// sync then answered 400. Now such an event is refused at insert, update, patch and fixture load,
// naming the cap; the heaviest event the caps allow leaves Ben's reads answering; and an
// incremental sync whose changes cannot be expanded answers 410 fullSyncRequired, never a 400
// that a client would retry with the same token for ever.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_RECURRENCE_DATES, MAX_RECURRENCE_LINES, MAX_RULE_LINES, MAX_SERIES_CANDIDATES } from '../../src/domain/recurrence/cost.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { BEN, CALENDAR_FIXTURE, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { assertWellFormedError } from '../_helpers/fuzz.ts';
import { postJson, startService } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const all = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
/** 10 days x 20 hours x 50 minutes: 10,000 candidates a month, exactly the per-line cap. */
const FULL_LINE = `FREQ=MONTHLY;BYMONTHDAY=${all(1, 10)};BYHOUR=${all(0, 19)};BYMINUTE=${all(0, 49)}`;
/** The reproduction: 120 lines at the per-line cap, 1.2 million candidates in one period of them all. */
const REPRODUCTION = Array.from({ length: 120 }, (_, i) => `RRULE:${FULL_LINE};INTERVAL=${i + 1}`);
const RULE_LINES_CAP = new RegExp(`the limit is ${MAX_RULE_LINES} rule lines per event`);
const EVENTS = 'calendars/primary/events';
/** Every half hour of the working week: 5 x 9 x 2 = 90 candidates a week. */
const HALF_HOURS = `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=${all(9, 17)};BYMINUTE=0,30`;

function series(summary: string, recurrence: readonly string[], extra: object = {}): object {
  return {
    summary,
    start: { dateTime: '2030-03-04T00:00:00Z', timeZone: 'UTC' },
    end: { dateTime: '2030-03-04T00:01:00Z', timeZone: 'UTC' },
    recurrence,
    ...extra,
  };
}

function refused(answer: Answer, message: RegExp, label: string): void {
  assert.equal(answer.status, 400, `${label}: ${answer.text.slice(0, 300)}`);
  assertWellFormedError(answer, 'google', label);
  assert.equal(reason(answer).reason, 'invalid', label);
  assert.match(answer.json.error.message, message, label);
}

/** Every item of a listing, following its pages, and its nextSyncToken. */
async function listAll(url: string, token: string, query: string): Promise<{ items: any[]; syncToken: string }> {
  const items: any[] = [];
  let pageToken: string | undefined;
  for (;;) {
    const page = await api(url, token, `${EVENTS}?${query}${pageToken === undefined ? '' : `&pageToken=${encodeURIComponent(pageToken)}`}`);
    assert.equal(page.status, 200, page.text.slice(0, 300));
    items.push(...page.json.items);
    pageToken = page.json.nextPageToken;
    if (pageToken === undefined) return { items, syncToken: page.json.nextSyncToken };
  }
}

for (const backend of BACKENDS) {
  describe(`an event's recurrence is capped as a whole (${backend} store)`, { skip: skipUnless(backend) }, () => {
    it('120 RRULE lines each under the per-line cap, inviting Ben: refused at insert, update and patch naming the cap; nothing stored, nobody invited', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend), fixture: CALENDAR_FIXTURE });
      const aiko = await tokenFor(url, 'calendar');
      const ben = await tokenFor(url, 'calendar', 'user-ben');
      const invite = { attendees: [{ email: BEN }] };
      const week = `${EVENTS}?singleEvents=true&timeMin=2030-03-04T00:00:00Z&timeMax=2030-03-11T00:00:00Z`;

      refused(await api(url, aiko, EVENTS, { method: 'POST', body: series('Hostile', REPRODUCTION, invite) }), RULE_LINES_CAP, 'insert');
      assert.deepEqual((await api(url, aiko, `${EVENTS}?showDeleted=true`)).json.items, [], "nothing on Aiko's calendar");
      assert.deepEqual((await api(url, ben, `${EVENTS}?showDeleted=true`)).json.items, [], 'no copy for Ben');

      // An existing series inviting Ben cannot be turned into one either.
      const created = await api(url, aiko, EVENTS, { method: 'POST', body: series('Standup', ['RRULE:FREQ=DAILY'], invite) });
      assert.equal(created.status, 200, created.text);
      const path = `${EVENTS}/${created.json.id}`;
      refused(await api(url, aiko, path, { method: 'PUT', body: series('Standup', REPRODUCTION, invite) }), RULE_LINES_CAP, 'update');
      refused(await api(url, aiko, path, { method: 'PATCH', body: { recurrence: REPRODUCTION } }), RULE_LINES_CAP, 'patch');
      assert.deepEqual((await api(url, aiko, path)).json.recurrence, ['RRULE:FREQ=DAILY']);
      // Ben's week, as the review found it broken: his copy expands.
      const benWeek = await api(url, ben, week);
      assert.equal(benWeek.status, 200, benWeek.text.slice(0, 300));
      assert.equal(benWeek.json.items.length, 7);
    });

    it('each of the other caps, just over it, is a 400 naming it', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend), fixture: CALENDAR_FIXTURE });
      const aiko = await tokenFor(url, 'calendar');
      const exdates = (count: number): string[] => Array.from({ length: count }, (_, i) => `EXDATE:${20300305 + (i % 20)}T${String(i % 24).padStart(2, '0')}0000Z`);
      const cases: [string, string[], RegExp][] = [
        ['two rule lines of 6,000 candidates a period each', [`RRULE:FREQ=MONTHLY;BYMONTHDAY=${all(1, 6)};BYHOUR=${all(0, 19)};BYMINUTE=${all(0, 49)}`, `EXRULE:FREQ=MONTHLY;BYMONTHDAY=${all(1, 6)};BYHOUR=${all(0, 19)};BYMINUTE=${all(0, 49)};BYSETPOS=1`], new RegExp(`can hold 12000 candidate occurrences in all; the limit is ${MAX_SERIES_CANDIDATES} per period`)],
        [`${MAX_RULE_LINES + 1} one-candidate rule lines`, Array.from({ length: MAX_RULE_LINES + 1 }, (_, i) => `RRULE:FREQ=DAILY;INTERVAL=${i + 1}`), RULE_LINES_CAP],
        [`${MAX_RECURRENCE_LINES + 1} lines`, ['RRULE:FREQ=HOURLY', ...exdates(MAX_RECURRENCE_LINES)], new RegExp(`has ${MAX_RECURRENCE_LINES + 1} recurrence lines; the limit is ${MAX_RECURRENCE_LINES} lines per event`)],
        [`${MAX_RECURRENCE_DATES + 1} dates on one EXDATE line`, ['RRULE:FREQ=MINUTELY', `EXDATE:${Array.from({ length: MAX_RECURRENCE_DATES + 1 }, (_, i) => `20300305T${String(Math.floor(i / 60) % 24).padStart(2, '0')}${String(i % 60).padStart(2, '0')}00Z`).join(',')}`], new RegExp(`list ${MAX_RECURRENCE_DATES + 1} dates; the limit is ${MAX_RECURRENCE_DATES} dates per event`)],
      ];
      for (const [label, lines, message] of cases) refused(await api(url, aiko, EVENTS, { method: 'POST', body: series(label, lines) }), message, label);
      assert.deepEqual((await api(url, aiko, `${EVENTS}?showDeleted=true`)).json.items, [], 'nothing stored');
    });

    it('a fixture with the reproduction is 400 invalid_fixture naming the event\'s recurrence and the cap', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend), fixture: CALENDAR_FIXTURE });
      const fixture = structuredClone(CALENDAR_FIXTURE) as { users: { calendars: object[] }[] };
      (fixture.users[0] as { calendars: object[] }).calendars[0] = { primary: true, events: [series('fine', ['RRULE:FREQ=WEEKLY']), series('Hostile', REPRODUCTION, { attendees: [{ email: BEN }] })] };
      const answer = await postJson(`${url}/__svc/fixtures`, fixture);
      assert.equal(answer.status, 400, answer.text);
      assertWellFormedError(answer, 'management', 'fixture');
      assert.equal(answer.json.error, 'invalid_fixture');
      assert.match(answer.json.error_description, /^users\[0\]\.calendars\[0\]\.events\[1\]\.recurrence/);
      assert.match(answer.json.error_description, RULE_LINES_CAP);
    });

    it("the heaviest event the caps allow, inviting Ben: his week, freeBusy and incremental sync answer, also after he declines", async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend), fixture: CALENDAR_FIXTURE });
      const aiko = await tokenFor(url, 'calendar');
      const ben = await tokenFor(url, 'calendar', 'user-ben');
      // Ten rule lines whose periods hold 9,000 + 90 + 7 x 114 + 112 = 10,000 candidates: the
      // whole of both caps.
      const heaviest = [
        `RRULE:FREQ=MONTHLY;BYMONTHDAY=${all(1, 9)};BYHOUR=${all(0, 19)};BYMINUTE=${all(0, 49)}`,
        `RRULE:${HALF_HOURS}`,
        ...Array.from({ length: 7 }, (_, i) => `RRULE:FREQ=DAILY;BYHOUR=${all(0, 18)};BYMINUTE=${all(0, 5)};INTERVAL=${i + 1}`),
        `RRULE:FREQ=DAILY;BYHOUR=${all(0, 15)};BYMINUTE=${all(0, 6)}`,
      ];
      assert.equal(heaviest.length, MAX_RULE_LINES);
      assert.equal(MAX_SERIES_CANDIDATES, 10_000);
      const created = await api(url, aiko, EVENTS, { method: 'POST', body: series('Heaviest', heaviest, { attendees: [{ email: BEN }] }) });
      assert.equal(created.status, 200, created.text);

      const window = 'timeMin=2030-03-04T00:00:00Z&timeMax=2030-03-11T00:00:00Z';
      const full = await listAll(url, ben, `singleEvents=true&maxResults=2500&${window}`);
      assert.ok(full.items.length > 2000, `${full.items.length} instances`);
      const busy = await api(url, ben, 'freeBusy', { method: 'POST', body: { timeMin: '2030-03-04T00:00:00Z', timeMax: '2030-03-11T00:00:00Z', items: [{ id: BEN }] } });
      assert.equal(busy.status, 200, busy.text.slice(0, 300));
      assert.ok(busy.json.calendars[BEN].busy.length > 0);

      let syncToken = full.syncToken;
      const sync = async (label: string): Promise<void> => {
        const answer = await api(url, ben, `${EVENTS}?singleEvents=true&syncToken=${encodeURIComponent(syncToken)}`);
        assert.equal(answer.status, 200, `${label}: ${answer.text.slice(0, 300)}`);
        const next = answer.json.nextSyncToken ?? answer.json.nextPageToken;
        assert.equal(typeof next, 'string', label);
        if (answer.json.nextSyncToken !== undefined) syncToken = answer.json.nextSyncToken;
      };
      assert.equal((await api(url, aiko, `${EVENTS}/${created.json.id}`, { method: 'PATCH', body: { summary: 'Heaviest, renamed' } })).status, 200);
      await sync('sync after the change');
      const declined = await api(url, ben, `${EVENTS}/${created.json.id}`, { method: 'PATCH', body: { attendees: [{ email: BEN, responseStatus: 'declined' }] } });
      assert.equal(declined.status, 200, declined.text.slice(0, 300));
      await sync('sync after Ben declines');
    });

    it('an incremental sync whose changes cannot be expanded answers 410 fullSyncRequired, not 400', async (t) => {
      const url = await startService(t, { db: databaseFor(t, backend), fixture: CALENDAR_FIXTURE });
      const aiko = await tokenFor(url, 'calendar');
      // A full sync over a century, then a series accepted by every cap that never occurs after
      // its start: two days a year qualify, and BYSETPOS then rejects each one-second period, so
      // expanding it over the token's century walks more periods than a request's step budget.
      const { syncToken } = await listAll(url, aiko, 'singleEvents=true&timeMin=2030-01-01T00:00:00Z&timeMax=2130-01-01T00:00:00Z');
      const rare = await api(url, aiko, EVENTS, { method: 'POST', body: series('Rare', ['RRULE:FREQ=SECONDLY;INTERVAL=7;BYYEARDAY=100,200;BYSECOND=0;BYSETPOS=2,-2']) });
      assert.equal(rare.status, 200, rare.text);
      const answer = await api(url, aiko, `${EVENTS}?singleEvents=true&syncToken=${encodeURIComponent(syncToken)}`);
      assert.equal(answer.status, 410, answer.text.slice(0, 300));
      assertWellFormedError(answer, 'google', 'incremental sync');
      assert.equal(reason(answer).reason, 'fullSyncRequired');
      // The full sync it asks for names the series' cost in its own 400.
      const again = await api(url, aiko, `${EVENTS}?singleEvents=true&timeMin=2030-01-01T00:00:00Z&timeMax=2130-01-01T00:00:00Z`);
      refused(again, /steps to expand/, 'full sync');
    });
  });
}
