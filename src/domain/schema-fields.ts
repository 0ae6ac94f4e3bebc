// The members of the Calendar API v3 resources this service reads or writes, and what each
// member holds: the Event and every schema it references, Events, CalendarListEntry,
// CalendarList, Calendar, FreeBusyRequest/FreeBusyResponse and Channel. Data derived from the
// discovery document (https://calendar-json.googleapis.com/$discovery/rest?version=v3, revision 20260519),
// not written by hand, so that the fixture loader (docs/fixtures.md: a member the Event schema does
// not define is an error) and the `fields` check name the same members Google does. Regenerate
// by walking each schema's `properties` from the roots above.
//
// A type is a scalar (`string`, `boolean`, `integer`, `number`, or `any` for a member whose
// value the schema leaves open) or a schema name; `X[]` is an array of X and `X{}` a JSON
// object whose keys are free and whose values are X (`additionalProperties`). An object the
// discovery document declares inline is named `Owner.member` (`Event.reminders`).

export const SCHEMA_FIELDS = {
  Event: {
    anyoneCanAddSelf: 'boolean', attachments: 'EventAttachment[]', attendees: 'EventAttendee[]', attendeesOmitted: 'boolean',
    birthdayProperties: 'EventBirthdayProperties', colorId: 'string', conferenceData: 'ConferenceData', created: 'string',
    creator: 'Event.creator', description: 'string', end: 'EventDateTime', endTimeUnspecified: 'boolean', etag: 'string',
    eventType: 'string', extendedProperties: 'Event.extendedProperties', focusTimeProperties: 'EventFocusTimeProperties',
    gadget: 'Event.gadget', guestsCanInviteOthers: 'boolean', guestsCanModify: 'boolean', guestsCanSeeOtherGuests: 'boolean',
    hangoutLink: 'string', htmlLink: 'string', iCalUID: 'string', id: 'string', kind: 'string', location: 'string',
    locked: 'boolean', organizer: 'Event.organizer', originalStartTime: 'EventDateTime',
    outOfOfficeProperties: 'EventOutOfOfficeProperties', privateCopy: 'boolean', recurrence: 'string[]',
    recurringEventId: 'string', reminders: 'Event.reminders', sequence: 'integer', source: 'Event.source',
    start: 'EventDateTime', status: 'string', summary: 'string', transparency: 'string', updated: 'string', visibility: 'string',
    workingLocationProperties: 'EventWorkingLocationProperties',
  },
  EventAttachment: { fileId: 'string', fileUrl: 'string', iconLink: 'string', mimeType: 'string', title: 'string' },
  EventAttendee: {
    additionalGuests: 'integer', asyncOperation: 'string', comment: 'string', displayName: 'string', email: 'string',
    id: 'string', optional: 'boolean', organizer: 'boolean', resource: 'boolean', responseStatus: 'string', self: 'boolean',
  },
  EventBirthdayProperties: { contact: 'string', customTypeName: 'string', type: 'string' },
  ConferenceData: {
    conferenceId: 'string', conferenceSolution: 'ConferenceSolution', createRequest: 'CreateConferenceRequest',
    entryPoints: 'EntryPoint[]', notes: 'string', parameters: 'ConferenceParameters', signature: 'string',
  },
  ConferenceSolution: { iconUri: 'string', key: 'ConferenceSolutionKey', name: 'string' },
  ConferenceSolutionKey: { type: 'string' },
  CreateConferenceRequest: {
    conferenceSolutionKey: 'ConferenceSolutionKey', requestId: 'string', status: 'ConferenceRequestStatus',
  },
  ConferenceRequestStatus: { statusCode: 'string' },
  EntryPoint: {
    accessCode: 'string', entryPointFeatures: 'string[]', entryPointType: 'string', label: 'string', meetingCode: 'string',
    passcode: 'string', password: 'string', pin: 'string', regionCode: 'string', uri: 'string',
  },
  ConferenceParameters: { addOnParameters: 'ConferenceParametersAddOnParameters' },
  ConferenceParametersAddOnParameters: { parameters: 'string{}' },
  'Event.creator': { displayName: 'string', email: 'string', id: 'string', self: 'boolean' },
  EventDateTime: { date: 'string', dateTime: 'string', timeZone: 'string' },
  'Event.extendedProperties': { private: 'string{}', shared: 'string{}' },
  EventFocusTimeProperties: { autoDeclineMode: 'string', chatStatus: 'string', declineMessage: 'string' },
  'Event.gadget': {
    display: 'string', height: 'integer', iconLink: 'string', link: 'string', preferences: 'string{}', title: 'string',
    type: 'string', width: 'integer',
  },
  'Event.organizer': { displayName: 'string', email: 'string', id: 'string', self: 'boolean' },
  EventOutOfOfficeProperties: { autoDeclineMode: 'string', declineMessage: 'string' },
  'Event.reminders': { overrides: 'EventReminder[]', useDefault: 'boolean' },
  EventReminder: { method: 'string', minutes: 'integer' },
  'Event.source': { title: 'string', url: 'string' },
  EventWorkingLocationProperties: {
    customLocation: 'EventWorkingLocationProperties.customLocation', homeOffice: 'any',
    officeLocation: 'EventWorkingLocationProperties.officeLocation', type: 'string',
  },
  'EventWorkingLocationProperties.customLocation': { label: 'string' },
  'EventWorkingLocationProperties.officeLocation': {
    buildingId: 'string', deskId: 'string', floorId: 'string', floorSectionId: 'string', label: 'string',
  },
  Events: {
    accessRole: 'string', defaultReminders: 'EventReminder[]', description: 'string', etag: 'string', items: 'Event[]',
    kind: 'string', nextPageToken: 'string', nextSyncToken: 'string', summary: 'string', timeZone: 'string', updated: 'string',
  },
  CalendarListEntry: {
    accessRole: 'string', autoAcceptInvitations: 'boolean', backgroundColor: 'string', colorId: 'string',
    conferenceProperties: 'ConferenceProperties', dataOwner: 'string', defaultReminders: 'EventReminder[]', deleted: 'boolean',
    description: 'string', etag: 'string', foregroundColor: 'string', hidden: 'boolean', id: 'string', kind: 'string',
    location: 'string', notificationSettings: 'CalendarListEntry.notificationSettings', primary: 'boolean', selected: 'boolean',
    summary: 'string', summaryOverride: 'string', timeZone: 'string',
  },
  ConferenceProperties: { allowedConferenceSolutionTypes: 'string[]' },
  'CalendarListEntry.notificationSettings': { notifications: 'CalendarNotification[]' },
  CalendarNotification: { method: 'string', type: 'string' },
  CalendarList: {
    etag: 'string', items: 'CalendarListEntry[]', kind: 'string', nextPageToken: 'string', nextSyncToken: 'string',
  },
  Calendar: {
    autoAcceptInvitations: 'boolean', conferenceProperties: 'ConferenceProperties', dataOwner: 'string', description: 'string',
    etag: 'string', id: 'string', kind: 'string', location: 'string', summary: 'string', timeZone: 'string',
  },
  FreeBusyRequest: {
    calendarExpansionMax: 'integer', groupExpansionMax: 'integer', items: 'FreeBusyRequestItem[]', timeMax: 'string',
    timeMin: 'string', timeZone: 'string',
  },
  FreeBusyRequestItem: { id: 'string' },
  FreeBusyResponse: {
    calendars: 'FreeBusyCalendar{}', groups: 'FreeBusyGroup{}', kind: 'string', timeMax: 'string', timeMin: 'string',
  },
  FreeBusyCalendar: { busy: 'TimePeriod[]', errors: 'Error[]' },
  TimePeriod: { end: 'string', start: 'string' },
  Error: { domain: 'string', reason: 'string' },
  FreeBusyGroup: { calendars: 'string[]', errors: 'Error[]' },
  Channel: {
    address: 'string', expiration: 'string', id: 'string', kind: 'string', params: 'string{}', payload: 'boolean',
    resourceId: 'string', resourceUri: 'string', token: 'string', type: 'string',
  },
} as const satisfies Record<string, Readonly<Record<string, string>>>;

