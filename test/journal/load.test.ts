// docs/journal.md and SECURITY.md: what any web page can send through the browser (a CORS simple
// request: a text/plain POST, no credentials) cannot stall or exhaust the service through its
// journal. 64 KB bodies of deeply nested and of wide JSON, each answered 401 but journaled, then
// the inspector's read of a thousand entries; ten thousand of them while /__svc/health is polled;
// and a ring filled with 64 KiB bodies that are kept. The service runs as a child process, so
// its resident memory and CPU time are its own. A read's 250 ms is asserted on the CPU time the
// service spent answering it (the event loop is blocked that long at most), which a busy machine
// does not stretch; its wall-clock time gets four times that (it takes 10 to 50 ms when the
// machine is not shared).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startCli } from '../_helpers/cli-process.ts';
import type { ServiceProcess } from '../_helpers/cli-process.ts';

const READ_MS = 250;
const HEALTH_MS = 100;
const MIB = 1024 * 1024;

/** Just under the journal's 64 KiB limit, so the journal reads it rather than keeping its size. */
const DEEP = `${'['.repeat(32_000)}${']'.repeat(32_000)}`;
const WIDE = `[${'[],{},'.repeat(10_666)}[]]`;
const EVENTS = '/calendar/v3/calendars/primary/events';

/** Sends `n` POSTs of `body` with `concurrency` requests in flight over keep-alive connections. */
async function flood(url: string, n: number, body: string, contentType = 'text/plain', concurrency = 8): Promise<void> {
  let sent = 0;
  const worker = async () => {
    while (sent < n) {
      sent++;
      const answer = await fetch(`${url}${EVENTS}`, { method: 'POST', headers: { 'content-type': contentType }, body });
      await answer.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * A GET's status and body and how long the whole answer took to arrive, through node:http: the
 * time fetch takes to decode 16 MiB into a string is the test's, not the service's.
 */
function timedGet(url: string): Promise<{ ms: number; status: number; body: Buffer }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** CPU time (user and system) a process has used, in milliseconds, at the kernel's 100 Hz. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** GET /__svc/requests?limit=1000 by `service`: the page's size and entries; the read's time asserted. */
async function timedRead(url: string, pid: number): Promise<{ bytes: number; entries: number }> {
  const cpuBefore = cpuMs(pid);
  const { ms, status, body } = await timedGet(`${url}/__svc/requests?limit=1000`);
  const cpu = cpuMs(pid) - cpuBefore;
  assert.equal(status, 200);
  assert.ok(cpu < READ_MS && ms < 4 * READ_MS, `read in ${cpu} ms of CPU time, ${ms.toFixed(0)} ms in all`);
  return { bytes: body.length, entries: (JSON.parse(body.toString('utf8')) as { requests: unknown[] }).requests.length };
}

/** VmRSS and VmHWM (its peak) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

describe('the journal under a flood of bodies (docs/journal.md, SECURITY.md)', { skip: process.platform === 'linux' ? false : 'reads /proc', timeout: 120_000 }, () => {
  let service: ServiceProcess;
  before(async () => {
    service = await startCli(':memory:');
  });
  after(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
  });
  const pid = () => service.child.pid as number;
  const clear = () => fetch(`${service.url}/__svc/requests`, { method: 'DELETE' });

  it('a thousand 64 KB deep or wide JSON bodies sent as text/plain: the first page of a thousand is read within 250 ms', async () => {
    for (const body of [DEEP, WIDE]) {
      await clear();
      await flood(service.url, 1_000, body);
      const read = await timedRead(service.url, pid());
      assert.equal(read.entries, 1_000);
      const entry = (await (await fetch(`${service.url}/__svc/requests?limit=1`)).json()) as { requests: Array<{ status: number; body: unknown }> };
      assert.deepEqual(entry.requests.map((e) => [e.status, e.body]), [[401, { truncated: true, bytes: body.length }]]);
    }
  });

  it('a ring of 64 KiB bodies that are kept, of any content type: bounded to 16 MiB, read within 250 ms adding at most 64 MiB', async () => {
    await clear();
    const filler = 'x'.repeat(64 * 1024 - 20);
    const bodies: Array<[string, string]> = [
      ['application/json', JSON.stringify({ summary: filler })],
      ['text/plain', JSON.stringify({ description: filler })],
      ['application/x-www-form-urlencoded', `note=${filler}`],
      ['multipart/form-data; boundary=b', `--b\r\nContent-Disposition: form-data; name="note"\r\n\r\n${filler}\r\n--b--\r\n`],
    ];
    for (const [type, body] of bodies) await flood(service.url, 100, body, type);
    const before = memoryOf(pid());
    const read = await timedRead(service.url, pid());
    const peak = memoryOf(pid()).peak;
    assert.ok(read.entries > 200 && read.entries < 400, `${read.entries} entries of 64 KiB held`);
    assert.ok(read.bytes <= 16 * MIB + 64 * 1024, `a page of ${read.bytes} bytes`);
    assert.ok(peak - before.rss <= 64 * MIB, `reading added ${((peak - before.rss) / MIB).toFixed(0)} MiB`);
  });

  it('ten thousand of them leave /__svc/health answering within 100 ms throughout, and the service under 300 MB', async () => {
    await clear();
    let flooding = true;
    const times: number[] = [];
    let largest = 0;
    const poll = (async () => {
      while (flooding) {
        const health = await timedGet(`${service.url}/__svc/health`);
        assert.equal(health.status, 200);
        times.push(health.ms);
        largest = Math.max(largest, memoryOf(pid()).rss);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    try {
      await flood(service.url, 5_000, DEEP);
      await flood(service.url, 5_000, WIDE);
    } finally {
      flooding = false;
      await poll;
    }
    await timedRead(service.url, pid());
    largest = Math.max(largest, memoryOf(pid()).rss);
    assert.ok(largest < 300 * 1_000_000, `the service's resident memory reached ${(largest / MIB).toFixed(0)} MiB`);
    // On a machine of its own the service answers every poll in a few milliseconds. A shared CI
    // runner (or two cores shared by several test runs) leaves the service without a CPU for
    // longer than that now and then, whatever it does: docs/journal.md's 100 ms holds for nine polls
    // in ten, and none may take ten times as long. A journal that read bodies the old way (tens
    // of milliseconds each, the requests queued behind one another) fails both.
    times.sort((a, b) => a - b);
    const ninth = times[Math.floor(times.length * 0.9)] ?? 0;
    const slowest = times.at(-1) ?? 0;
    assert.ok(times.length > 20, `${times.length} polls`);
    assert.ok(ninth < HEALTH_MS && slowest < 10 * HEALTH_MS, `/__svc/health: 90th percentile ${ninth.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms`);
  });
});
