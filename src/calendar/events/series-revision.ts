// What a write to a series master does beyond the master itself (events.update / patch, called
// from write.ts writeEvent):
// - exceptions whose original start the new timing no longer produces are cancelled. Google's
//   "this and following" recipe (https://developers.google.com/workspace/calendar/api/guides/recurringevents) is to end the series with an
//   RRULE UNTIL and insert a new series from the split point; the exceptions past the split must
//   go, or they would show beside the new series' own instances (an app expanding masters and
//   exceptions itself, as singleEvents=false asks it to, would show such an occurrence twice).
//   They become cancelled records with new change sequences, so sync reports them cancelled;
// - the timing the write replaced is kept (series-history.ts) for incremental sync of expanded
//   listings.

import type { EventRecord, JsonObject } from '../../store/store.ts';
import { isOccurrence } from '../../domain/recurrence/expand.ts';
import type { Series } from '../../domain/recurrence/expand.ts';
import type { WriteContext } from '../../event-model/event-record.ts';
import { exceptionKey, seriesOf } from '../../event-model/event-series.ts';
import { timingChanged, withHistory } from '../../event-model/series-history.ts';

/** Whether the series still has the occurrence an exception replaced. */
function stillAnOccurrence(series: Series | undefined, exception: EventRecord): boolean {
  if (series === undefined) return false;
  const original = exception.data.originalStartTime;
  const allDay = typeof original === 'object' && original !== null && !Array.isArray(original) && typeof original.date === 'string';
  return (series.kind === 'date') === allDay && isOccurrence(series, exceptionKey(exception));
}

function cancelledException(ctx: WriteContext, exception: EventRecord): EventRecord {
  const data: JsonObject = { ...exception.data, status: 'cancelled' };
  return { ...exception, seq: ctx.store.nextSeq(), status: 'cancelled', updatedMs: ctx.now, data };
}

/**
 * The record to store for `after`, the written version of `before` (a single event or series
 * master, not an exception). When the write changed a series' timing, the exceptions it orphans
 * are cancelled first and the master takes a sequence after theirs, so an incremental sync that
 * reaches the master has already passed them.
 */
export function reviseSeries(ctx: WriteContext, before: EventRecord, after: EventRecord): EventRecord {
  let written = after;
  if ((before.recurring || after.recurring) && timingChanged(before.data, after.data)) {
    const series = after.recurring ? seriesOf(after.data, ctx.calendar.timeZone) : undefined;
    for (const exception of ctx.store.listExceptions(ctx.calendar.id, before.id)) {
      if (exception.status === 'cancelled' || stillAnOccurrence(series, exception)) continue;
      ctx.store.putEvent(cancelledException(ctx, exception));
    }
    written = { ...after, seq: ctx.store.nextSeq() };
  }
  return withHistory(before, written);
}
