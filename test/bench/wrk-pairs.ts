// The paired wrk method: each row is measured from outside by wrk (1 thread, 16 connections),
// the service and the bare node:http server (bare.ts, answering a body of the same size to the
// same request bytes) alternating in short rounds, and reported as the median of the per-pair
// ratios with their spread. On a shared machine whose speed drifts by a factor of two within
// minutes, a ratio of two rounds a few seconds apart is steadier than either figure alone.
//
//   node --experimental-strip-types --no-warnings test/bench/wrk-pairs.ts [options]
//
//   --store memory|sqlite|both   (default: both where node:sqlite exists)
//   --pairs N                    rounds of each (default 7)
//   --seconds S                  length of a round (default 2)
//   --rows a,b,…                 a subset of: grant, week, sync, get, list, freebusy, insert
//   --per-calendar N             events in each of the 10 freeBusy calendars (default 10,000)
//   --service-args "…"           more flags for the service, e.g. "--journal-size 0" to see what a part costs
//
// Beside throughput, each round reads the server's CPU time from /proc (Linux): the CPU ratio is
// the bare server's CPU time per request over the service's, a figure that other processes on the
// machine disturb less than requests per second. Needs wrk on PATH. Pairs alternate their order (service first, then bare first), so neither
// side always runs on the warmer or the cooler half of a pair.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_CLIENT, expandScopes, requestToken } from '../../src/handle/consent.ts';
import { sqliteAvailable } from '../_helpers/node.ts';
import { BENCH_USER, GET_EVENT_ID, WEEK_CALENDAR, WINDOW_END, WINDOW_START, loadCalendar, mainWorkspace, rfc3339, writeFixture } from './data.ts';
import type { RequestSpec } from './load.ts';
import { startBare, startService } from './process.ts';
import type { Running } from './process.ts';

const run = promisify(execFile);

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

const pairs = Number(option('pairs', '7'));
const seconds = Number(option('seconds', '2'));
const perCalendar = Number(option('per-calendar', '10000'));
const serviceArgs = option('service-args', '').split(' ').filter((arg) => arg !== '');
const storeOption = option('store', sqliteAvailable ? 'both' : 'memory');
const stores = (storeOption === 'both' ? ['memory', 'sqlite'] : [storeOption]) as Array<'memory' | 'sqlite'>;
const ROWS = ['grant', 'week', 'sync', 'get', 'list', 'freebusy', 'insert'] as const;
type RowName = (typeof ROWS)[number];
const wanted = option('rows', ROWS.join(',')).split(',') as RowName[];
/** The floors for the rows that have one (docs/performance.md, "Latest figures"). */
const TARGETS: Partial<Record<RowName, number>> = { grant: 0.45, week: 0.3, sync: 0.6, get: 0.65, list: 0.6, freebusy: 0.3, insert: 0.35 };

const work = mkdtempSync(join(tmpdir(), 'calendar-wrk-'));

