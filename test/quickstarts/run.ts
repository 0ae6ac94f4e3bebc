// Runs every quickstart of docs/quickstarts.md against a started service, as .ci/run does:
// each program prints its authorization URL, this runner plays the browser on the consent page
// (consent.ts), and the program's output must show the token, the refresh through the service's
// token endpoint, the day's events and the free/busy answer. A client whose libraries are not
// installed is skipped with the reason printed; any other failure exits 1.
//
// Two programs run a second time in a workspace of the same service (docs/workspaces.md), each the way
// its client can reach one by its root URL alone: Python's at the workspace's prefix
// `{base}/w/{id}`, Node's at the workspace's own port (googleapis keeps only the origin of a
// client-wide rootUrl, so it cannot take a prefix).
//
//   node --experimental-strip-types test/quickstarts/run.ts [node|python|go|java|ruby ...]

import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { start } from '../../src/index.ts';
import { approveInBrowser } from './consent.ts';
import { QUICKSTARTS } from './languages.ts';
import type { Command } from './languages.ts';

const FIXTURE = new URL('../../fixtures/quickstarts.json', import.meta.url).pathname;
const TEST_USER = 'user-aiko';

/** What every program prints for the quickstart fixture, line for line. */
const EXPECTED_OUTPUT = [
  'token: scope https://www.googleapis.com/auth/calendar.readonly, refresh token received',
  'refresh: new access token',
  'event: 2026-10-19T10:00:00+09:00 Design review',
  'event: 2026-10-19T14:00:00+09:00 Focus time (shows as free)',
  'busy: 2026-10-19T10:00:00+09:00 to 2026-10-19T11:00:00+09:00',
];

/** How a language's program also reaches a workspace, from a new workspace's create answer. */
const IN_WORKSPACE: Record<string, { where: string; body: object; url: (created: { baseUrl: string; portUrl?: string }) => string | undefined }> = {
  python: { where: 'workspace prefix', body: {}, url: (created) => created.baseUrl },
  node: { where: 'workspace port', body: { port: 0 }, url: (created) => created.portUrl },
};

/** A new workspace (from the startup fixture) for `language`, and the URL its program takes. */
async function workspaceFor(serviceUrl: string, language: string): Promise<string> {
  const how = IN_WORKSPACE[language];
  if (how === undefined) throw new Error(`no workspace run for ${language}`);
  const response = await fetch(`${serviceUrl}/__svc/workspaces`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ id: `quickstart-${language}`, ...how.body }),
  });
  const created = (await response.json()) as { baseUrl: string; portUrl?: string };
  const url = response.status === 201 ? how.url(created) : undefined;
  if (url === undefined) throw new Error(`creating the ${language} workspace answered ${response.status} ${JSON.stringify(created)}`);
  return url;
}

const AUTHORIZATION_URL = /https?:\/\/\S+\/oauth\/authorize\?\S+/;
/** Compiling the Go and Java programs on a fresh machine takes most of this. */
const PROGRAM_TIMEOUT_MS = 240_000;

interface Outcome {
  failure?: string;
  stdout: string;
  stderr: string;
}

async function runQuickstart(command: Command, baseUrl: string): Promise<Outcome> {
  const { argv, cwd, env } = command;
  const [program, ...args] = argv;
  const child = spawn(program, args, { cwd, env: { ...process.env, ...env, CALENDAR_EMULATOR_URL: baseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let failure: string | undefined;
  const fail = (reason: string): void => {
    failure ??= reason;
    child.kill('SIGKILL');
  };
  let consent: Promise<void> | undefined;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const url = AUTHORIZATION_URL.exec(stdout)?.[0];
    if (url !== undefined && consent === undefined) {
      consent = approveInBrowser(url, TEST_USER).catch((error: unknown) => fail(`consent: ${(error as Error).message}`));
    }
  });
  const timer = setTimeout(() => fail(`no exit within ${PROGRAM_TIMEOUT_MS / 1000} s`), PROGRAM_TIMEOUT_MS);
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code }));
  });
  clearTimeout(timer);
  await consent;
  if (failure === undefined) failure = checkOutput(stdout, exit.code, exit.error, consent !== undefined);
  return failure === undefined ? { stdout, stderr } : { failure, stdout, stderr };
}

