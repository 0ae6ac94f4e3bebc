// The command line (docs/cli.md): `serve` (the default), `exec` and `token`. Exit codes: 0
// success, 1 a runtime failure, 2 bad options, an invalid startup fixture or a port in use; `exec`
// exits with its command's status.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { OptionError, parseCommandLine, serviceUrlFromEnvironment, URL_VARIABLE, USAGE } from '../config/config.ts';
import type { CliSettings, Options } from '../config/config.ts';
import { FixtureError } from '../fixtures/fixture.ts';
import { exportFixture } from '../fixtures/export.ts';
import { stderrLogger } from '../http/log.ts';
import { oneLine } from '../text/one-line.ts';
import { launch } from '../composition/service.ts';
import type { LaunchedService } from '../composition/service.ts';
import { StoreUnavailableError } from '../store/open.ts';
import { packageVersion } from '../config/version.ts';
import { flushCompileCache } from './compile-cache.ts';

export async function runCli(argv: string[]): Promise<number> {
  if (argv[0] === 'token') {
    const { runTokenCommand } = await import('./token.ts');
    return runTokenCommand(argv.slice(1), serviceUrlFromEnvironment());
  }
  let command;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    return fail(error);
  }
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  let service: LaunchedService;
  try {
    service = await launch({ ...command.options, log: stderrLogger });
  } catch (error) {
    return fail(error, command.options);
  }
  // What the start compiled is written now, before the Listening line, so that a service killed
  // right after it keeps it; a warm start writes nothing.
  flushCompileCache();
  if (command.kind === 'exec') return execute(service, command.cli, command.command);
  // Handlers go in before the Listening line: a supervisor may signal as soon as it reads it.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`${signal} received, shutting down\n`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      shutDown(service, command.cli).then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`Listening on ${service.url}\n`);
  if (!command.cli.quiet) process.stderr.write(banner(service));
  await stopped;
  return 0;
}

/**
 * `exec`: the command runs with the service's URL in its environment and the terminal as its own;
 * the service stops when it ends. A signal sent to this process is passed on to the command, which
 * decides when to end; its status is ours, 128 + the signal's number when a signal killed it.
 */
async function execute(service: LaunchedService, cli: CliSettings, command: string[]): Promise<number> {
  if (!cli.quiet) process.stderr.write(`${URL_VARIABLE}=${service.url} ${command.join(' ')}\n`);
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { stdio: 'inherit', env: { ...process.env, [URL_VARIABLE]: service.url } });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const status = await new Promise<number>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`error: cannot run ${JSON.stringify(file)}: ${(error as NodeJS.ErrnoException).code ?? error.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
  });
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);
  await shutDown(service, cli);
  return status;
}

/** Writes the export when asked (docs/cli.md --export-on-exit), then stops the service. */
async function shutDown(service: LaunchedService, cli: CliSettings): Promise<void> {
  if (cli.exportOnExit !== undefined) {
    try {
      writeFileSync(cli.exportOnExit, `${JSON.stringify(exportFixture(service.app.store), null, 2)}\n`);
      process.stderr.write(`workspace exported to ${cli.exportOnExit}\n`);
    } catch (error) {
      stderrLogger.error(`error: cannot write the export to ${cli.exportOnExit}`, error);
    }
  }
  try {
    await service.close();
  } catch (error) {
    stderrLogger.error('error while shutting down', error);
  }
}

// How this copy is run: the installed package ships JavaScript, a source checkout TypeScript.
const TOKEN_COMMAND = import.meta.url.endsWith('.ts') ? 'npx tsx src/main.ts' : 'npx local-calendar-emulator';

/** What a person needs next (docs/cli.md "Being found"): where to look, whom to sign in as. */
function banner(service: LaunchedService): string {
  const { store } = service.app;
  const users = store.listUsers().map((user) => user.id);
  const lines = [`Inspector:   ${service.url}/__svc/ui`];
  for (const client of store.listClients()) lines.push(`Client:      ${client.id}  redirect URI ${client.redirectUris[0] ?? '(none)'}`);
  lines.push(`Test users:  ${users.length === 0 ? '(none)' : users.join(', ')}`);
  if (users.length > 0) lines.push(`A token:     ${TOKEN_COMMAND} token --url ${service.url} --user ${users[0]} --field access_token`);
  // Ids and URIs come from the fixture: one line each, whatever they hold.
  return `${lines.map(oneLine).join('\n')}\n`;
}

function fail(error: unknown, options?: Options): number {
  if (error instanceof OptionError || error instanceof FixtureError || error instanceof StoreUnavailableError) {
    // One line naming the problem (docs/cli.md). A fixture error names the JSON path and the rule,
    // never a value from the fixture (src/fixtures/fixture.ts), which may hold client secrets.
    process.stderr.write(`error: ${oneLine(error instanceof FixtureError ? `invalid fixture: ${error.message}` : error.message)}\n`);
    return 2;
  }
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE' && options !== undefined) {
    process.stderr.write(`error: port ${options.port} on ${options.host} is already in use; pick another with --port, or --port 0 for a free one\n`);
    return 2;
  }
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    process.stderr.write(`error: cannot listen: ${(error as Error).message}\n`);
    return 1;
  }
  stderrLogger.error('error: failed to start', error);
  return 1;
}
