// The content filters of events.list (https://developers.google.com/workspace/calendar/api/v3/reference/events/list): `q` free text, `iCalUID`,
// `privateExtendedProperty` / `sharedExtendedProperty`, `eventTypes` and `updatedMin`, as one
// predicate over stored records that every listing strategy (list-pages.ts, instance-sync.ts)
// applies before rendering. A listing without any of them gets ACCEPT_ALL, which the strategies
// recognise to read the shared window cache (window-cache.ts) instead of filtering.

import { googleErrors } from '../../api/google-error.ts';
import type { EventRecord, Json, JsonObject } from '../../store/store.ts';
import { repeatedParam, stringParam, timestampParam } from '../params.ts';

/** The filter of a listing without content filters. */
export const ACCEPT_ALL = (): boolean => true;

const FILTER_PARAMS = ['q', 'iCalUID', 'privateExtendedProperty', 'sharedExtendedProperty', 'eventTypes', 'updatedMin'];

function propertyFilters(query: URLSearchParams, name: string): Array<[string, string]> {
  return repeatedParam(query, name).map((text) => {
    const eq = text.indexOf('=');
    if (eq <= 0) throw googleErrors.invalid(`${name} must be written propertyName=value`, name);
    return [text.slice(0, eq), text.slice(eq + 1)];
  });
}

function textOf(value: Json | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** Free text over the fields https://developers.google.com/workspace/calendar/api/v3/reference/events/list lists for `q`; every term must occur (case-insensitive). */
function searchableText(data: JsonObject): string {
  const parts = [textOf(data.summary), textOf(data.description), textOf(data.location)];
  const people = [...(Array.isArray(data.attendees) ? data.attendees : []), data.organizer];
  for (const person of people) {
    if (typeof person === 'object' && person !== null && !Array.isArray(person)) {
      parts.push(textOf(person.displayName), textOf(person.email));
    }
  }
  return parts.join('\n').toLowerCase();
}

function mapOf(data: JsonObject, kind: 'private' | 'shared'): JsonObject {
  const props = data.extendedProperties;
  const map = typeof props === 'object' && props !== null && !Array.isArray(props) ? props[kind] : undefined;
  return typeof map === 'object' && map !== null && !Array.isArray(map) ? map : {};
}

// The eventTypes enum of events.list and events.watch (https://developers.google.com/workspace/calendar/api/v3/reference/events/list); a value outside it is
// refused as any query enum is (400 invalid naming the parameter: Google's exact wording for a
// value outside a query enum was not found, so the service's own is a choice).
const EVENT_TYPES = ['birthday', 'default', 'focusTime', 'fromGmail', 'outOfOffice', 'workingLocation'];

/** `eventTypes`, repeated, each one of Google's event types. */
export function eventTypesParam(query: URLSearchParams): string[] {
  const values = repeatedParam(query, 'eventTypes');
  const outside = values.find((value) => !EVENT_TYPES.includes(value));
  if (outside !== undefined) throw googleErrors.invalid(`eventTypes must be one of ${EVENT_TYPES.join(', ')}`, 'eventTypes');
  return values;
}

/** The content filters of events.list, as one predicate over stored records (ACCEPT_ALL when none). */
export function recordFilter(query: URLSearchParams): (record: EventRecord) => boolean {
  // Most listings have no filter: one pass over the names sent rather than a lookup per filter.
  if (![...query.keys()].some((name) => FILTER_PARAMS.includes(name))) return ACCEPT_ALL;
  const terms = (stringParam(query, 'q') ?? '').toLowerCase().split(/\s+/).filter((t) => t !== '');
  const iCalUID = stringParam(query, 'iCalUID');
  const privateProps = propertyFilters(query, 'privateExtendedProperty');
  const sharedProps = propertyFilters(query, 'sharedExtendedProperty');
  const eventTypes = eventTypesParam(query);
  const updatedMin = timestampParam(query, 'updatedMin');
  const filters = [terms, privateProps, sharedProps, eventTypes].some((list) => list.length > 0) || iCalUID !== undefined || updatedMin !== undefined;
  if (!filters) return ACCEPT_ALL;
  return (record) => {
    if (iCalUID !== undefined && record.iCalUID !== iCalUID) return false;
    if (updatedMin !== undefined && record.updatedMs < updatedMin) return false;
    if (eventTypes.length > 0 && !eventTypes.includes(textOf(record.data.eventType) || 'default')) return false;
    if (privateProps.some(([k, v]) => mapOf(record.data, 'private')[k] !== v)) return false;
    if (sharedProps.some(([k, v]) => mapOf(record.data, 'shared')[k] !== v)) return false;
    if (terms.length > 0) {
      const text = searchableText(record.data);
      if (!terms.every((t) => text.includes(t))) return false;
    }
    return true;
  };
}

/** updatedMin keeps deletions since that time even when content filters would drop them. */
export function passesUpdatedMin(query: URLSearchParams, record: EventRecord): boolean {
  const updatedMin = timestampParam(query, 'updatedMin');
  return updatedMin === undefined || record.updatedMs >= updatedMin;
}
