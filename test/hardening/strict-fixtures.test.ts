// Strict fixtures (docs/fixtures.md): an unknown member at any depth, a wrong
// container type or a control character in an id or URI is refused with the JSON path, by the
// parser, by start() and by POST /__svc/fixtures, and a refused fixture changes nothing: data
// and existing tokens stay as they were. (The startup line of the CLI: test/foundation/cli.test.ts.)

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixtureError, parseFixture, parseFixtureText } from '../../src/fixtures/fixture.ts';
import { start } from '../../src/index.ts';
import { jsonErrorPosition } from '../../src/text/json-error-position.ts';
import { api, tokenFor } from '../_helpers/calendar.ts';
import { call, postJson, startService } from '../_helpers/service.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const client = { id: 'c', secret: 'client-secret-value', redirectUris: ['http://127.0.0.1:3000/cb'] };
const user = { id: 'u', name: 'U', email: 'u@example.com' };
const event = (id: string) => ({ id, summary: 'E', start: { dateTime: '2026-10-19T10:00:00Z' }, end: { dateTime: '2026-10-19T11:00:00Z' } });

/** A fixture whose third event, on the second user's primary calendar, is `changed`: users[1].calendars[0].events[2]. */
function withEvent(changed: Json): Json {
  return {
    clients: [client],
    users: [user, { id: 'v', name: 'V', email: 'v@example.com', calendars: [{ primary: true, events: [event('event1'), event('event2'), changed] }] }],
  };
}
const EVENT = 'users[1].calendars[0].events[2]';

