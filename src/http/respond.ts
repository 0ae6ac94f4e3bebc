// The one place that writes a Result to the wire.

import type { ServerResponse } from 'node:http';
import type { Result } from './result.ts';

export function writeResult(res: ServerResponse, result: Result, headOnly = false): void {
  const body = typeof result.body === 'string' ? Buffer.from(result.body, 'utf8') : result.body;
  const headers: Record<string, string | number> = { ...result.headers };
  if (result.status !== 204 && result.status !== 304) headers['Content-Length'] = body ? body.length : 0;
  res.writeHead(result.status, headers);
  res.end(headOnly || !body || result.status === 204 || result.status === 304 ? undefined : body);
}
