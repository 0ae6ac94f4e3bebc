// The discovery-derived member table (src/domain/schema-fields.ts): closed over its own
// references, only own members count, and spot checks against calendar-v3-discovery.json.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCHEMA_FIELDS, isSchemaName, memberNames, memberShape } from '../../src/domain/schema-fields.ts';
import type { SchemaName } from '../../src/domain/schema-fields.ts';

const SCALARS = new Set(['string', 'boolean', 'integer', 'number', 'any']);

describe('schema member table', () => {
  it('every member holds a scalar or a schema the table defines', () => {
    for (const schema of Object.keys(SCHEMA_FIELDS) as SchemaName[]) {
      for (const name of memberNames(schema)) {
        const shape = memberShape(schema, name);
        assert.ok(shape, `${schema}.${name}`);
        assert.ok(SCALARS.has(shape.of) || isSchemaName(shape.of), `${schema}.${name}: ${shape.of}`);
      }
    }
  });

  it('names no inherited property as a member', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'Id', 'ID']) {
      assert.equal(memberShape('Event', name), undefined, name);
    }
    assert.equal(isSchemaName('constructor'), false);
    assert.equal(isSchemaName('__proto__'), false);
  });

  it('matches the discovery document where the fixture loader relies on it', () => {
    assert.equal(memberNames('Event').length, 43);
    assert.deepEqual(memberShape('Event', 'start'), { container: 'one', of: 'EventDateTime' });
    assert.deepEqual(memberShape('Event', 'attendees'), { container: 'array', of: 'EventAttendee' });
    assert.deepEqual(memberShape('Event', 'recurrence'), { container: 'array', of: 'string' });
    assert.deepEqual(memberShape('Event', 'reminders'), { container: 'one', of: 'Event.reminders' });
    assert.deepEqual(memberShape('Event.extendedProperties', 'private'), { container: 'map', of: 'string' });
    assert.deepEqual(memberShape('EventWorkingLocationProperties', 'homeOffice'), { container: 'one', of: 'any' });
    assert.deepEqual(memberShape('FreeBusyResponse', 'calendars'), { container: 'map', of: 'FreeBusyCalendar' });
    assert.deepEqual(memberNames('EventDateTime'), ['date', 'dateTime', 'timeZone']);
    assert.deepEqual(memberNames('EventReminder'), ['method', 'minutes']);
    assert.deepEqual(memberNames('ConferenceData'), ['conferenceId', 'conferenceSolution', 'createRequest', 'entryPoints', 'notes', 'parameters', 'signature']);
  });
});
