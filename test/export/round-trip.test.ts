// The workspace export round-trips (docs/journal.md#workspace-export), seeded and on both stores:
// random workspaces are built through the Calendar API (single, all-day and recurring events on
// primary and secondary calendars, series with RRULE and EXDATE, modified, moved and cancelled
// instances, deleted events and series, series re-timed so that their exceptions are orphaned,
// "this and following" splits, calendar-list settings, a calendar removed from its list), then
// GET /__svc/fixtures is loaded into a fresh instance with POST /__svc/fixtures, and everything
// reads back the same through the Calendar API of the new instance, whose tokens come from the
// exported client (its original secret still authenticates against secretSha256):
//   - calendarList.list with showDeleted and showHidden, and calendars.get of every calendar;
//   - events.list with showDeleted, singleEvents=false (every record) and singleEvents=true
//     over a window (every instance), and events.get of every id either listing names.
// What is ignored, and why: `etag`, `created` and `updated` (a load writes every record anew, so
// they are the load's: docs/journal.md#workspace-export says "etags aside"; `created`/`updated` read the service
// clock at load time); the base URL inside `htmlLink` (each instance has its own port; the rest
// of the link, which names the event and calendar, is compared); the order of the
// singleEvents=false listing without orderBy (change order, which a load renumbers: compared by
// id); the envelopes' `nextSyncToken` (tokens are per instance). The export of the new instance
// also equals the first export exactly.
//
// EXPORT_SEED=<n> runs that seed alone; a failure names the seed and the edits made.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AIKO, api, BEN, BEN_PRIVATE, CALENDAR_FIXTURE, TEAM, tokenFor } from '../_helpers/calendar.ts';
import { Rng } from '../_helpers/fuzz.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { call, postJson, startService } from '../_helpers/service.ts';
import { Editor, SyncClient } from '../calendar/sync-client.ts';
import type { Item } from '../calendar/sync-client.ts';

const SEEDS = process.env.EXPORT_SEED === undefined ? [7, 1234] : [Number(process.env.EXPORT_SEED)];
const EDITS = 25;
const NOW = '2030-03-06T12:00:00Z';
const DAY = 86_400_000;
/** The window of the singleEvents=true comparison: every edit's slot and then some. */
const WINDOW = `timeMin=${new Date(Date.parse(NOW) - 60 * DAY).toISOString()}&timeMax=${new Date(Date.parse(NOW) + 400 * DAY).toISOString()}`;

/** Who edits what: each user's calendars. */
const CALENDARS: ReadonlyArray<{ user: string; calendars: string[] }> = [
  { user: 'user-aiko', calendars: [AIKO, TEAM] },
  { user: 'user-ben', calendars: [BEN, BEN_PRIVATE] },
];

interface Session {
  url: string;
  tokens: Map<string, string>;
}

async function session(url: string): Promise<Session> {
  const tokens = new Map<string, string>();
  for (const { user } of CALENDARS) tokens.set(user, await tokenFor(url, 'calendar', user));
  return { url, tokens };
}

async function get(s: Session, user: string, path: string): Promise<Item> {
  const answer = await api(s.url, s.tokens.get(user), path);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  return answer.json;
}

/** Edits beyond the sync tests' Editor: EXDATE, rich fields, a series gaining a field after its exceptions. */
async function extraEdit(editor: Editor, rng: Rng, log: string[]): Promise<void> {
  const path = editor.client.path;
  const start = editor.slot();
  const utc = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
  const choice = rng.int(0, 3);
  if (choice === 0) {
    const exdate = utc(start + 7 * DAY).replace(/[-:]/g, '');
    await editor.call('POST', path, {
      summary: 'Weekly with a gap',
      start: { dateTime: utc(start), timeZone: 'Europe/Berlin' },
      end: { dateTime: utc(start + 3_600_000), timeZone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6', `EXDATE:${exdate}`],
    });
    log.push('insert a series with EXDATE');
  } else if (choice === 1) {
    await editor.call('POST', path, {
      summary: 'Rich',
      description: 'Line one\nline two',
      location: 'Room 4',
      colorId: String(rng.int(1, 11)),
      transparency: 'transparent',
      visibility: 'private',
      attendees: [{ email: 'guest@example.com', displayName: 'Guest', optional: true }],
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 15 }] },
      extendedProperties: { private: { k: 'v' }, shared: { s: '1' } },
      source: { title: 'Source', url: 'https://example.com/x' },
      guestsCanModify: true,
      guestsCanSeeOtherGuests: false,
      start: { dateTime: utc(start) },
      end: { dateTime: utc(start + 1_800_000) },
    });
    log.push('insert a rich event');
  } else {
    const { series } = await editor.records();
    if (series.length === 0) return;
    const master = rng.pick(series);
    // An exception first, then the series gains a location its exception never had.
    await editor.onInstance(master, (i) => editor.call('PATCH', `${path}/${i.id}`, { summary: 'Changed instance' }));
    await editor.call('PATCH', `${path}/${master.id}`, { location: `Added ${log.length}`, description: 'Series text' });
    log.push('modify an instance, then give its series a location');
  }
}

