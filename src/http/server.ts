// The node:http handler: reads the request, picks the workspace (docs/workspaces.md) and the surface
// that own the path, routes, runs the handler and writes its Result. Anything not routed answers 501 (docs/calendar-api.md). CORS preflights
// and headers for browser apps (docs/calendar-api.md#browser-apps) are added here, around every surface's answer.
// Every answer written is reported to onAnswered (the request journal, docs/journal.md).

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { corsOrigin, isPreflight, preflightAnswer, withCorsHeaders } from './cors.ts';
import type { Logger } from './log.ts';
import { emptyTrace, framesBody, NO_BODY, readBody, RequestError } from './request.ts';
import type { ApiRequest } from './request.ts';
import { writeResult } from './respond.ts';
import { json } from './result.ts';
import type { Result } from './result.ts';
import type { Surface } from './surface.ts';
import { unroutedError, unsupported } from './unrouted.ts';

// node:http through process.getBuiltinModule rather than an import: importing a built-in as an
// ES module builds a facade of all its exports, and node:http's include lazy getters (WebSocket
// and its events) that load undici, about 30 ms of every start-up.
const { createServer } = process.getBuiltinModule('node:http');

/** One workspace as a listener serves it (src/composition/workspace.ts builds them). */
export interface Site {
  surfaces: Surface[];
  /** The store's pending commit (Store.durable): every answer waits for it, see handle(). */
  durable(): Promise<void> | undefined;
  /**
   * Told of every request once its answer is written (preflights and 501s included; not a
   * request whose client went away unanswered), with the real milliseconds it took. It must
   * not throw.
   */
  onAnswered?(req: ApiRequest, result: Result, durationMs: number): void;
}

/** Where a request goes: the site, the path its surfaces see, and the base URL it is served under. */
export interface Routed {
  site: Site;
  path: string;
  baseUrl: string;
  /** The path prefix stripped from the request's path ('' when none). */
  prefix: string;
}

export interface HttpServerOptions {
  /** The site owning a path (the prefix stripped), or undefined: a workspace that does not exist. */
  route(path: string): Routed | undefined;
  log: Logger;
  /** Default DEFAULT_TIMEOUTS; tests shorten them to prove slow clients are cut off. */
  timeouts?: HttpTimeouts | undefined;
}

/** How long a client may take to send its headers, and its whole request (slowloris defence). */
export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/**
 * Longest request target answered normally; longer ones get 414 in the surface's error shape.
 * (Targets past maxHeaderSize never reach a handler: node:http answers them 431 and closes.)
 */
export const MAX_URL_LENGTH = 16 * 1024;

export interface HttpServer {
  server: Server;
  /**
   * Graceful stop: no new connections, in-flight requests answered, then every connection
   * closed, including keep-alive and preconnected sockets that never sent a request (a browser's),
   * which server.close() alone would wait for forever.
   */
  stop(): Promise<void>;
}

export function createHttpServer(options: HttpServerOptions): HttpServer {
  let inFlight = 0;
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const server = createServer(
    {
      // Slow clients cannot hold a connection open forever (slowloris).
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // node:http enforces both timeouts only when it sweeps its connections (default every 30 s).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs / 2),
      keepAliveTimeout: 5_000,
      maxHeaderSize: 32 * 1024,
    },
    (incoming, res) => {
      inFlight++;
      res.on('close', closed);
      try {
        handle(options, incoming, res)?.catch((error: unknown) => failed(options.log, res, error));
      } catch (error) {
        failed(options.log, res, error);
      }
    },
  );
  const closed = (): void => {
    inFlight--;
  };
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      const sweep = () => {
        if (inFlight === 0) server.closeAllConnections();
        else server.closeIdleConnections();
      };
      sweep();
      const timer = setInterval(sweep, 20);
      server.once('close', () => clearInterval(timer));
    }));
  return { server, stop };
}

/** What answering a request threw, past every surface's own error answer: a bare 500, or a cut connection once the head is out. */
function failed(log: Logger, res: ServerResponse, error: unknown): void {
  log.error('failed to answer a request', error);
  if (!res.headersSent) writeResult(res, { status: 500, headers: {}, body: null });
  else res.destroy();
}

