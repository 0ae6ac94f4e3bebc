// The real CLI in a child process, for the crash, shutdown and concurrency tests: started on
// port 0 with a database file, ready once it prints its Listening line.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeTsArgs } from './node.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'cal-hardening-')), 'calendar.db');
}

export async function startCli(db: string, extraArgs: string[] = []): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...nodeTsArgs, MAIN, '--port', '0', '--db', db, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no Listening line within 20 s; stderr: ${stderr}`));
    }, 20_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const match = /^Listening on (\S+)\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before listening; stderr: ${stderr}`));
    });
  });
  return { url, child, stderr: () => stderr, exited };
}

/** PRAGMA integrity_check of a database file, opened directly (not through the service). */
export async function integrityCheck(path: string): Promise<string> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(path);
  try {
    return String(db.prepare('PRAGMA integrity_check').get()?.['integrity_check']);
  } finally {
    db.close();
  }
}

/** The database file's bytes and, when present, its WAL's. */
export function databaseBytes(path: string): Buffer {
  const parts = [readFileSync(path)];
  if (existsSync(`${path}-wal`)) parts.push(readFileSync(`${path}-wal`));
  return Buffer.concat(parts);
}
