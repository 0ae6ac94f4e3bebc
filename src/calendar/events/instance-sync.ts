// Incremental sync of an expanded listing: events.list singleEvents=true with a syncToken
// (https://developers.google.com/workspace/calendar/api/v3/reference/events/list syncToken, https://developers.google.com/workspace/calendar/api/guides/sync). The answer holds exactly what changed since the
// token, as a full sync would list it, as instances:
// - a single event that changed: itself, or its tombstone once deleted;
// - an exception that changed (an instance modified, moved or cancelled): that instance, or a
//   tombstone carrying recurringEventId and originalStartTime (https://developers.google.com/workspace/calendar/api/v3/reference/events status);
// - a series that changed (created, edited, deleted, or an event turned into a series or back):
//   every instance it now has within the token's window (horizon.ts), and a tombstone for every
//   instance it had when the token was made (series-history.ts) that is no longer listed.
// Changes are walked in change order (Store.listEventsChangedSince), so a sync that finds nothing
// reads one empty batch. A series' instances can fill many pages: the page token names the
// change being reported and how far into it the last page got (list-cursor.ts SyncPosition: the
// series' instances listed now, by start then id; its former instances gone, by original start;
// its exceptions no longer listed, by id). If that change is superseded while paging, its new
// version comes later in change order and is reported whole.

import { googleErrors } from '../../api/google-error.ts';
import { formatDate } from '../../domain/time/datetime.ts';
import { formatRfc3339InZone, MS_PER_DAY } from '../../domain/time/zones.ts';
import { isOccurrence, isUnexpandable, keyToDate, occurrences, overlaps } from '../../domain/recurrence/expand.ts';
import type { OccurrenceKey, Series } from '../../domain/recurrence/expand.ts';
import type { EventRecord, JsonObject, Store } from '../../store/store.ts';
import type { CursorOf, SyncPosition } from './list-cursor.ts';
import type { ListState } from './list-pages.ts';
import { etagFor } from '../etag.ts';
import { eventText, listItem, occurrenceText, tombstoneText } from './list-items.ts';
import type { SeriesWindow } from '../horizon.ts';
import { expandWindow, occurrenceId, occurrenceRecord, occurrenceTimes } from '../../event-model/occurrences.ts';
import { asException, exceptionKey, instanceId, recurrenceLines, seriesOf } from '../../event-model/event-series.ts';
import type { StoredException } from '../../event-model/event-series.ts';
import { timingAt } from '../../event-model/series-history.ts';

/** Changed records read from the store at a time. */
const BATCH = 256;
/** Changed records one request may look at (pages may be short, as Google's may). */
const EXAMINE_LIMIT = 5000;
/**
 * Former instances looked at between pauses, and pauses one request may take: a series of
 * millions of instances that all still exist is checked over several requests.
 */
const KEYS_PER_PAUSE = 500;
const PAUSE_LIMIT = 10;

/** What the listing asks (list-pages.ts ListState), and what the sync token and page token say. */
export interface InstanceSyncRequest extends Pick<ListState, 'calendar' | 'text' | 'size' | 'showDeleted' | 'accept'> {
  readonly store: Store;
  /** The change sequence of the sync token. */
  readonly sinceSeq: number;
  /** The window the full sync expanded series over. */
  readonly window: SeriesWindow;
  readonly cursor: CursorOf<'instanceSync'> | undefined;
  readonly now: number;
}

export interface InstanceSyncPage {
  items: Buffer[];
  watermark: number;
  updatedMs: number;
  nextCursor: CursorOf<'instanceSync'> | undefined;
}

/**
 * One item of the answer and where it stands within the change it reports; without an item, a
 * pause in a long stretch of work that found nothing to report, where a page may end.
 */
interface Emitted {
  readonly item: Buffer | undefined;
  readonly updatedMs: number;
  readonly position: SyncPosition;
}

/**
 * The changes since the token, as instances. A change whose series cannot be expanded (a rule
 * stored before today's caps, or one over the step budget in the token's window) ends the sync
 * with 410 fullSyncRequired (SECURITY.md): the instances the client holds can no longer be
 * reconciled, and a 400 would be retried with the same token for ever, while a full sync names
 * the series in its own answer.
 */
export function instanceChanges(req: InstanceSyncRequest): InstanceSyncPage {
  try {
    return changesSince(req);
  } catch (error) {
    if (isUnexpandable(error)) throw googleErrors.fullSyncRequired();
    throw error;
  }
}

