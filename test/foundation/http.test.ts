// HTTP core: the router, the unrouted 501 body, and the query parameters Google's clients add.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../src/http/log.ts';
import { json, jsonText } from '../../src/http/result.ts';
import type { Handler, Surface } from '../../src/http/surface.ts';
import { Router } from '../../src/http/router.ts';
import { writeResult } from '../../src/http/respond.ts';
import { createHttpServer } from '../../src/http/server.ts';
import type { Site } from '../../src/http/server.ts';
import { call, startService } from '../_helpers/service.ts';

const UNSUPPORTED = { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' };

describe('router', () => {
  const router = new Router<string>()
    .add('GET', '/calendar/v3/calendars/:calendarId/events', 'events.list')
    .add('POST', '/calendar/v3/calendars/:calendarId/events/watch', 'events.watch')
    .add('GET', '/calendar/v3/calendars/:calendarId/events/:eventId', 'events.get');

  it('matches method and segments and percent-decodes parameters once', () => {
    const match = router.match('GET', '/calendar/v3/calendars/aiko.tanaka%40example.com/events');
    assert.deepEqual(match, { kind: 'found', handler: 'events.list', params: { calendarId: 'aiko.tanaka@example.com' } });
    const raw = router.match('GET', '/calendar/v3/calendars/aiko.tanaka@example.com/events');
    assert.equal(raw.kind === 'found' && raw.params.calendarId, 'aiko.tanaka@example.com');
    const twice = router.match('GET', '/calendar/v3/calendars/a%2540b/events');
    assert.equal(twice.kind === 'found' && twice.params.calendarId, 'a%40b');
  });

  it('keeps an encoded slash inside its segment', () => {
    const match = router.match('GET', '/calendar/v3/calendars/a%2Fb/events/e1');
    assert.deepEqual(match, { kind: 'found', handler: 'events.get', params: { calendarId: 'a/b', eventId: 'e1' } });
  });

  it('prefers earlier routes, and a method mismatch is no match', () => {
    assert.equal(router.match('POST', '/calendar/v3/calendars/c/events/watch').kind, 'found');
    const get = router.match('GET', '/calendar/v3/calendars/c/events/watch');
    assert.equal(get.kind === 'found' && get.handler, 'events.get');
    assert.equal(router.match('DELETE', '/calendar/v3/calendars/c/events').kind, 'none');
  });

  it('refuses empty segments, malformed escapes and other lengths', () => {
    assert.equal(router.match('GET', '/calendar/v3/calendars//events').kind, 'none');
    assert.equal(router.match('GET', '/calendar/v3/calendars/%E0%A4%A/events').kind, 'none');
    assert.equal(router.match('GET', '/calendar/v3/calendars/c/events/e/x').kind, 'none');
    assert.equal(router.match('GET', '/calendar/v3/calendars/c/events/').kind, 'none');
  });
});

describe('unrouted requests', () => {
  it('answer 501 with docs/calendar-api.md body anywhere', async (t) => {
    const url = await startService(t);
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/favicon.ico'],
      ['POST', '/oauth2/v4/token'],
      ['GET', '/oauth2/v3/userinfo'],
      ['GET', '/calendar/v3/colors'],
      ['POST', '/calendar/v3/calendars'],
      ['POST', '/batch/calendar/v3'],
      ['PUT', '/oauth/token'],
      ['DELETE', '/userinfo'],
    ]) {
      const answer = await call(`${url}${path}`, { method: method as string });
      assert.equal(answer.status, 501, `${method} ${path}`);
      assert.deepEqual(answer.json, UNSUPPORTED);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    }
  });

  it('Google client system parameters never cause an error', async (t) => {
    const url = await startService(t);
    const answer = await call(`${url}/__svc/users?alt=json&prettyPrint=false&fields=users&quotaUser=q&key=abc`);
    assert.equal(answer.status, 200);
  });
});

