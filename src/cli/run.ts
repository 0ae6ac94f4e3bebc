// The command line: `serve` (the default) and `token`. Exit codes: 0 success, 1 runtime failure
// (such as a port in use), 2 bad options or an invalid startup fixture.

import { OptionError, parseCommandLine, USAGE } from '../config.ts';
import { FixtureError } from '../fixtures.ts';
import { stderrLogger } from '../http/log.ts';
import { start } from '../index.ts';
import { oneLine } from '../one-line.ts';
import { StoreUnavailableError } from '../store/open.ts';
import { packageVersion } from '../version.ts';

export async function runCli(argv: string[]): Promise<number> {
  if (argv[0] === 'token') {
    const { runTokenCommand } = await import('./token.ts');
    return runTokenCommand(argv.slice(1));
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
  let service;
  try {
    service = await start({ ...command.options, baseUrl: command.options.baseUrl, log: stderrLogger });
  } catch (error) {
    return fail(error);
  }
  // Handlers go in before the Listening line: a supervisor may signal as soon as it reads it.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`${signal} received, shutting down\n`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      service.close().then(resolve, (error: unknown) => {
        stderrLogger.error('error while shutting down', error);
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`Listening on ${service.url}\n`);
  await stopped;
  return 0;
}

function fail(error: unknown): number {
  if (error instanceof OptionError || error instanceof FixtureError || error instanceof StoreUnavailableError) {
    // One line naming the problem (CONTRACT §1). A fixture error names the JSON path and the rule,
    // never a value from the fixture (fixtures.ts), which may hold client secrets.
    process.stderr.write(`error: ${oneLine(error instanceof FixtureError ? `invalid fixture: ${error.message}` : error.message)}\n`);
    return 2;
  }
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    process.stderr.write(`error: cannot listen: ${(error as Error).message}\n`);
    return 1;
  }
  stderrLogger.error('error: failed to start', error);
  return 1;
}
