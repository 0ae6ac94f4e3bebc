// One workspace's composition: a whole service but the listener. The store it is given, then the
// App with its own clock, the fault rules, push, the request journal, the checkpoints, the caches
// and the three surfaces. The root and every workspace of docs/workspaces.md are built here alike, so a
// request runs the same code whatever its workspace; the host (service.ts) only decides which
// composition a request reaches and under which base URL.

import { App } from '../app/app.ts';
import { createRenderCache } from '../calendar/events/list-items.ts';
import { CALENDAR_ROUTES, createCalendarSurface } from '../calendar/routes.ts';
import { createWindowCache } from '../calendar/window-cache.ts';
import { Clock } from '../domain/clock.ts';
import type { Scheduler } from '../domain/scheduler.ts';
import { FaultRules } from '../faults/rules.ts';
import { parseFixtureText } from '../fixtures/fixture.ts';
import type { Fixture } from '../fixtures/fixture.ts';
import { requestLine } from '../http/log.ts';
import type { Logger } from '../http/log.ts';
import { Journal } from '../journal/journal.ts';
import { Checkpoints } from '../management/checkpoints.ts';
import { createManagementSurface } from '../management/routes.ts';
import type { createMcpSurface } from '../mcp/routes.ts';
import { MCP_OPERATIONS } from '../mcp/tools.ts';
import { createBearerCache } from '../oauth/bearer.ts';
import { createOAuthSurface } from '../oauth/routes.ts';
import type { Notifier } from '../push/delivery.ts';
import { startPush } from '../push/service.ts';
import type { Site } from '../http/server.ts';
import type { Store } from '../store/store.ts';
import { Usage } from '../usage/usage.ts';
import type { UsageLimits } from '../usage/usage.ts';

/** A fixture as JSON text: a reset parses it anew, so no idle parsed copy stays in memory. */
export interface FixtureSource {
  text: string;
  /** How errors name it: `fixture file x.json`, `the fixture`. */
  name: string;
}

/** What every workspace of one service shares. */
export interface WorkspaceSettings {
  /** The configured --host and --allowed-hosts, for the Host checks. */
  host: string;
  allowedHosts: readonly string[];
  journalSize: number;
  /** A stderr line per answered request, to `requestLog`. */
  logRequests: boolean;
  /**
   * With --mcp, what serves Google's Calendar MCP server at /mcp/v1 (docs/mcp.md); loaded by
   * the host only then, so a service without it loads none of its modules.
   */
  mcp: typeof createMcpSurface | undefined;
  /** Google's per-minute usage limits to enforce (docs/usage-limits.md), or undefined: counted, not enforced. */
  quotas: UsageLimits | undefined;
  log: Logger;
  requestLog: Logger;
  scheduler: Scheduler;
}

export interface Workspace extends Site {
  readonly app: App;
  readonly journal: Journal;
  readonly faults: FaultRules;
  readonly notifier: Notifier;
  readonly checkpoints: Checkpoints;
  /** The fixture a reset returns to. */
  readonly fixture: FixtureSource;
  /** Real time of the last answered request, or undefined. */
  readonly lastRequestAt: number | undefined;
  /** Ends delays and deliveries and closes the store; in-flight answers are the listener's business. */
  close(): void;
}

const SEEDED = 'seeded';

/**
 * Builds a workspace on `store`, seeding it from `fixture` when the store is new (an existing
 * database file keeps its data). The base URL and port are set by the host once known.
 * `parsed`: the fixture's text already parsed by the caller, so that a new store is seeded
 * without parsing it again.
 */
export function buildWorkspace(store: Store, fixture: FixtureSource, settings: WorkspaceSettings, parsed?: Fixture): Workspace {
  const { log } = settings;
  const clock = new Clock();
  const app = new App({ store, clock, log, startupFixture: () => parseFixtureText(fixture.text, fixture.name), host: settings.host, allowedHosts: settings.allowedHosts });
  // The fault rules (docs/faults.md) every surface and the notifier consult; reset and fixture load delete them.
  const faults = new FaultRules([...CALENDAR_ROUTES.map((route) => route.operation), ...MCP_OPERATIONS]);
  app.onFixtureLoaded(() => faults.clear());
  // The one Notifier of this App (startPush subscribes it to the App's events), for the watch
  // methods and GET /__svc/channels.
  const notifier = startPush(app, settings.scheduler, {}, faults);
  try {
    seedNewStore(app, fixture, parsed);
  } catch (error) {
    app.shutdown();
    throw error;
  }
  // One cache of authentications for both surfaces that take bearer tokens.
  const bearers = createBearerCache(app);
  const caches = { renders: createRenderCache(app), windows: createWindowCache(app) };
  const journal = new Journal(settings.journalSize, clock, log);
  app.onFixtureLoaded(() => journal.clear());
  const checkpoints = new Checkpoints(app);
  // Each workspace counts its own apps' requests; the counts are not data, so a restore keeps them.
  const usage = new Usage(clock, settings.quotas);
  app.onFixtureLoaded(() => usage.clear());
  const surfaces = [
    createManagementSurface(app, { notifier, journal, faults, caches, checkpoints, usage }),
    createOAuthSurface(app, bearers, faults),
    createCalendarSurface(app, bearers, caches, notifier, faults, usage),
  ];
  if (settings.mcp) surfaces.push(settings.mcp(app, bearers, caches, notifier, faults, usage));
  let lastRequestAt: number | undefined;
  return {
    app,
    journal,
    faults,
    notifier,
    checkpoints,
    fixture,
    surfaces,
    get lastRequestAt() {
      return lastRequestAt;
    },
    durable: () => store.durable(),
    onAnswered(req, result, durationMs) {
      lastRequestAt = Date.now();
      journal.record(req, result, durationMs);
      if (settings.logRequests) settings.requestLog.info(requestLine(req, result.status, durationMs, clock.now()));
    },
    close() {
      // A fault's delay (up to 30 s) would hold an in-flight answer that long.
      faults.endDelays();
      app.shutdown();
      store.close();
    },
  };
}

// A module-level function on purpose: a closure inside buildWorkspace would keep the parsed
// fixture (every event of it) alive for as long as the workspace lives.
function seedNewStore(app: App, source: FixtureSource, parsed: Fixture | undefined): void {
  if (app.store.getMeta(SEEDED) !== undefined) return;
  const fixture: Fixture = parsed ?? parseFixtureText(source.text, source.name);
  app.store.transaction(() => {
    app.loadFixture(fixture);
    app.store.setMeta(SEEDED, new Date(app.clock.now()).toISOString());
  });
}
