// A seeded property test of invitations: random sequences of organizer edits, invitee
// answers, private changes, attendee additions and removals, deletes (by organizers and by
// invitees) and series exceptions, with two organizers inviting each other. After every step:
// every copy agrees with its organizer's event on the shared properties and the answers; each
// user's free/busy is what their own events say; and every user's incremental sync (with and
// without singleEvents) reproduces a fresh listing of their calendar. HTTP only, on both stores.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKENDS, skipUnless } from '../_helpers/backends.ts';
import { tokenFor } from '../_helpers/calendar.ts';
import { Rng } from '../_helpers/fuzz.ts';
import { SyncClient } from '../calendar/sync-client.ts';
import type { Item } from '../calendar/sync-client.ts';
import { EXTERNAL, USERS, startWorld } from './world.ts';
import type { Who, World } from './world.ts';

// Seed 12 once found an instance an incremental sync dropped with its series and never got back.
const SEEDS = process.env.INVITATION_SEED === undefined ? [1, 2, 3, 12] : [Number(process.env.INVITATION_SEED)];
const STEPS = 40;
const WHO: readonly Who[] = ['aiko', 'ben', 'cleo'];
const ORGANIZERS: readonly Who[] = ['aiko', 'ben'];
const DAY = 86_400_000;
const HOUR = 3_600_000;
const BASE = Date.parse('2030-03-10T00:00:00Z');
const RANGE = { timeMin: '2030-03-09T00:00:00Z', timeMax: '2030-03-24T00:00:00Z' };

function utc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function attendeesOf(item: Item): Item[] {
  return Array.isArray(item.attendees) ? item.attendees : [];
}

function testUserOf(email: string): Who | undefined {
  return WHO.find((w) => USERS[w].toLowerCase() === email.toLowerCase());
}

/** An EventDateTime as an instant (dateTime) or a date, with its zone: how calendars agree on times. */
function when(value: Item | undefined): unknown {
  if (value === undefined) return null;
  return value.date !== undefined ? { date: value.date } : { at: Date.parse(value.dateTime), timeZone: value.timeZone ?? null };
}

/** What every calendar holding the event shares (docs/invitations.md), comparable across calendars. */
function shared(item: Item): unknown {
  return {
    iCalUID: item.iCalUID,
    summary: item.summary ?? null,
    location: item.location ?? null,
    start: when(item.start),
    end: when(item.end),
    recurrence: item.recurrence ?? null,
    recurringEventId: item.recurringEventId ?? null,
    originalStartTime: when(item.originalStartTime),
    sequence: item.sequence,
    organizer: item.organizer?.email,
    attendees: attendeesOf(item).map((a) => ({ email: a.email, responseStatus: a.responseStatus })),
  };
}

class Run {
  readonly w: World;
  readonly rng: Rng;
  readonly log: string[] = [];
  readonly clients: SyncClient[] = [];

  constructor(w: World, rng: Rng) {
    this.w = w;
    this.rng = rng;
  }

  async call(who: Who, method: string, path: string, body?: unknown, expect: number[] = [200, 204]): Promise<Item> {
    const answer = await this.w.as(who, method, path, body);
    assert.ok(expect.includes(answer.status), `${who} ${method} ${path} ${JSON.stringify(body)}: ${answer.status} ${answer.text}\n${this.log.join('\n')}`);
    return answer.json ?? {};
  }

  /** Every record of `who`'s calendar, cancelled ones too (masters, singles, exceptions). */
  async records(who: Who): Promise<Item[]> {
    return (await this.call(who, 'GET', this.w.events(who, '?showDeleted=true&maxResults=2500'))).items;
  }

  guests(organizer: Who): Item[] {
    const out: Item[] = [];
    for (const who of WHO) if (who !== organizer && this.rng.chance(0.75)) out.push({ email: USERS[who] });
    if (this.rng.chance(0.3)) out.push({ email: EXTERNAL });
    return out;
  }

  /** A live event `organizer` organizes (single or series master), if any. */
  async organized(organizer: Who): Promise<Item | undefined> {
    const live = (await this.records(organizer)).filter((e) => e.status !== 'cancelled' && e.recurringEventId === undefined && e.organizer?.self === true);
    return live.length === 0 ? undefined : this.rng.pick(live);
  }

  /** A live copy `who` holds (an invitation from someone else), with a target id: itself or one of its instances. */
  async invitation(who: Who): Promise<{ item: Item; id: string } | undefined> {
    const live = (await this.records(who)).filter((e) => e.status !== 'cancelled' && e.recurringEventId === undefined && e.organizer?.self !== true);
    if (live.length === 0) return undefined;
    const item = this.rng.pick(live);
    if (item.recurrence === undefined || this.rng.chance(0.5)) return { item, id: item.id };
    const instances: Item[] = (await this.call(who, 'GET', this.w.events(who, `/${item.id}/instances`))).items;
    return instances.length === 0 ? { item, id: item.id } : { item, id: this.rng.pick(instances).id };
  }

