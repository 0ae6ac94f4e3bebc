// events.instances (https://developers.google.com/workspace/calendar/api/v3/reference/events/instances): one series' instances over the time window, by start then
// id, or the one instance `originalStart` names. A non-recurring event is its own only instance.

import { googleErrors } from '../../api/google-error.ts';
import type { Result } from '../../http/result.ts';
import { parseDate, parseRfc3339, DateTimeError } from '../../domain/time/datetime.ts';
import { dateKey } from '../../domain/recurrence/expand.ts';
import type { CalendarRecord, EventRecord } from '../../store/store.ts';
import { expandWindow, occurrenceId, occurrenceRecord } from '../../event-model/occurrences.ts';
import { instanceId, seriesOf } from '../../event-model/event-series.ts';
import type { CalendarHandler } from '../context.ts';
import { findTarget } from './write.ts';
import { eventText, occurrenceText, textContext } from './list-items.ts';
import { targetItem } from './call.ts';
import { respondEnvelope } from './envelope.ts';
import { makeListToken, readListToken } from './list-cursor.ts';
import type { ListCursor } from './list-cursor.ts';
import { listingOf, queryFingerprint, windowParams } from './list-query.ts';
import { booleanParam, stringParam } from '../params.ts';

/** `originalStart`: an RFC 3339 timestamp for timed series, a date for all-day ones. */
function originalStartParam(query: URLSearchParams): { instant?: number; dateKey?: number } | undefined {
  const text = stringParam(query, 'originalStart');
  if (text === undefined) return undefined;
  try {
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { dateKey: dateKey(parseDate(text, 'originalStart')) };
    return { instant: parseRfc3339(text, 'originalStart') };
  } catch (error) {
    if (error instanceof DateTimeError) throw googleErrors.invalid('originalStart must be an RFC 3339 timestamp or a date', 'originalStart');
    throw error;
  }
}

export const instances: CalendarHandler = (call) => {
  const { calendar, ctx, size } = listingOf(call);
  const query = call.req.query;
  const showDeleted = booleanParam(query, 'showDeleted') ?? false;
  const window = windowParams(query);
  const originalStart = originalStartParam(query);
  const fingerprint = queryFingerprint(call, calendar);
  const pageTokenText = stringParam(query, 'pageToken');
  const cursor = pageTokenText === undefined ? undefined : readListToken(call.app, fingerprint, pageTokenText, 'instances');
  const master = call.app.store.getEvent(calendar.id, call.params.eventId as string);
  if (!master) throw googleErrors.notFound();
  const tc = textContext(call.caches.renders, ctx);
  const finish = (items: Buffer[], nextCursor: ListCursor | undefined, updatedMs: number): Result =>
    respondEnvelope(call, calendar, {
      items,
      watermark: master.seq,
      updatedMs,
      next: nextCursor === undefined ? undefined : { pageToken: makeListToken(call.app, fingerprint, nextCursor) },
    });
  if (!master.recurring) {
    // A non-recurring event is its own only instance (a documented choice; Google's answer for
    // this case is unconfirmed).
    const listed = (showDeleted || master.status !== 'cancelled') && master.startMs < window.to && master.endMs >= window.from;
    return finish(listed && master.recurringEventId === null ? [eventText(master, tc)] : [], undefined, master.updatedMs);
  }
  if (originalStart !== undefined) {
    const target = findTarget(call.app.store, calendar, instanceIdFor(master, calendar, originalStart));
    if (target === undefined) return finish([], undefined, master.updatedMs);
    const status = target.kind === 'record' ? target.record.status : target.master.status;
    return finish(showDeleted || status !== 'cancelled' ? [targetItem(target, tc)] : [], undefined, master.updatedMs);
  }
  const expanded = expandWindow(call.app.store, calendar, window.from, window.to, {
    seriesId: master.id,
    showDeleted,
    inclusiveStart: true,
    after: cursor?.after,
    limit: size + 1,
  });
  const page = expanded.occurrences.slice(0, size);
  const last = page[page.length - 1];
  const more = expanded.occurrences.length > size && last !== undefined;
  return finish(
    page.map((o) => occurrenceText(o, tc)),
    more ? { kind: 'instances', after: { start: last.start, id: occurrenceId(last) } } : undefined,
    page.reduce((max, o) => Math.max(max, occurrenceRecord(o).updatedMs), master.updatedMs),
  );
};

/** The instance id `originalStart` names in a series ('' when the series' kind does not match). */
function instanceIdFor(master: EventRecord, calendar: CalendarRecord, originalStart: { instant?: number; dateKey?: number }): string {
  const series = seriesOf(master.data, calendar.timeZone);
  const key = series?.kind === 'date' ? originalStart.dateKey : originalStart.instant;
  return series === undefined || key === undefined ? '' : instanceId(master, series, key);
}