function checkOutput(stdout: string, code: number | null, error: Error | undefined, consented: boolean): string | undefined {
  if (error) return `could not start: ${error.message}`;
  if (!consented) return 'printed no authorization URL';
  if (code !== 0) return `exit code ${code}`;
  const lines = stdout.split('\n').filter((line) => !AUTHORIZATION_URL.test(line) && line.trim() !== '');
  const missing = EXPECTED_OUTPUT.filter((line) => !lines.includes(line));
  if (missing.length > 0) return `output lacks ${missing.map((line) => JSON.stringify(line)).join(', ')}`;
  const extra = lines.filter((line) => !EXPECTED_OUTPUT.includes(line));
  if (extra.length > 0) return `unexpected output ${extra.map((line) => JSON.stringify(line)).join(', ')}`;
  return undefined;
}

function indent(text: string): string {
  return text.trim().split('\n').slice(-40).map((line) => `    ${line}`).join('\n');
}

async function main(languages: string[]): Promise<number> {
  const unknown = languages.filter((language) => !QUICKSTARTS.some((q) => q.language === language));
  if (unknown.length > 0) {
    console.error(`unknown language ${unknown.join(', ')}; known: ${QUICKSTARTS.map((q) => q.language).join(', ')}`);
    return 2;
  }
  const selected = QUICKSTARTS.filter((q) => languages.length === 0 || languages.includes(q.language));
  const service = await start({ port: 0, fixture: FIXTURE, log: false });
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  try {
    const available = selected.filter((quickstart) => {
      const reason = quickstart.unavailable();
      if (reason !== undefined) console.log(`skip ${quickstart.language}: ${reason}`);
      return reason === undefined;
    });
    skipped += selected.length - available.length;
    // The workspace runs come after every root run: a program's loopback port may stay taken
    // (TIME_WAIT) for a minute after its run; the other languages fill some of that minute, and
    // Python's second run waits until its port can be bound (untilPythonCanBind).
    const runs = [
      ...available.map((quickstart) => ({ quickstart, name: quickstart.language, url: async () => service.url })),
      ...available.flatMap((quickstart) => {
        const inWorkspace = IN_WORKSPACE[quickstart.language];
        return inWorkspace === undefined ? [] : [{ quickstart, name: `${quickstart.language} (${inWorkspace.where})`, url: () => workspaceFor(service.url, quickstart.language) }];
      }),
    ];
    for (const { quickstart, ...target } of runs) {
      const command = quickstart.command();
      if (quickstart.language === 'python') await untilPythonCanBind(PYTHON_REDIRECT_PORT);
      const began = performance.now();
      const outcome = await runQuickstart(command, await target.url());
      const detail = `${((performance.now() - began) / 1000).toFixed(1)} s${command.note === undefined ? '' : `; ${command.note}`}`;
      if (outcome.failure === undefined) {
        console.log(`ok   ${target.name} (${detail})`);
        passed++;
        continue;
      }
      failed++;
      console.log(`FAIL ${target.name} (${detail}): ${outcome.failure}`);
      console.log(`  stdout:\n${indent(outcome.stdout)}\n  stderr:\n${indent(outcome.stderr)}`);
    }
  } finally {
    await service.close();
  }
  console.log(`quickstarts: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed === 0 ? 0 : 1;
}

/** The loopback port of python/quickstart.py's redirect URI (fixtures/quickstarts.json). */
const PYTHON_REDIRECT_PORT = 8085;

/**
 * google-auth-oauthlib's run_local_server binds its port without SO_REUSEADDR ("fail fast if the
 * address is occupied"), so a second run within a minute of the first finds the port held by the
 * first run's closed connections (TIME_WAIT). Waits, at most 90 s, until Python itself can bind it.
 */
async function untilPythonCanBind(port: number): Promise<void> {
  const probe = `import socket\ns = socket.socket()\ns.bind(('127.0.0.1', ${port}))`;
  for (let waited = 0; waited < 90; waited++) {
    const bound = await new Promise<boolean>((resolve) => spawn('/usr/bin/python3', ['-c', probe], { stdio: 'ignore' }).on('exit', (code) => resolve(code === 0)).on('error', () => resolve(true)));
    if (bound) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

process.exitCode = await main(process.argv.slice(2));
