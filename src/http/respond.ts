// The one place that writes a Result to the wire.

import type { ServerResponse } from 'node:http';
import type { Result } from './result.ts';

export function writeResult(res: ServerResponse, result: Result, headOnly = false): void {
  const body = typeof result.body === 'string' ? Buffer.from(result.body, 'utf8') : result.body;
  const parts: readonly Buffer[] = body === null ? [] : Buffer.isBuffer(body) ? [body] : body;
  const headers: Record<string, string | number> = { ...result.headers };
  if (result.status !== 204 && result.status !== 304) headers['Content-Length'] = parts.reduce((n, part) => n + part.length, 0);
  res.writeHead(result.status, headers);
  if (headOnly || result.status === 204 || result.status === 304 || parts.length === 0) {
    res.end();
    return;
  }
  // Parts go out as they are, gathered into one writev by the cork: a 185 kB page of cached
  // renderings is not copied into a fresh buffer first (that copy, and the garbage collections
  // its large allocations set off, cost more than the write).
  res.cork();
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
  res.end(parts[parts.length - 1]);
  res.uncork();
}