function changesSince(req: InstanceSyncRequest): InstanceSyncPage {
  const cursor = req.cursor;
  let after = cursor?.afterSeq ?? req.sinceSeq;
  let resume = cursor?.within;
  const items: Buffer[] = [];
  let updatedMs = 0;
  let examined = 0;
  let pauses = 0;
  for (;;) {
    const batch = req.store.listEventsChangedSince(req.calendar.id, after, BATCH);
    for (const record of batch) {
      let position = resume !== undefined && record.seq === resume.seq ? resume.position : undefined;
      resume = undefined;
      // The next page starts within this record, after `position`.
      const within = (): InstanceSyncPage => ({ items, watermark: after, updatedMs, nextCursor: cursorAt(req, after, { seq: record.seq, position }) });
      for (const emitted of changesOf(req, record, position)) {
        if (emitted.item === undefined) {
          position = emitted.position;
          if (++pauses > PAUSE_LIMIT) return within();
          continue;
        }
        if (items.length === req.size) return within();
        items.push(emitted.item);
        updatedMs = Math.max(updatedMs, emitted.updatedMs);
        position = emitted.position;
      }
      after = record.seq;
      if (++examined >= EXAMINE_LIMIT) return { items, watermark: after, updatedMs, nextCursor: cursorAt(req, after, undefined) };
    }
    if (batch.length < BATCH) return { items, watermark: after, updatedMs: updatedMs || req.now, nextCursor: undefined };
  }
}

function cursorAt(req: InstanceSyncRequest, afterSeq: number, within: CursorOf<'instanceSync'>['within']): CursorOf<'instanceSync'> {
  return { kind: 'instanceSync', afterSeq, within, seriesTo: req.window.to };
}

