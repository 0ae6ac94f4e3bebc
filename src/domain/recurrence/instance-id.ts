// Google's instance identity (https://developers.google.com/workspace/calendar/api/guides/recurringevents): an instance of a recurring event is named
// `<eventId>_<YYYYMMDDTHHMMSSZ>` (timed series: its original start in UTC) or
// `<eventId>_<YYYYMMDD>` (all-day series: its original date).

import type { OccurrenceKey, Series } from './series.ts';
import { keyToDate } from './series.ts';
import { formatBasicDate, formatBasicUtc } from '../time/datetime.ts';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, MS_PER_SECOND, daysFromCivil, daysInMonth } from '../time/zones.ts';

export function formatInstanceId(eventId: string, kind: Series['kind'], key: OccurrenceKey): string {
  return `${eventId}_${kind === 'dateTime' ? formatBasicUtc(key) : formatBasicDate(keyToDate(key))}`;
}

interface ParsedInstanceId {
  readonly eventId: string;
  readonly kind: Series['kind'];
  readonly originalStart: OccurrenceKey;
}

const INSTANCE_SUFFIX = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/;

/** Splits an instance id; undefined when `id` does not have that shape (a plain event id). */
export function parseInstanceId(id: string): ParsedInstanceId | undefined {
  const cut = id.lastIndexOf('_');
  if (cut <= 0) return undefined;
  const m = INSTANCE_SUFFIX.exec(id.slice(cut + 1));
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const days = daysFromCivil(year, month, day);
  const eventId = id.slice(0, cut);
  if (m[4] === undefined) return { eventId, kind: 'date', originalStart: days * MS_PER_DAY };
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const s = Number(m[6]);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return { eventId, kind: 'dateTime', originalStart: days * MS_PER_DAY + h * MS_PER_HOUR + mi * MS_PER_MINUTE + s * MS_PER_SECOND };
}
