// The benchmark: starts the service as a separate process on each store this runtime
// has, loads generated workspaces through --fixture, drives the OAuth flow over HTTP for a
// token, and measures every row against a bare node:http server (test/bench/bare.ts) that
// answers a body of the same size, in the same run, on the same runtime.
//
//   npm run bench [-- --quick]
//   node --experimental-strip-types --no-warnings test/bench/run.ts [--quick]   (Node >= 22.13)
//   npx tsx test/bench/run.ts [--quick]                                          (Node 20: memory store only)
//
// --quick shrinks the data ten-fold and the runs to a fraction of a second: it proves the
// benchmark still runs (CI), its figures mean little. --only workspaces runs the workspace rows
// alone (docs/workspaces.md "Cost"), a few minutes instead of the whole run; --only start runs
// the start-up rows alone, --only overhead the rows that compare the service with itself
// (journal on and off, fault rules) (docs/performance.md).

import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { expandScopes, requestToken, DEFAULT_CLIENT } from '../../src/handle/consent.ts';
import { sqliteAvailable } from '../_helpers/node.ts';
import {
  BENCH_USER,
  GET_EVENT_ID,
  SERIES_CALENDAR,
  WEEK_CALENDAR,
  WEEK_SINGLES,
  WINDOW_END,
  WINDOW_START,
  YEAR_END,
  YEAR_START,
  growthWorkspace,
  loadCalendar,
  mainWorkspace,
  rfc3339,
  singleEvents,
  writeFixture,
} from './data.ts';
import { inProcessRows } from './in-process.ts';
import { encodeRequest, runLoad } from './load.ts';
import type { LoadResult, RequestSpec } from './load.ts';
import { packageBuilt, residentBytes, startBare, startService } from './process.ts';
import type { Launch, Running } from './process.ts';

const quick = process.argv.includes('--quick');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg === -1 ? undefined : process.argv[onlyArg + 1];
if (only !== undefined && only !== 'workspaces' && only !== 'start' && only !== 'overhead') throw new Error(`--only takes workspaces, start or overhead, not ${only}`);
const config = quick
  ? { rounds: 3, warmupMs: 50, durationMs: 150, coldStarts: 3, calendars: 10, perCalendar: 1_000, growth: [1_000, 10_000], connections: 8 }
  : { rounds: 3, warmupMs: 500, durationMs: 2_000, coldStarts: 10, calendars: 10, perCalendar: 10_000, growth: [1_000, 10_000, 100_000], connections: 8 };

const DEFAULT_FIXTURE = new URL('../../fixtures/default.json', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'calendar-bench-'));
const backends: Array<'memory' | 'sqlite'> = sqliteAvailable ? ['memory', 'sqlite'] : ['memory'];
let dbCounter = 0;
const dbFor = (backend: 'memory' | 'sqlite'): string => (backend === 'memory' ? ':memory:' : join(work, `bench-${++dbCounter}.db`));

// ---------------------------------------------------------------------------------------------
// Rows and their targets (as ratios to the bare server in the same run).

interface Row {
  name: string;
  backend: string;
  result: string;
  p50?: number;
  p99?: number;
  bare: string;
  ratio?: number;
  target?: { text: string; met: boolean };
}

const rows: Row[] = [];
const notes: string[] = [];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function atLeast(ratio: number, min: number): { text: string; met: boolean } {
  return { text: `>= ${min}`, met: ratio >= min };
}

// ---------------------------------------------------------------------------------------------
// Measuring a row: service and bare alternate, `rounds` times each; medians of each figure.

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  bareRps: number;
  ratio: number;
  bodyBytes: number;
}

/** Another service as a row's baseline, sent its own requests (the same call with its own token). */
interface ServiceBaseline {
  service: Running;
  specs: RequestSpec[];
}

/**
 * `service` against the bare server answering the same body size, or against another service,
 * for a row that measures what one difference between two services costs.
 */