function handle(options: HttpServerOptions, incoming: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  const started = performance.now();
  const url = incoming.url ?? '/';
  const q = url.indexOf('?');
  const routed = options.route(q === -1 ? url : url.slice(0, q));
  if (routed === undefined) {
    incoming.resume();
    writeResult(res, json(404, { error: 'not_found', error_description: 'No workspace with this id: it was never created, or has been deleted.' }));
    return;
  }
  const { site, path } = routed;
  const surface = site.surfaces.find((s) => s.owns(path));
  const search = q === -1 ? '' : url.slice(q + 1);
  const req: ApiRequest = {
    method: effectiveMethod(incoming),
    path,
    query: new URLSearchParams(search),
    search,
    headers: incoming.headers,
    body: NO_BODY,
    baseUrl: routed.baseUrl,
    prefix: routed.prefix,
    localPort: incoming.socket.localPort ?? 0,
    trace: emptyTrace(),
  };
  if (hostHeaders(incoming) > 1) {
    incoming.resume();
    const refused = new RequestError(400, 'badRequest', 'The request carries more than one Host header.');
    answer(site, res, req, surface ? surface.renderError(refused, req) : unroutedError(refused), started);
    return;
  }
  const origin = corsOrigin(req);
  if (origin !== undefined && isPreflight(req)) {
    incoming.resume();
    answer(site, res, req, preflightAnswer(req, origin), started);
    return;
  }
  if (!surface) {
    incoming.resume();
    answer(site, res, req, unsupported(), started);
    return;
  }
  // Most requests are answered within this call; one waits only for its body, an asynchronous
  // handler or a commit, so the common GET costs no promise.
  const exchange: Exchange = { log: options.log, site, surface, req, incoming, res, origin, started };
  let outcome: Result | Promise<Result>;
  try {
    outcome = run(surface, req, incoming);
  } catch (error) {
    return settle(exchange, failure(exchange, error));
  }
  if (!(outcome instanceof Promise)) return settle(exchange, outcome);
  return outcome.then(
    (result) => settle(exchange, result),
    (error: unknown) => settle(exchange, failure(exchange, error)),
  );
}

/** A request a surface answers, and what answering it needs. */
interface Exchange {
  log: Logger;
  site: Site;
  surface: Surface;
  req: ApiRequest;
  incoming: IncomingMessage;
  res: ServerResponse;
  /** The allowed cross-site origin the answer names (cors.ts), if any. */
  origin: string | undefined;
  started: number;
}

/** The answer to what a handler threw; undefined when nobody is left to answer. */
function failure({ surface, req, incoming, res }: Exchange, error: unknown): Result | undefined {
  // The client went away mid-body (a reset, or requestTimeout, which node:http has already
  // answered with 408): nobody is left to answer, and it is no fault of the service.
  if ((error as { code?: string }).code === 'ECONNRESET' && !incoming.complete) {
    res.destroy();
    return undefined;
  }
  return surface.renderError(error, req);
}

/**
 * Writes the answer once the writes it may have seen are durable. Writes commit in groups
 * (Store.durable): a write is acknowledged only once committed, and a read never shows data that
 * a failed commit then drops. A failed commit turns the answer into the surface's 500.
 */
function settle(exchange: Exchange, result: Result | undefined): Promise<void> | undefined {
  if (result === undefined) return undefined;
  const pending = exchange.site.durable();
  if (pending === undefined) {
    finish(exchange, result);
    return undefined;
  }
  return pending.then(
    () => finish(exchange, result),
    (error: unknown) => {
      exchange.log.error('a commit failed', error);
      finish(exchange, exchange.surface.renderError(error, exchange.req));
    },
  );
}

function finish({ site, res, req, incoming, origin, started }: Exchange, result: Result): void {
  let answered = result;
  // Answered before its body arrived (413, 403, 501 ...): close rather than read the rest. (A
  // request without one is answered, within the event that brings it, before node:http marks it
  // complete.)
  if (!incoming.complete && framesBody(incoming)) answered = { ...answered, headers: { ...answered.headers, Connection: 'close' } };
  if (origin !== undefined) answered = withCorsHeaders(answered, origin);
  answer(site, res, req, answered, started, incoming.method === 'HEAD');
}

function answer(site: Site, res: ServerResponse, req: ApiRequest, result: Result, started: number, headOnly = false): void {
  writeResult(res, result, headOnly);
  site.onAnswered?.(req, result, performance.now() - started);
}

function run(surface: Surface, req: ApiRequest, incoming: IncomingMessage): Result | Promise<Result> {
  const refused = surface.admit?.(req);
  if (refused) {
    incoming.resume();
    return refused;
  }
  if ((incoming.url ?? '').length > MAX_URL_LENGTH) {
    incoming.resume();
    throw new RequestError(414, 'uriTooLong', `The request URL is longer than ${MAX_URL_LENGTH} characters.`);
  }
  const match = surface.routes.match(req.method, req.path);
  if (match.kind === 'none') {
    incoming.resume();
    return unsupported();
  }
  const body = readBody(incoming);
  if (Buffer.isBuffer(body)) return match.handler(req, match.params);
  return body.then((read) => {
    req.body = read;
    return match.handler(req, match.params);
  });
}

// RFC 9112 §3.2: a request with more than one Host field is answered 400. node:http keeps the first
// and drops the rest from `headers`, so the raw list is counted: the Host rules of the management
// API and the consent page must judge the one Host the request has, not one of two.
function hostHeaders(incoming: IncomingMessage): number {
  let count = 0;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if ((raw[i] as string).length === 4 && (raw[i] as string).toLowerCase() === 'host') count++;
  return count;
}

// Google's Java client sends PATCH as POST with X-HTTP-Method-Override (docs/quickstarts.md).
function effectiveMethod(incoming: IncomingMessage): string {
  const method = incoming.method ?? 'GET';
  const override = incoming.headers['x-http-method-override'];
  if (method === 'POST' && typeof override === 'string' && override.trim() !== '') return override.trim().toUpperCase();
  return method;
}
