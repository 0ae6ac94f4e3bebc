// Child processes of the benchmark: the service (src/main.ts) and the bare baseline
// (test/bench/bare.ts), each started on this runtime with the flags this runtime needs for
// TypeScript (type stripping on Node >= 22.13, tsx's loader on Node 20), timed from spawn to
// their "Listening on" line.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeTsArgs } from '../_helpers/node.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const BARE = fileURLToPath(new URL('./bare.ts', import.meta.url));

export interface Running {
  child: ChildProcess;
  port: number;
  url: string;
  /** Milliseconds from spawn() to the Listening line. */
  startMs: number;
  stop(): Promise<void>;
}

async function startListening(args: string[]): Promise<Running> {
  const began = performance.now();
  const child = spawn(process.execPath, [...nodeTsArgs, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const match = /Listening on (\S+)\n/.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${stderr}`)));
  });
  const startMs = performance.now() - began;
  return {
    child,
    url,
    port: Number(new URL(url).port),
    startMs,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The service on `db` seeded from `fixture`; `args` are further command-line options (`--journal-size 0`). */
export function startService(options: { db: string; fixture: string; args?: string[] }): Promise<Running> {
  return startListening([MAIN, '--port', '0', '--db', options.db, '--fixture', options.fixture, ...(options.args ?? [])]);
}

export function startBare(): Promise<Running> {
  return startListening([BARE]);
}

/** Resident set size of a process in bytes (Linux /proc), or undefined elsewhere. */
export function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
