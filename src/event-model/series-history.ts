// The timings a series master had before, kept in its stored data. An incremental sync of an
// expanded listing (events.list singleEvents=true with a syncToken, src/calendar/events/instance-sync.ts) must send
// a tombstone for every instance the client holds that no longer exists, and which instances
// the client holds follows from the timing (start, end, recurrence) the series had when the
// client's token was made: the store keeps only the current record, so a write that changes the
// timing of a series (or turns an event into one, or one back) records the timing it replaced.
//
// It sits below the calendar API, beside the records it is kept in, because copies of an event
// on its invitees' calendars (invitee-copies.ts) keep a history of their own: entries are keyed by
// the change sequence of the record that holds them.
//
// The history lives under a data key that no rendering reads (src/calendar/events/resource.ts copies named
// fields only). It is bounded: past HISTORY_LIMIT entries the oldest go, and `priorTimingsFrom`
// says from which change sequence on the history is complete; a token older than that cannot
// be answered exactly and gets 410 fullSyncRequired, as Google's expired tokens do.

import type { EventRecord, Json, JsonObject } from '../store/store.ts';
import { recurrenceLines } from './event-series.ts';

const HISTORY = 'priorTimings';
const HISTORY_FROM = 'priorTimingsFrom';
/** Timing changes of one series remembered; a series edited this often is rare. */
const HISTORY_LIMIT = 16;

/** What decides a series' instances: its first start and end and its recurrence lines. */
export type Timing = JsonObject;

export function timingOf(data: JsonObject): Timing {
  const timing: Timing = { start: data.start ?? null, end: data.end ?? null };
  const lines = recurrenceLines(data);
  if (lines.length > 0) timing.recurrence = lines;
  return timing;
}

/** Whether two versions of an event's data differ in timing. */
export function timingChanged(before: JsonObject, after: JsonObject): boolean {
  return JSON.stringify(timingOf(before)) !== JSON.stringify(timingOf(after));
}

function entries(data: JsonObject): JsonObject[] {
  const value = data[HISTORY];
  return Array.isArray(value) ? value.filter((e): e is JsonObject => typeof e === 'object' && e !== null && !Array.isArray(e)) : [];
}

/**
 * `after` (a new version of `before`, a non-exception event) with the history carried over, and
 * `before`'s timing added when the write changed the timing of something that was or became a
 * series. `after.seq` must be final: entries are keyed by the sequence that replaced them.
 */
export function withHistory(before: EventRecord, after: EventRecord): EventRecord {
  let list = entries(before.data);
  let from = before.data[HISTORY_FROM];
  if ((before.recurring || after.recurring) && timingChanged(before.data, after.data)) {
    list = [...list, { ...timingOf(before.data), until: after.seq }];
    if (list.length > HISTORY_LIMIT) {
      from = (list[0] as JsonObject).until as Json;
      list = list.slice(1);
    }
  }
  if (list.length === 0) return after;
  const data: JsonObject = { ...after.data, [HISTORY]: list };
  if (typeof from === 'number') data[HISTORY_FROM] = from;
  return { ...after, data };
}

/** `data` without its history (a copy of an event starts its own, keyed by its own sequences). */
export function withoutHistory(data: JsonObject): JsonObject {
  if (data[HISTORY] === undefined && data[HISTORY_FROM] === undefined) return data;
  const { [HISTORY]: _list, [HISTORY_FROM]: _from, ...rest } = data;
  return rest;
}

/**
 * The timing `record` had when the change sequence stood at `seq` (its current one if it has not
 * changed since); undefined when the history no longer reaches back that far.
 */
export function timingAt(record: EventRecord, seq: number): Timing | undefined {
  const from = record.data[HISTORY_FROM];
  if (typeof from === 'number' && seq < from) return undefined;
  for (const entry of entries(record.data)) {
    if (typeof entry.until === 'number' && entry.until > seq) return entry;
  }
  return timingOf(record.data);
}
