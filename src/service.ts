// The composition root: one running service from its options, the same for the CLI and for the
// in-process start of src/index.ts. It opens the store, builds the App, push, the fault rules, the
// request journal and the three surfaces, and listens.

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
import { requestLine, silentLogger, stderrLogger } from './http/log.ts';
import type { Logger } from './http/log.ts';
import { Journal } from './journal/journal.ts';
import { createManagementSurface } from './management/routes.ts';
import { createMcpSurface } from './mcp/routes.ts';
import { MCP_OPERATIONS } from './mcp/tools.ts';
import { createBearerCache } from './oauth/bearer.ts';
import { createOAuthSurface } from './oauth/routes.ts';
import { startPush } from './push/service.ts';
import { createHttpServer } from './server.ts';
import type { HttpTimeouts } from './server.ts';
import { openStore } from './store/open.ts';
import { Usage } from './usage/usage.ts';

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
  /** Host values the management API and consent page accept besides the service's own names (`name` or `name:port`). */
  allowedHosts?: readonly string[] | undefined;
  /** One stderr line per answered request (to `log` when one is given). */
  logRequests?: boolean | undefined;
  /** Serve Google's Calendar MCP server at /mcp/v1 (CONTRACT §17; default off). */
  mcp?: boolean | undefined;
  /** Enforce Google's per-minute usage limits (CONTRACT §18; default off), and the limits to enforce. */
  quotas?: boolean | undefined;
  quotaUserPerMinute?: number | undefined;
  quotaProjectPerMinute?: number | undefined;
}

export interface RunningService {
  /** The base URL, e.g. http://127.0.0.1:53211 */
  url: string;
  /** Stops accepting, finishes in-flight requests, closes the store. */
  close(): Promise<void>;
}

/** What the CLI reads of a service it started: its workspace, for the banner. */
export interface LaunchedService extends RunningService {
  app: App;
}

const SEEDED = 'seeded';

export async function launch(startOptions: StartOptions = {}): Promise<LaunchedService> {
  const options: Options = resolveOptions({
    host: startOptions.host,
    port: startOptions.port,
    db: startOptions.db,
    fixture: startOptions.fixture,
    baseUrl: startOptions.baseUrl,
    journalSize: startOptions.journalSize,
    allowedHosts: startOptions.allowedHosts,
    logRequests: startOptions.logRequests,
    mcp: startOptions.mcp,
    quotas: startOptions.quotas,
    quotaUserPerMinute: startOptions.quotaUserPerMinute,
    quotaProjectPerMinute: startOptions.quotaProjectPerMinute,
  });
  const log = startOptions.log === true ? stderrLogger : startOptions.log ? startOptions.log : silentLogger;
  // Asked for in-process without a logger of its own, the request lines still reach stderr.
  const requestLog = log === silentLogger ? stderrLogger : log;
  // The startup fixture is kept as JSON text, not as parsed objects: a reset re-parses it, and a
  // workspace of 100k events does not pay for a second, idle copy of itself in memory.
  const fixtureSource =
    typeof options.fixture === 'string' ? { text: readFixtureText(options.fixture), name: `fixture file ${options.fixture}` } : { text: JSON.stringify(options.fixture), name: 'the fixture' };
  const fixture: Fixture = parseFixtureText(fixtureSource.text, fixtureSource.name);
  const store = await openStore(options.db);
  const clock = new Clock();
  const app = new App({ store, clock, log, startupFixture: () => parseFixtureText(fixtureSource.text, fixtureSource.name), host: options.host, allowedHosts: options.allowedHosts });
  // The one Notifier of this App (startPush subscribes it to the App's events), for the watch
  // methods and GET /__svc/channels.
  // The fault rules (CONTRACT §8) every surface and the notifier consult; reset and fixture load delete them.
  const faults = new FaultRules([...CALENDAR_ROUTES.map((route) => route.operation), ...MCP_OPERATIONS]);
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
  const usage = new Usage(clock, options.quotas ? { userPerMinute: options.quotaUserPerMinute, projectPerMinute: options.quotaProjectPerMinute } : undefined);
  app.onWorkspaceReplaced(() => usage.clear());
  const surfaces = [createManagementSurface(app, { notifier, journal, faults, caches, usage }), createOAuthSurface(app, bearers, faults), createCalendarSurface(app, bearers, caches, notifier, faults, usage)];
  if (options.mcp) surfaces.push(createMcpSurface(app, bearers, caches, notifier, faults, usage));
  const { server, stop } = createHttpServer({
    surfaces,
    log,
    baseUrl: () => app.baseUrl,
    durable: () => app.store.durable(),
    timeouts: startOptions.httpTimeouts,
    onAnswered: options.logRequests
      ? (req, result, durationMs) => {
          journal.record(req, result, durationMs);
          requestLog.info(requestLine(req, result.status, durationMs, clock.now()));
        }
      : (req, result, durationMs) => journal.record(req, result, durationMs),
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
    app,
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
