// Child processes of the benchmark: the service and the bare baseline (test/bench/bare.ts), timed
// from spawn to their "Listening on" line. Each runs either from source, with the flags this
// runtime needs for TypeScript (type stripping on Node >= 22.13, tsx's loader on Node 20), or as
// plain JavaScript: the package's build in dist/ (.ci/build-package.ts) and bare.ts
// transpiled alike, so both sides of a row start the same way.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { nodeTsArgs } from '../_helpers/node.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** The package's bin as `npm pack` ships it; present once `npm install` (its `prepare`) has run. */
export const PACKAGE_MAIN = join(ROOT, 'dist', 'main.js');
const BARE = fileURLToPath(new URL('./bare.ts', import.meta.url));
let bareJs: string | undefined;

/** How a child starts: from TypeScript source (the default) or plain JavaScript; `env` replaces the environment. */
export interface Launch {
  javascript?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface Running {
  child: ChildProcess;
  port: number;
  url: string;
  /** Milliseconds from spawn() to the Listening line. */
  startMs: number;
  stop(): Promise<void>;
}

async function startListening(args: string[], launch: Launch = {}): Promise<Running> {
  const began = performance.now();
  const child = spawn(process.execPath, [...(launch.javascript ? [] : nodeTsArgs), ...args], { cwd: ROOT, env: launch.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
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
export function startService(options: { db: string; fixture: string; args?: string[] }, launch: Launch = {}): Promise<Running> {
  return startListening([launch.javascript ? PACKAGE_MAIN : MAIN, '--port', '0', '--db', options.db, '--fixture', options.fixture, ...(options.args ?? [])], launch);
}

export function startBare(launch: Launch = {}): Promise<Running> {
  if (launch.javascript && bareJs === undefined) {
    bareJs = join(mkdtempSync(join(tmpdir(), 'calendar-bench-bare-')), 'bare.mjs');
    const { outputText } = ts.transpileModule(readFileSync(BARE, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ESNext } });
    writeFileSync(bareJs, outputText);
  }
  return startListening([launch.javascript ? (bareJs as string) : BARE], launch);
}

/** Whether the package's build is there to start (`npm run prepare` makes it). */
export const packageBuilt = (): boolean => existsSync(PACKAGE_MAIN);

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
