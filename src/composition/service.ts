// The composition root: one running service from its options, the same for the CLI and for the
// in-process start of src/index.ts. It opens the root's store, builds the root workspace
// (workspace.ts) and the others a database file lists (workspaces.ts), and listens.

import type { AddressInfo } from 'node:net';
import type { App } from '../app/app.ts';
import { baseUrlFor, resolveOptions } from '../config/config.ts';
import type { Options } from '../config/config.ts';
import { timerScheduler } from '../domain/scheduler.ts';
import type { Scheduler } from '../domain/scheduler.ts';
import { parseFixtureText, readFixtureText } from '../fixtures/fixture.ts';
import { silentLogger, stderrLogger } from '../http/log.ts';
import type { Logger } from '../http/log.ts';
import { createHttpServer } from '../http/server.ts';
import type { HttpTimeouts } from '../http/server.ts';
import { openStore } from '../store/open.ts';
import { buildWorkspace } from './workspace.ts';
import type { FixtureSource } from './workspace.ts';
import { Workspaces } from './workspaces.ts';
import type { HostSettings } from './workspaces.ts';

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
  /** Requests the request journal keeps (docs/journal.md; default 10,000, 0 turns it off). */
  journalSize?: number | undefined;
  /** Host values the management API and consent page accept besides the service's own names (`name` or `name:port`). */
  allowedHosts?: readonly string[] | undefined;
  /** One stderr line per answered request (to `log` when one is given). */
  logRequests?: boolean | undefined;
  /** Serve Google's Calendar MCP server at /mcp/v1 (docs/mcp.md; default off). */
  mcp?: boolean | undefined;
  /** Workspaces besides the root (docs/workspaces.md; default 1,000). */
  maxWorkspaces?: number | undefined;
  /** Enforce Google's per-minute usage limits (docs/usage-limits.md; default off), and the limits to enforce. */
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
    maxWorkspaces: startOptions.maxWorkspaces,
    quotas: startOptions.quotas,
    quotaUserPerMinute: startOptions.quotaUserPerMinute,
    quotaProjectPerMinute: startOptions.quotaProjectPerMinute,
  });
  const log = startOptions.log === true ? stderrLogger : startOptions.log ? startOptions.log : silentLogger;
  // The startup fixture is kept as JSON text, not as parsed objects: a reset re-parses it, and a
  // workspace of 100k events does not pay for a second, idle copy of itself in memory.
  const fixture: FixtureSource =
    typeof options.fixture === 'string' ? { text: readFixtureText(options.fixture), name: `fixture file ${options.fixture}` } : { text: JSON.stringify(options.fixture), name: 'the fixture' };
  // Checked before the store opens: an invalid fixture creates no database file.
  const parsed = parseFixtureText(fixture.text, fixture.name);
  const settings: HostSettings = {
    host: options.host,
    allowedHosts: options.allowedHosts,
    journalSize: options.journalSize,
    logRequests: options.logRequests,
    mcp: options.mcp ? (await import('../mcp/routes.ts')).createMcpSurface : undefined,
    quotas: options.quotas ? { userPerMinute: options.quotaUserPerMinute, projectPerMinute: options.quotaProjectPerMinute } : undefined,
    log,
    // Asked for in-process without a logger of its own, the request lines still reach stderr.
    requestLog: log === silentLogger ? stderrLogger : log,
    scheduler: startOptions.scheduler ?? timerScheduler,
    db: options.db,
    maxWorkspaces: options.maxWorkspaces,
    fixture,
    urlFor: (port) => baseUrlFor({ ...options, baseUrl: undefined }, port),
    timeouts: startOptions.httpTimeouts,
  };
  const store = await openStore(options.db);
  let workspaces: Workspaces;
  try {
    const root = buildWorkspace(store, fixture, settings, parsed);
    workspaces = new Workspaces(root, settings);
    await workspaces.reopen();
    // Committed before the Listening line, so a service killed right after it has its workspace.
    await store.durable();
  } catch (error) {
    store.close();
    throw error;
  }
  workspaces.rootSurfaces();
  const { server, stop } = createHttpServer({ route: (path) => workspaces.route(path), log, timeouts: startOptions.httpTimeouts });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await workspaces.close();
    workspaces.root.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  workspaces.listening(baseUrlFor(options, port), port);
  const { app } = workspaces.root;

  let closing: Promise<void> | undefined;
  return {
    url: app.baseUrl,
    app,
    close() {
      // A fault's delay (up to 30 s) would hold an in-flight answer, and so the stop, that long.
      workspaces.root.faults.endDelays();
      closing ??= Promise.all([stop(), workspaces.close()]).then(() => workspaces.root.close());
      return closing;
    },
  };
}