/** wrk's Lua setup for a request: method, headers and body (the path is in the URL). */
function luaFor(spec: RequestSpec): string {
  const file = join(work, `request-${Math.random().toString(36).slice(2)}.lua`);
  const lines = [`wrk.method = ${JSON.stringify(spec.method)}`];
  for (const [name, value] of Object.entries(spec.headers ?? {})) lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  if (spec.body !== undefined) lines.push(`wrk.body = ${JSON.stringify(spec.body)}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

interface Round {
  rps: number;
  /** The server's CPU time per request, in microseconds. */
  cpuUs: number;
}

async function wrk(server: Running, url: string, lua: string): Promise<Round> {
  const cpuBefore = cpuSeconds(server.child.pid);
  const { stdout } = await run('wrk', ['-t1', '-c16', `-d${seconds}s`, '-s', lua, url]);
  const cpu = cpuSeconds(server.child.pid) - cpuBefore;
  const failed = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (failed) throw new Error(`${url} answered ${failed[1]} errors:\n${stdout}`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const requests = /(\d+) requests in/.exec(stdout);
  if (!rps || !requests) throw new Error(`no Requests/sec in wrk's output:\n${stdout}`);
  return { rps: Number(rps[1]), cpuUs: (cpu * 1e6) / Number(requests[1]) };
}

async function bodyBytes(service: Running, spec: RequestSpec): Promise<number> {
  const init: RequestInit = { method: spec.method, headers: spec.headers ?? {} };
  if (spec.body !== undefined) init.body = spec.body;
  const res = await fetch(service.url + spec.path, init);
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${spec.method} ${spec.path} answered ${res.status}: ${body.toString('utf8')}`);
  return body.length;
}

const range = (values: number[]): string => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function pairRow(label: string, row: RowName, service: Running, bare: Running, spec: RequestSpec): Promise<void> {
  const size = await bodyBytes(service, spec);
  const serviceLua = luaFor(spec);
  const bareLua = luaFor(spec);
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const rates: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const bareFirst = i % 2 === 1 ? await wrk(bare, `${bare.url}/${size}`, bareLua) : undefined;
    const ours = await wrk(service, service.url + spec.path, serviceLua);
    const theirs = bareFirst ?? (await wrk(bare, `${bare.url}/${size}`, bareLua));
    ratios.push(ours.rps / theirs.rps);
    cpuRatios.push(theirs.cpuUs / ours.cpuUs);
    rates.push(ours.rps);
    cpus.push(ours.cpuUs);
  }
  const target = TARGETS[row];
  const m = median(ratios);
  const verdict = target === undefined ? '' : ` (target >= ${target}: ${m >= target ? 'met' : 'MISSED'})`;
  process.stdout.write(
    `| ${label} (${size.toLocaleString('en-US')} B) | ${median(rates).toFixed(0)} req/s | ${m.toFixed(2)} | ${range(ratios)} | ${median(cpus).toFixed(0)} µs | ${median(cpuRatios).toFixed(2)} (${range(cpuRatios)}) |${verdict}\n`,
  );
}

async function tokens(service: Running): Promise<{ access: string; refresh: string }> {
  const answer = await requestToken({ baseUrl: service.url, user: BENCH_USER.id, scopes: expandScopes('calendar'), offline: true });
  if (answer.refresh_token === undefined) throw new Error('the offline grant returned no refresh token');
  return { access: answer.access_token, refresh: answer.refresh_token };
}

const calendarPath = (id: string): string => `/calendar/v3/calendars/${encodeURIComponent(id)}/events`;

async function syncToken(service: Running, path: string, access: string): Promise<string> {
  let pageToken: string | undefined;
  for (;;) {
    const res = await fetch(service.url + (pageToken === undefined ? path : `${path}&pageToken=${encodeURIComponent(pageToken)}`), { headers: { Authorization: `Bearer ${access}` } });
    const page = (await res.json()) as { nextSyncToken?: string; nextPageToken?: string };
    if (page.nextSyncToken !== undefined) return page.nextSyncToken;
    pageToken = page.nextPageToken;
  }
}

async function specsFor(service: Running): Promise<Record<RowName, RequestSpec>> {
  const { access, refresh } = await tokens(service);
  const auth = { Authorization: `Bearer ${access}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const week = `timeMin=${rfc3339(WINDOW_START)}&timeMax=${rfc3339(WINDOW_END)}`;
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: DEFAULT_CLIENT.id, client_secret: DEFAULT_CLIENT.secret });
  const sync = await syncToken(service, `${calendarPath(WEEK_CALENDAR)}?singleEvents=true&maxResults=2500`, access);
  return {
    grant: { method: 'POST', path: '/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() },
    week: { method: 'GET', path: `${calendarPath(WEEK_CALENDAR)}?singleEvents=true&orderBy=startTime&${week}&maxResults=250`, headers: auth },
    sync: { method: 'GET', path: `${calendarPath(WEEK_CALENDAR)}?singleEvents=true&syncToken=${encodeURIComponent(sync)}`, headers: auth },
    get: { method: 'GET', path: `${calendarPath('primary')}/${GET_EVENT_ID}`, headers: auth },
    // The primary calendar's one event (inserts go to another calendar, so it stays small).
    list: { method: 'GET', path: `${calendarPath('primary')}?maxResults=250`, headers: auth },
    freebusy: {
      method: 'POST',
      path: '/calendar/v3/freeBusy',
      headers: json,
      body: JSON.stringify({ timeMin: rfc3339(WINDOW_START), timeMax: rfc3339(WINDOW_END), items: Array.from({ length: 10 }, (_, k) => ({ id: loadCalendar(k) })) }),
    },
    insert: {
      method: 'POST',
      path: calendarPath(WEEK_CALENDAR),
      headers: json,
      body: JSON.stringify({ summary: 'Inserted by wrk', location: 'Room 2', start: { dateTime: '2026-11-02T09:00:00+01:00' }, end: { dateTime: '2026-11-02T09:30:00+01:00' } }),
    },
  };
}

const LABELS: Record<RowName, string> = {
  grant: 'refresh-token grant',
  week: 'events.list week view, 200 series + 2,000 events',
  sync: 'incremental sync, nothing changed',
  get: 'events.get',
  list: 'events.list, small calendar',
  freebusy: `freebusy.query, 1 week, 10 calendars of ${perCalendar.toLocaleString('en-US')} events`,
  insert: 'events.insert',
};

const bare = await startBare();
try {
  const fixture = writeFixture(join(work, 'main.json'), mainWorkspace(10, perCalendar));
  process.stdout.write(`wrk -t1 -c16, ${pairs} pairs of ${seconds} s rounds, service and bare alternating; median ratio and its range\n`);
  for (const store of stores) {
    const service = await startService({ db: store === 'memory' ? ':memory:' : join(work, 'wrk.db'), fixture, args: serviceArgs });
    try {
      const specs = await specsFor(service);
      process.stdout.write(`\n${store}\n| row | req/s | ratio | spread | CPU/request | CPU ratio (spread) |\n| --- | ---: | ---: | --- | ---: | --- |\n`);
      // Inserts last: they add to the week calendar, which the week view and sync rows read.
      for (const row of ROWS) if (wanted.includes(row)) await pairRow(LABELS[row], row, service, bare, specs[row]);
    } finally {
      await service.stop();
    }
  }
} finally {
  await bare.stop();
  rmSync(work, { recursive: true, force: true });
}