/** calendarList settings: override, colours, reminders, notifications, hidden, removed. */
async function listEdits(s: Session, rng: Rng): Promise<void> {
  const aiko = s.tokens.get('user-aiko');
  const patch = (calendar: string, body: unknown, query = ''): Promise<unknown> =>
    api(s.url, aiko, `users/me/calendarList/${encodeURIComponent(calendar)}${query}`, { method: 'PATCH', body }).then((a) => assert.equal(a.status, 200, a.text));
  await patch(AIKO, { summaryOverride: 'Me', colorId: String(rng.int(1, 24)), defaultReminders: [{ method: 'email', minutes: rng.int(0, 60) }] });
  await patch(AIKO, { notificationSettings: { notifications: [{ type: 'agenda', method: 'email' }] } });
  await patch(TEAM, { backgroundColor: '#123456', foregroundColor: '#fedcba' }, '?colorRgbFormat=true');
  await patch(TEAM, { selected: false, hidden: rng.chance(0.5) });
  const ben = s.tokens.get('user-ben');
  const removed = await api(s.url, ben, `users/me/calendarList/${encodeURIComponent(BEN_PRIVATE)}`, { method: 'DELETE' });
  assert.equal(removed.status, 204, removed.text);
}

/** An event as compared: without what a load makes anew, and with htmlLink's base URL dropped. */
function comparable(item: Item, url: string): Item {
  const { etag: _etag, created: _created, updated: _updated, ...rest } = item;
  if (typeof rest.htmlLink === 'string') rest.htmlLink = rest.htmlLink.replace(url, '');
  return rest;
}

async function allPages(s: Session, user: string, path: string, query: string): Promise<Item[]> {
  const items: Item[] = [];
  let pageToken = '';
  for (;;) {
    const page = await get(s, user, `${path}?${query}&maxResults=2500${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
    items.push(...page.items);
    if (page.nextPageToken === undefined) return items;
    pageToken = page.nextPageToken;
  }
}

/** Everything the Calendar API shows of the workspace, in comparable form. */
async function picture(s: Session): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const { user, calendars } of CALENDARS) {
    const list = await allPages(s, user, 'users/me/calendarList', 'showDeleted=true&showHidden=true');
    out[`${user} calendarList`] = list.map(({ etag: _etag, ...entry }) => entry);
    for (const calendar of calendars) {
      const path = `calendars/${encodeURIComponent(calendar)}/events`;
      const { etag: _etag, ...metadata } = await get(s, user, `calendars/${encodeURIComponent(calendar)}`);
      out[`${calendar} metadata`] = metadata;
      const records = (await allPages(s, user, path, 'showDeleted=true&singleEvents=false')).map((e) => comparable(e, s.url));
      records.sort((a, b) => (a.id < b.id ? -1 : 1));
      out[`${calendar} records`] = records;
      const instances = (await allPages(s, user, path, `showDeleted=true&singleEvents=true&orderBy=startTime&${WINDOW}`)).map((e) => comparable(e, s.url));
      out[`${calendar} instances`] = instances;
      const ids = new Set([...records, ...instances].map((e) => e.id as string));
      for (const id of [...ids].sort()) out[`${calendar} get ${id}`] = comparable(await get(s, user, `${path}/${encodeURIComponent(id)}`), s.url);
    }
  }
  return out;
}

for (const backend of BACKENDS) {
  describe(`the workspace export round-trips (${backend} store)`, { skip: skipUnless(backend) }, () => {
    for (const seed of SEEDS) {
      test(`seed ${seed}`, async (t) => {
        const firstUrl = await startService(t, { fixture: CALENDAR_FIXTURE, db: databaseFor(t, backend) });
        await postJson(`${firstUrl}/__svc/clock`, { now: NOW });
        const first = await session(firstUrl);
        const rng = new Rng(seed);
        const log: string[] = [];
        const editors = CALENDARS.flatMap(({ user, calendars }) =>
          calendars.map((calendar) => new Editor(new SyncClient(first.url, first.tokens.get(user) as string, calendar, false), rng, Date.parse(NOW))),
        );
        for (const editor of editors) {
          await editor.insertSingle();
          await editor.insertSeries();
        }
        for (let i = 0; i < EDITS; i++) {
          const editor = rng.pick(editors);
          if (rng.chance(0.25)) await extraEdit(editor, rng, log);
          else log.push(await editor.edit());
        }
        await listEdits(first, rng);

        const exported = await call(`${first.url}/__svc/fixtures`);
        assert.equal(exported.status, 200, exported.text);
        const fresh = await startService(t, { fixture: { users: [] }, db: databaseFor(t, backend) });
        await postJson(`${fresh}/__svc/clock`, { now: NOW });
        const loaded = await postJson(`${fresh}/__svc/fixtures`, exported.json);
        assert.equal(loaded.status, 200, `seed ${seed}, edits: ${log.join('; ')}: ${loaded.text}`);
        const second = await session(fresh);

        const label = `seed ${seed}, edits: ${log.join('; ')}`;
        assert.deepEqual(await picture(second), await picture(first), label);
        assert.deepEqual((await call(`${fresh}/__svc/fixtures`)).json, exported.json, `${label}: the export of the copy`);
      });
    }
  });
}
