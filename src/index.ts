// In-process start (docs/cli.md) and the test handle (README "Testing your app"): the same server
// as the CLI, for a test suite that starts one per test file on port 0, driven through the handle.
//
//   import { start } from 'local-calendar-emulator';
//   const service = await start({ port: 0 });
//   const { access_token } = await service.token({ scopes: ['calendar.readonly'] });
//   ... fetch(`${service.url}/calendar/v3/...`) ...
//   await service.close();

import { readFileSync } from 'node:fs';
import { createHandle, firstClient } from './handle/handle.ts';
import type { Handle } from './handle/handle.ts';
import { launch } from './composition/service.ts';
import type { RunningService, StartOptions } from './composition/service.ts';

export { connect } from './handle/handle.ts';
export type { Handle, TokenOptions, WorkspaceHandle, WorkspaceOptions } from './handle/handle.ts';
export { FlowError, ServiceError } from './handle/http.ts';
export type { TokenResponse } from './handle/consent.ts';
export type * from './handle/types.ts';
export type { RunningService, StartOptions };

export async function start(options: StartOptions = {}): Promise<Handle> {
  const { url, close } = await launch(options);
  return createHandle({ url, rootUrl: url, close, startupClient: startupClient(options.fixture) });
}

// token()'s default client is the startup fixture's first one; the default fixture's is the
// consent flow's own default, so only a fixture of the caller's is read for it.
function startupClient(fixture: StartOptions['fixture']): ReturnType<typeof firstClient> {
  if (fixture === undefined) return undefined;
  return firstClient(typeof fixture === 'string' ? JSON.parse(readFileSync(fixture, 'utf8')) : fixture);
}
