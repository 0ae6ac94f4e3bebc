// Fixture validation (docs/fixtures.md): every rule rejected with its JSON path; the default fixture.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DEFAULT_FIXTURE } from '../../src/config/config.ts';
import { sha256 } from '../../src/crypto/crypto.ts';
import { FixtureError, parseFixture, readFixtureFile } from '../../src/fixtures/fixture.ts';

const client = { id: 'c', secret: 's', redirectUris: ['http://127.0.0.1:3000/cb'] };
const user = { id: 'u', name: 'U', email: 'u@example.com' };

function rejects(fixture: unknown, path: string, message: RegExp): void {
  assert.throws(
    () => parseFixture(fixture),
    (error: unknown) => {
      assert.ok(error instanceof FixtureError, String(error));
      assert.equal(error.path, path);
      assert.match(error.message, message);
      assert.ok(error.message.startsWith(path ? `${path}: ` : ''));
      return true;
    },
  );
}

describe('fixture validation', () => {
  it('accepts a minimal fixture and fills defaults', () => {
    const fixture = parseFixture({ clients: [client], users: [user] });
    assert.equal(fixture.users[0]?.timeZone, 'UTC');
    // The secret is kept only as its SHA-256 digest (base64url), as the store keeps it.
    assert.deepEqual(fixture.clients[0], { id: client.id, secretHash: sha256(client.secret), redirectUris: client.redirectUris });
    assert.deepEqual(parseFixture({}), { clients: [], users: [] });
  });

  const cases: Array<[string, unknown, string, RegExp]> = [
    ['root not an object', [], '', /must be a JSON object/],
    ['unknown top-level key', { extra: 1 }, 'extra', /unknown key/],
    ['clients not an array', { clients: {} }, 'clients', /must be an array/],
    ['client without id', { clients: [{ secret: 's', redirectUris: [] }] }, 'clients[0].id', /is required/],
    ['client with empty secret', { clients: [{ ...client, secret: '' }] }, 'clients[0].secret', /must not be empty/],
    ['client without secret', { clients: [{ id: 'c', redirectUris: [] }] }, 'clients[0].secret', /is required/],
    ['client unknown key', { clients: [{ ...client, public: true }] }, 'clients[0].public', /unknown key/],
    ['redirect URI relative', { clients: [{ ...client, redirectUris: ['/cb'] }] }, 'clients[0].redirectUris[0]', /absolute http/],
    ['redirect URI not http', { clients: [{ ...client, redirectUris: ['ftp://h/cb'] }] }, 'clients[0].redirectUris[0]', /absolute http/],
    ['redirect URI custom scheme', { clients: [{ ...client, redirectUris: ['com.example.app:/cb'] }] }, 'clients[0].redirectUris[0]', /absolute http/],
    ['redirect URI fragment', { clients: [{ ...client, redirectUris: ['http://h/cb#x'] }] }, 'clients[0].redirectUris[0]', /fragment/],
    ['redirect URI empty fragment', { clients: [{ ...client, redirectUris: ['http://h/cb#'] }] }, 'clients[0].redirectUris[0]', /fragment/],
    ['redirect URI userinfo', { clients: [{ ...client, redirectUris: ['http://a:b@h/cb'] }] }, 'clients[0].redirectUris[0]', /userinfo/],
    ['duplicate client id', { clients: [client, client] }, 'clients[1].id', /duplicate client id/],
    ['user without name', { users: [{ id: 'u', email: 'u@example.com' }] }, 'users[0].name', /is required/],
    ['user with bad email', { users: [{ ...user, email: 'nope' }] }, 'users[0].email', /e-mail/],
    ['user with bad zone', { users: [{ ...user, timeZone: 'Mars/Base' }] }, 'users[0].timeZone', /IANA/],
    ['user unknown key', { users: [{ ...user, password: 'x' }] }, 'users[0].password', /unknown key/],
    ['duplicate user id', { users: [user, { ...user, email: 'v@example.com' }] }, 'users[1].id', /duplicate user id/],
    ['duplicate email', { users: [user, { ...user, id: 'v', email: 'U@example.com' }] }, 'users[1].email', /duplicate user email/],
    ['primary id not the email', { users: [{ ...user, calendars: [{ primary: true, id: 'x@example.com' }] }] }, 'users[0].calendars[0].id', /primary calendar's id/],
    ['secondary without id', { users: [{ ...user, calendars: [{ summary: 'S' }] }] }, 'users[0].calendars[0].id', /is required/],
    ['two primaries', { users: [{ ...user, calendars: [{ primary: true }, { primary: true }] }] }, 'users[0].calendars', /at most one/],
    ['calendar unknown key', { users: [{ ...user, calendars: [{ primary: true, owner: 'x' }] }] }, 'users[0].calendars[0].owner', /unknown key/],
    ['calendar bad zone', { users: [{ ...user, calendars: [{ primary: true, timeZone: 'Nowhere' }] }] }, 'users[0].calendars[0].timeZone', /IANA/],
    ['calendar bad colour', { users: [{ ...user, calendars: [{ primary: true, backgroundColor: 'red' }] }] }, 'users[0].calendars[0].backgroundColor', /colour/],
    ['calendar hidden not boolean', { users: [{ ...user, calendars: [{ primary: true, hidden: 'yes' }] }] }, 'users[0].calendars[0].hidden', /true or false/],
    ['reminder bad method', { users: [{ ...user, calendars: [{ primary: true, defaultReminders: [{ method: 'sms', minutes: 5 }] }] }] }, 'users[0].calendars[0].defaultReminders[0].method', /email/],
    ['reminder bad minutes', { users: [{ ...user, calendars: [{ primary: true, defaultReminders: [{ method: 'popup', minutes: 40321 }] }] }] }, 'users[0].calendars[0].defaultReminders[0].minutes', /40320/],
    ['events not an array', { users: [{ ...user, calendars: [{ primary: true, events: {} }] }] }, 'users[0].calendars[0].events', /must be an array/],
    [
      'calendar id reused across users',
      { users: [{ ...user, calendars: [{ id: 'team@x' }] }, { id: 'v', name: 'V', email: 'v@example.com', calendars: [{ id: 'team@x' }] }] },
      'users[1].calendars[0].id',
      /already used at users\[0\]\.calendars\[0\]\.id/,
    ],
    [
      'secondary calendar id equal to another user\'s e-mail',
      { users: [user, { id: 'v', name: 'V', email: 'v@example.com', calendars: [{ id: 'u@example.com' }] }] },
      'users[1].calendars[0].id',
      /already used/,
    ],
  ];
  for (const [name, fixture, path, message] of cases) {
    it(`rejects ${name} at ${path || 'the root'}`, () => rejects(fixture, path, message));
  }

  it('the default fixture matches docs/fixtures.md', () => {
    const raw = JSON.parse(readFileSync(DEFAULT_FIXTURE, 'utf8'));
    assert.deepEqual(raw.clients, [
      { id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUris: ['http://127.0.0.1:3000/oauth2callback'] },
    ]);
    const fixture = readFixtureFile(DEFAULT_FIXTURE);
    assert.equal(fixture.users.length, 3);
    assert.deepEqual(
      fixture.users.map((u) => [u.name, u.email, u.timeZone]),
      [
        ['Aiko Tanaka', 'aiko.tanaka@example.com', 'Asia/Tokyo'],
        ['Ben Clarke', 'ben.clarke@example.com', 'Europe/London'],
        ['Carmen Diaz', 'carmen.diaz@example.com', 'America/New_York'],
      ],
    );
    const aikoEvents = fixture.users[0]?.calendars[0]?.events as Array<Record<string, unknown>>;
    assert.ok(aikoEvents.some((e) => e.transparency === 'transparent'));
    assert.ok(aikoEvents.some((e) => e.status === 'cancelled'));
    assert.equal(fixture.users[0]?.calendars[1]?.id, 'team-aiko@group.calendar.example.com');
  });
});
