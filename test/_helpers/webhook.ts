// A webhook receiver for push-notification tests: an HTTP server on 127.0.0.1, port 0, that
// records every request and answers 200, or another status for the next N requests, or not at
// all (to test timeouts). attemptsSettled() waits, on the service's ManualScheduler, until every
// message sent has been answered, so "nothing more arrives" can be checked without sleeping.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_DELIVERY_OPTIONS } from '../../src/push/delivery.ts';
import type { ManualScheduler } from './manual-time.ts';

export interface ReceivedHook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered with; null when it did not answer. */
  answered: number | null;
}

export interface WebhookReceiver {
  /** The receiver's base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  received: ReceivedHook[];
  /** Answer `status` (default 500) to the next `count` requests, then 200 again. */
  failNext(count: number, status?: number): void;
  /** Leave the next `count` requests without an answer (they stay open until close). */
  hangNext(count: number): void;
  /** Requests whose path is `path`, in arrival order. */
  at(path: string): ReceivedHook[];
  /** Resolves once `count` requests to `path` have arrived; rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

export async function startWebhook(t: { after(fn: () => unknown): void }): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const waiters: Array<() => void> = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let hangs = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let answered: number | null = 200;
      if (hangs > 0) {
        hangs--;
        answered = null;
      } else if (failures.count > 0) {
        failures.count--;
        answered = failures.status;
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      if (answered !== null) {
        res.statusCode = answered;
        res.end();
      }
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const at = (path: string): ReceivedHook[] => received.filter((hook) => hook.path === path);
  const receiver: WebhookReceiver = {
    url,
    received,
    failNext(count, status = 500) {
      failures = { count, status };
    },
    hangNext(count) {
      hangs = count;
    },
    at,
    async waitFor(path, count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (at(path).length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`webhook ${path}: expected ${count} requests, got ${at(path).length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return at(path);
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  t.after(() => receiver.close());
  return receiver;
}

/**
 * Resolves once no webhook attempt of a notifier on `scheduler` is in flight: each attempt holds its
 * timeout task (src/push/webhook-request.ts) until its answer or error comes, and its log entry is
 * written on that same turn. A message queued before the call has been sent and answered by then.
 */
export function attemptsSettled(scheduler: ManualScheduler, timeoutMs = DEFAULT_DELIVERY_OPTIONS.timeoutMs): Promise<void> {
  return scheduler.until(() => scheduler.waiting(timeoutMs) === 0, 'every webhook attempt answered');
}
