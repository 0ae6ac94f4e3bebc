// A syncing client for the sync tests: full listings and incremental syncs of one calendar over
// HTTP, each sync's items applied to a local copy the way Google's sync guide tells a client to
// (https://developers.google.com/workspace/calendar/api/v3/reference/events status), and random edits of the calendar for the property tests.

import assert from 'node:assert/strict';
import { api } from '../_helpers/calendar.ts';
import type { Rng } from '../_helpers/fuzz.ts';

export type Item = Record<string, any>;

/** A calendar seen through one token, listed with or without singleEvents. */
export class SyncClient {
  readonly url: string;
  readonly token: string;
  readonly path: string;
  readonly singleEvents: boolean;
  /** The client's copy, by id. */
  readonly copy = new Map<string, Item>();
  syncToken = '';

  constructor(url: string, token: string, calendar: string, singleEvents: boolean) {
    this.url = url;
    this.token = token;
    this.path = `calendars/${encodeURIComponent(calendar)}/events`;
    this.singleEvents = singleEvents;
  }

  /**
   * Every page of a listing, which must end within `maxPages`; `between` runs after the first
   * page (an edit made while paging).
   */
  async pages(query: string, pageSize: number, between?: () => Promise<void>, maxPages = 10_000): Promise<{ items: Item[]; syncToken: string }> {
    const items: Item[] = [];
    let pageToken: string | undefined;
    for (let page = 0; ; page++) {
      const answer = await api(this.url, this.token, `${this.path}?${query}&maxResults=${pageSize}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.equal(answer.status, 200, answer.text);
      assert.ok(answer.json.items.length <= pageSize, 'a page holds at most maxResults items');
      items.push(...answer.json.items);
      pageToken = answer.json.nextPageToken;
      if (pageToken === undefined) {
        assert.equal(typeof answer.json.nextSyncToken, 'string', 'the last page carries nextSyncToken');
        return { items, syncToken: answer.json.nextSyncToken };
      }
      assert.ok(page + 1 < maxPages, `a listing ends within ${maxPages} pages`);
      if (page === 0 && between) await between();
    }
  }

  get mode(): string {
    return `singleEvents=${this.singleEvents}`;
  }

  /** What a fresh full listing shows now, by id (and its sync token). */
  async fresh(): Promise<{ view: Map<string, Item>; syncToken: string }> {
    const { items, syncToken } = await this.pages(this.mode, 2500);
    const view = new Map<string, Item>();
    for (const item of items) {
      assert.ok(!view.has(item.id), `${item.id} is listed once`);
      view.set(item.id, item);
    }
    return { view, syncToken };
  }

  async fullSync(): Promise<void> {
    const { view, syncToken } = await this.fresh();
    this.copy.clear();
    for (const [id, item] of view) this.copy.set(id, item);
    this.syncToken = syncToken;
  }

  /** An incremental sync applied to the copy; returns its items. */
  async sync(pageSize = 250, between?: () => Promise<void>): Promise<Item[]> {
    const { items, syncToken } = await this.pages(`${this.mode}&syncToken=${encodeURIComponent(this.syncToken)}`, pageSize, between);
    for (const item of items) this.apply(item);
    if (!this.singleEvents) this.dropOrphans();
    this.syncToken = syncToken;
    return items;
  }

  /**
   * A cancelled item is a deletion, except (without singleEvents) a cancelled exception of a
   * series the client holds, which it keeps while the series lives (https://developers.google.com/workspace/calendar/api/v3/reference/events status).
   */
  apply(item: Item): void {
    if (item.status !== 'cancelled') this.copy.set(item.id, item);
    else if (!this.singleEvents && typeof item.recurringEventId === 'string') this.copy.set(item.id, item);
    else this.copy.delete(item.id);
  }

  dropOrphans(): void {
    for (const [id, item] of this.copy) {
      if (item.status !== 'cancelled' || typeof item.recurringEventId !== 'string') continue;
      const master = this.copy.get(item.recurringEventId);
      if (master === undefined || master.status === 'cancelled') this.copy.delete(id);
    }
  }

  /** The copy equals a fresh full listing, item for item. */
  async assertInStep(label: string): Promise<void> {
    const { view } = await this.fresh();
    const missing = [...view.keys()].filter((id) => !this.copy.has(id));
    const extra = [...this.copy.keys()].filter((id) => !view.has(id));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, `${label}: the same ids`);
    for (const [id, item] of view) assert.deepEqual(this.copy.get(id), item, `${label}: ${id}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Random edits.

const ZONES = ['Europe/Berlin', 'America/New_York', 'UTC', 'Asia/Tokyo'];
const DAY = 86_400_000;
const HOUR = 3_600_000;

function utc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function date(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `RRULE:...` with COUNT, UNTIL and the part `extra` sets dropped, then `extra` appended. */
function reRule(rule: string, extra: string): string {
  const replaced = ['COUNT', 'UNTIL', extra.split('=')[0]];
  const parts = rule.slice('RRULE:'.length).split(';').filter((p) => !replaced.includes(p.split('=')[0]));
  return `RRULE:${[...parts, ...(extra ? [extra] : [])].join(';')}`;
}

/** Edits a calendar at random through the API, around the service clock's `now`. */
export class Editor {
  readonly client: SyncClient;
  readonly rng: Rng;
  readonly now: number;
  readonly log: string[] = [];

  constructor(client: SyncClient, rng: Rng, now: number) {
    this.client = client;
    this.rng = rng;
    this.now = now;
  }

  async call(method: string, path: string, body?: unknown): Promise<Item> {
    const answer = await api(this.client.url, this.client.token, path, body === undefined ? { method } : { method, body });
    assert.ok(answer.status === 200 || answer.status === 204, `${method} ${path} ${JSON.stringify(body)}: ${answer.status} ${answer.text}`);
    return answer.json ?? {};
  }

  /** The calendar's live masters and single events, by kind. */
  async records(): Promise<{ singles: Item[]; series: Item[] }> {
    const { items } = await this.client.pages('singleEvents=false', 2500);
    const live = items.filter((e) => e.status !== 'cancelled' && e.recurringEventId === undefined);
    return { singles: live.filter((e) => e.recurrence === undefined), series: live.filter((e) => e.recurrence !== undefined) };
  }

  async instancesOf(master: Item): Promise<Item[]> {
    const answer = await api(this.client.url, this.client.token, `${this.client.path}/${master.id}/instances?maxResults=30`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.items;
  }

  slot(): number {
    return this.now + this.rng.int(-40, 300) * DAY + this.rng.int(6, 20) * HOUR;
  }

  async insertSingle(): Promise<void> {
    const start = this.slot();
    if (this.rng.chance(0.2)) {
      await this.call('POST', this.client.path, { summary: 'All-day', start: { date: date(start) }, end: { date: date(start + DAY) } });
      return;
    }
    await this.call('POST', this.client.path, { summary: `Single ${this.log.length}`, start: { dateTime: utc(start) }, end: { dateTime: utc(start + HOUR) } });
  }

  async insertSeries(start = this.slot(), rule?: string): Promise<void> {
    const rules = [
      `RRULE:FREQ=WEEKLY;BYDAY=${this.rng.pick(['MO', 'TU', 'WE', 'TH', 'FR'])}`,
      `RRULE:FREQ=DAILY;COUNT=${this.rng.int(2, 30)}`,
      `RRULE:FREQ=DAILY;INTERVAL=5;UNTIL=${utc(start + 200 * DAY).replace(/[-:]/g, '')}`,
      'RRULE:FREQ=MONTHLY',
      'RRULE:FREQ=WEEKLY;INTERVAL=2',
    ];
    const recurrence = [rule ?? this.rng.pick(rules)];
    if (this.rng.chance(0.2) && rule === undefined) {
      await this.call('POST', this.client.path, { summary: 'All-day series', start: { date: date(start) }, end: { date: date(start + DAY) }, recurrence: ['RRULE:FREQ=WEEKLY'] });
      return;
    }
    const timeZone = this.rng.pick(ZONES);
    await this.call('POST', this.client.path, {
      summary: `Series ${this.log.length}`,
      start: { dateTime: utc(start), timeZone },
      end: { dateTime: utc(start + HOUR), timeZone },
      recurrence,
    });
  }

  /** One random edit; returns its name. */
  async edit(): Promise<string> {
    const { singles, series } = await this.records();
    const choices: Array<[string, () => Promise<unknown>]> = [
      ['insert a single event', () => this.insertSingle()],
      ['insert a series', () => this.insertSeries()],
    ];
    const path = (e: Item): string => `${this.client.path}/${e.id}`;
    if (singles.length > 0) {
      const single = this.rng.pick(singles);
      choices.push(
        ['patch a single event', () => this.call('PATCH', path(single), { summary: `Renamed ${this.log.length}` })],
        ['move a single event', () => this.call('PATCH', path(single), this.shifted(single, 2 * HOUR))],
        ['delete a single event', () => this.call('DELETE', path(single))],
      );
      if (single.start.dateTime !== undefined) {
        choices.push([
          'turn a single event into a series',
          () => this.call('PATCH', path(single), { ...this.shifted(single, 0, 'UTC'), recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'] }),
        ]);
      }
    }
    if (series.length > 0) {
      const master = this.rng.pick(series);
      choices.push(
        ['rename a series', () => this.call('PATCH', path(master), { summary: `Renamed series ${this.log.length}` })],
        ['move a series', () => this.call('PATCH', path(master), this.shifted(master, HOUR))],
        ['change a series rule', () => this.call('PATCH', path(master), { recurrence: [reRule(master.recurrence[0], 'INTERVAL=3')] })],
        ['delete a series', () => this.call('DELETE', path(master))],
        ['cancel a series by its status', () => this.call('PATCH', path(master), { status: 'cancelled' })],
        ['turn a series into a single event', () => this.call('PATCH', path(master), { recurrence: null })],
        ['patch an instance', () => this.onInstance(master, (i) => this.call('PATCH', path(i), { summary: `Exception ${this.log.length}` }))],
        ['move an instance', () => this.onInstance(master, (i) => this.call('PATCH', path(i), this.shifted(i, 3 * HOUR)))],
        ['cancel an instance', () => this.onInstance(master, (i) => this.call('DELETE', path(i)))],
        ['end a series and start a new one (this and following)', () => this.thisAndFollowing(master)],
      );
    }
    const [name, run] = this.rng.pick(choices);
    await run();
    this.log.push(name);
    return name;
  }

  /** start and end moved by `ms` (all-day events by whole days), optionally in another zone. */
  shifted(event: Item, ms: number, zone?: string): Item {
    if (event.start.date !== undefined) {
      const days = Math.max(1, Math.round(ms / DAY));
      return { start: { date: date(Date.parse(event.start.date) + days * DAY) }, end: { date: date(Date.parse(event.end.date) + days * DAY) } };
    }
    const move = (t: Item): Item => ({ dateTime: utc(Date.parse(t.dateTime) + ms), ...((zone ?? t.timeZone) ? { timeZone: zone ?? t.timeZone } : {}) });
    return { start: move(event.start), end: move(event.end) };
  }

  async onInstance(master: Item, fn: (instance: Item) => Promise<unknown>): Promise<void> {
    const instances = await this.instancesOf(master);
    if (instances.length > 0) await fn(this.rng.pick(instances));
  }

  /** Google's recipe: the series ends before a chosen instance, a new series starts at it. */
  async thisAndFollowing(master: Item): Promise<void> {
    const instances = await this.instancesOf(master);
    if (instances.length < 2) return;
    const split = instances[this.rng.int(1, instances.length - 1)] as Item;
    const original = split.originalStartTime;
    const allDay = original.date !== undefined;
    const at = Date.parse(allDay ? original.date : original.dateTime);
    const until = allDay ? date(at - DAY).replace(/-/g, '') : utc(at - 1000).replace(/[-:]/g, '');
    await this.call('PATCH', `${this.client.path}/${master.id}`, { recurrence: [reRule(master.recurrence[0], `UNTIL=${until}`)] });
    if (allDay) {
      await this.call('POST', this.client.path, { summary: 'Following', start: { date: date(at) }, end: { date: date(at + DAY) }, recurrence: [reRule(master.recurrence[0], '')] });
    } else {
      await this.call('POST', this.client.path, {
        summary: 'Following',
        start: { dateTime: utc(at), timeZone: master.start.timeZone },
        end: { dateTime: utc(at + Date.parse(master.end.dateTime) - Date.parse(master.start.dateTime)), timeZone: master.start.timeZone },
        recurrence: [reRule(master.recurrence[0], '')],
      });
    }
  }
}
