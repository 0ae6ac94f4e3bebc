// docs/journal.md: what one journal entry says about a request: a calendar call, an OAuth call, a 501,
// a redirect error, a preflight and a HEAD; bodies parsed, large ones truncated at 64 KiB.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { api, useService } from '../_helpers/calendar.ts';
import { lastEntry, readJournal } from '../_helpers/journal.ts';
import { advanceClock, authorizeQuery, obtainToken, parseConsentPage } from '../_helpers/oauth.ts';
import type { ObtainedToken } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';

const AIKO = 'aiko.tanaka@example.com';
const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('request journal entries', () => {
  const service = useService();
  let token: ObtainedToken;
  before(async () => {
    // The journal's `at` reads the service clock, here a day ahead of the wall clock.
    await advanceClock(service.url, 86_400);
    token = await obtainToken(service.url, { scope: 'calendar' });
  });

  it('a calendar call: operation, identity, status, query with repeated keys as arrays, the service clock', async () => {
    const answer = await api(service.url, token.access_token, `calendars/${encodeURIComponent(AIKO)}/events/nope?label=a&alwaysIncludeEmail=true&label=b`);
    assert.equal(answer.status, 404);
    const entry = await lastEntry(service.url);
    const { id, at, durationMs, ...rest } = entry;
    assert.equal(typeof id, 'number');
    assert.ok(typeof durationMs === 'number' && durationMs >= 0);
    assert.ok(Math.abs(Date.parse(at) - (Date.now() + 86_400_000)) < 60_000, at);
    assert.deepEqual(rest, {
      method: 'GET',
      path: `/calendar/v3/calendars/${encodeURIComponent(AIKO)}/events/nope`,
      query: { label: ['a', 'b'], alwaysIncludeEmail: 'true' },
      operation: 'calendar.events.get',
      userId: 'user-aiko',
      clientId: 'local-calendar-client',
      connectionId: token.connectionId,
      status: 404,
      body: null,
      error: 'notFound',
      fault: null,
    });
    assert.deepEqual(Object.keys(entry), ['id', 'at', 'method', 'path', 'query', 'operation', 'userId', 'clientId', 'connectionId', 'status', 'durationMs', 'body', 'error', 'fault']);
  });

  it('a calendar write: the JSON body as sent, a 2xx names no error', async () => {
    const event = { summary: 'Journal', start: { dateTime: '2026-10-19T10:00:00Z' }, end: { dateTime: '2026-10-19T11:00:00Z' } };
    const answer = await api(service.url, token.access_token, 'calendars/primary/events', { method: 'POST', body: event });
    assert.equal(answer.status, 200);
    const entry = await lastEntry(service.url);
    assert.equal(entry.operation, 'calendar.events.insert');
    assert.deepEqual(entry.body, event);
    assert.equal(entry.error, null);
  });

  it('an OAuth call: the form body with its secrets redacted, the OAuth error code', async () => {
    const answer = await call(`${service.url}/oauth/token`, form({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: 'http://127.0.0.1:3000/oauth2callback', client_id: 'local-calendar-client', client_secret: 'local-calendar-secret' }));
    assert.equal(answer.status, 400);
    const entry = await lastEntry(service.url);
    assert.equal(entry.operation, 'oauth.token');
    assert.equal(entry.clientId, 'local-calendar-client');
    assert.equal(entry.userId, null);
    assert.equal(entry.error, 'invalid_grant');
    assert.deepEqual(entry.body, { grant_type: 'authorization_code', code: '[redacted]', redirect_uri: 'http://127.0.0.1:3000/oauth2callback', client_id: 'local-calendar-client', client_secret: '[redacted]' });
  });

  it('an OAuth form sent without a form Content-Type is still read as the form the endpoint read', async () => {
    await call(`${service.url}/oauth/token`, { method: 'POST', body: 'grant_type=refresh_token&refresh_token=r-secret' , headers: { 'content-type': 'text/plain' } });
    const entry = await lastEntry(service.url);
    assert.deepEqual(entry.body, { grant_type: 'refresh_token', refresh_token: '[redacted]' });
  });

  it('an unrouted request: operation null, error unsupportedFeature (docs/calendar-api.md)', async () => {
    const answer = await call(`${service.url}/drive/v3/files?q=1`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
    assert.equal(answer.status, 501);
    const { id, at, durationMs, ...rest } = await lastEntry(service.url);
    assert.deepEqual(rest, {
      method: 'PUT',
      path: '/drive/v3/files',
      query: { q: '1' },
      operation: null,
      userId: null,
      clientId: null,
      connectionId: null,
      status: 501,
      body: null,
      error: 'unsupportedFeature',
      fault: null,
    });
  });

  it('a consent denied: the 302 back to the client names its error (RFC 6749 §4.1.2.1)', async () => {
    const page = parseConsentPage((await call(`${service.url}/oauth/authorize?${authorizeQuery()}`)).text);
    const answer = await call(`${service.url}/oauth/authorize`, form({ nonce: page.nonce, user: 'user-aiko', decision: 'deny' }));
    assert.equal(answer.status, 302);
    const entry = await lastEntry(service.url);
    assert.equal(entry.operation, 'oauth.consent');
    assert.equal(entry.error, 'access_denied');
    assert.deepEqual(entry.body, { nonce: '[redacted]', user: 'user-aiko', decision: 'deny' });
  });

  it('HEAD and CORS preflights are recorded too; /__svc/ requests never are', async () => {
    const before = (await readJournal(service.url)).last;
    await call(`${service.url}/calendar/v3/users/me/calendarList`, { method: 'HEAD', headers: { authorization: `Bearer ${token.access_token}` } });
    await call(`${service.url}/calendar/v3/users/me/calendarList`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    await call(`${service.url}/__svc/users`);
    await call(`${service.url}/__svc/nope`);
    const { requests, last } = await readJournal(service.url, `since=${before}`);
    assert.equal(last, before + 2);
    assert.deepEqual(
      requests.map((e) => [e.method, e.path, e.operation, e.status]),
      [
        // HEAD is no method of the Calendar API: its docs/calendar-api.md answer is recorded like any other.
        ['HEAD', '/calendar/v3/users/me/calendarList', null, 501],
        ['OPTIONS', '/calendar/v3/users/me/calendarList', null, 204],
      ],
    );
  });

  it('keeps a body of 64 KiB; a larger one is its decoded size, even when sent gzipped', async () => {
    const sized = (bytes: number) => {
      const shell = JSON.stringify({ summary: '' });
      return JSON.stringify({ summary: 'x'.repeat(bytes - shell.length) });
    };
    const atLimit = sized(64 * 1024);
    assert.equal(Buffer.byteLength(atLimit), 65_536);
    await api(service.url, token.access_token, 'calendars/primary/events', { method: 'POST', body: JSON.parse(atLimit) });
    assert.deepEqual((await lastEntry(service.url)).body, JSON.parse(atLimit));

    const over = sized(64 * 1024 + 1);
    await api(service.url, token.access_token, 'calendars/primary/events', { method: 'POST', body: JSON.parse(over) });
    assert.deepEqual((await lastEntry(service.url)).body, { truncated: true, bytes: 65_537 });

    const large = sized(300_000);
    await api(service.url, token.access_token, 'calendars/primary/events', { method: 'POST', body: JSON.parse(large), gzip: true });
    assert.deepEqual((await lastEntry(service.url)).body, { truncated: true, bytes: 300_000 });
  });

  it('a JSON body nested past 100 levels is shown truncated rather than kept', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    await call(`${service.url}/calendar/v3/calendars/primary/events`, { method: 'POST', headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' }, body: deep });
    assert.deepEqual((await lastEntry(service.url)).body, { truncated: true, bytes: 10_000 });
    const page = await call(`${service.url}/__svc/requests`);
    assert.equal(page.status, 200);
  });
});
