// Google Meet links: `Event.conferenceData` on writes and `hangoutLink` on reads (https://developers.google.com/workspace/calendar/api/v3/reference/events,
// §A.12). The `conferenceDataVersion` parameter (0 or 1, default 0) says whether the client
// handles conference data: with 0 a body's `conferenceData` is ignored and the event keeps what it
// had; with 1 it is written like any field, and `createRequest` asks for a new conference.
//
// A create request for `hangoutsMeet` on a calendar that allows it (its conferenceProperties)
// succeeds at once with a Meet conference shaped as Google answers it (captured responses:
// `createRequest` with `status.statusCode: "success"`, one `video` entry point
// `https://meet.google.com/<code>` labelled without the scheme, the "Google Meet" solution, and
// `conferenceId` the meeting code `abc-defg-hij`); no dial-in numbers are invented. The same
// `requestId` on the same event keeps the conference it made ("a repeat of the previous ID is
// ignored", §A.12). Any other solution type answers `statusCode: "failure"` with no entry points,
// as the document describes a failed create (a choice: the live API has also been seen refusing
// such requests outright with 400 "Invalid conference type value."). Without a create request, a
// conference is copied as sent, checked against the ConferenceData schema; a refusal is an
// EventInputError at the member's path, worded as Google words it (input-error.ts).
//
// The request parameter itself is read by the calendar API (src/calendar/events/conference-version.ts).

import { randomInt } from 'node:crypto';
import type { CalendarRecord, Json, JsonObject } from '../store/store.ts';
import { assertArray, assertString, isJsonObject as isObject } from '../validation/validation.ts';
import { EVENT_WORDING, invalid, invalidValue } from './input-error.ts';

export type ConferenceDataVersion = 0 | 1;

export const MEET_SOLUTION = 'hangoutsMeet';

// As Google sends it in every captured Meet conference.
const MEET_ICON = 'https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png';

type Raw = Record<string, unknown>;

// What live calendars carry (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList); the fixture format has no field for it.
const DEFAULT_CONFERENCE_PROPERTIES = { allowedConferenceSolutionTypes: [MEET_SOLUTION] };

/** A calendar's `conferenceProperties`: what it stores, or what live calendars carry. */
export function conferencePropertiesOf(calendar: CalendarRecord): Json {
  return calendar.data.conferenceProperties ?? DEFAULT_CONFERENCE_PROPERTIES;
}

/** The conference solution types a calendar allows (its conferenceProperties). */
export function allowedConferenceTypes(calendar: CalendarRecord): string[] {
  const properties = conferencePropertiesOf(calendar);
  const allowed = isObject(properties) ? properties.allowedConferenceSolutionTypes : undefined;
  return Array.isArray(allowed) ? allowed.filter((t): t is string => typeof t === 'string') : [];
}