function objectOf(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** What one changed record contributes, from `position` on (after the item it names). */
function* changesOf(req: InstanceSyncRequest, record: EventRecord, position: SyncPosition | undefined): Generator<Emitted> {
  if (record.recurringEventId !== null) {
    if (position === undefined) yield* exceptionChange(req, record);
    return;
  }
  const before = timingAt(record, req.sinceSeq);
  // The history no longer reaches back to the token: which instances the client holds is unknown.
  if (before === undefined) throw googleErrors.fullSyncRequired();
  if (!record.recurring && recurrenceLines(before).length === 0) {
    if (position === undefined) yield* emit(singleItem(req, record), record.updatedMs, { phase: 'listedNow', after: undefined });
    return;
  }
  yield* seriesChange(req, record, before, position);
}

function* emit(item: Buffer | undefined, updatedMs: number, position: SyncPosition): Generator<Emitted> {
  if (item !== undefined) yield { item, updatedMs, position };
}

function tombstone(req: InstanceSyncRequest, record: EventRecord): Buffer {
  // With showDeleted a cancelled event keeps its details, as in a full listing (https://developers.google.com/workspace/calendar/api/v3/reference/events).
  if (record.status === 'cancelled' && req.showDeleted) return eventText(record, req.text);
  return tombstoneText(record, req.text.ctx);
}

function singleItem(req: InstanceSyncRequest, record: EventRecord): Buffer | undefined {
  if (record.status === 'cancelled') return tombstone(req, record);
  return req.accept(record) ? eventText(record, req.text) : undefined;
}

// ---------------------------------------------------------------------------------------------
// What a series lists now.

interface SeriesNow {
  readonly master: EventRecord;
  /** The series' current rule; undefined when it lists no instance (deleted, or no longer a series). */
  readonly series: Series | undefined;
  /** Exceptions by original start, as expand.ts merges them, and all of them by id. */
  readonly byKey: ReadonlyMap<OccurrenceKey, StoredException>;
  readonly exceptions: readonly EventRecord[];
}

function seriesNow(req: InstanceSyncRequest, master: EventRecord): SeriesNow {
  const listed = master.recurring && master.status !== 'cancelled';
  const series = listed ? seriesOf(master.data, req.calendar.timeZone) : undefined;
  const exceptions = req.store.listExceptions(req.calendar.id, master.id).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byKey = new Map<OccurrenceKey, StoredException>();
  for (const e of exceptions) byKey.set(exceptionKey(e), asException(e));
  return { master, series, byKey, exceptions };
}

function isAllDay(exception: EventRecord): boolean {
  const original = objectOf(exception.data.originalStartTime);
  return typeof original?.date === 'string';
}

function inWindow(req: InstanceSyncRequest, start: number, end: number): boolean {
  return overlaps(start, end, req.window.from, req.window.to);
}

/** Whether the series is an occurrence of `series` whose slot lies in the window. */
function occurrenceInWindow(req: InstanceSyncRequest, series: Series, key: OccurrenceKey): boolean {
  if (!isOccurrence(series, key)) return false;
  const times = occurrenceTimes(series, key, req.calendar.timeZone);
  return inWindow(req, times.start, times.end);
}

/** Whether a full listing now shows this exception (as instancesInWindow merges it). */
function exceptionListed(req: InstanceSyncRequest, now: SeriesNow, exception: EventRecord): boolean {
  const series = now.series;
  if (series === undefined || exception.status === 'cancelled' || (series.kind === 'date') !== isAllDay(exception)) return false;
  return isOccurrence(series, exceptionKey(exception)) && inWindow(req, exception.startMs, exception.endMs) && req.accept(exception);
}

/**
 * Whether a full listing now shows an instance with this id and original start. `slotted` tells
 * whether the key is an occurrence of the current series with its slot in the window.
 */
function instanceListed(req: InstanceSyncRequest, now: SeriesNow, kind: Series['kind'], key: OccurrenceKey, id: string, slotted: (key: OccurrenceKey) => boolean): boolean {
  if (now.series === undefined || now.series.kind !== kind) return false;
  const exception = now.byKey.get(key);
  if (exception !== undefined) return exception.record.id === id && exceptionListed(req, now, exception.record);
  return req.accept(now.master) && slotted(key);
}

/**
 * occurrenceInWindow for keys asked in ascending order, walking the series' keys alongside
 * rather than searching for each (a search starts a day early: sub-daily rules pay for it).
 */
function ascendingSlots(req: InstanceSyncRequest, series: Series | undefined, afterKey: OccurrenceKey | undefined): (key: OccurrenceKey) => boolean {
  if (series === undefined) return () => false;
  const keys = keysInWindow(req, series, afterKey);
  let head = keys.next();
  return (key) => {
    while (head.done !== true && head.value < key) head = keys.next();
    return head.done !== true && head.value === key;
  };
}

// ---------------------------------------------------------------------------------------------
// The three kinds of change.

function* exceptionChange(req: InstanceSyncRequest, exception: EventRecord): Generator<Emitted> {
  const master = req.store.getEvent(req.calendar.id, exception.recurringEventId as string);
  // The series changed after this exception: reporting the series, later in change order,
  // reports this instance as it then stands.
  if (master !== undefined && master.seq > exception.seq) return;
  const listed = master !== undefined && exceptionListed(req, seriesNow(req, master), exception);
  yield* emit(listed ? eventText(exception, req.text) : tombstone(req, exception), exception.updatedMs, { phase: 'listedNow', after: undefined });
}

/** The phases of a series change, in the order they are reported. */
const PHASES: ReadonlyArray<SyncPosition['phase']> = ['listedNow', 'formerGone', 'exceptionsGone'];

function* seriesChange(req: InstanceSyncRequest, record: EventRecord, before: JsonObject, position: SyncPosition | undefined): Generator<Emitted> {
  const now = seriesNow(req, record);
  const phase = PHASES.indexOf(position?.phase ?? 'listedNow');
  const at = <P extends SyncPosition['phase']>(p: P): Extract<SyncPosition, { phase: P }> | undefined =>
    position?.phase === p ? (position as Extract<SyncPosition, { phase: P }>) : undefined;
  const old = recurrenceLines(before).length > 0 ? seriesOf(before, req.calendar.timeZone) : undefined;
  if (phase <= 0) yield* listedNow(req, record, at('listedNow'));
  if (phase <= 1) yield* formerInstancesGone(req, now, old, at('formerGone'));
  yield* exceptionsGone(req, now, old, at('exceptionsGone'));
}

/** First what the record lists now (its instances in the window, or itself as a single event). */
function* listedNow(req: InstanceSyncRequest, record: EventRecord, from: Extract<SyncPosition, { phase: 'listedNow' }> | undefined): Generator<Emitted> {
  if (!record.recurring) {
    if (from === undefined) yield* emit(singleItem(req, record), record.updatedMs, { phase: 'listedNow', after: { start: record.startMs, id: record.id } });
    return;
  }
  let after = from?.after;
  for (;;) {
    const { occurrences: page } = expandWindow(req.store, req.calendar, req.window.from, req.window.to, {
      seriesId: record.id,
      showDeleted: false,
      after,
      // A page's worth at a time: each expansion starts its rule over.
      limit: req.size + 1,
      accept: req.accept,
    });
    for (const o of page) {
      after = { start: o.start, id: occurrenceId(o) };
      yield { item: occurrenceText(o, req.text), updatedMs: occurrenceRecord(o).updatedMs, position: { phase: 'listedNow', after } };
    }
    if (page.length <= req.size) return;
  }
}

/** Then tombstones for the instances the series had at the token that no longer exist. */
function* formerInstancesGone(
  req: InstanceSyncRequest,
  now: SeriesNow,
  old: Series | undefined,
  from: Extract<SyncPosition, { phase: 'formerGone' }> | undefined,
): Generator<Emitted> {
  const record = now.master;
  if (old === undefined) {
    // It was a single event; as a series master it is no longer listed itself.
    if (from === undefined && record.recurring) yield* emit(tombstoneText(record, req.text.ctx), record.updatedMs, { phase: 'formerGone', afterKey: 0 });
    return;
  }
  const afterKey = from?.afterKey;
  const slotted = ascendingSlots(req, now.series, afterKey);
  let looked = 0;
  for (const key of keysInWindow(req, old, afterKey)) {
    const id = instanceId(record, old, key);
    if (!instanceListed(req, now, old.kind, key, id, slotted)) {
      yield { item: vanishedInstance(req, record, old, key, id), updatedMs: record.updatedMs, position: { phase: 'formerGone', afterKey: key } };
    } else if (++looked % KEYS_PER_PAUSE === 0) {
      yield { item: undefined, updatedMs: record.updatedMs, position: { phase: 'formerGone', afterKey: key } };
    }
  }
}

/** Last, exceptions not listed now that formerInstancesGone did not already report. */
function* exceptionsGone(
  req: InstanceSyncRequest,
  now: SeriesNow,
  old: Series | undefined,
  from: Extract<SyncPosition, { phase: 'exceptionsGone' }> | undefined,
): Generator<Emitted> {
  const afterId = from?.afterId;
  for (const exception of now.exceptions) {
    if (afterId !== undefined && exception.id <= afterId) continue;
    if (exceptionListed(req, now, exception)) continue;
    const key = exceptionKey(exception);
    const reported =
      old !== undefined && (old.kind === 'date') === isAllDay(exception) && exception.id === instanceId(now.master, old, key) && occurrenceInWindow(req, old, key);
    if (reported) continue;
    yield { item: tombstone(req, exception), updatedMs: exception.updatedMs, position: { phase: 'exceptionsGone', afterId: exception.id } };
  }
}

/** Original starts of `series` whose slots overlap the window, ascending, after `afterKey`. */
function* keysInWindow(req: InstanceSyncRequest, series: Series, afterKey: OccurrenceKey | undefined): Generator<OccurrenceKey> {
  // A slot ending after the window's start begins at most its duration (plus a day of zone
  // offset for dates) before it.
  const reach = series.kind === 'dateTime' ? series.durationMs : (series.durationDays + 1) * MS_PER_DAY;
  const lowest = Math.max(req.window.from - reach, afterKey === undefined ? -Infinity : afterKey + 1);
  for (const key of occurrences(series, { from: lowest, until: req.window.to + MS_PER_DAY })) {
    const times = occurrenceTimes(series, key, req.calendar.timeZone);
    if (times.start >= req.window.to) return;
    if (inWindow(req, times.start, times.end)) yield key;
  }
}

/** The tombstone of an instance that has no record: Google's guaranteed fields (https://developers.google.com/workspace/calendar/api/v3/reference/events status). */
function vanishedInstance(req: InstanceSyncRequest, master: EventRecord, series: Series, key: OccurrenceKey, id: string): Buffer {
  const originalStartTime: JsonObject =
    series.kind === 'date'
      ? { date: formatDate(keyToDate(key)) }
      : { dateTime: formatRfc3339InZone(key, req.text.ctx.zone), timeZone: series.timeZone };
  return listItem({ kind: 'calendar#event', etag: etagFor(master.seq), id, status: 'cancelled', recurringEventId: master.id, originalStartTime });
}
