// In-process start (CONTRACT §1): the same server as the CLI, for a test suite that starts one
// per test file on port 0.
//
//   import { start } from 'local-calendar-emulator';
//   const service = await start({ port: 0, fixture: { clients: [...], users: [...] } });
//   ... service.url ...
//   await service.close();

import { launch } from './service.ts';
import type { RunningService, StartOptions } from './service.ts';

export type { RunningService, StartOptions };

export async function start(options: StartOptions = {}): Promise<RunningService> {
  const { url, close } = await launch(options);
  return { url, close };
}
