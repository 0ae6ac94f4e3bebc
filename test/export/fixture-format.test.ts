// What the workspace export added to the fixture format (docs/journal.md#workspace-export, README "Fixtures"):
// `secretSha256` for clients (exactly one of it and `secret`), `deleted` and
// `notificationSettings` for calendars, and cancelled exceptions of occurrences their series no
// longer produces. Each with its errors, named by JSON path.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { FixtureError, parseFixture } from '../../src/fixtures/fixture.ts';
import { sha256 } from '../../src/crypto/crypto.ts';
import { api } from '../_helpers/calendar.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { call, postJson, startService } from '../_helpers/service.ts';

const SECRET = 'p@ss wörd';
const HEX = createHash('sha256').update(SECRET, 'utf8').digest('hex');
const redirectUris = ['http://127.0.0.1:3000/oauth2callback'];
const user = { id: 'user-aiko', name: 'Aiko', email: 'aiko@example.com' };

function rejects(fixture: unknown, path: string, message: RegExp): void {
  assert.throws(() => parseFixture(fixture), (error: unknown) => error instanceof FixtureError && error.path === path && message.test(error.message));
}

describe('clients: secret or secretSha256', () => {
  it('secretSha256 stands for the secret: the same stored digest', () => {
    const bySecret = parseFixture({ clients: [{ id: 'c', secret: SECRET, redirectUris }] });
    const byDigest = parseFixture({ clients: [{ id: 'c', secretSha256: HEX, redirectUris }] });
    assert.deepEqual(byDigest.clients, bySecret.clients);
    assert.equal(byDigest.clients[0]?.secretHash, sha256(SECRET));
  });

  const cases: Array<[string, object, string, RegExp]> = [
    ['both', { id: 'c', secret: SECRET, secretSha256: HEX }, 'clients[0].secretSha256', /either secret or secretSha256, not both/],
    ['neither', { id: 'c' }, 'clients[0].secret', /is required \(or secretSha256\)/],
    ['upper-case hex', { id: 'c', secretSha256: HEX.toUpperCase() }, 'clients[0].secretSha256', /64 lowercase hexadecimal/],
    ['too short', { id: 'c', secretSha256: HEX.slice(1) }, 'clients[0].secretSha256', /64 lowercase hexadecimal/],
    ['not hex', { id: 'c', secretSha256: `${HEX.slice(1)}g` }, 'clients[0].secretSha256', /64 lowercase hexadecimal/],
    ['not a string', { id: 'c', secretSha256: 7 }, 'clients[0].secretSha256', /must be a string/],
    ['a typo', { id: 'c', secretSHA256: HEX }, 'clients[0].secretSHA256', /did you mean secretSha256/],
  ];
  for (const [name, client, path, message] of cases) it(`refuses a client with ${name}`, () => rejects({ clients: [client] }, path, message));

  it('an exported client still authenticates with its original secret, and only with it', async (t) => {
    const url = await startService(t, { fixture: { clients: [{ id: 'c', secret: SECRET, redirectUris }], users: [user] } });
    const exported = await call(`${url}/__svc/fixtures`);
    assert.deepEqual(exported.json.clients, [{ id: 'c', secretSha256: HEX, redirectUris }]);
    const copy = await startService(t, { fixture: exported.json });
    const token = await obtainToken(copy, { clientId: 'c', clientSecret: SECRET, scope: 'calendar' });
    assert.equal(typeof token.access_token, 'string');
    await assert.rejects(obtainToken(copy, { clientId: 'c', clientSecret: `${SECRET}x`, scope: 'calendar' }), /invalid_client/);
  });

  it('POST /__svc/fixtures names the path of a bad secretSha256 and changes nothing', async (t) => {
    const url = await startService(t, { fixture: { clients: [{ id: 'c', secret: SECRET, redirectUris }], users: [user] } });
    const before = (await call(`${url}/__svc/fixtures`)).json;
    const answer = await postJson(`${url}/__svc/fixtures`, { clients: [{ id: 'd', secret: 'x', secretSha256: HEX }] });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.json, { error: 'invalid_fixture', error_description: 'clients[0].secretSha256: give either secret or secretSha256, not both' });
    assert.deepEqual((await call(`${url}/__svc/fixtures`)).json, before);
  });
});

