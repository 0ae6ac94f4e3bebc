// Limits: body size, URL length, slow clients, and the work one request
// can cause. Each refusal comes in the error shape of the surface that owns the path, quickly,
// and the service goes on serving. (maxResults caps: test/calendar/events-list.test.ts and
// calendar-list.test.ts; freeBusy's 366 days, 50 calendars and 20,000 instances:
// test/calendar/freebusy.test.ts.)

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import type { Logger } from '../../src/http/log.ts';
import { api } from '../_helpers/calendar.ts';
import { assertWellFormedError, within } from '../_helpers/fuzz.ts';
import type { SurfaceShape } from '../_helpers/fuzz.ts';
import { obtainToken } from '../_helpers/oauth.ts';
import { rawRequest, slowSocket } from '../_helpers/raw-http.ts';
import { call } from '../_helpers/service.ts';

const TIMEOUTS = { headersMs: 300, requestMs: 800 };

describe('limits', () => {
  let service: RunningService;
  let url = '';
  let token = '';
  const internalErrors: string[] = [];
  const log: Logger = { info() {}, error: (message, error) => internalErrors.push(`${message}: ${String(error)}`) };

  before(async () => {
    service = await start({ port: 0, log, httpTimeouts: TIMEOUTS });
    url = service.url;
    token = (await obtainToken(url, { scope: 'calendar' })).access_token;
  });
  after(async () => {
    await service.close();
    assert.deepEqual(internalErrors, [], 'the service logged internal errors');
  });

  const alive = async () => assert.equal((await call(`${url}/__svc/users`)).status, 200, 'the service stopped answering');
  const bearer = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  /** One POST per surface: [path, shape, headers]. */
  const SURFACES: ReadonlyArray<[string, SurfaceShape, () => Record<string, string>]> = [
    ['/calendar/v3/calendars/primary/events', 'google', bearer],
    ['/oauth/token', 'oauth', () => ({ 'content-type': 'application/x-www-form-urlencoded' })],
    ['/__svc/fixtures', 'management', () => ({ 'content-type': 'application/json' })],
  ];

  it('a body over 1 MiB is 413 on every surface, also when it only grows that large by gzip', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)); // 8 MiB of spaces in ~8 KiB
    for (const [path, shape, headers] of SURFACES) {
      const plain = await call(`${url}${path}`, { method: 'POST', headers: headers(), body: big });
      assert.equal(plain.status, 413, `${path}: ${plain.text}`);
      assertWellFormedError(plain, shape, `${path} plain`);
      const gzipped = await call(`${url}${path}`, { method: 'POST', headers: { ...headers(), 'content-encoding': 'gzip' }, body: bomb });
      assert.equal(gzipped.status, 413, `${path} gzip: ${gzipped.text}`);
      assertWellFormedError(gzipped, shape, `${path} gzip`);
    }
    await alive();
  });

  it('a declared Content-Length over 1 MiB is refused at once, before any body arrives', async () => {
    const head = `POST /__svc/fixtures HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`;
    const result = await slowSocket(url, [head], 0, 2000);
    assert.match(result.received, /^HTTP\/1\.1 413 /);
    assert.match(result.received, /"error":"payload_too_large"/);
    // And the connection closes: the service does not sit reading 64 MiB it will throw away.
    assert.ok(result.elapsedMs < 500, `closed only after ${Math.round(result.elapsedMs)} ms`);
  });

  it('a chunked body that grows past 1 MiB is 413, and the connection closes', async () => {
    const head = `POST /__svc/fixtures HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = `${(64 * 1024).toString(16)}\r\n${' '.repeat(64 * 1024)}\r\n`;
    const result = await slowSocket(url, [head, ...Array.from({ length: 40 }, () => chunk), '0\r\n\r\n'], 1, 5000);
    assert.match(result.received, /^HTTP\/1\.1 413 /);
    assert.match(result.received, /"error":"payload_too_large"/);
    assert.match(result.received, /\r\nConnection: close\r\n/i);
    assert.ok(result.elapsedMs < 4000, `closed only after ${Math.round(result.elapsedMs)} ms`);
    await alive();
  });

  it('a URL over 16 KiB is 414 in the surface\'s error shape; one past the header limit is 431 and the service goes on', async () => {
    const long = 'x'.repeat(17 * 1024);
    const cases: ReadonlyArray<[string, SurfaceShape, Record<string, string>]> = [
      [`/calendar/v3/users/me/calendarList?q=${long}`, 'google', { authorization: `Bearer ${token}` }],
      [`/oauth/authorize?state=${long}`, 'oauth', {}],
      [`/__svc/users?x=${long}`, 'management', {}],
    ];
    for (const [path, shape, headers] of cases) {
      const answer = await call(`${url}${path}`, { headers });
      assert.equal(answer.status, 414, `${path.slice(0, 40)}: ${answer.text}`);
      assertWellFormedError(answer, shape, path.slice(0, 40));
    }
    const huge = await rawRequest(url, `/__svc/users?x=${'y'.repeat(40 * 1024)}`);
    assert.equal(huge.status, 431);
    // Just under the limit is an ordinary request.
    const fine = await call(`${url}/__svc/users?x=${'z'.repeat(15 * 1024)}`);
    assert.equal(fine.status, 200);
  });

  it('a client that never finishes its headers is cut off with 408 (headersTimeout)', async () => {
    const started = performance.now();
    // One header line every 100 ms, forever: each is progress, yet the headers never end.
    const lines = ['GET /__svc/users HTTP/1.1\r\nHost: 127.0.0.1\r\n', ...Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
    const result = await slowSocket(url, lines, 100, 5000);
    assert.match(result.received, /^HTTP\/1\.1 408 /, `got ${JSON.stringify(result.received.slice(0, 80))} after ${Math.round(result.elapsedMs)} ms`);
    assert.ok(performance.now() - started < 3000, `cut off only after ${Math.round(performance.now() - started)} ms`);
    await alive();
  });

  it('a client that trickles its body is cut off (requestTimeout), and nothing is written', async () => {
    const before = (await call(`${url}/__svc/users`)).text;
    const body = JSON.stringify({ clients: [], users: [{ id: 'slow', name: 'Slow', email: 'slow@example.com' }] });
    const head = `POST /__svc/fixtures HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const chunks = [head, ...body.match(/.{1,4}/g)!];
    const result = await slowSocket(url, chunks, 100, 5000);
    assert.ok(result.elapsedMs < 3000, `cut off only after ${Math.round(result.elapsedMs)} ms`);
    assert.doesNotMatch(result.received, /^HTTP\/1\.1 200 /);
    assert.equal((await call(`${url}/__svc/users`)).text, before, 'the trickled fixture was loaded');
  });

  describe('the work one request can cause', () => {
    const EVENTS = 'calendars/primary/events';
    // Valid, but no period ever holds a second candidate: without a cap, expanding it walks every
    // second until year 9999.
    const NEVER = 'RRULE:FREQ=SECONDLY;BYSECOND=0;BYSETPOS=2;UNTIL=99991231T000000Z';
    // Valid and unbounded: two days a year qualify, and BYSETPOS then rejects each one-second period.
    const RARE = 'RRULE:FREQ=SECONDLY;INTERVAL=7;BYYEARDAY=100,200;BYSECOND=0;BYSETPOS=2,-2';
    const timed = (recurrence: string[]) => ({
      start: { dateTime: '2026-10-31T01:30:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-10-31T02:00:00', timeZone: 'America/New_York' },
      recurrence,
    });
    const quick = <T>(label: string, p: Promise<T>) => within(2000, label, p);

    it('a rule that cannot be bounded within the expansion step budget is a 400 at insert, not a stall, and nothing is stored', async () => {
      const before = (await api(url, token, `${EVENTS}?showDeleted=true`)).text;
      const answer = await quick('insert', api(url, token, EVENTS, { method: 'POST', body: timed([NEVER]) }));
      assert.equal(answer.status, 400, answer.text);
      assertWellFormedError(answer, 'google', 'insert');
      assert.match(answer.json.error.message, /steps to expand/);
      assert.equal((await api(url, token, `${EVENTS}?showDeleted=true`)).text, before);
    });

    it('the same rule in a fixture is 400 invalid_fixture naming the event\'s recurrence', async () => {
      const fixture = { clients: [], users: [{ id: 'u', name: 'U', email: 'u@example.com', calendars: [{ primary: true, events: [timed([NEVER])] }] }] };
      const answer = await quick('fixture', call(`${url}/__svc/fixtures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fixture) }));
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.json.error, 'invalid_fixture');
      assert.match(answer.json.error_description, /^users\[0\]\.calendars\[0\]\.events\[0\]\.recurrence/);
    });

    it('series whose expansion over a window would take too long: one shared budget per request, then a 400', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const created = await api(url, token, EVENTS, { method: 'POST', body: timed([RARE]) });
        assert.equal(created.status, 200, created.text);
        ids.push(created.json.id);
      }
      // A narrow window is cheap and fine.
      const year = await quick('one year', api(url, token, `${EVENTS}?singleEvents=true&timeMin=2027-01-01T00:00:00Z&timeMax=2028-01-01T00:00:00Z`));
      assert.equal(year.status, 200, year.text);
      assert.equal(year.json.items.filter((e: { recurringEventId?: string }) => ids.includes(e.recurringEventId ?? '')).length, 0);
      // A century of five such series: the five share one budget, so this fails as fast as one would.
      for (const [label, path, init] of [
        ['list', `${EVENTS}?singleEvents=true&timeMin=2026-01-01T00:00:00Z&timeMax=2126-01-01T00:00:00Z`, {}],
        ['instances', `${EVENTS}/${ids[0]}/instances`, {}],
        ['freeBusy', 'freeBusy', { method: 'POST', body: { timeMin: '2026-11-01T00:00:00Z', timeMax: '2027-11-01T00:00:00Z', items: [{ id: 'primary' }] } }],
      ] as const) {
        const started = performance.now();
        const answer = await quick(label, api(url, token, path, init));
        if (answer.status === 200) continue; // freeBusy's year may fit the budget; it must then simply answer
        assertWellFormedError(answer, 'google', label);
        assert.match(answer.json.error.message, /steps to expand/, label);
        assert.ok(performance.now() - started < 1500, `${label} took ${Math.round(performance.now() - started)} ms`);
      }
      for (const id of ids) assert.equal((await api(url, token, `${EVENTS}/${id}`, { method: 'DELETE' })).status, 204);
    });

    it('an instance id deep into a COUNT series is a 400 rather than counting a hundred million seconds', async () => {
      const created = await api(url, token, EVENTS, { method: 'POST', body: timed(['RRULE:FREQ=SECONDLY;COUNT=100000000']) });
      assert.equal(created.status, 200, created.text);
      const answer = await quick('get instance', api(url, token, `${EVENTS}/${created.json.id}_20280101T000000Z`));
      assert.equal(answer.status, 400, answer.text);
      assertWellFormedError(answer, 'google', 'get instance');
      const near = await quick('near instance', api(url, token, `${EVENTS}/${created.json.id}_20261031T053010Z`));
      assert.equal(near.status, 200, near.text);
      assert.equal((await api(url, token, `${EVENTS}/${created.json.id}`, { method: 'DELETE' })).status, 204);
    });
  });
});
