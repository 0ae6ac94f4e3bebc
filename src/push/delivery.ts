// Webhook delivery of push notifications (BEHAVIOUR.md §5.2).
//
// - Each message is a POST with an empty body and the X-Goog-* headers, user agent APIs-Google.
// - Order is kept per channel: one request in flight per channel, later messages wait.
// - The API request that caused a message never waits for it: notify() assigns the number,
//   queues, and returns; sending starts on a later turn of the event loop.
// - Each attempt times out (5 s by default). Connection errors, timeouts and 500/502/503/504 are
//   retried with exponential backoff, up to a bounded number of attempts; any other status that
//   is not a success is a failed delivery and not retried (BEHAVIOUR.md §5.2).
// - Before every attempt the channel is read again from the store: a stopped, revoked or expired
//   channel (service clock) delivers nothing more.
// - Every attempt is logged per channel in memory (bounded), for GET /__svc/channels.
// - Message numbers are persisted in the channel record as they are assigned, so numbering goes
//   on after a restart on a database file. Queued messages themselves are not persisted: delivery
//   is best effort, as Google's is.

import type { ClientRequest } from 'node:http';
import type { App } from '../app.ts';
import type { ChannelRecord } from '../store/store.ts';
import { isLive } from './channels.ts';

// Not imported as ES modules, for start-up time (see src/server.ts).
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
const { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule('node:https');

export type ResourceState = 'sync' | 'exists';

export interface DeliveryOptions {
  /** Per attempt, from sending to the response headers. */
  timeoutMs: number;
  /** Attempts per message, the first one included. */
  maxAttempts: number;
  /** Wait before the first retry; doubles for each further one. */
  retryBaseMs: number;
  /** Attempts kept per channel in the delivery log. */
  logLimit: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = { timeoutMs: 5000, maxAttempts: 5, retryBaseMs: 500, logLimit: 100 };

/** One attempt to deliver one message, as GET /__svc/channels shows it (CONTRACT §5). */
export interface DeliveryAttempt {
  messageNumber: number;
  state: ResourceState;
  /** The receiver's HTTP status; null when no response came (connection error or timeout). */
  status: number | null;
  /** When the attempt ended, service clock, RFC 3339. */
  at: string;
  attempt: number;
  /** delivered: a success status; retrying: another attempt follows; failed: given up. */
  outcome: 'delivered' | 'retrying' | 'failed';
  error?: string;
}

interface Message {
  messageNumber: number;
  state: ResourceState;
}

interface ChannelQueue {
  connectionId: string;
  pending: Message[];
  running: boolean;
  closed: boolean;
  log: DeliveryAttempt[];
  /** The in-flight request, aborted when the channel goes. */
  request: ClientRequest | undefined;
  /** Ends a backoff wait early when the channel goes. */
  wake: (() => void) | undefined;
}

// BEHAVIOUR.md §5.2: the receiver's success codes (102 is informational in HTTP/1.1 and never a
// final status, so Node's client cannot report it) and the statuses Google retries.
const SUCCESS = new Set([200, 201, 202, 204]);
const RETRIED = new Set([500, 502, 503, 504]);
const USER_AGENT = 'APIs-Google';

export class Notifier {
  readonly #app: App;
  readonly #options: DeliveryOptions;
  readonly #queues = new Map<string, ChannelQueue>();
  readonly #httpAgent = new HttpAgent({ keepAlive: true });
  readonly #httpsAgent = new HttpsAgent({ keepAlive: true });

  constructor(app: App, options: DeliveryOptions) {
    this.#app = app;
    this.#options = options;
  }

  /**
   * Assigns the channel's next message number (persisted at once) and queues the message.
   * Does nothing for a channel that is gone or expired.
   */
  notify(channelId: string, state: ResourceState): void {
    const { store, clock } = this.#app;
    const channel = store.transaction(() => {
      const current = store.getChannel(channelId);
      if (!current || !isLive(current, clock.now())) return undefined;
      store.putChannel({ ...current, nextMessageNumber: current.nextMessageNumber + 1 });
      return current;
    });
    if (!channel) return;
    const queue = this.#queueOf(channel);
    queue.pending.push({ messageNumber: channel.nextMessageNumber, state });
    if (!queue.running) {
      queue.running = true;
      setImmediate(() => void this.#drain(channel.id, queue));
    }
  }

  /** The delivery log of a channel, oldest attempt first. */
  deliveries(channelId: string): readonly DeliveryAttempt[] {
    return this.#queues.get(channelId)?.log ?? [];
  }

  /** channels.stop: drop the channel's queue, wait and log. */
  forgetChannel(channelId: string): void {
    const queue = this.#queues.get(channelId);
    if (queue) this.#close(channelId, queue);
  }

  /** A revoked connection (or a deleted user's): the store already dropped its channels. */
  forgetConnection(connectionId: string): void {
    for (const [id, queue] of this.#queues) if (queue.connectionId === connectionId) this.#close(id, queue);
  }

  /** Reset or fixture load: every channel is gone. */
  forgetAll(): void {
    for (const [id, queue] of this.#queues) this.#close(id, queue);
  }

  shutdown(): void {
    this.forgetAll();
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }

  #queueOf(channel: ChannelRecord): ChannelQueue {
    let queue = this.#queues.get(channel.id);
    if (!queue) {
      queue = { connectionId: channel.connectionId, pending: [], running: false, closed: false, log: [], request: undefined, wake: undefined };
      this.#queues.set(channel.id, queue);
    }
    return queue;
  }

  #close(channelId: string, queue: ChannelQueue): void {
    queue.closed = true;
    queue.pending = [];
    queue.request?.destroy();
    queue.wake?.();
    this.#queues.delete(channelId);
  }

  async #drain(channelId: string, queue: ChannelQueue): Promise<void> {
    try {
      for (let message = queue.pending.shift(); message && !queue.closed; message = queue.pending.shift()) {
        await this.#deliver(channelId, queue, message);
      }
    } catch (error) {
      this.#app.log.error(`push delivery to channel ${channelId} failed`, error);
      queue.pending = [];
    } finally {
      queue.running = false;
    }
  }

  async #deliver(channelId: string, queue: ChannelQueue, message: Message): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const channel = this.#app.store.getChannel(channelId);
      if (!channel) {
        this.#close(channelId, queue);
        return;
      }
      if (!isLive(channel, this.#app.clock.now())) {
        queue.pending = [];
        return;
      }
      const answer = await this.#post(queue, channel, message);
      if (queue.closed) return;
      const delivered = answer.status !== null && SUCCESS.has(answer.status);
      const retry = !delivered && (answer.status === null || RETRIED.has(answer.status)) && attempt < this.#options.maxAttempts;
      this.#record(queue, {
        messageNumber: message.messageNumber,
        state: message.state,
        status: answer.status,
        at: new Date(this.#app.clock.now()).toISOString(),
        attempt,
        outcome: delivered ? 'delivered' : retry ? 'retrying' : 'failed',
        ...(answer.error === undefined ? {} : { error: answer.error }),
      });
      if (!retry) return;
      await this.#backoff(queue, this.#options.retryBaseMs * 2 ** (attempt - 1));
      if (queue.closed) return;
    }
  }

  #record(queue: ChannelQueue, attempt: DeliveryAttempt): void {
    queue.log.push(attempt);
    if (queue.log.length > this.#options.logLimit) queue.log.splice(0, queue.log.length - this.#options.logLimit);
  }

  #backoff(queue: ChannelQueue, ms: number): Promise<void> {
    return new Promise((resolve) => {
      // Unref'd: a pending retry never keeps a stopping process alive.
      const timer = setTimeout(done, ms);
      timer.unref();
      queue.wake = done;
      function done(): void {
        clearTimeout(timer);
        queue.wake = undefined;
        resolve();
      }
    });
  }

  /** One POST; resolves with the status, or with null and the reason when no response came. */
  #post(queue: ChannelQueue, channel: ChannelRecord, message: Message): Promise<{ status: number | null; error?: string }> {
    const url = new URL(channel.address);
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = {
      'Content-Length': '0',
      'User-Agent': USER_AGENT,
      'X-Goog-Channel-ID': channel.id,
      // RFC 7231 §7.1.1.1 IMF-fixdate (RFC 1123 form), as Google sends it (BEHAVIOUR.md §5.2).
      'X-Goog-Channel-Expiration': new Date(channel.expiration).toUTCString(),
      'X-Goog-Message-Number': String(message.messageNumber),
      'X-Goog-Resource-ID': channel.resourceId,
      'X-Goog-Resource-State': message.state,
      'X-Goog-Resource-URI': channel.resourceUri,
    };
    if (channel.token !== null) headers['X-Goog-Channel-Token'] = channel.token;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (answer: { status: number | null; error?: string }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        queue.request = undefined;
        resolve(answer);
      };
      const send = secure ? httpsRequest : httpRequest;
      const request = send(url, { method: 'POST', headers, agent: secure ? this.#httpsAgent : this.#httpAgent }, (response) => {
        // The body is not read, only drained so the connection can be reused.
        response.resume();
        settle({ status: response.statusCode ?? null });
      });
      const timer = setTimeout(() => request.destroy(new Error(`no response within ${this.#options.timeoutMs} ms`)), this.#options.timeoutMs);
      timer.unref();
      request.on('error', (error) => settle({ status: null, error: error.message }));
      request.on('close', () => settle({ status: null, error: 'connection closed before a response' }));
      queue.request = request;
      request.end();
    });
  }
}
