// A keep-alive HTTP/1.1 load generator on node:net: several connections, each sending its next
// request as soon as the previous response is complete (no pipelining). Requests are prebuilt
// byte strings, and a response is parsed only as far as its status line and Content-Length, so
// the generator stays cheap next to the server it measures. It runs in the bench process, never
// in the server's.

import { connect } from 'node:net';
import type { Socket } from 'node:net';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Mean response body size in bytes. */
  meanBodyBytes: number;
}

/** Prebuilds the wire bytes of a request. */
export function encodeRequest(port: number, spec: RequestSpec): Buffer {
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body, 'utf8');
  const lines = [`${spec.method} ${spec.path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(spec.headers ?? {})) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body === undefined ? head : Buffer.concat([head, body]);
}

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

interface Response {
  status: number;
  bodyBytes: number;
  chunks: Buffer[];
}

const bodyText = (response: Response): string => Buffer.concat(response.chunks).toString('utf8');

/**
 * One keep-alive connection: send(request) resolves with the complete response. Errors and a
 * server close reject. Only the header block is searched and decoded; body bytes are counted
 * and kept as chunk references, so a large body costs no copying here.
 */
class Connection {
  readonly #socket: Socket;
  /** Header bytes received so far (the header block may span chunks). */
  #head: Buffer = Buffer.alloc(0);
  #status = 0;
  /** Body bytes still expected; -1 while reading the header block. */
  #remaining = -1;
  #bodyBytes = 0;
  #bodyChunks: Buffer[] = [];
  #waiter: { resolve: (r: Response) => void; reject: (e: Error) => void } | undefined;
  #closedError: Error | undefined;

  constructor(port: number) {
    this.#socket = connect({ port, host: '127.0.0.1', noDelay: true });
    this.#socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    const fail = (error: Error) => {
      this.#closedError = error;
      this.#waiter?.reject(error);
      this.#waiter = undefined;
    };
    this.#socket.on('error', fail);
    this.#socket.on('close', () => fail(new Error('connection closed by the server')));
  }

  send(request: Buffer): Promise<Response> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
      this.#socket.write(request);
    });
  }

  #onData(chunk: Buffer): void {
    let body = chunk;
    if (this.#remaining === -1) {
      const head = this.#head.length === 0 ? chunk : Buffer.concat([this.#head, chunk]);
      const headerEnd = head.indexOf(HEADER_END);
      if (headerEnd === -1) {
        this.#head = head;
        return;
      }
      const text = head.toString('latin1', 0, headerEnd);
      this.#status = Number(text.slice(9, 12));
      this.#remaining = Number(CONTENT_LENGTH.exec(text)?.[1] ?? 0);
      this.#bodyBytes = this.#remaining;
      this.#head = Buffer.alloc(0);
      body = head.subarray(headerEnd + 4);
    }
    // No pipelining: nothing follows the body of the one outstanding response.
    if (body.length > 0) this.#bodyChunks.push(body);
    this.#remaining -= body.length;
    if (this.#remaining > 0) return;
    const response = { status: this.#status, bodyBytes: this.#bodyBytes, chunks: this.#bodyChunks };
    this.#remaining = -1;
    this.#bodyChunks = [];
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve(response);
  }

  close(): void {
    this.#socket.removeAllListeners('close');
    this.#socket.destroy();
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}

/**
 * Runs `connections` loops for `warmupMs` (discarded) then `durationMs` (measured), rotating
 * through `requests`. Any answer outside 2xx aborts the run: a benchmark of error pages would
 * flatter the service.
 */
export async function runLoad(
  port: number,
  requests: readonly Buffer[],
  options: { connections: number; warmupMs: number; durationMs: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let bodyBytes = 0;
  let next = 0;
  let measuring = false;
  let stopped = false;
  let measureStart = 0;
  let measureEnd = 0;
  const loop = async (connection: Connection): Promise<void> => {
    while (!stopped) {
      const request = requests[next++ % requests.length] as Buffer;
      const sent = performance.now();
      const response = await connection.send(request);
      const took = performance.now() - sent;
      if (response.status < 200 || response.status > 299) {
        stopped = true;
        throw new Error(`HTTP ${response.status} during the load run: ${bodyText(response).slice(0, 300)}`);
      }
      if (measuring && !stopped) {
        latencies.push(took);
        bodyBytes += response.bodyBytes;
      }
    }
  };
  const connections = Array.from({ length: options.connections }, () => new Connection(port));
  const loops = connections.map(loop);
  const timer = (async () => {
    await new Promise((r) => setTimeout(r, options.warmupMs));
    measuring = true;
    measureStart = performance.now();
    await new Promise((r) => setTimeout(r, options.durationMs));
    measureEnd = performance.now();
    stopped = true;
  })();
  try {
    await Promise.all([...loops, timer]);
  } finally {
    stopped = true;
    for (const connection of connections) connection.close();
  }
  const seconds = (measureEnd - measureStart) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanBodyBytes: latencies.length === 0 ? 0 : bodyBytes / latencies.length,
  };
}
