// HTTP below fetch, for the hardening tests: any Host header and header bytes (node:http), and
// raw sockets that send a request byte by byte or stall half-way (node:net).

import { request } from 'node:http';
import { connect } from 'node:net';
import type { Answer } from './service.ts';

export interface RawInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request with exactly the headers given (Host included), on a fresh connection. Rejects
 * only when node:http itself refuses the header bytes (ERR_INVALID_CHAR and friends) or the
 * connection fails.
 */
export function rawRequest(url: string, path: string, init: RawInit = {}): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, method: init.method ?? 'GET', path, headers: init.headers ?? {}, agent: false, setHost: !init.headers || !Object.keys(init.headers).some((h) => h.toLowerCase() === 'host') },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

export interface SocketResult {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Milliseconds from connect to close. */
  elapsedMs: number;
}

/**
 * Opens a TCP connection, writes `chunks` with `gapMs` between them, and resolves when the server
 * closes the connection (or after `giveUpMs`, with what it sent so far).
 */
export function slowSocket(url: string, chunks: readonly (string | Buffer)[], gapMs: number, giveUpMs: number): Promise<SocketResult> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(target.port), target.hostname);
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ received, elapsedMs: performance.now() - started });
    };
    const giveUp = setTimeout(finish, giveUpMs);
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (received += data));
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish() : reject(error)));
    socket.on('connect', () => {
      let i = 0;
      const next = () => {
        if (i >= chunks.length || socket.destroyed) return;
        socket.write(chunks[i++] as string | Buffer);
        timer = setTimeout(next, gapMs);
      };
      next();
    });
  });
}
