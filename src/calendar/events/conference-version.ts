// The `conferenceDataVersion` request parameter of events.insert / update / patch
// (https://developers.google.com/workspace/calendar/api/v3/reference/events): whether the client handles conference data. What the version does to a write
// lives with the Meet rules (src/event-model/meet-conference.ts); reading it from a query is the API's part.

import type { ConferenceDataVersion } from '../../event-model/meet-conference.ts';
import { integerParam } from '../params.ts';

/** `conferenceDataVersion`: 0 (the default) or 1; anything else is 400 invalid. */
export function conferenceDataVersionParam(query: URLSearchParams): ConferenceDataVersion {
  return integerParam(query, 'conferenceDataVersion', { min: 0, max: 1 }) === 1 ? 1 : 0;
}
