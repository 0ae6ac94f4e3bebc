// Expanded windows (src/event-model/occurrences.ts expandWindow), kept while nothing they show has changed. A
// calendar app asks for the same week again and again (a view drawn anew, a test suite polling),
// and expanding every series over it is most of such a request.
//
// An entry holds an expansion and the change sequence up to which the calendar's events are
// known not to affect it. Before it is used, the events changed since then are looked at
// (Store.listEventsChangedSince, in change order): one whose span overlaps the window, or that
// the expansion shows (by id, or as the series of an instance), may change it, and the window is
// expanded anew; any other change (an event elsewhere in the calendar) cannot, and the entry
// moves past it. An expansion reads only events overlapping its window and the series and
// exceptions those name, all with sequences up to its watermark, so an entry starts there.
// At most WALK_LIMIT changes are looked at per request: an entry left behind by more changes
// than that catches up over the next requests, answering from a new expansion meanwhile.
// Expansions with a content filter (q, extended properties, eventTypes, updatedMin) are not
// kept: a filter is a predicate, with no key. What a fixed predicate derives from a window (the
// busy times of freebusy.query) is kept the same way, under its own key (keptWindowValue): a
// change the predicate rejects still overlaps the window or was shown, or cannot matter.
// Keys hold the workspace generation and the calendar's sequence, so a workspace replaced or a
// calendar made anew by another process on the same file (whose replacement no listener here
// hears) never meets an entry of the one before.

import type { App } from '../app/app.ts';
import type { CalendarRecord, EventRecord } from '../store/store.ts';
import { workspaceGeneration } from '../store/generation.ts';
import { expandWindow } from '../event-model/occurrences.ts';
import type { ExpandedWindow, Occurrence, WindowOptions } from '../event-model/occurrences.ts';

interface Entry {
  readonly value: unknown;
  /** Occurrences it stands for, counted against OCCURRENCE_LIMIT. */
  readonly size: number;
  /** Ids of the occurrences shown and of the series they belong to. */
  readonly shown: ReadonlySet<string>;
  /** Changes up to this sequence are known not to affect the expansion. */
  checkedTo: number;
}

/** Occurrences kept per App: the cache starts over when a new entry would pass this. */
const OCCURRENCE_LIMIT = 50_000;
const WALK_LIMIT = 1024;

/** An App's kept expansions; the composition root (src/index.ts) makes one per App. */
export interface WindowCache {
  readonly entries: Map<string, Entry>;
  occurrences: number;
}

/** An App's window cache, emptied whenever its workspace is replaced. */
export function createWindowCache(app: App): WindowCache {
  const cache: WindowCache = { entries: new Map(), occurrences: 0 };
  app.onWorkspaceReplaced(() => clear(cache));
  return cache;
}

function clear(cache: WindowCache): void {
  cache.entries.clear();
  cache.occurrences = 0;
}

function shownIds(occurrences: readonly Occurrence[]): Set<string> {
  const ids = new Set<string>();
  for (const o of occurrences) ids.add(o.kind === 'single' ? o.record.id : o.id).add(o.kind === 'single' ? o.record.id : o.master.id);
  return ids;
}

/** Whether a changed event may change an expansion of [from, to) that showed `shown`. */
function mayAffect(record: EventRecord, from: number, to: number, shown: ReadonlySet<string>): boolean {
  return (record.startMs < to && record.endMs > from) || shown.has(record.id);
}

/**
 * Moves the entry past the changes that cannot affect it; false when one may (or when more than
 * WALK_LIMIT remain to be looked at).
 */
function stillGood(app: App, calendar: CalendarRecord, entry: Entry, from: number, to: number): boolean {
  const batch = app.store.listEventsChangedSince(calendar.id, entry.checkedTo, WALK_LIMIT + 1);
  // By index, not over a slice: this runs for every calendar of every request the cache answers.
  const walked = Math.min(batch.length, WALK_LIMIT);
  for (let i = 0; i < walked; i++) {
    const record = batch[i] as EventRecord;
    if (mayAffect(record, from, to, entry.shown)) return false;
    entry.checkedTo = record.seq;
  }
  return batch.length <= WALK_LIMIT;
}

/**
 * What `derive` makes of the calendar's expansion over [from, to), kept under `key` (the
 * options that shape it) while nothing the expansion shows has changed and `usable` accepts it.
 */
export function keptWindowValue<T>(
  app: App,
  cache: WindowCache,
  calendar: CalendarRecord,
  from: number,
  to: number,
  key: string,
  derive: () => { expansion: ExpandedWindow; value: T; size: number },
  usable: (value: T) => boolean = () => true,
): T {
  // Built with a template rather than JSON.stringify of an array: this runs for every calendar of
  // every freeBusy request. Only the calendar id may hold any character, and it is quoted.
  const fullKey = `${workspaceGeneration(app.store)} ${calendar.seq} ${from} ${to} ${calendar.timeZone} ${JSON.stringify(calendar.id)} ${key}`;
  const found = cache.entries.get(fullKey);
  if (found !== undefined && stillGood(app, calendar, found, from, to) && usable(found.value as T)) return found.value as T;
  const { expansion, value, size } = derive();
  cache.occurrences += size - (found?.size ?? 0);
  if (cache.occurrences > OCCURRENCE_LIMIT) {
    clear(cache);
    cache.occurrences = size;
  }
  // Whatever changed after the watermark the expansion did not read, and it shows nothing read
  // later; past changes already looked at are behind it too.
  const shown = shownIds(expansion.occurrences);
  for (const left of expansion.unexpandable) shown.add(left.master.id);
  cache.entries.set(fullKey, { value, size, shown, checkedTo: Math.max(expansion.watermark, found?.checkedTo ?? 0) });
  return value;
}

/** expandWindow over the calendar, from the cache when nothing it shows has changed. */
export function expandWindowCached(
  app: App,
  cache: WindowCache,
  calendar: CalendarRecord,
  from: number,
  to: number,
  options: Omit<WindowOptions, 'accept' | 'budget'>,
): ExpandedWindow {
  const key = JSON.stringify([
    'window',
    options.seriesTo ?? null,
    options.seriesId ?? null,
    options.showDeleted,
    options.after ?? null,
    options.limit,
    options.strict === true,
    options.inclusiveStart === true,
    options.skipUnexpandable === true,
  ]);
  return keptWindowValue(app, cache, calendar, from, to, key, () => {
    const expansion = expandWindow(app.store, calendar, from, to, options);
    return { expansion, value: expansion, size: expansion.occurrences.length };
  });
}