export type SchemaName = keyof typeof SCHEMA_FIELDS;

export type ScalarType = 'string' | 'boolean' | 'integer' | 'number' | 'any';

/** What one member holds: `one` value, an `array` of them, or a `map` from free keys to them. */
export interface MemberShape {
  container: 'one' | 'array' | 'map';
  of: ScalarType | SchemaName;
}

function parseShape(type: string): MemberShape {
  if (type.endsWith('[]')) return { container: 'array', of: type.slice(0, -2) as MemberShape['of'] };
  if (type.endsWith('{}')) return { container: 'map', of: type.slice(0, -2) as MemberShape['of'] };
  return { container: 'one', of: type as MemberShape['of'] };
}

// Parsed once: a fixture of 100,000 events asks for a shape about a million times.
const SHAPES = new Map<string, ReadonlyMap<string, Readonly<MemberShape>>>(
  Object.entries(SCHEMA_FIELDS).map(([schema, members]) => [
    schema,
    new Map(Object.entries(members as Readonly<Record<string, string>>).map(([name, type]) => [name, Object.freeze(parseShape(type))])),
  ]),
);

/**
 * The shape of `schema`'s member `name`, or undefined when the schema does not define it. Only
 * the table's own keys count: `constructor`, `toString` or `__proto__` are not members.
 */
export function memberShape(schema: SchemaName, name: string): Readonly<MemberShape> | undefined {
  return schemaMembers(schema).get(name);
}

/** Every member of `schema` with its shape. */
export function schemaMembers(schema: SchemaName): ReadonlyMap<string, Readonly<MemberShape>> {
  return SHAPES.get(schema) as ReadonlyMap<string, Readonly<MemberShape>>;
}

/** The member names `schema` defines, in alphabetical order. */
export function memberNames(schema: SchemaName): string[] {
  return Object.keys(SCHEMA_FIELDS[schema]);
}

export function isSchemaName(type: string): type is SchemaName {
  return Object.hasOwn(SCHEMA_FIELDS, type);
}
