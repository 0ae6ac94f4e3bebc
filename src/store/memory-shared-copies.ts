// The memory store's shared copies (Store's SharedCopyRecord): each organizer calendar's in a
// CalendarEvents of their own (memory-events.ts), so that a holder's reads use the same indexes
// as its own events, keeping the copies that calendar holds. A copy is stored once, with the
// organizer's calendarId; each holder reads a view of it with theirs.
//
// Every mutation returns its inverse, for the store's undo log (memory.ts).

import { CalendarEvents } from './memory-events.ts';
import { storedEvent } from './memory-records.ts';
import type { EventRecord, SharedCopyRecord } from './store.ts';

/** Whether `calendarId` has an event of its own under `id` (which the copy then gives way to). */
export type OwnsEvent = (calendarId: string, id: string) => boolean;

const key = (organizerCalendarId: string, id: string): string => `${organizerCalendarId}\n${id}`;

/** The copy as `holder` reads it. */
function viewFor(copy: EventRecord, holder: string): EventRecord {
  return Object.freeze({ ...copy, calendarId: holder });
}

export class SharedCopies {
  /** Organizer calendar id -> its shared copies. */
  readonly #byOrganizer = new Map<string, CalendarEvents>();
  /** key(organizer calendar, id) -> the calendars holding that copy. */
  readonly #holders = new Map<string, ReadonlySet<string>>();

  /** Puts or replaces the copy (no holders: removes it); returns the inverse. */
  put(copy: SharedCopyRecord): () => void {
    const { calendarId, id } = copy.event;
    const prev = this.get(calendarId, id);
    this.#remove(calendarId, id);
    if (copy.holders.length > 0) this.#add(storedEvent(copy.event), new Set(copy.holders));
    return () => {
      this.#remove(calendarId, id);
      if (prev !== undefined) this.#add(prev.event, new Set(prev.holders));
    };
  }

  /** How many copies are stored. */
  get size(): number {
    return this.#holders.size;
  }

  /** A copy holding the same (frozen) records and holder sets, which no mutation changes in place. */
  copy(): SharedCopies {
    const copy = new SharedCopies();
    for (const [organizer, copies] of this.#byOrganizer) {
      for (const event of copies.byId.values()) copy.#add(event, this.#holders.get(key(organizer, event.id)) as ReadonlySet<string>);
    }
    return copy;
  }

  get(organizerCalendarId: string, id: string): SharedCopyRecord | undefined {
    const event = this.#byOrganizer.get(organizerCalendarId)?.byId.get(id);
    const holders = this.#holders.get(key(organizerCalendarId, id));
    return event === undefined || holders === undefined ? undefined : { event, holders: [...holders] };
  }

  /** The copy `holder` holds under `id`, as it reads there (the first organizer's, in their order). */
  find(holder: string, id: string): EventRecord | undefined {
    for (const [organizer, copies] of this.#byOrganizer) {
      const copy = copies.byId.get(id);
      if (copy !== undefined && this.#holds(organizer, id, holder)) return viewFor(copy, holder);
    }
    return undefined;
  }

  /** The copies `holder` holds that overlap [fromMs, toMs) and that no event of its own hides, and how many were looked at. */
  overlapping(holder: string, fromMs: number, toMs: number, owns: OwnsEvent): { found: EventRecord[]; examined: number } {
    const found: EventRecord[] = [];
    let examined = 0;
    for (const [organizer, copies] of this.#byOrganizer) {
      const window = copies.overlapping(fromMs, toMs);
      examined += window.examined;
      for (const copy of window.found) if (this.#visible(organizer, copy, holder, owns)) found.push(viewFor(copy, holder));
    }
    return { found, examined };
  }

  /** One page per organizer calendar of the copies `holder` holds changed after `afterSeq`, each at most `limit`. */
  changedSince(holder: string, afterSeq: number, limit: number, owns: OwnsEvent): EventRecord[][] {
    const pages: EventRecord[][] = [];
    for (const [organizer, copies] of this.#byOrganizer) {
      const page = copies.bySeq.takeFrom((e) => e.seq > afterSeq, limit, (e) => this.#visible(organizer, e, holder, owns));
      if (page.length > 0) pages.push(page.map((copy) => viewFor(copy, holder)));
    }
    return pages;
  }

  /** Every copy organized on `organizerCalendarId`, for a cascade. */
  organizedOn(organizerCalendarId: string): SharedCopyRecord[] {
    const copies = this.#byOrganizer.get(organizerCalendarId);
    return copies === undefined ? [] : [...copies.byId.values()].map((event) => this.get(organizerCalendarId, event.id) as SharedCopyRecord);
  }

  /** Every copy whose holders include one of `calendarIds`, for a cascade. */
  heldBy(calendarIds: ReadonlySet<string>): SharedCopyRecord[] {
    const out: SharedCopyRecord[] = [];
    for (const [organizer, copies] of this.#byOrganizer) {
      for (const event of copies.byId.values()) {
        const holders = this.#holders.get(key(organizer, event.id));
        if (holders !== undefined && [...holders].some((h) => calendarIds.has(h))) out.push({ event, holders: [...holders] });
      }
    }
    return out;
  }

  #holds(organizer: string, id: string, holder: string): boolean {
    return this.#holders.get(key(organizer, id))?.has(holder) === true;
  }

  #visible(organizer: string, copy: EventRecord, holder: string, owns: OwnsEvent): boolean {
    return this.#holds(organizer, copy.id, holder) && !owns(holder, copy.id);
  }

  #add(event: EventRecord, holders: ReadonlySet<string>): void {
    let copies = this.#byOrganizer.get(event.calendarId);
    if (copies === undefined) {
      copies = new CalendarEvents();
      this.#byOrganizer.set(event.calendarId, copies);
    }
    copies.put(event);
    this.#holders.set(key(event.calendarId, event.id), holders);
  }

  #remove(organizerCalendarId: string, id: string): void {
    const copies = this.#byOrganizer.get(organizerCalendarId);
    const event = copies?.byId.get(id);
    if (copies === undefined || event === undefined) return;
    copies.remove(event);
    if (copies.byId.size === 0) this.#byOrganizer.delete(organizerCalendarId);
    this.#holders.delete(key(organizerCalendarId, id));
  }
}