  async step(): Promise<string> {
    return this.act(this.rng.pick(ORGANIZERS), this.rng.pick(WHO), this.rng.int(0, 11));
  }

  async act(organizer: Who, invitee: Who, roll: number): Promise<string> {
    const start = BASE + this.rng.int(0, 9) * DAY + this.rng.int(7, 18) * HOUR;
    if (roll <= 1) {
      const body = { summary: `Single ${this.log.length}`, start: { dateTime: utc(start) }, end: { dateTime: utc(start + HOUR) }, attendees: this.guests(organizer) };
      await this.call(organizer, 'POST', this.w.events(organizer), body);
      return `${organizer} inserts a single event with ${body.attendees.length} guests`;
    }
    if (roll === 2) {
      const zone = this.rng.pick(['Europe/London', 'America/New_York', 'Asia/Tokyo']);
      const local = new Date(start).toISOString().slice(0, 19);
      const end = new Date(start + HOUR).toISOString().slice(0, 19);
      const body = {
        summary: `Series ${this.log.length}`,
        start: { dateTime: local, timeZone: zone },
        end: { dateTime: end, timeZone: zone },
        recurrence: [`RRULE:FREQ=DAILY;COUNT=${this.rng.int(3, 6)}`],
        attendees: this.guests(organizer),
      };
      await this.call(organizer, 'POST', this.w.events(organizer), body);
      return `${organizer} inserts a series with ${body.attendees.length} guests`;
    }
    const event = await this.organized(organizer);
    if (roll === 3 && event) {
      const patch = this.rng.chance(0.5) ? { summary: `Edited ${this.log.length}` } : { start: { ...event.start, dateTime: utc(Date.parse(event.start.dateTime) + HOUR) }, end: { ...event.end, dateTime: utc(Date.parse(event.end.dateTime) + HOUR) } };
      await this.call(organizer, 'PATCH', this.w.events(organizer, `/${event.id}`), patch);
      return `${organizer} edits ${event.id}: ${Object.keys(patch).join(', ')}`;
    }
    if (roll === 4 && event) {
      await this.call(organizer, 'PATCH', this.w.events(organizer, `/${event.id}`), { attendees: this.guests(organizer).map((g) => {
        const kept = attendeesOf(event).find((a) => a.email === g.email);
        return kept ?? g;
      }) });
      return `${organizer} changes the guests of ${event.id}`;
    }
    if ((roll === 5 || roll === 6) && event?.recurrence !== undefined) {
      const instances: Item[] = (await this.call(organizer, 'GET', this.w.events(organizer, `/${event.id}/instances`))).items;
      if (instances.length > 0) {
        const instance = this.rng.pick(instances);
        if (this.rng.chance(0.3)) {
          await this.call(organizer, 'DELETE', this.w.events(organizer, `/${instance.id}`));
          return `${organizer} cancels instance ${instance.id}`;
        }
        await this.call(organizer, 'PATCH', this.w.events(organizer, `/${instance.id}`), { summary: `Exception ${this.log.length}`, location: 'Room' });
        return `${organizer} edits instance ${instance.id}`;
      }
    }
    if (roll === 6 && event && this.rng.chance(0.3)) {
      await this.call(organizer, 'DELETE', this.w.events(organizer, `/${event.id}`));
      return `${organizer} deletes ${event.id}`;
    }
    const copy = await this.invitation(invitee);
    if (copy === undefined) return this.act(organizer, invitee, this.rng.int(0, 2));
    const path = this.w.events(invitee, `/${copy.id}`);
    if (roll <= 8) {
      const responseStatus = this.rng.pick(['accepted', 'declined', 'tentative', 'needsAction']);
      if (this.rng.chance(0.5)) {
        await this.call(invitee, 'PATCH', path, { attendees: [{ email: USERS[invitee], responseStatus }] });
      } else {
        const current = await this.call(invitee, 'GET', path);
        const attendees = attendeesOf(current).map((a) => (a.self ? { ...a, responseStatus } : a));
        await this.call(invitee, 'PUT', path, { ...current, attendees });
      }
      return `${invitee} answers ${copy.id}: ${responseStatus}`;
    }
    if (roll === 9) {
      await this.call(invitee, 'PATCH', path, this.rng.chance(0.5) ? { colorId: String(this.rng.int(1, 11)) } : { transparency: this.rng.pick(['transparent', 'opaque']) });
      return `${invitee} sets a private property of ${copy.id}`;
    }
    if (roll === 10) {
      await this.call(invitee, 'PATCH', path, { summary: 'Not mine to change' }, [403]);
      return `${invitee} is refused a summary change on ${copy.id}`;
    }
    await this.call(invitee, 'DELETE', path);
    return `${invitee} deletes (declines) ${copy.id}`;
  }