/** `base` with an own member `key`, as JSON.parse makes it (an object literal's `__proto__` would set the prototype instead). */
function withOwn(base: Record<string, Json>, key: string, value: Json): Record<string, Json> {
  const copy = { ...base };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function rejected(fixture: unknown): FixtureError {
  try {
    parseFixture(fixture);
  } catch (error) {
    assert.ok(error instanceof FixtureError, String(error));
    return error;
  }
  assert.fail('the fixture was accepted');
}

function rejects(fixture: unknown, path: string, rule: RegExp): void {
  const error = rejected(fixture);
  assert.equal(error.path, path);
  assert.ok(error.message.startsWith(`${path}: `), error.message);
  assert.match(error.message.slice(path.length + 2), rule);
}

const base = event('event3');
const ev = (extra: Record<string, Json>): Json => ({ ...base, ...extra });

// [what, fixture, path, rule]
const UNKNOWN_MEMBERS: Array<[string, unknown, string, RegExp]> = [
  ['__proto__ at the root', withOwn({ users: [] }, '__proto__', {}), '__proto__', /^unknown key$/],
  ['constructor at the root', { constructor: {} }, 'constructor', /^unknown key$/],
  ['Users at the root', { Users: [] }, 'Users', /did you mean users\?/],
  ['__proto__ in a client', { clients: [withOwn(client, '__proto__', { admin: true })] }, 'clients[0].__proto__', /^unknown key$/],
  ['Id in a client', { clients: [{ ...client, Id: 'x' }] }, 'clients[0].Id', /did you mean id\?/],
  ['constructor in a user', { users: [{ ...user, constructor: 'x' }] }, 'users[0].constructor', /^unknown key$/],
  ['toString in a user', { users: [{ ...user, toString: 'x' }] }, 'users[0].toString', /^unknown key$/],
  ['TimeZone in a user', { users: [{ ...user, TimeZone: 'UTC' }] }, 'users[0].TimeZone', /did you mean timeZone\?/],
  ['__proto__ in a calendar', { users: [{ ...user, calendars: [withOwn({ primary: true }, '__proto__', {})] }] }, 'users[0].calendars[0].__proto__', /^unknown key$/],
  ['Summary in a calendar', { users: [{ ...user, calendars: [{ primary: true, Summary: 'x' }] }] }, 'users[0].calendars[0].Summary', /did you mean summary\?/],
  ['__proto__ in a default reminder', { users: [{ ...user, calendars: [{ primary: true, defaultReminders: [withOwn({ method: 'popup', minutes: 5 }, '__proto__', {})] }] }] }, 'users[0].calendars[0].defaultReminders[0].__proto__', /^unknown key$/],
  ['a key that is not a plain name, quoted on one line', { users: [{ ...user, 'bad\nkey\u2028\u0085': 1 }] }, 'users[0]["bad\\nkey\\u2028\\u0085"]', /^unknown key$/],
  // Inside events: every nesting level of the Event schema.
  ['an event member the schema lacks', withEvent(ev({ color: '1' })), `${EVENT}.color`, /^unknown key$/],
  ['Summary in an event', withEvent(ev({ Summary: 'x' })), `${EVENT}.Summary`, /did you mean summary\?/],
  ['__proto__ in an event', withEvent(withOwn(base, '__proto__', { polluted: true })), `${EVENT}.__proto__`, /^unknown key$/],
  ['constructor in an event', withEvent(ev({ constructor: 'x' })), `${EVENT}.constructor`, /^unknown key$/],
  ['start.Timezone', withEvent(ev({ start: { dateTime: '2026-10-19T10:00:00Z', Timezone: 'UTC' } })), `${EVENT}.start.Timezone`, /did you mean timeZone\?/],
  ['end.datetime', withEvent(ev({ end: { datetime: '2026-10-19T11:00:00Z' } })), `${EVENT}.end.datetime`, /did you mean dateTime\?/],
  ['originalStartTime.zone', withEvent(ev({ originalStartTime: { date: '2026-10-19', zone: 'UTC' } })), `${EVENT}.originalStartTime.zone`, /^unknown key$/],
  ['attendees[].Email', withEvent(ev({ attendees: [{ email: 'a@example.com' }, { Email: 'b@example.com' }] })), `${EVENT}.attendees[1].Email`, /did you mean email\?/],
  ['attendees[].__proto__', withEvent(ev({ attendees: [withOwn({ email: 'a@example.com' }, '__proto__', {})] })), `${EVENT}.attendees[0].__proto__`, /^unknown key$/],
  ['reminders.useDefaults', withEvent(ev({ reminders: { useDefaults: false } })), `${EVENT}.reminders.useDefaults`, /^unknown key$/],
  ['reminders.overrides[].Minutes', withEvent(ev({ reminders: { useDefault: false, overrides: [{ method: 'popup', Minutes: 5 }] } })), `${EVENT}.reminders.overrides[0].Minutes`, /did you mean minutes\?/],
  ['extendedProperties.Private', withEvent(ev({ extendedProperties: { Private: {} } })), `${EVENT}.extendedProperties.Private`, /did you mean private\?/],
  ['a __proto__ key in extendedProperties.private', withEvent(ev({ extendedProperties: { private: withOwn({ a: 'b' }, '__proto__', 'x') } })), `${EVENT}.extendedProperties.private.__proto__`, /not allowed as a key/],
  ['conferenceData.notesText', withEvent(ev({ conferenceData: { notesText: 'x' } })), `${EVENT}.conferenceData.notesText`, /^unknown key$/],
  ['conferenceData.entryPoints[].URI', withEvent(ev({ conferenceData: { entryPoints: [{ entryPointType: 'video', URI: 'https://meet.example/x' }] } })), `${EVENT}.conferenceData.entryPoints[0].URI`, /did you mean uri\?/],
  ['conferenceData.conferenceSolution.key.Type', withEvent(ev({ conferenceData: { conferenceSolution: { key: { Type: 'hangoutsMeet' } } } })), `${EVENT}.conferenceData.conferenceSolution.key.Type`, /did you mean type\?/],
  ['conferenceData.createRequest.status.code', withEvent(ev({ conferenceData: { createRequest: { status: { code: 'x' } } } })), `${EVENT}.conferenceData.createRequest.status.code`, /^unknown key$/],
  ['conferenceData.parameters.addOnParameters.extra', withEvent(ev({ conferenceData: { parameters: { addOnParameters: { extra: {} } } } })), `${EVENT}.conferenceData.parameters.addOnParameters.extra`, /^unknown key$/],
  ['source.href', withEvent(ev({ source: { title: 'x', href: 'https://example.com' } })), `${EVENT}.source.href`, /^unknown key$/],
  ['creator.name', withEvent(ev({ creator: { name: 'x' } })), `${EVENT}.creator.name`, /^unknown key$/],
  ['organizer.Self', withEvent(ev({ organizer: { Self: true } })), `${EVENT}.organizer.Self`, /did you mean self\?/],
  ['gadget.size', withEvent(ev({ gadget: { size: 1 } })), `${EVENT}.gadget.size`, /^unknown key$/],
  ['attachments[].url', withEvent(ev({ attachments: [{ url: 'https://example.com' }] })), `${EVENT}.attachments[0].url`, /^unknown key$/],
  ['workingLocationProperties.officeLocation.room', withEvent(ev({ workingLocationProperties: { type: 'officeLocation', officeLocation: { room: '1' } } })), `${EVENT}.workingLocationProperties.officeLocation.room`, /^unknown key$/],
  ['focusTimeProperties.mode', withEvent(ev({ focusTimeProperties: { mode: 'x' } })), `${EVENT}.focusTimeProperties.mode`, /^unknown key$/],
  ['outOfOfficeProperties.message', withEvent(ev({ outOfOfficeProperties: { message: 'x' } })), `${EVENT}.outOfOfficeProperties.message`, /^unknown key$/],
  ['birthdayProperties.date', withEvent(ev({ birthdayProperties: { date: 'x' } })), `${EVENT}.birthdayProperties.date`, /^unknown key$/],
];

const CONTAINERS: Array<[string, unknown, string, RegExp]> = [
  ['users as an object', { users: { u: user } }, 'users', /must be an array/],
  ['users as null', { users: null }, 'users', /must be an array/],
  ['clients as a string', { clients: 'c' }, 'clients', /must be an array/],
  ['clients as null', { clients: null }, 'clients', /must be an array/],
  ['a client as an array', { clients: [[client]] }, 'clients[0]', /must be a JSON object/],
  ['redirectUris as a string', { clients: [{ ...client, redirectUris: 'http://127.0.0.1:3000/cb' }] }, 'clients[0].redirectUris', /must be an array/],
  ['redirectUris as null', { clients: [{ ...client, redirectUris: null }] }, 'clients[0].redirectUris', /must be an array/],
  ['calendars as a string', { users: [{ ...user, calendars: 'primary' }] }, 'users[0].calendars', /must be an array/],
  ['calendars as null', { users: [{ ...user, calendars: null }] }, 'users[0].calendars', /must be an array/],
  ['events as an object', { users: [{ ...user, calendars: [{ primary: true, events: { e: base } }] }] }, 'users[0].calendars[0].events', /must be an array/],
  ['events as null', { users: [{ ...user, calendars: [{ primary: true, events: null }] }] }, 'users[0].calendars[0].events', /must be an array/],
  ['defaultReminders as an object', { users: [{ ...user, calendars: [{ primary: true, defaultReminders: { method: 'popup', minutes: 5 } }] }] }, 'users[0].calendars[0].defaultReminders', /must be an array/],
  ['an event as an array', withEvent([base]), EVENT, /must be a JSON object/],
  ['an event as a string', withEvent('event'), EVENT, /must be a JSON object/],
  ['start as a string', withEvent(ev({ start: '2026-10-19T10:00:00Z' })), `${EVENT}.start`, /must be a JSON object/],
  ['attendees as an object', withEvent(ev({ attendees: { email: 'a@example.com' } })), `${EVENT}.attendees`, /must be an array/],
  ['an attendee as a string', withEvent(ev({ attendees: ['a@example.com'] })), `${EVENT}.attendees[0]`, /must be a JSON object/],
  ['recurrence as a string', withEvent(ev({ recurrence: 'RRULE:FREQ=DAILY' })), `${EVENT}.recurrence`, /must be an array/],
  ['a recurrence line as an object', withEvent(ev({ recurrence: [{ rule: 'FREQ=DAILY' }] })), `${EVENT}.recurrence[0]`, /must be a string/],
  ['reminders as an array', withEvent(ev({ reminders: [{ method: 'popup', minutes: 5 }] })), `${EVENT}.reminders`, /must be a JSON object/],
  ['reminders.overrides as an object', withEvent(ev({ reminders: { overrides: { method: 'popup', minutes: 5 } } })), `${EVENT}.reminders.overrides`, /must be an array/],
  ['extendedProperties.private as an array', withEvent(ev({ extendedProperties: { private: ['a'] } })), `${EVENT}.extendedProperties.private`, /must be a JSON object/],
  ['an extended property holding an object', withEvent(ev({ extendedProperties: { shared: { a: { b: 'c' } } } })), `${EVENT}.extendedProperties.shared.a`, /must be a string/],
  ['summary holding an object', withEvent(ev({ summary: { text: 'x' } })), `${EVENT}.summary`, /must be a string/],
  ['conferenceData.entryPoints as an object', withEvent(ev({ conferenceData: { entryPoints: { uri: 'https://meet.example/x' } } })), `${EVENT}.conferenceData.entryPoints`, /must be an array/],
  ['workingLocationProperties.customLocation as a string', withEvent(ev({ workingLocationProperties: { customLocation: 'home' } })), `${EVENT}.workingLocationProperties.customLocation`, /must be a JSON object/],
  ['anyoneCanAddSelf as a string', withEvent(ev({ anyoneCanAddSelf: 'yes' })), `${EVENT}.anyoneCanAddSelf`, /must be true or false/],
  ['sequence as a fraction', withEvent(ev({ sequence: 1.5 })), `${EVENT}.sequence`, /must be an integer/],
];

// U+0000–U+001F, U+007F and U+0080–U+009F, each end of each range.
const CONTROLS = ['\u0000', '\u0009', '\u000a', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f'];
const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
const CONTROL_CASES: Array<[string, (c: string) => unknown, string]> = [
  ['a client id', (c) => ({ clients: [{ ...client, id: `c${c}1` }] }), 'clients[0].id'],
  ['a redirect URI', (c) => ({ clients: [{ ...client, redirectUris: [`http://127.0.0.1:3000/c${c}b`] }] }), 'clients[0].redirectUris[0]'],
  ['a user id', (c) => ({ users: [{ ...user, id: `u${c}1` }] }), 'users[0].id'],
  ['a user e-mail', (c) => ({ users: [{ ...user, email: `u${c}1@example.com` }] }), 'users[0].email'],
  ['a calendar id', (c) => ({ users: [{ ...user, calendars: [{ id: `team${c}@example.com` }] }] }), 'users[0].calendars[0].id'],
  ['an event id', (c) => withEvent(ev({ id: `event3${c}` })), `${EVENT}.id`],
  ['an iCalUID', (c) => withEvent(ev({ iCalUID: `uid${c}@example.com` })), `${EVENT}.iCalUID`],
  ['a recurringEventId', (c) => withEvent(ev({ recurringEventId: `event1${c}`, originalStartTime: { dateTime: '2026-10-19T10:00:00Z' } })), `${EVENT}.recurringEventId`],
  ['a source URL', (c) => withEvent(ev({ source: { title: 'x', url: `https://example.com/${c}` } })), `${EVENT}.source.url`],
  ['an attendee e-mail', (c) => withEvent(ev({ attendees: [{ email: `a${c}@example.com` }] })), `${EVENT}.attendees[0].email`],
  ['an attendee id', (c) => withEvent(ev({ attendees: [{ email: 'a@example.com', id: `a${c}` }] })), `${EVENT}.attendees[0].id`],
  ['a conference entry point URI', (c) => withEvent(ev({ conferenceData: { entryPoints: [{ entryPointType: 'video', uri: `https://meet.example/${c}` }] } })), `${EVENT}.conferenceData.entryPoints[0].uri`],
  ['a conference solution icon URI', (c) => withEvent(ev({ conferenceData: { conferenceSolution: { iconUri: `https://x.example/${c}.png` } } })), `${EVENT}.conferenceData.conferenceSolution.iconUri`],
  ['a conference id', (c) => withEvent(ev({ conferenceData: { conferenceId: `abc${c}` } })), `${EVENT}.conferenceData.conferenceId`],
  ['an attachment file URL', (c) => withEvent(ev({ attachments: [{ fileUrl: `https://drive.example/${c}` }] })), `${EVENT}.attachments[0].fileUrl`],
];

describe('strict fixtures: the parser', () => {
  describe('an unknown member at any depth names its path', () => {
    for (const [what, fixture, path, rule] of UNKNOWN_MEMBERS) it(what, () => rejects(fixture, path, rule));
  });

  describe('a wrong container type names its path', () => {
    for (const [what, fixture, path, rule] of CONTAINERS) it(what, () => rejects(fixture, path, rule));
  });

  describe('a control character in an id, e-mail or URI names its path', () => {
    for (const [what, make, path] of CONTROL_CASES) {
      it(what, () => {
        for (const c of CONTROLS) {
          const error = rejected(make(c));
          assert.equal(error.path, path, hex(c));
          assert.match(error.message, /control characters/, hex(c));
        }
      });
    }
  });

  it('JSON text: the own "__proto__" member JSON.parse creates is seen at every level', () => {
    const text = (inner: string) => `{"users":[{"id":"u","name":"U","email":"u@example.com","calendars":[{"primary":true,"events":[${inner}]}]}]}`;
    const at = 'users[0].calendars[0].events[0]';
    const timed = '"start":{"dateTime":"2026-10-19T10:00:00Z"},"end":{"dateTime":"2026-10-19T11:00:00Z"}';
    for (const [inner, path] of [
      [`{${timed},"__proto__":{"summary":"x"}}`, `${at}.__proto__`],
      [`{"start":{"dateTime":"2026-10-19T10:00:00Z","__proto__":{}},"end":{"dateTime":"2026-10-19T11:00:00Z"}}`, `${at}.start.__proto__`],
      [`{${timed},"attendees":[{"email":"a@example.com","__proto__":{"organizer":true}}]}`, `${at}.attendees[0].__proto__`],
      [`{${timed},"extendedProperties":{"private":{"__proto__":"x"}}}`, `${at}.extendedProperties.private.__proto__`],
    ] as const) {
      assert.throws(() => parseFixtureText(text(inner)), (error: unknown) => error instanceof FixtureError && error.path === path, path);
    }
    assert.throws(() => parseFixtureText('{"__proto__":{"users":[]}}'), (error: unknown) => error instanceof FixtureError && error.path === '__proto__');
  });

  it('the path of the brief: users[1].calendars[0].events[2].start.Timezone', () => {
    rejects(withEvent(ev({ start: { dateTime: '2026-10-19T10:00:00Z', Timezone: 'UTC' } })), 'users[1].calendars[0].events[2].start.Timezone', /unknown key/);
  });

  it('accepts every member the Event schema defines, free text with line breaks, and non-control Unicode', () => {
    const full = ev({
      id: 'eventfull1',
      description: 'line one\nline two\ttabbed\r\n',
      location: 'Room\n5',
      summary: 'ünïcödé\u00a0\u2028',
      colorId: '5',
      status: 'confirmed',
      transparency: 'opaque',
      visibility: 'default',
      iCalUID: 'full-ü@example.com',
      attendees: [{ email: 'a@example.com', displayName: 'A\nB', optional: true, responseStatus: 'accepted', comment: 'x\ny', additionalGuests: 1 }],
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 10 }] },
      extendedProperties: { private: { 'any key': 'a\nvalue', constructor: 'fine as a map key' }, shared: {} },
      source: { title: 'T', url: 'https://example.com/ü' },
      conferenceData: {
        conferenceId: 'aaa-bbbb-ccc',
        conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Meet', iconUri: 'https://x.example/i.png' },
        entryPoints: [{ entryPointType: 'video', uri: 'https://meet.example/aaa-bbbb-ccc', label: 'meet', entryPointFeatures: ['a'] }],
        notes: 'n\nn',
        parameters: { addOnParameters: { parameters: { k: 'v' } } },
      },
      guestsCanModify: true,
      anyoneCanAddSelf: false,
      sequence: 0,
      start: { dateTime: '2026-10-19T10:00:00', timeZone: 'Asia/Tokyo' },
      end: { dateTime: '2026-10-19T11:00:00', timeZone: 'Asia/Tokyo' },
      kind: 'calendar#event',
      etag: '"1"',
      workingLocationProperties: { type: 'homeOffice', homeOffice: { anything: ['goes'] } },
      summaryNull: null,
    } as Record<string, Json>);
    delete (full as Record<string, Json>).summaryNull;
    const fixture = parseFixture(withEvent(full));
    assert.deepEqual(fixture.users[1]?.calendars[0]?.events[2], full);
  });

  it('summaryOverride is a calendar field (docs/fixtures.md)', () => {
    const fixture = parseFixture({ users: [{ ...user, calendars: [{ primary: true, summaryOverride: 'Mine' }] }] });
    assert.equal(fixture.users[0]?.calendars[0]?.entryFields.summaryOverride, 'Mine');
    rejects({ users: [{ ...user, calendars: [{ primary: true, summaryOverride: 5 }] }] }, 'users[0].calendars[0].summaryOverride', /must be a string/);
  });

  it('messages name the path and the rule, never a value of the fixture', () => {
    const secret = 'sup3r-s3cret';
    const cases: unknown[] = [
      { clients: [{ id: secret, secret, redirectUris: [] }, { id: secret, secret, redirectUris: [] }] },
      { clients: [{ id: `${secret}\u0000`, secret, redirectUris: [] }] },
      { clients: [{ id: 'c', secret, redirectUris: [`${secret}`] }] },
      { users: [{ id: secret, name: 'U', email: `${secret}@example.com`, timeZone: secret }] },
      { users: [{ id: 'u', name: 'U', email: `${secret}@example.com` }, { id: 'v', name: 'V', email: `${secret}@example.com` }] },
      { users: [{ id: 'u', name: 'U', email: 'u@example.com', calendars: [{ primary: true, id: `${secret}@example.com` }] }] },
      { users: [{ id: 'u', name: 'U', email: 'u@example.com', calendars: [{ id: secret }, { id: secret }] }] },
    ];
    for (const fixture of cases) {
      const error = rejected(fixture);
      assert.ok(!error.message.includes(secret), error.message);
    }
  });

  it('a JSON syntax error gives the line and column, never JSON.parse\'s quote of the text', () => {
    for (const [text, line, column] of [
      ['{"clients": [{"id": "c", "secret": sup3r-s3cret}]}', 1, 36],
      ['{\n  "clients": [\n    {"secret": "sup3r-s3cret" "x"}\n  ]\n}', 3, 31],
      ['{"secret": "sup3r-s3cret",}', 1, 27],
      ['{"secret": "sup3r-s3cret"', 1, 26],
      ['{"secret": "sup3r\u0001s3cret"}', 1, 18],
      ['', 1, 1],
    ] as const) {
      assert.throws(
        () => parseFixtureText(text, 'fixture file f.json'),
        (error: unknown) => {
          assert.ok(error instanceof FixtureError);
          assert.equal(error.message, `fixture file f.json is not valid JSON (line ${line}, column ${column})`);
          return true;
        },
        text,
      );
    }
  });

  it('jsonErrorPosition agrees with JSON.parse about what is valid', () => {
    const texts = ['{}', '[]', '0', '-0.5e+3', '"\\u00e9\\n"', 'true', ' null ', '{"a":[1,{"b":false}],"c":"d"}', '01', '1.', '.5', '+1', '"\\x"', '"\\u12"', '[1,]', '{"a"}', '{"a":1,}', 'tru', 'nul', '[', '{"a":1}}', '"a', '\ufeff{}'];
    for (const text of texts) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      assert.equal(jsonErrorPosition(text) === undefined, valid, text);
    }
  });
});

