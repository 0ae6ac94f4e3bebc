// In-process start (CONTRACT §1): the same server as the CLI, for a test suite that starts one
// per test file on port 0.
//
//   import { start } from 'local-calendar-emulator';   (or './src/index.ts' in a vendored checkout)
//   const service = await start({ port: 0, fixture: { clients: [...], users: [...] } });
//   ... service.url ...
//   await service.close();

import type { AddressInfo } from 'node:net';
import { App } from './app.ts';
import { createRenderCache } from './calendar/list-items.ts';
import { CALENDAR_ROUTES, createCalendarSurface } from './calendar/routes.ts';
import { createWindowCache } from './calendar/window-cache.ts';
import { baseUrlFor, resolveOptions } from './config.ts';
import type { Options } from './config.ts';
import { FaultRules } from './faults/rules.ts';
import { Clock } from './domain/clock.ts';
import { timerScheduler } from './domain/scheduler.ts';
import type { Scheduler } from './domain/scheduler.ts';
import { parseFixtureText, readFixtureText } from './fixtures.ts';
import type { Fixture } from './fixtures.ts';
import { silentLogger, stderrLogger } from './http/log.ts';
import type { Logger } from './http/log.ts';
import { Journal } from './journal/journal.ts';
import { createManagementSurface } from './management/routes.ts';
import { createBearerCache } from './oauth/bearer.ts';
import { createOAuthSurface } from './oauth/routes.ts';
import { startPush } from './push/service.ts';
import { createHttpServer } from './server.ts';
import type { HttpTimeouts } from './server.ts';
import { openStore } from './store/open.ts';

export interface StartOptions {
  host?: string | undefined;
  port?: number | undefined;
  db?: string | undefined;
  /** A fixture file path or a fixture object; default fixtures/default.json. */
  fixture?: string | object | undefined;
  baseUrl?: string | undefined;
  /** Log to stderr (default true for the CLI, false in-process). */
  log?: boolean | Logger | undefined;
  /** Slow-client timeouts; only tests shorten them (the CLI has no option for this). */
  httpTimeouts?: HttpTimeouts | undefined;
  /** Timers of webhook retries and attempt timeouts; only tests pass their own, to drive them. */
  scheduler?: Scheduler | undefined;
  /** Requests the request journal keeps (CONTRACT §9; default 10,000, 0 turns it off). */
  journalSize?: number | undefined;
}

export interface RunningService {
  /** The base URL, e.g. http://127.0.0.1:53211 */
  url: string;
  /** Stops accepting, finishes in-flight requests, closes the store. */
  close(): Promise<void>;
}

const SEEDED = 'seeded';

export async function start(startOptions: StartOptions = {}): Promise<RunningService> {
  const options: Options = resolveOptions({
    host: startOptions.host,
    port: startOptions.port,
    db: startOptions.db,
    fixture: startOptions.fixture,
    baseUrl: startOptions.baseUrl,
    journalSize: startOptions.journalSize,
  });
  const log = startOptions.log === true ? stderrLogger : startOptions.log ? startOptions.log : silentLogger;
  // The startup fixture is kept as JSON text, not as parsed objects: a reset re-parses it, and a
  // workspace of 100k events does not pay for a second, idle copy of itself in memory.
  const fixtureSource =
    typeof options.fixture === 'string' ? { text: readFixtureText(options.fixture), name: `fixture file ${options.fixture}` } : { text: JSON.stringify(options.fixture), name: 'the fixture' };
  const fixture: Fixture = parseFixtureText(fixtureSource.text, fixtureSource.name);
  const store = await openStore(options.db);
  const clock = new Clock();
  const app = new App({ store, clock, log, startupFixture: () => parseFixtureText(fixtureSource.text, fixtureSource.name), host: options.host });
  // The one Notifier of this App (startPush subscribes it to the App's events), for the watch
  // methods and GET /__svc/channels.
  // The fault rules (CONTRACT §8) every surface and the notifier consult; reset and fixture load delete them.
  const faults = new FaultRules(CALENDAR_ROUTES.map((route) => route.operation));
  app.onWorkspaceReplaced(() => faults.clear());
  const notifier = startPush(app, startOptions.scheduler ?? timerScheduler, {}, faults);
  try {
    // The startup fixture seeds only a new database (or a :memory: session): an existing file keeps its data.
    seedNewWorkspace(app, fixture);
    // Committed before the Listening line, so a service killed right after it has its workspace.
    await store.durable();
  } catch (error) {
    store.close();
    throw error;
  }

  // One cache of authentications for both surfaces that take bearer tokens.
  const bearers = createBearerCache(app);
  const caches = { renders: createRenderCache(app), windows: createWindowCache(app) };
  const journal = new Journal(options.journalSize, clock, log);
  app.onWorkspaceReplaced(() => journal.clear());
  const surfaces = [createManagementSurface(app, { notifier, journal, faults, caches }), createOAuthSurface(app, bearers, faults), createCalendarSurface(app, bearers, caches, notifier, faults)];
  const { server, stop } = createHttpServer({
    surfaces,
    log,
    baseUrl: () => app.baseUrl,
    durable: () => app.store.durable(),
    timeouts: startOptions.httpTimeouts,
    onAnswered: (req, result, durationMs) => journal.record(req, result, durationMs),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  app.port = port;
  app.baseUrl = baseUrlFor(options, port);

  let closing: Promise<void> | undefined;
  return {
    url: app.baseUrl,
    close() {
      // A fault's delay (up to 30 s) would hold an in-flight answer, and so the stop, that long.
      faults.endDelays();
      closing ??= stop().then(() => {
        app.shutdown();
        store.close();
      });
      return closing;
    },
  };
}

// A module-level function on purpose: a closure inside start() would keep the parsed fixture
// (every event of it) alive for as long as the service runs.
function seedNewWorkspace(app: App, fixture: Fixture): void {
  if (app.store.getMeta(SEEDED) !== undefined) return;
  app.store.transaction(() => {
    app.loadFixture(fixture);
    app.store.setMeta(SEEDED, new Date(app.clock.now()).toISOString());
  });
}