  /** Every copy agrees with its organizer's record on shared properties and answers. */
  async checkCopies(label: string): Promise<void> {
    const byWho = new Map<Who, Map<string, Item>>();
    for (const who of WHO) byWho.set(who, new Map((await this.records(who)).map((e) => [e.id, e])));
    for (const organizer of ORGANIZERS) {
      for (const event of byWho.get(organizer)!.values()) {
        if (event.organizer?.self !== true) continue;
        const master = event.recurringEventId === undefined ? event : byWho.get(organizer)!.get(event.recurringEventId);
        const guests = attendeesOf(master ?? event).map((a) => testUserOf(a.email)).filter((w): w is Who => w !== undefined && w !== organizer);
        for (const guest of guests) {
          const copy = byWho.get(guest)!.get(event.id);
          const where = `${label}: ${guest}'s copy of ${organizer}'s ${event.id}`;
          if (event.status === 'cancelled') {
            assert.ok(copy === undefined || copy.status === 'cancelled', `${where} is cancelled`);
            continue;
          }
          const inThisEvent = attendeesOf(event).some((a) => testUserOf(a.email) === guest);
          assert.ok(copy !== undefined, `${where} exists`);
          if (copy.status === 'cancelled') {
            const answer = attendeesOf(event).find((a) => testUserOf(a.email) === guest)?.responseStatus;
            const masterCopy = master && master !== event ? byWho.get(guest)!.get(master.id) : undefined;
            assert.ok(!inThisEvent || answer === 'declined' || masterCopy?.status === 'cancelled', `${where} is cancelled only when declined by deleting (${answer})`);
            continue;
          }
          assert.ok(inThisEvent, `${where} is live only while invited`);
          assert.deepEqual(shared(copy), shared(event), where);
          assert.equal(attendeesOf(copy).find((a) => a.self)?.email?.toLowerCase(), USERS[guest], `${where} marks its own entry`);
        }
      }
    }
  }

  /** Each user's free/busy is the opaque, not declined events of their own calendar. */
  async checkFreeBusy(label: string): Promise<void> {
    for (const who of WHO) {
      const fb = await this.call(who, 'POST', 'freeBusy', { ...RANGE, items: [{ id: USERS[who] }] });
      const items = (await this.call(who, 'GET', this.w.events(who, `?singleEvents=true&maxResults=2500&timeMin=${RANGE.timeMin}&timeMax=${RANGE.timeMax}`))).items as Item[];
      const spans = items
        .filter((e) => e.transparency !== 'transparent' && attendeesOf(e).find((a) => a.self)?.responseStatus !== 'declined')
        .map((e) => [Date.parse(e.start.dateTime), Date.parse(e.end.dateTime)] as [number, number])
        .sort((a, b) => a[0] - b[0]);
      const merged: Array<[number, number]> = [];
      for (const [s, e] of spans) {
        const last = merged[merged.length - 1];
        if (last && s <= last[1]) last[1] = Math.max(last[1], e);
        else merged.push([s, e]);
      }
      const busy = (fb.calendars[USERS[who]].busy as Item[]).map((b) => [Date.parse(b.start), Date.parse(b.end)]);
      assert.deepEqual(busy, merged, `${label}: ${who}'s free/busy`);
    }
  }
}

for (const backend of BACKENDS) {
  describe(`invitations hold under random edits (${backend} store)`, { skip: skipUnless(backend) }, () => {
    for (const seed of SEEDS) {
      test(`seed ${seed}`, async (t) => {
        const w = await startWorld(t, backend);
        const run = new Run(w, new Rng(seed));
        for (const who of WHO) {
          const token = await tokenFor(w.url, 'https://www.googleapis.com/auth/calendar', `user-${who}`);
          for (const singleEvents of [true, false]) {
            const client = new SyncClient(w.url, token, USERS[who], singleEvents);
            await client.fullSync();
            run.clients.push(client);
          }
        }
        // Each organizer starts with a series and a single event inviting the others.
        for (const organizer of ORGANIZERS) for (const roll of [2, 0]) run.log.push(`setup: ${await run.act(organizer, 'cleo', roll)}`);
        for (let i = 0; i < STEPS; i++) {
          const what = await run.step();
          run.log.push(`${i}: ${what}`);
          if (process.env.INVITATION_LOG) console.log(`${seed} ${i}: ${what}`);
          const label = `seed ${seed} step ${i} (${what})`;
          await run.checkCopies(label);
          await run.checkFreeBusy(label);
          for (const client of run.clients) {
            await client.sync();
            await client.assertInStep(`${label} ${client.path} ${client.mode}`);
          }
        }
      });
    }
  });
}
