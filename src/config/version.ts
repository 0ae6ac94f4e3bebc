// The service's version: package.json's, read once. `--version` prints it and GET /__svc/health
// (docs/journal.md#health) reports it.

import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}
