// A headless Chromium driven over the Chrome DevTools Protocol, for the browser tests (consent
// page, cross-origin apps, cross-site attacks). No dependency: Node's global WebSocket
// (Node >= 22) and the Debian chromium package. Every wait is bounded; the browser process is
// killed by close().

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser test cannot run here, or false when it can. */
export const BROWSER_SKIP: string | false =
  typeof (globalThis as { WebSocket?: unknown }).WebSocket !== 'function'
    ? `needs the global WebSocket of Node >= 22 (this is ${process.version})`
    : !existsSync(CHROMIUM)
      ? `needs ${CHROMIUM} (apt-get install chromium)`
      : false;

interface Message {
  id?: number;
  method?: string;
  params?: any;
  result?: any;
  error?: { message: string };
  sessionId?: string;
}

export class Cdp {
  readonly #ws: WebSocket;
  #nextId = 0;
  readonly #pending = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();
  readonly #listeners = new Set<(message: Message) => void>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as Message;
      if (message.id !== undefined) {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) pending?.reject(new Error(`CDP: ${message.error.message}`));
        else pending?.resolve(message.result);
      } else {
        for (const listener of this.#listeners) listener(message);
      }
    });
    ws.addEventListener('close', () => {
      for (const pending of this.#pending.values()) pending.reject(new Error('CDP connection closed'));
      this.#pending.clear();
    });
  }

  static connect(url: string, timeoutMs = 10_000): Promise<Cdp> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const timer = setTimeout(() => reject(new Error(`CDP: no connection to ${url} within ${timeoutMs} ms`)), timeoutMs);
      ws.addEventListener('open', () => {
        clearTimeout(timer);
        resolve(new Cdp(ws));
      });
      ws.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`CDP: cannot connect to ${url}`));
      });
    });
  }

  send(method: string, params: object = {}, sessionId?: string, timeoutMs = 10_000): Promise<any> {
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`CDP: ${method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Calls `listener` with the params of every `method` event of the session until the returned function is called. */
  on(method: string, sessionId: string, listener: (params: any) => void): () => void {
    const filtered = (message: Message) => {
      if (message.method === method && message.sessionId === sessionId) listener(message.params);
    };
    this.#listeners.add(filtered);
    return () => this.#listeners.delete(filtered);
  }

  /** The params of the first `method` event (of the session) that satisfies `test`. Register before acting. */
  waitFor(method: string, sessionId: string, test: (params: any) => boolean = () => true, timeoutMs = 15_000): Promise<any> {
    return new Promise((resolve, reject) => {
      const listener = (message: Message) => {
        if (message.method !== method || message.sessionId !== sessionId || !test(message.params)) return;
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(message.params);
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(new Error(`CDP: no ${method} event within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#listeners.add(listener);
    });
  }

  close(): void {
    this.#ws.close();
  }
}

export interface Browser {
  cdp: Cdp;
  /** A new page target with an attached flat session. */
  newPage(): Promise<string>;
  close(): Promise<void>;
}

export async function launchChromium(timeoutMs = 20_000): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'consent-chromium-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    // Chromium's helper processes (crashpad, renderers) can outlive the killed browser by a moment
    // and still write into the profile: retried, as rmSync does on ENOTEMPTY and EBUSY.
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  };
  let wsUrl: string;
  try {
    wsUrl = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new Error(`chromium printed no DevTools URL within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`chromium exited (${code}): ${stderr}`));
      });
    });
  } catch (error) {
    await kill();
    throw error;
  }
  child.stderr?.resume();
  const cdp = await Cdp.connect(wsUrl).catch(async (error: unknown) => {
    await kill();
    throw error;
  });
  return {
    cdp,
    async newPage() {
      const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
      return sessionId as string;
    },
    async close() {
      cdp.close();
      await kill();
    },
  };
}

/**
 * Chromium for a test against `service` (and any `others`, such as a page server), all closed
 * after the test: the browser first (a server's close() waits for the browser's open
 * connections), and the servers even when the browser's cleanup fails, or the test process
 * would hang on them. Registered before Chromium starts, so a failed launch closes them too.
 */
export async function launchChromiumFor(t: { after(fn: () => unknown): void }, service: Closable, ...others: Closable[]): Promise<Browser> {
  let browser: Browser | undefined;
  t.after(async () => {
    try {
      await browser?.close();
    } finally {
      for (const server of [service, ...others]) await server.close();
    }
  });
  browser = await launchChromium();
  return browser;
}

interface Closable {
  close(): Promise<void>;
}