describe('answers wait for the store commit (group commit, Store.durable)', () => {
  const surface: Surface = {
    name: 'test',
    owns: () => true,
    routes: new Router<Handler>()
      .add('POST', '/write', () => json(200, { written: true }))
      .add('GET', '/parts', () => jsonText(200, [Buffer.from('{"items":['), Buffer.from('1'), Buffer.from(','), Buffer.from('"é"'), Buffer.from(']}')])),
    renderError: () => json(500, { error: 'rendered by the surface' }),
  };

  async function withServer(durable: () => Promise<void> | undefined, fn: (url: string) => Promise<void>, onAnswered?: Site['onAnswered']): Promise<void> {
    const site: Site = { surfaces: [surface], durable, ...(onAnswered ? { onAnswered } : {}) };
    const { server, stop } = createHttpServer({ route: (path) => ({ site, path, baseUrl: '', prefix: '' }), log: silentLogger });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      await stop();
    }
  }

  it('holds the answer until the pending commit lands', async () => {
    let land!: () => void;
    const commit = new Promise<void>((resolve) => (land = resolve));
    let reached!: () => void;
    const waiting = new Promise<void>((resolve) => (reached = resolve));
    // Only the first request, the write, finds a commit pending; the ones after it find none.
    let asked = 0;
    const durable = () => {
      if (asked++ > 0) return undefined;
      reached();
      return commit;
    };
    const answered: string[] = [];
    await withServer(durable, async (url) => {
      const response = fetch(`${url}/write`, { method: 'POST' });
      await waiting;
      // A request that comes after the write is answered while the write still waits.
      assert.equal((await fetch(`${url}/parts`)).status, 200);
      assert.deepEqual(answered, ['/parts'], 'answered before the commit');
      land();
      const res = await response;
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { written: true });
      assert.deepEqual(answered, ['/parts', '/write']);
    }, (req) => answered.push(req.path));
  });

  it('sends a body given as several buffers in order, with their total length', async () => {
    await withServer(() => undefined, async (url) => {
      const res = await fetch(`${url}/parts`);
      assert.equal(res.headers.get('content-length'), String(Buffer.byteLength('{"items":[1,"é"]}')));
      assert.deepEqual(await res.json(), { items: [1, 'é'] });
    });
  });

  it("turns the answer into the surface's error when the commit fails", async () => {
    const failed = Promise.reject(new Error('disk I/O error'));
    failed.catch(() => {});
    await withServer(() => failed, async (url) => {
      const res = await fetch(`${url}/write`, { method: 'POST' });
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), { error: 'rendered by the surface' });
    });
  });
});

describe('answers of one turn of the event loop go out together (src/http/respond.ts)', () => {
  /** A ServerResponse that records what is done to it. */
  const recorder = (log: string[], name: string) =>
    ({
      writeHead: (status: number, headers: Record<string, unknown>) => log.push(`${name} head ${status} ${String(headers['Content-Length'])}`),
      cork: () => undefined,
      uncork: () => undefined,
      write: (part: Buffer) => log.push(`${name} part ${part.toString()}`),
      end: (part?: Buffer) => log.push(`${name} end${part === undefined ? '' : ` ${part.toString()}`}`),
    }) as unknown as ServerResponse;

  it('sets each head at once and ends the responses in order once the turn is over', async () => {
    const log: string[] = [];
    writeResult(recorder(log, 'a'), jsonText(200, '{"a":1}'));
    writeResult(recorder(log, 'b'), { status: 200, headers: {}, body: [Buffer.from('{"b":'), Buffer.from('2}')] });
    writeResult(recorder(log, 'c'), { status: 204, headers: {}, body: null });
    writeResult(recorder(log, 'd'), jsonText(200, '{"d":4}'), true);
    assert.deepEqual(log, ['a head 200 7', 'b head 200 7', 'c head 204 undefined', 'd head 200 7'], 'no body yet');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log.slice(4), ['a end {"a":1}', 'b part {"b":', 'b end 2}', 'c end', 'd end']);
  });

  it('keeps the connection of a request without a body, answered before node:http marks it complete', async (t) => {
    const { port } = new URL(await startService(t));
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    let closed = false;
    let text = '';
    let answered = (): void => undefined;
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.endsWith('}')) answered();
    });
    socket.on('close', () => {
      closed = true;
      answered();
    });
    const answers: string[] = [];
    for (let i = 0; i < 2 && !closed; i++) {
      await new Promise<void>((resolve) => {
        answered = resolve;
        socket.write(`GET /__svc/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      });
      if (text !== '') answers.push(text);
      text = '';
    }
    socket.destroy();
    assert.equal(answers.length, 2, 'both answered on one connection');
    for (const answer of answers) {
      assert.match(answer, /^HTTP\/1\.1 200 /);
      assert.match(answer, /\r\nConnection: keep-alive\r\n/i);
    }
  });

  it('answers pipelined requests on one connection in order', async (t) => {
    const { port } = new URL(await startService(t));
    const socket = connect(Number(port), '127.0.0.1');
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    socket.write(request('/__svc/health') + request('/no/such/path') + request('/__svc/health'));
    let text = '';
    await new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 3 && text.endsWith('}')) resolve();
      });
    });
    socket.destroy();
    assert.deepEqual([...text.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1]), ['200', '501', '200']);
  });
});