function text(value: unknown, field: string, maxLength: number): string {
  assertString(value, field, invalidValue);
  if (value.length > maxLength) throw invalid(field);
  return value;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A Meet code, three-four-three lower-case letters (`abc-defg-hij`, §A.12 conferenceId). */
function meetingCode(): string {
  const letters = (n: number): string => Array.from({ length: n }, () => LETTERS[randomInt(LETTERS.length)]).join('');
  return `${letters(3)}-${letters(4)}-${letters(3)}`;
}

function meetConference(requestId: string): JsonObject {
  const code = meetingCode();
  return {
    createRequest: { requestId, conferenceSolutionKey: { type: MEET_SOLUTION }, status: { statusCode: 'success' } },
    entryPoints: [{ entryPointType: 'video', uri: `https://meet.google.com/${code}`, label: `meet.google.com/${code}` }],
    conferenceSolution: { key: { type: MEET_SOLUTION }, name: 'Google Meet', iconUri: MEET_ICON },
    conferenceId: code,
  };
}

function requestIdOf(conference: Json | undefined): string | undefined {
  const request = isObject(conference) ? conference.createRequest : undefined;
  return isObject(request) && typeof request.requestId === 'string' ? request.requestId : undefined;
}

/**
 * The conferenceData to store for a written `value` (not null, not absent), given what the event
 * had (`previous`) and the solution types its calendar allows.
 */
export function resolveConference(value: unknown, previous: Json | undefined, allowedTypes: readonly string[]): JsonObject {
  if (!isObject(value)) throw invalid('conferenceData');
  if (value.createRequest !== undefined && value.createRequest !== null) {
    const request = value.createRequest;
    if (!isObject(request)) throw invalid('conferenceData.createRequest');
    const requestId = text(request.requestId, 'conferenceData.createRequest.requestId', 1024);
    if (requestId === '') throw invalid('conferenceData.createRequest.requestId');
    const key = request.conferenceSolutionKey;
    if (!isObject(key) || typeof key.type !== 'string') {
      throw invalid('conferenceData.createRequest.conferenceSolutionKey', EVENT_WORDING.invalidConferenceType);
    }
    if (requestId === requestIdOf(previous) && isObject(previous)) return previous as JsonObject;
    if (key.type === MEET_SOLUTION && allowedTypes.includes(MEET_SOLUTION)) return meetConference(requestId);
    return { createRequest: { requestId, conferenceSolutionKey: { type: key.type }, status: { statusCode: 'failure' } } };
  }
  return copiedConference(value);
}

const ENTRY_POINT_TYPES = ['video', 'phone', 'sip', 'more'];
const ENTRY_POINT_CODES = ['label', 'meetingCode', 'accessCode', 'passcode', 'password', 'pin', 'regionCode'] as const;
/** EntryPoint limits (§A.12): uri 1300, label 512, each code 128. */
const CODE_LIMITS: Record<(typeof ENTRY_POINT_CODES)[number], number> = {
  label: 512, meetingCode: 128, accessCode: 128, passcode: 128, password: 128, pin: 128, regionCode: 128,
};

function entryPoint(raw: unknown, path: string): JsonObject {
  if (!isObject(raw) || typeof raw.entryPointType !== 'string' || !ENTRY_POINT_TYPES.includes(raw.entryPointType)) {
    throw invalid(`${path}.entryPointType`);
  }
  const out: JsonObject = { entryPointType: raw.entryPointType, uri: text(raw.uri, `${path}.uri`, 1300) };
  for (const name of ENTRY_POINT_CODES) {
    if (raw[name] !== undefined && raw[name] !== null) out[name] = text(raw[name], `${path}.${name}`, CODE_LIMITS[name]);
  }
  if (raw.entryPointFeatures !== undefined && raw.entryPointFeatures !== null) {
    const features = raw.entryPointFeatures;
    assertArray(features, `${path}.entryPointFeatures`, invalidValue);
    out.entryPointFeatures = features.map((f, i) => text(f, `${path}.entryPointFeatures[${i}]`, 128));
  }
  return out;
}

/** A conference copied from elsewhere: "conferenceSolution and at least one entryPoint" (§A.12). */
function copiedConference(value: Raw): JsonObject {
  const solution = value.conferenceSolution;
  if (!isObject(solution) || !isObject(solution.key) || typeof solution.key.type !== 'string') {
    throw invalid('conferenceData.conferenceSolution', EVENT_WORDING.invalidConference);
  }
  if (!Array.isArray(value.entryPoints) || value.entryPoints.length === 0) {
    throw invalid('conferenceData.entryPoints', EVENT_WORDING.invalidConference);
  }
  const copied: JsonObject = { entryPoints: value.entryPoints.map((raw, i) => entryPoint(raw, `conferenceData.entryPoints[${i}]`)) };
  const outSolution: JsonObject = { key: { type: solution.key.type } };
  if (solution.name !== undefined) outSolution.name = text(solution.name, 'conferenceData.conferenceSolution.name', 512);
  if (solution.iconUri !== undefined) outSolution.iconUri = text(solution.iconUri, 'conferenceData.conferenceSolution.iconUri', 1300);
  copied.conferenceSolution = outSolution;
  if (value.conferenceId !== undefined) copied.conferenceId = text(value.conferenceId, 'conferenceData.conferenceId', 1024);
  if (value.notes !== undefined) copied.notes = text(value.notes, 'conferenceData.notes', 2048);
  if (value.signature !== undefined) copied.signature = text(value.signature, 'conferenceData.signature', 1024);
  return copied;
}

/** `hangoutLink`: the video entry point of a Meet conference. */
export function hangoutLinkOf(conference: Json | undefined): string | undefined {
  if (!isObject(conference) || !Array.isArray(conference.entryPoints)) return undefined;
  const solution = conference.conferenceSolution;
  if (!isObject(solution) || !isObject(solution.key) || solution.key.type !== MEET_SOLUTION) return undefined;
  const video = conference.entryPoints.find((entry) => isObject(entry) && entry.entryPointType === 'video');
  return isObject(video) && typeof video.uri === 'string' ? video.uri : undefined;
}

/**
 * How a conference created by this write reads while its creation is `pending`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/events): the create request with that status and nothing else, so no `hangoutLink` either. A
 * conference the write did not ask for (no create request in `body`) is left as it is.
 */
export function asPending(event: JsonObject, body: unknown): JsonObject {
  const asked = isObject(body) && isObject(body.conferenceData) && isObject(body.conferenceData.createRequest);
  const conference = event.conferenceData;
  if (!asked || !isObject(conference) || !isObject(conference.createRequest)) return event;
  const { hangoutLink: _link, ...rest } = event;
  return { ...rest, conferenceData: { createRequest: { ...conference.createRequest, status: { statusCode: 'pending' } } } };
}
