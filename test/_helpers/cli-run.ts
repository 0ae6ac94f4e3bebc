// The CLI as a user runs it: a spawned process of src/main.ts on the runtime the tests run on,
// run to completion or started until its Listening line.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { nodeTsArgs } from './node.ts';

export const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (killed after 20 s). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeTsArgs, MAIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface Serving {
  child: ChildProcess;
  /** The URL of the Listening line. */
  listening: Promise<string>;
  /** Everything written to stderr so far. */
  stderr(): string;
  exited: Promise<{ code: number | null; stdout: string }>;
}

/** Starts the CLI and resolves `listening` at its Listening line. */
export function serveCli(args: string[], env: Record<string, string> = {}): Serving {
  const child = spawn(process.execPath, [...nodeTsArgs, MAIN, ...args], { env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no Listening line; stderr: ${stderr}`));
    }, 20_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = /^Listening on (\S+)\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.on('exit', () => reject(new Error(`exited early; stderr: ${stderr}`)));
  });
  const exited = new Promise<{ code: number | null; stdout: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout })));
  return { child, listening, stderr: () => stderr, exited };
}