describe('strict fixtures: start()', () => {
  it('refuses a startup fixture object with the path of an unknown event member', async () => {
    const fixture = withEvent(ev({ start: { dateTime: '2026-10-19T10:00:00Z', Timezone: 'UTC' } }));
    // A service that did start is closed again, so that a failure here cannot hang the run.
    const outcome = await start({ port: 0, fixture: fixture as object }).then((service) => service.close(), (error: unknown) => error);
    assert.ok(outcome instanceof FixtureError, String(outcome));
    assert.equal(outcome.path, `${EVENT}.start.Timezone`);
  });
});

describe('strict fixtures: POST /__svc/fixtures changes nothing and existing tokens keep working', () => {
  const bodies: Array<[string, string, string]> = [
    ['an unknown event member', JSON.stringify(withEvent(ev({ start: { dateTime: '2026-10-19T10:00:00Z', Timezone: 'UTC' } }))), `${EVENT}.start.Timezone`],
    ['an own __proto__ in an attendee', `{"users":[{"id":"u","name":"U","email":"u@example.com","calendars":[{"primary":true,"events":[{"start":{"date":"2026-10-19"},"end":{"date":"2026-10-20"},"attendees":[{"email":"a@example.com","__proto__":{}}]}]}]}]}`, 'users[0].calendars[0].events[0].attendees[0].__proto__'],
    ['users as an object', JSON.stringify({ clients: [client], users: { u: user } }), 'users'],
    ['a redirect URI with a line feed', JSON.stringify({ clients: [{ ...client, redirectUris: ['http://127.0.0.1:3000/c\nb'] }] }), 'clients[0].redirectUris[0]'],
    ['an Id beside the client id', JSON.stringify({ clients: [{ ...client, Id: 'other' }] }), 'clients[0].Id'],
    ['an event events.insert refuses (found while loading)', JSON.stringify(withEvent(ev({ end: { dateTime: '2026-10-19T09:00:00Z' } }))), `${EVENT}.end`],
  ];

  it('each refused fixture is 400 invalid_fixture naming its path, and the workspace and token are untouched', async (t) => {
    const url = await startService(t);
    const token = await tokenFor(url, 'calendar');
    const snapshot = async () => ({
      users: (await call(`${url}/__svc/users`)).text,
      connections: (await call(`${url}/__svc/connections`)).text,
      events: (await api(url, token, 'calendars/primary/events?showDeleted=true')).text,
      calendars: (await api(url, token, 'users/me/calendarList?showHidden=true')).text,
    });
    const before = await snapshot();
    assert.match(before.events, /"kind": ?"calendar#events"/);
    for (const [what, body, path] of bodies) {
      const answer = await call(`${url}/__svc/fixtures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(answer.status, 400, `${what}: ${answer.text}`);
      assert.equal(answer.json.error, 'invalid_fixture', what);
      assert.ok(answer.json.error_description.startsWith(`${path}: `), `${what}: ${answer.json.error_description}`);
      assert.deepEqual(await snapshot(), before, what);
    }
    // And a good fixture still loads afterwards (the refusals left nothing half-done).
    const loaded = await postJson(`${url}/__svc/fixtures`, withEvent(ev({})));
    assert.equal(loaded.status, 200, loaded.text);
    assert.deepEqual(loaded.json.loaded, { clients: 1, users: 2, calendars: 2, events: 3 });
  });
});
