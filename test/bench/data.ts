// Generated workspaces for the benchmark, written as fixture files and loaded with --fixture
// (which validates each event as events.insert does).
//
// Single events keep a fixed density (one 1-hour event every 3 hours) centred on WINDOW_START,
// so a calendar of 1k, 10k or 100k events holds the same events in the fixed one-week window
// and only the rest of the calendar grows: that is what the growth rows compare.

import { writeFileSync } from 'node:fs';
import { DEFAULT_CLIENT } from '../../src/handle/consent.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPACING = 3 * HOUR;

/** The fixed window of the growth and freeBusy rows: one week. */
export const WINDOW_START = Date.UTC(2030, 0, 7);
export const WINDOW_END = WINDOW_START + 7 * DAY;
/** The year the recurring series are listed over. */
export const YEAR_START = Date.UTC(2026, 0, 1);
export const YEAR_END = Date.UTC(2027, 0, 1);

export const BENCH_USER = { id: 'user-bench', email: 'bench@example.com' };
export const GET_EVENT_ID = 'benchget0001';
export const SERIES_CALENDAR = 'series@bench.example.com';
/** The calendar of the week-view and sync rows: 200 series and 2,000 single events. */
export const WEEK_CALENDAR = 'week@bench.example.com';
export const WEEK_SINGLES = 2_000;
export const loadCalendar = (k: number): string => `load-${k}@bench.example.com`;

export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** n single events around WINDOW_START, ids e000000…, a typical payload (summary, description, location, times). */
export function singleEvents(n: number): JsonObject[] {
  const first = WINDOW_START - Math.floor(n / 2) * SPACING;
  return Array.from({ length: n }, (_, i) => {
    const start = first + i * SPACING;
    return {
      id: `e${String(i).padStart(6, '0')}`,
      summary: `Generated meeting ${i}`,
      description: 'Created by test/bench to measure the service under load.',
      location: `Room ${i % 40}`,
      start: { dateTime: rfc3339(start) },
      end: { dateTime: rfc3339(start + HOUR) },
    };
  });
}

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR'];
const pad = (n: number): string => String(n).padStart(2, '0');

/** 200 open-ended series in Europe/Berlin from January 2026: weekly, every weekday, monthly. */
export function recurringSeries(count = 200): JsonObject[] {
  return Array.from({ length: count }, (_, k) => {
    const day = 5 + (k % 5); // 2026-01-05 is a Monday
    const hour = 8 + (k % 10);
    const at = (h: number): string => `2026-01-${pad(day)}T${pad(h)}:${pad((k * 5) % 60)}:00`;
    const rule =
      k % 4 === 2 ? 'RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR' : k % 4 === 3 ? 'RRULE:FREQ=MONTHLY' : `RRULE:FREQ=WEEKLY;BYDAY=${WEEKDAYS[k % 5]}`;
    return {
      id: `series${String(k).padStart(4, '0')}`,
      summary: `Recurring meeting ${k}`,
      start: { dateTime: at(hour), timeZone: 'Europe/Berlin' },
      end: { dateTime: at(hour + 1), timeZone: 'Europe/Berlin' },
      recurrence: [rule],
    };
  });
}

interface CalendarSpec {
  id?: string;
  events: JsonObject[];
}

function fixture(calendars: CalendarSpec[]): JsonObject {
  return {
    clients: [{ id: DEFAULT_CLIENT.id, secret: DEFAULT_CLIENT.secret, redirectUris: [DEFAULT_CLIENT.redirectUri] }],
    users: [
      {
        id: BENCH_USER.id,
        name: 'Bench User',
        email: BENCH_USER.email,
        timeZone: 'UTC',
        calendars: calendars.map((c, i) => (i === 0 ? { primary: true, summary: 'Bench', events: c.events } : { id: c.id ?? '', summary: c.id ?? '', events: c.events })),
      },
    ],
  };
}

/**
 * The main workspace: a primary calendar with one event (events.get, events.insert), a calendar
 * of 200 series, one of 200 series and 2,000 single events (the week view and the sync), and
 * `calendars` calendars of `perCalendar` single events (events.list pages, freeBusy). With
 * `empty`, the same calendars without events (the memory row's baseline).
 */
export function mainWorkspace(calendars: number, perCalendar: number, empty = false): JsonObject {
  const getEvent = { id: GET_EVENT_ID, summary: 'Design review', location: 'Room 1', start: { dateTime: '2026-10-19T10:00:00+09:00' }, end: { dateTime: '2026-10-19T11:00:00+09:00' } };
  return fixture([
    { events: empty ? [] : [getEvent] },
    { id: SERIES_CALENDAR, events: empty ? [] : recurringSeries() },
    { id: WEEK_CALENDAR, events: empty ? [] : [...recurringSeries(), ...singleEvents(WEEK_SINGLES)] },
    ...Array.from({ length: calendars }, (_, k) => ({ id: loadCalendar(k), events: empty ? [] : singleEvents(perCalendar) })),
  ]);
}

/** One primary calendar of n single events (the growth rows). */
export function growthWorkspace(n: number): JsonObject {
  return fixture([{ events: singleEvents(n) }]);
}

export function writeFixture(path: string, value: JsonObject): string {
  writeFileSync(path, JSON.stringify(value));
  return path;
}