async function compare(service: Running, baseline: Running | ServiceBaseline, specs: RequestSpec[]): Promise<Measured> {
  const serviceRequests = specs.map((spec) => encodeRequest(service.port, spec));
  const runs: LoadResult[] = [];
  const bareRuns: LoadResult[] = [];
  for (let round = 0; round < config.rounds; round++) {
    const run = await runLoad(service.port, serviceRequests, config);
    runs.push(run);
    if ('specs' in baseline) {
      bareRuns.push(await runLoad(baseline.service.port, baseline.specs.map((spec) => encodeRequest(baseline.service.port, spec)), config));
      continue;
    }
    // The same request bytes (method, headers, body) to the bare server, answering the same body size.
    const size = Math.round(run.meanBodyBytes);
    const bareRequests = specs.map((spec) => encodeRequest(baseline.port, { ...spec, path: `/${size}` }));
    bareRuns.push(await runLoad(baseline.port, bareRequests, config));
  }
  const rps = median(runs.map((r) => r.rps));
  const bareRps = median(bareRuns.map((r) => r.rps));
  return {
    rps,
    p50: median(runs.map((r) => r.p50Ms)),
    p99: median(runs.map((r) => r.p99Ms)),
    bareRps,
    ratio: rps / bareRps,
    bodyBytes: median(runs.map((r) => r.meanBodyBytes)),
  };
}

