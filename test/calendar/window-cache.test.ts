// Expanded windows kept while nothing they show changes (src/calendar/window-cache.ts): a
// repeated week view is answered without expanding again, a change elsewhere in the calendar
// keeps it, and a change that may touch the window never shows a stale page. The last is checked
// as a property on both stores: after random edits, cached listings equal uncached ones (a
// filter that every event passes, eventTypes=default, takes the uncached path).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventHandlers } from '../../src/calendar/events/handlers.ts';
import { CALENDAR_FIXTURE, api, tokenFor } from '../_helpers/calendar.ts';
import { Rng } from '../_helpers/fuzz.ts';
import { countedApp } from '../_helpers/counted-app.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { postJson, startService } from '../_helpers/service.ts';
import { Editor, SyncClient } from './sync-client.ts';

const NOW = '2030-03-06T12:00:00Z';
const DAY = 86_400_000;

describe('a repeated window is not expanded again', () => {
  const events = [
    { id: 'series0001', start: { dateTime: '2030-03-02T09:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2030-03-02T10:00:00Z', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY'] },
    { id: 'inside0001', start: { dateTime: '2030-03-05T12:00:00Z' }, end: { dateTime: '2030-03-05T13:00:00Z' } },
  ];
  const { calls, call: callFor } = countedApp(events);
  const call = (handler: keyof typeof eventHandlers, query: string, body?: unknown, params: Record<string, string> = {}): string => {
    const request = callFor({ method: 'GET', path: '/calendar/v3/calendars/primary/events', query, body, params: { calendarId: 'primary', ...params } });
    const result = eventHandlers[handler](request) as { status: number; body: Buffer | Buffer[] | string };
    assert.equal(result.status, 200);
    return typeof result.body === 'string' ? result.body : Buffer.concat(Array.isArray(result.body) ? result.body : [result.body]).toString('utf8');
  };
  const week = 'singleEvents=true&orderBy=startTime&timeMin=2030-03-04T00:00:00Z&timeMax=2030-03-11T00:00:00Z';
  const expansions = (): number => calls.get('listEventsOverlapping') ?? 0;

  test('the same week twice: one expansion', () => {
    const first = call('list', week);
    const before = expansions();
    assert.equal(call('list', week), first);
    assert.equal(expansions(), before);
  });

  test('an event written elsewhere in the calendar keeps the window', () => {
    call('list', week);
    const before = expansions();
    call('insert', '', { summary: 'Later', start: { dateTime: '2031-01-01T10:00:00Z' }, end: { dateTime: '2031-01-01T11:00:00Z' } });
    call('list', week);
    assert.equal(expansions(), before);
  });

  test('an event written in the window, or one the window shows, expands it again', () => {
    const before = expansions();
    call('patch', '', { summary: 'Renamed' }, { eventId: 'inside0001' });
    assert.match(call('list', week), /"Renamed"/);
    assert.equal(expansions(), before + 1);
    call('list', week);
    assert.equal(expansions(), before + 1, 'expanded again once, then kept');
    call('patch', '', { start: { dateTime: '2031-02-01T10:00:00Z' }, end: { dateTime: '2031-02-01T11:00:00Z' } }, { eventId: 'inside0001' });
    assert.doesNotMatch(call('list', week), /inside0001/);
    assert.equal(expansions(), before + 2);
  });
});

for (const backend of BACKENDS) {
  test(`cached windows equal uncached ones after random edits (${backend} store)`, { skip: skipUnless(backend) }, async (t) => {
    const url = await startService(t, { fixture: CALENDAR_FIXTURE, db: databaseFor(t, backend) });
    await postJson(`${url}/__svc/clock`, { now: NOW });
    const token = await tokenFor(url, 'calendar');
    const editor = new Editor(new SyncClient(url, token, 'primary', true), new Rng(7), Date.parse(NOW));
    for (let i = 0; i < 4; i++) await editor.insertSeries();
    for (let i = 0; i < 6; i++) await editor.insertSingle();
    const windows = [0, 14, 60].map((days) => {
      const from = new Date(Date.parse(NOW) + days * DAY).toISOString();
      const to = new Date(Date.parse(NOW) + (days + 7) * DAY).toISOString();
      return `singleEvents=true&orderBy=startTime&timeMin=${from}&timeMax=${to}&maxResults=20`;
    });
    const listing = async (query: string): Promise<unknown[]> => {
      const answer = await api(url, token, `calendars/primary/events?${query}`);
      assert.equal(answer.status, 200, answer.text);
      return answer.json.items;
    };
    for (let step = 0; step < 40; step++) {
      for (const query of windows) {
        assert.deepEqual(await listing(query), await listing(`${query}&eventTypes=default`), `step ${step}, ${query}, edits: ${editor.log.join('; ')}`);
      }
      await editor.edit();
    }
  });
}