describe('calendars: deleted and notificationSettings', () => {
  const withCalendar = (calendar: object): object => ({ users: [{ ...user, calendars: [calendar] }] });

  it('a calendar removed from its list, with notification settings, loads as such', async (t) => {
    const notificationSettings = { notifications: [{ type: 'agenda', method: 'email' }] };
    const url = await startService(t, {
      fixture: { clients: [{ id: 'c', secret: SECRET, redirectUris }], users: [{ ...user, calendars: [{ primary: true, notificationSettings }, { id: 'gone@example.com', summary: 'Gone', deleted: true }] }] },
    });
    const token = (await obtainToken(url, { clientId: 'c', clientSecret: SECRET, scope: 'calendar' })).access_token;
    const list = await api(url, token, 'users/me/calendarList?showDeleted=true');
    assert.equal(list.status, 200, list.text);
    const byId = new Map(list.json.items.map((e: { id: string }) => [e.id, e]));
    assert.deepEqual((byId.get('aiko@example.com') as { notificationSettings: unknown }).notificationSettings, notificationSettings);
    assert.equal((byId.get('gone@example.com') as { deleted?: boolean }).deleted, true);
    assert.equal((await api(url, token, 'users/me/calendarList/gone%40example.com')).status, 404);
  });

  const cases: Array<[string, object, string, RegExp]> = [
    ['a removed primary', { primary: true, deleted: true }, 'users[0].calendars[0].deleted', /primary calendar cannot be removed/],
    ['deleted not a boolean', { id: 'x@example.com', deleted: 'yes' }, 'users[0].calendars[0].deleted', /must be true or false/],
    ['an unknown notification type', { primary: true, notificationSettings: { notifications: [{ type: 'x', method: 'email' }] } }, 'users[0].calendars[0].notificationSettings.notifications[0].type', /must be one of/],
    ['an sms notification', { primary: true, notificationSettings: { notifications: [{ type: 'agenda', method: 'sms' }] } }, 'users[0].calendars[0].notificationSettings.notifications[0].method', /must be "email"/],
    ['an unknown notification member', { primary: true, notificationSettings: { notification: [] } }, 'users[0].calendars[0].notificationSettings.notification', /unknown key/],
  ];
  for (const [name, calendar, path, message] of cases) it(`refuses ${name}`, () => rejects(withCalendar(calendar), path, message));
});

describe('exceptions of occurrences a series no longer produces', () => {
  const series = {
    id: 'series01',
    summary: 'Weekly',
    start: { dateTime: '2030-03-04T10:00:00Z', timeZone: 'UTC' },
    end: { dateTime: '2030-03-04T11:00:00Z', timeZone: 'UTC' },
    recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
  };
  // A Wednesday: the Monday series never produces it (its timing changed after the exception).
  const orphan = {
    recurringEventId: 'series01',
    originalStartTime: { dateTime: '2030-03-06T10:00:00Z', timeZone: 'UTC' },
    start: { dateTime: '2030-03-06T10:00:00Z' },
    end: { dateTime: '2030-03-06T11:00:00Z' },
    summary: 'Old Wednesday',
  };
  const fixture = (event: object): object => ({ users: [{ ...user, calendars: [{ primary: true, events: [series, event] }] }] });

  it('a cancelled one loads, keeps its original start and is read back through get', async (t) => {
    const url = await startService(t, { fixture: { clients: [{ id: 'c', secret: SECRET, redirectUris }], users: [] } });
    const loaded = await postJson(`${url}/__svc/fixtures`, { clients: [{ id: 'c', secret: SECRET, redirectUris }], ...fixture({ ...orphan, status: 'cancelled' }) });
    assert.equal(loaded.status, 200, loaded.text);
    const token = (await obtainToken(url, { clientId: 'c', clientSecret: SECRET, scope: 'calendar' })).access_token;
    const got = await api(url, token, 'calendars/primary/events/series01_20300306T100000Z');
    assert.equal(got.status, 200, got.text);
    assert.equal(got.json.status, 'cancelled');
    assert.equal(got.json.recurringEventId, 'series01');
    assert.deepEqual(got.json.originalStartTime, { dateTime: '2030-03-06T10:00:00Z', timeZone: 'UTC' });
    // Not an instance of the series: the expanded listing does not show it.
    const instances = await api(url, token, 'calendars/primary/events/series01/instances?showDeleted=true');
    assert.deepEqual(instances.json.items.map((e: { id: string }) => e.id), ['series01_20300304T100000Z', 'series01_20300311T100000Z', 'series01_20300318T100000Z']);
  });

  it('one that is not cancelled is refused, as before', async (t) => {
    const url = await startService(t, { fixture: { users: [] } });
    const answer = await postJson(`${url}/__svc/fixtures`, fixture(orphan));
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.json, {
      error: 'invalid_fixture',
      error_description: 'users[0].calendars[0].events[1].originalStartTime: originalStartTime is not an instance of the recurring event.',
    });
  });
});