/** `baseline` names what the ratio compares with when it is not the bare server. */
function addLoadRow(name: string, backend: string, m: Measured, target?: { text: string; met: boolean }, baseline?: string): void {
  const row: Row = {
    name: `${name} (${fmt(m.bodyBytes)} B)`,
    backend,
    result: `${fmt(m.rps)} req/s`,
    p50: m.p50,
    p99: m.p99,
    bare: `${baseline === undefined ? '' : `${baseline}: `}${fmt(m.bareRps)} req/s`,
    ratio: m.ratio,
  };
  if (target) row.target = target;
  rows.push(row);
  process.stderr.write(`  ${row.name} [${backend}]: ${row.result}, ${baseline === undefined ? 'bare ' : ''}${row.bare}, ratio ${m.ratio.toFixed(2)}\n`);
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers for setup (not measured).

async function getJson(url: string, token: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The request of every page of a listing: the first without a token, then each nextPageToken. */
async function pageRequests(service: Running, path: string, token: string): Promise<RequestSpec[]> {
  const specs: RequestSpec[] = [];
  let pageToken: string | undefined;
  do {
    const pagePath = pageToken === undefined ? path : `${path}&pageToken=${encodeURIComponent(pageToken)}`;
    specs.push({ method: 'GET', path: pagePath, headers: { Authorization: `Bearer ${token}` } });
    const page = await getJson(service.url + pagePath, token);
    pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined;
  } while (pageToken !== undefined);
  return specs;
}

/** The nextSyncToken at the end of a full listing. */
async function fullSyncToken(service: Running, path: string, token: string): Promise<string> {
  let pageToken: string | undefined;
  for (;;) {
    const page = await getJson(service.url + (pageToken === undefined ? path : `${path}&pageToken=${encodeURIComponent(pageToken)}`), token);
    if (typeof page.nextSyncToken === 'string') return page.nextSyncToken;
    pageToken = String(page.nextPageToken);
  }
}

async function tokensFor(service: Running): Promise<{ access: string; refresh: string }> {
  const answer = await requestToken({ baseUrl: service.url, user: BENCH_USER.id, scopes: expandScopes('calendar'), offline: true });
  if (answer.refresh_token === undefined) throw new Error('the offline grant returned no refresh token');
  return { access: answer.access_token, refresh: answer.refresh_token };
}

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });
const jsonPost = (path: string, token: string, body: unknown): RequestSpec => ({
  method: 'POST',
  path,
  headers: { ...bearer(token), 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const calendarPath = (id: string): string => `/calendar/v3/calendars/${encodeURIComponent(id)}/events`;

// ---------------------------------------------------------------------------------------------
// The rows.

async function coldStart(): Promise<void> {
  process.stderr.write('cold start\n');
  const freshCache = (): Launch => {
    // A first start: a user cache directory (src/cli/compile-cache.ts, package-modules.ts) with nothing in it yet.
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: mkdtempSync(join(work, 'cache-')) };
    delete env['NODE_COMPILE_CACHE'];
    return { env };
  };
  const memory = { db: ':memory:', fixture: DEFAULT_FIXTURE };
  const kinds = [
    ...backends.map((b) => ({ label: b, start: () => startService({ db: dbFor(b), fixture: DEFAULT_FIXTURE }) })),
    { label: 'first', start: () => startService(memory, freshCache()) },
    { label: 'bare', start: () => startBare() },
    ...(packageBuilt()
      ? [
          { label: 'package', start: () => startService(memory, { javascript: true }) },
          { label: 'package first', start: () => startService(memory, { javascript: true, ...freshCache() }) },
          { label: 'bare.js', start: () => startBare({ javascript: true }) },
        ]
      : []),
  ];
  if (!packageBuilt()) notes.push('cold start of the package: dist/ is not built (npm run prepare), row left out');
  // One priming start each: Node's compile cache (src/main.ts) then holds the compiled modules.
  for (const kind of kinds) await (await kind.start()).stop();
  const times = new Map<string, number[]>(kinds.map((k) => [k.label, []]));
  for (let i = 0; i < config.coldStarts; i++) {
    for (const kind of kinds) {
      const running = await kind.start();
      times.get(kind.label)?.push(running.startMs);
      await running.stop();
    }
  }
  const startRow = (name: string, backend: string, label: string, bareLabel: string, target?: number): void => {
    const ms = median(times.get(label) ?? []);
    const bareMs = median(times.get(bareLabel) ?? []);
    const ratio = ms / bareMs;
    rows.push({ name, backend, result: `${fmt(ms)} ms`, bare: `${fmt(bareMs)} ms`, ratio, ...(target === undefined ? {} : { target: { text: `<= ${target} (x bare)`, met: ratio <= target } }) });
    process.stderr.write(`  ${name}, ${backend}: ${fmt(ms)} ms, bare ${fmt(bareMs)} ms\n`);
  };
  for (const backend of backends) {
    startRow('cold start to Listening (default fixture, warm compile cache)', backend === 'sqlite' ? 'sqlite (new file)' : backend, backend, 'bare', 1.3);
  }
  startRow('first start to Listening (default fixture, empty compile cache)', 'memory', 'first', 'bare');
  if (packageBuilt()) {
    startRow('cold start of the package build, dist/ (plain JavaScript, warm cache)', 'memory', 'package', 'bare.js', 1.3);
    startRow('first start of the package build (empty compile and code caches)', 'memory', 'package first', 'bare.js');
  }
}

/**
 * Resident memory after the same number of events arrives through events.insert, as an app under
 * test would write them. Unlike a start-up fixture, this has no transient peak of a parsed fixture
 * of the whole workspace (V8 keeps the heap it grew to), so it shows the steady cost per event.
 */
async function apiLoadedMemoryRow(backend: 'memory' | 'sqlite', emptyFixture: string, events: number): Promise<void> {
  const service = await startService({ db: dbFor(backend), fixture: emptyFixture });
  try {
    const { access } = await tokensFor(service);
    await new Promise((r) => setTimeout(r, 500));
    const emptyRss = residentBytes(service.child.pid);
    if (emptyRss === undefined) return;
    const agent = new Agent({ keepAlive: true, maxSockets: config.connections });
    const { port } = new URL(service.url);
    const insert = (body: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          { agent, port, host: '127.0.0.1', method: 'POST', path: calendarPath(loadCalendar(0)), headers: { ...bearer(access), 'Content-Type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`insert answered ${res.statusCode}`))));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const bodies = singleEvents(events).map((event) => JSON.stringify(event));
    let next = 0;
    await Promise.all(
      Array.from({ length: config.connections }, async () => {
        while (next < bodies.length) await insert(bodies[next++] as string);
      }),
    );
    agent.destroy();
    bodies.length = 0;
    await new Promise((r) => setTimeout(r, 500));
    const loadedRss = residentBytes(service.child.pid);
    if (loadedRss === undefined) return;
    const perEvent = (loadedRss - emptyRss) / events / 1024;
    const row: Row = {
      name: `memory: resident set per event, ${fmt(events)} events inserted through events.insert`,
      backend,
      result: `${perEvent.toFixed(2)} KiB/event`,
      bare: `${fmt(emptyRss / 2 ** 20, 1)} MiB empty, ${fmt(loadedRss / 2 ** 20, 1)} MiB loaded`,
    };
    if (backend === 'memory') row.target = { text: '<= 2 KiB/event', met: perEvent <= 2 };
    rows.push(row);
    process.stderr.write(`  memory (API): ${row.result} (${row.bare})\n`);
  } finally {
    await service.stop();
  }
}

/**
 * The mixed workload of test/hardening/concurrency.test.ts as a throughput row: its floor lived in
 * that test, where a loaded machine failed it. In the test's proportions, per 20 requests: 5
 * inserts, 6 patches (the test's 2 deletes among them: a prebuilt request cannot delete the same
 * event twice), 4 listings of a one-month window, 2 freeBusy queries, 2 calendar lists and 1
 * management listing of connections; interleaved, as 50 clients interleave them there.
 */
function mixedWorkload(access: string): RequestSpec[] {
  // Inserted outside every window read here, and the windows read kept off 2026-11-02, where the
  // events.insert row has put tens of thousands of events into the primary calendar: else the
  // workload's own reads grow with every round (a listing sorting them all, freeBusy refusing
  // the month at its 20,000-instance cap) and the row measures the bench's leftovers.
  const insert = jsonPost(calendarPath('primary'), access, { summary: 'Mixed workload', start: { dateTime: '2027-03-02T09:00:00Z' }, end: { dateTime: '2027-03-02T09:30:00Z' } });
  const patch: RequestSpec = { ...jsonPost(`${calendarPath('primary')}/${GET_EVENT_ID}`, access, { summary: 'Patched by the mixed workload' }), method: 'PATCH' };
  const list: RequestSpec = { method: 'GET', path: `${calendarPath('primary')}?singleEvents=true&timeMin=2026-10-01T00:00:00Z&timeMax=2026-11-01T00:00:00Z&maxResults=50`, headers: bearer(access) };
  const freeBusy = jsonPost('/calendar/v3/freeBusy', access, { timeMin: '2026-10-19T00:00:00Z', timeMax: '2026-11-19T00:00:00Z', items: [{ id: loadCalendar(0) }, { id: loadCalendar(1) }] });
  const calendarList: RequestSpec = { method: 'GET', path: '/calendar/v3/users/me/calendarList', headers: bearer(access) };
  const connections: RequestSpec = { method: 'GET', path: '/__svc/connections' };
  return [
    ...[insert, patch, list, freeBusy, insert, patch, calendarList, list, insert, patch],
    ...[insert, patch, list, freeBusy, insert, patch, calendarList, list, patch, connections],
  ];
}

async function mainRows(bare: Running, backend: 'memory' | 'sqlite', fixtures: { full: string; empty: string }): Promise<void> {
  const events = config.calendars * config.perCalendar;
  process.stderr.write(`${backend}: ${fmt(events)} events in ${config.calendars} calendars + 200 series\n`);
  const empty = await startService({ db: dbFor(backend), fixture: fixtures.empty });
  await new Promise((r) => setTimeout(r, 500));
  const emptyRss = residentBytes(empty.child.pid);
  await empty.stop();

  const service = await startService({ db: dbFor(backend), fixture: fixtures.full });
  // Besides the load calendars: the events.get event, and the series and week calendars.
  const others = 1 + 200 + 200 + WEEK_SINGLES;
  notes.push(`${backend}: starting with ${fmt(events + others)} events in the fixture took ${fmt(service.startMs / 1000, 1)} s`);
  await new Promise((r) => setTimeout(r, 500));
  const loadedRss = residentBytes(service.child.pid);
  if (emptyRss !== undefined && loadedRss !== undefined) {
    const perEvent = (loadedRss - emptyRss) / events / 1024;
    const row: Row = {
      name: `memory: resident set per event, ${fmt(events)} events loaded from a start-up fixture`,
      backend,
      result: `${perEvent.toFixed(2)} KiB/event`,
      bare: `${fmt(emptyRss / 2 ** 20, 1)} MiB empty, ${fmt(loadedRss / 2 ** 20, 1)} MiB loaded`,
    };
    rows.push(row);
    process.stderr.write(`  memory: ${row.result} (${row.bare})\n`);
  } else {
    notes.push('memory rows need /proc/<pid>/status (Linux); skipped');
  }

  await apiLoadedMemoryRow(backend, fixtures.empty, events);

  try {
    const { access, refresh } = await tokensFor(service);
    const get = await compare(service, bare, [{ method: 'GET', path: `${calendarPath('primary')}/${GET_EVENT_ID}`, headers: bearer(access) }]);
    addLoadRow('events.get', backend, get, atLeast(get.ratio, 0.5));

    const listPages = await pageRequests(service, `${calendarPath(loadCalendar(0))}?maxResults=250`, access);
    const list = await compare(service, bare, listPages);
    addLoadRow(`events.list, 250 a page, ${listPages.length} pages of ${fmt(config.perCalendar)} events`, backend, list, atLeast(list.ratio, 0.3));

    const year = `timeMin=${rfc3339(YEAR_START)}&timeMax=${rfc3339(YEAR_END)}`;
    const seriesPages = await pageRequests(service, `${calendarPath(SERIES_CALENDAR)}?singleEvents=true&orderBy=startTime&${year}&maxResults=250`, access);
    addLoadRow(`events.list singleEvents, 1 year of 200 series, ${seriesPages.length} pages`, backend, await compare(service, bare, seriesPages));

    // The call most calendar apps make: a week view, and a sync that finds nothing.
    const weekOf = `200 series + ${fmt(WEEK_SINGLES)} events`;
    const week = `${calendarPath(WEEK_CALENDAR)}?singleEvents=true&orderBy=startTime&timeMin=${rfc3339(WINDOW_START)}&timeMax=${rfc3339(WINDOW_END)}&maxResults=250`;
    const weekView = await compare(service, bare, [{ method: 'GET', path: week, headers: bearer(access) }]);
    addLoadRow(`events.list week view (singleEvents, orderBy=startTime, 250 max), ${weekOf}`, backend, weekView, atLeast(weekView.ratio, 0.2));
    const syncToken = await fullSyncToken(service, `${calendarPath(WEEK_CALENDAR)}?singleEvents=true&maxResults=2500`, access);
    const unchanged: RequestSpec = { method: 'GET', path: `${calendarPath(WEEK_CALENDAR)}?singleEvents=true&syncToken=${encodeURIComponent(syncToken)}`, headers: bearer(access) };
    const sync = await compare(service, bare, [unchanged]);
    addLoadRow(`events.list incremental sync, nothing changed (singleEvents), ${weekOf}`, backend, sync, atLeast(sync.ratio, 0.5));

    const items = Array.from({ length: config.calendars }, (_, k) => ({ id: loadCalendar(k) }));
    const freeBusy = jsonPost('/calendar/v3/freeBusy', access, { timeMin: rfc3339(WINDOW_START), timeMax: rfc3339(WINDOW_END), items });
    const busy = await compare(service, bare, [freeBusy]);
    addLoadRow(`freebusy.query, 1 week, ${config.calendars} calendars of ${fmt(config.perCalendar)} events`, backend, busy, atLeast(busy.ratio, 0.3));

    const newEvent = {
      summary: 'Inserted by the benchmark',
      location: 'Room 2',
      start: { dateTime: '2026-11-02T09:00:00+01:00' },
      end: { dateTime: '2026-11-02T09:30:00+01:00' },
    };
    const insert = await compare(service, bare, [jsonPost(calendarPath('primary'), access, newEvent)]);
    addLoadRow('events.insert', backend, insert, atLeast(insert.ratio, 0.35));

    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret });
    const grant: RequestSpec = { method: 'POST', path: '/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() };
    const refreshed = await compare(service, bare, [grant]);
    addLoadRow('refresh-token grant', backend, refreshed, atLeast(refreshed.ratio, 0.4));

    const mixed = await compare(service, bare, mixedWorkload(access));
    addLoadRow('mixed workload of the concurrency test (writes, listings, freeBusy, calendarList, connections)', backend, mixed, atLeast(mixed.ratio, 0.1));
  } finally {
    await service.stop();
  }
}

/**
 * What the request journal (on by default, docs/journal.md) and 100 fault rules that match nothing
 * (docs/faults.md) cost events.get. Each row compares two services started alike but for
 * that one difference, in alternating rounds like every row: the journal on against
 * `--journal-size 0`, and 100 rules against none (both with the journal on). The ratio is the
 * first's throughput over the second's, so a cost of at most 5 % is a ratio of at least 0.95.
 * The rules name events.get, as the request does, and a calendar it does not read, so each one
 * is examined and none acts.
 */
async function overheadRows(backend: 'memory' | 'sqlite', fixture: string): Promise<void> {
  process.stderr.write(`${backend}: journal and fault-rule overhead\n`);
  const started = [
    await startService({ db: dbFor(backend), fixture }),
    await startService({ db: dbFor(backend), fixture, args: ['--journal-size', '0'] }),
    await startService({ db: dbFor(backend), fixture }),
  ];
  try {
    const [journalOn, journalOff, withRules] = started as [Running, Running, Running];
    for (let i = 0; i < 100; i++) {
      const rule = { match: { method: 'calendar.events.get', calendarId: `elsewhere-${i}@example.com` }, error: 'backendError', times: 0 };
      const res = await fetch(`${withRules.url}/__svc/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
      if (res.status !== 201) throw new Error(`POST /__svc/faults answered ${res.status}: ${await res.text()}`);
    }
    const get = async (service: Running): Promise<RequestSpec[]> => [
      { method: 'GET', path: `${calendarPath('primary')}/${GET_EVENT_ID}`, headers: bearer((await tokensFor(service)).access) },
    ];
    const on = await get(journalOn);
    const journal = await compare(journalOn, { service: journalOff, specs: await get(journalOff) }, on);
    addLoadRow('events.get, request journal on (the default) over --journal-size 0', backend, journal, atLeast(journal.ratio, 0.95), 'journal off');
    const rules = await compare(withRules, { service: journalOn, specs: on }, await get(withRules));
    addLoadRow('events.get, 100 fault rules that do not match over none', backend, rules, atLeast(rules.ratio, 0.95), 'no rules');
  } finally {
    for (const service of started) await service.stop();
  }
}

/**
 * What inviting test users costs events.insert: an insert listing 20 test
 * users as attendees (the event and 20 copies on their calendars, in one transaction) against
 * the same insert without attendees, on one service in alternating rounds. The ratio is the
 * first's throughput over the second's, so "at most 3 x the cost" is a ratio of at least 1/3 (0.33).
 */
async function invitationRow(backend: 'memory' | 'sqlite'): Promise<void> {
  process.stderr.write(`${backend}: events.insert with 20 test-user attendees\n`);
  const invitees = Array.from({ length: 20 }, (_, i) => ({ id: `user-invitee-${i}`, name: `Invitee ${i}`, email: `invitee${i}@example.com` }));
  const small = mainWorkspace(0, 0);
  const users = Array.isArray(small.users) ? small.users : [];
  const fixture = writeFixture(join(work, 'invitations.json'), { ...small, users: [...users, ...invitees] });
  const service = await startService({ db: dbFor(backend), fixture });
  try {
    const { access } = await tokensFor(service);
    const event = { summary: 'Invitation', start: { dateTime: '2026-11-03T09:00:00Z' }, end: { dateTime: '2026-11-03T09:30:00Z' } };
    const plain = jsonPost(calendarPath('primary'), access, event);
    const invited = await compare(service, { service, specs: [plain] }, [jsonPost(calendarPath('primary'), access, { ...event, attendees: invitees.map((u) => ({ email: u.email })) })]);
    addLoadRow('events.insert with 20 test-user attendees over one without', backend, invited, atLeast(invited.ratio, 0.33), 'no attendees');
  } finally {
    await service.stop();
  }
}

/**
 * Cost is measured against the bare server, like every other target: a request's time over the
 * bare server's for the same body, in the same rounds. The rows at 1k and 100k events run
 * minutes apart, and a shared VM's speed drifts more than that between them.
 */
async function growthRows(bare: Running, backend: 'memory' | 'sqlite', fixtures: Map<number, string>): Promise<void> {
  const window = `timeMin=${rfc3339(WINDOW_START)}&timeMax=${rfc3339(WINDOW_END)}`;
  const costs = { list: new Map<number, number>(), freeBusy: new Map<number, number>() };
  const smallest = config.growth[0] as number;
  const largest = config.growth[config.growth.length - 1] as number;
  for (const n of config.growth) {
    process.stderr.write(`${backend}: growth at ${fmt(n)} events\n`);
    const service = await startService({ db: dbFor(backend), fixture: fixtures.get(n) as string });
    try {
      const { access } = await tokensFor(service);
      const specs = {
        list: { method: 'GET', path: `${calendarPath('primary')}?singleEvents=true&orderBy=startTime&${window}`, headers: bearer(access) } satisfies RequestSpec,
        freeBusy: jsonPost('/calendar/v3/freeBusy', access, { timeMin: rfc3339(WINDOW_START), timeMax: rfc3339(WINDOW_END), items: [{ id: 'primary' }] }),
      };
      for (const kind of ['list', 'freeBusy'] as const) {
        const m = await compare(service, bare, [specs[kind]]);
        costs[kind].set(n, 1 / m.ratio);
        const label = kind === 'list' ? 'events.list singleEvents' : 'freebusy.query';
        let target: { text: string; met: boolean } | undefined;
        if (n === largest && n !== smallest) {
          const growth = (costs[kind].get(n) as number) / (costs[kind].get(smallest) as number);
          target = { text: `cost ${growth.toFixed(2)} x at ${fmt(smallest)} (<= 1.5)`, met: growth <= 1.5 };
        }
        addLoadRow(`growth: ${label}, 1-week window, ${fmt(n)} events`, backend, m, target);
      }
    } finally {
      await service.stop();
    }
  }
}

// ---------------------------------------------------------------------------------------------

function printTable(): void {
  const cpu = cpus();
  const lines = [
    `Node ${process.version} (${sqliteAvailable ? 'type stripping' : 'tsx'}), ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${fmt(totalmem() / 2 ** 30, 1)} GiB; ` +
      `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `${quick ? 'QUICK mode (figures not meaningful); ' : ''}${config.connections} keep-alive connections, ${config.rounds} rounds of ${config.durationMs} ms ` +
      `(after ${config.warmupMs} ms warm-up) per row alternating service and bare; medians.`,
    '',
    '| row | store | result | p50 ms | p99 ms | bare node:http | ratio | target |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const target = row.target ? `${row.target.text} ${row.target.met ? 'met' : '**missed**'}` : '';
    lines.push(
      `| ${row.name} | ${row.backend} | ${row.result} | ${row.p50?.toFixed(2) ?? ''} | ${row.p99?.toFixed(2) ?? ''} | ${row.bare} | ${row.ratio?.toFixed(2) ?? ''} | ${target} |`,
    );
  }
  if (!sqliteAvailable) notes.push(`SQLite rows skipped: node:sqlite needs Node >= 22.13 (this is ${process.version})`);
  for (const note of notes) lines.push(`- ${note}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

const loadBefore = loadavg();
// ---------------------------------------------------------------------------------------------
// Workspaces (docs/workspaces.md "Cost"): create, idle memory, a request through a prefix, checkpoints.

async function managementCall(service: Running, method: string, path: string, body?: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(service.url + path, body === undefined ? { method } : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}`);
  return performance.now() - started;
}

async function workspaceRows(backend: 'memory' | 'sqlite', fixture: string, tenThousand: string): Promise<void> {
  process.stderr.write(`${backend}: workspaces\n`);
  const idle = quick ? 100 : 1_000;
  // Quick mode scales 100 workspaces to 1,000, which would scale the costs a service pays once
  // too (SQLite's thread that closes idle connections, docs/workspaces.md "Cost"): the first 40
  // are made before the reading that the rest is measured from.
  const warmUp = quick ? 40 : 0;
  const service = await startService({ db: dbFor(backend), fixture: DEFAULT_FIXTURE, args: ['--max-workspaces', String(warmUp + idle + 10)] });
  try {
    for (let i = 0; i < warmUp; i++) await managementCall(service, 'POST', '/__svc/workspaces', { id: `warm-up-${i}` });
    await new Promise((r) => setTimeout(r, 300));
    const before = residentBytes(service.child.pid);
    const creates: number[] = [];
    for (let i = 0; i < idle; i++) creates.push(await managementCall(service, 'POST', '/__svc/workspaces', { id: `idle-${i}` }));
    const createMs = median(creates);
    rows.push({ name: 'workspace: create from the default fixture (POST /__svc/workspaces, median)', backend, result: `${fmt(createMs, 2)} ms`, bare: '', target: { text: '<= 5 ms', met: createMs <= 5 } });
    await new Promise((r) => setTimeout(r, 300));
    const after = residentBytes(service.child.pid);
    if (before !== undefined && after !== undefined) {
      // Quick mode creates a tenth of them: the figure is scaled to 1,000.
      const perThousand = ((after - before) / idle) * 1_000;
      rows.push({
        name: `workspace: resident set of 1,000 idle default workspaces${quick ? ` (scaled from 100, after ${warmUp})` : ''}`,
        backend,
        result: `${fmt(perThousand / 2 ** 20, 1)} MiB`,
        bare: `${fmt(before / 2 ** 20, 1)} MiB before, ${fmt(after / 2 ** 20, 1)} MiB after`,
        target: { text: '<= 200 MiB', met: perThousand <= 200 * 2 ** 20 },
      });
    }
    process.stderr.write(`  create ${fmt(createMs, 2)} ms\n`);
  } finally {
    await service.stop();
  }

  const prefixed = await startService({ db: dbFor(backend), fixture });
  try {
    await managementCall(prefixed, 'POST', '/__svc/workspaces', { id: 'bench' });
    const rootToken = (await tokensFor(prefixed)).access;
    // The same data in the workspace as at the root: the root's export, loaded as a fixture.
    const exported = await (await fetch(`${prefixed.url}/__svc/fixtures`)).json();
    await managementCall(prefixed, 'POST', '/w/bench/__svc/fixtures', exported);
    const answer = await requestToken({ baseUrl: `${prefixed.url}/w/bench`, user: BENCH_USER.id, scopes: expandScopes('calendar'), offline: true });
    const path = `${calendarPath('primary')}/${GET_EVENT_ID}`;
    const m = await compare(prefixed, { service: prefixed, specs: [{ method: 'GET', path, headers: bearer(rootToken) }] }, [{ method: 'GET', path: `/w/bench${path}`, headers: bearer(answer.access_token) }]);
    addLoadRow('workspace: events.get through /w/{id}/, against the same at the root', backend, m, atLeast(m.ratio, 0.95), 'root');
  } finally {
    await prefixed.stop();
  }

  const large = await startService({ db: dbFor(backend), fixture: tenThousand });
  try {
    const takes: number[] = [];
    const restores: number[] = [];
    for (let i = 0; i < (quick ? 3 : 10); i++) {
      takes.push(await managementCall(large, 'POST', '/__svc/checkpoints', { name: 'bench' }));
      restores.push(await managementCall(large, 'POST', '/__svc/checkpoints/bench/restore'));
    }
    for (const [what, times] of [['take', takes], ['restore', restores]] as const) {
      const ms = median(times);
      rows.push({ name: `workspace: checkpoint ${what}, 10,000 events (median)`, backend, result: `${fmt(ms, 1)} ms`, bare: '', target: { text: '<= 50 ms', met: ms <= 50 } });
      process.stderr.write(`  checkpoint ${what} ${fmt(ms, 1)} ms\n`);
    }
  } finally {
    await large.stop();
  }
}

const began = performance.now();
let bare: Running | undefined;
try {
  // The events.get event with the series and week calendars, no load calendars: three services at once.
  const small = writeFixture(join(work, 'small.json'), mainWorkspace(0, 0));
  if (only === 'start') await coldStart();
  if (only === 'overhead') for (const backend of backends) await overheadRows(backend, small);
  const growth = new Map((only !== undefined ? [10_000] : config.growth).map((n) => [n, writeFixture(join(work, `growth-${n}.json`), growthWorkspace(n))]));
  if (only === undefined) {
    const fixtures = {
      full: writeFixture(join(work, 'main.json'), mainWorkspace(config.calendars, config.perCalendar)),
      empty: writeFixture(join(work, 'empty.json'), mainWorkspace(config.calendars, config.perCalendar, true)),
      small,
    };
    await coldStart();
    const inProcess = await inProcessRows(quick);
    rows.push(...inProcess.rows.map((row) => ({ ...row, bare: '' })));
    notes.push(...inProcess.notes);
    bare = await startBare();
    for (const backend of backends) await mainRows(bare, backend, fixtures);
    for (const backend of backends) await overheadRows(backend, fixtures.small);
    for (const backend of backends) await invitationRow(backend);
    for (const backend of backends) await growthRows(bare, backend, growth);
  }
  if (only === undefined || only === 'workspaces') for (const backend of backends) await workspaceRows(backend, small, growth.get(10_000) as string);
  printTable();
  process.stderr.write(`bench finished in ${fmt((performance.now() - began) / 1000, 1)} s\n`);
} finally {
  await bare?.stop();
  rmSync(work, { recursive: true, force: true });
}
