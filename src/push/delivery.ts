// Scheduling webhook delivery of push notifications (https://developers.google.com/workspace/calendar/api/guides/push); one POST is
// src/push/webhook-request.ts's.
//
// - Order is kept per channel: one request in flight per channel, later messages wait.
// - Requests in flight are bounded service-wide (MAX_DELIVERIES_IN_FLIGHT): 2,000 channels and a
//   burst of writes must not open thousands of sockets at once and starve the API's own answers.
//   Channels with a message ready wait for a free slot in arrival order, and a channel that sent
//   one message goes to the back of that line, so a busy channel cannot hold the others up.
//   A retry's backoff wait holds no slot.
// - The API request that caused a message never waits for it: notify() assigns the number,
//   queues, and returns; sending starts on a later turn of the event loop.
// - Each attempt times out (5 s by default). The timeout and the backoff wait run on the injected
//   Scheduler (src/domain/scheduler.ts), so tests drive them instead of waiting.
// - Connection errors, timeouts and 500/502/503/504 are retried with exponential backoff, up to a
//   bounded number of attempts; any other status that is not a success is a failed delivery and
//   not retried (https://developers.google.com/workspace/calendar/api/guides/push).
// - Before every attempt the channel is read again from the store: a stopped, revoked or expired
//   channel (service clock) delivers nothing more.
// - Nothing is dropped silently: a message beyond a channel's bounded queue (a receiver that stays
//   slow while writes keep coming) is logged as `dropped`, as every attempt is logged.
// - Every attempt is logged per channel in memory, for GET /__svc/channels: the newest
//   `logLimit` entries. Logs of channels that are stopped or expired on the service clock are
//   purged at least once a minute of that clock (and before every listing), so they never pile up.
// - Fault rules on push.delivery (docs/faults.md) act on every attempt (src/push/delivery-faults.ts):
//   a dropped message, a recorded status that runs the retries below, a duplicate.
// - Message numbers are persisted in the channel record as they are assigned, so numbering goes
//   on after a restart on a database file. Queued messages themselves are not persisted: delivery
//   is best effort, as Google's is.

import type { App } from '../app/app.ts';
import type { Cancel, Scheduler } from '../domain/scheduler.ts';
import { FaultRules } from '../faults/rules.ts';
import type { ChannelRecord } from '../store/store.ts';
import { isLive } from './channels.ts';
import { postWithFaults } from './delivery-faults.ts';
import { WebhookClient } from './webhook-request.ts';
import type { Message, ResourceState, WebhookAnswer } from './webhook-request.ts';

export type { ResourceState } from './webhook-request.ts';

export interface DeliveryOptions {
  /** Per attempt, from sending to the response headers. */
  timeoutMs: number;
  /** Attempts per message, the first one included. */
  maxAttempts: number;
  /** Wait before the first retry; doubles for each further one. */
  retryBaseMs: number;
  /** Attempts kept per channel in the delivery log. */
  logLimit: number;
  /** Webhook requests in flight at once, service-wide. */
  maxInFlight: number;
  /** Messages waiting per channel; one more is logged as dropped instead. */
  pendingLimit: number;
}

/**
 * Webhook requests in flight at once, across all channels. Enough to keep many slow receivers
 * busy; few enough that sockets and callbacks of deliveries never crowd out API requests.
 */
export const MAX_DELIVERIES_IN_FLIGHT = 32;

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  timeoutMs: 5000,
  maxAttempts: 5,
  retryBaseMs: 500,
  logLimit: 100,
  maxInFlight: MAX_DELIVERIES_IN_FLIGHT,
  pendingLimit: 1000,
};

/** Service-clock interval between purges of the logs of stopped and expired channels. */
const PURGE_INTERVAL_MS = 60_000;

/** One attempt to deliver one message, as GET /__svc/channels shows it (docs/management-api.md). */
export interface DeliveryAttempt {
  messageNumber: number;
  state: ResourceState;
  /** The receiver's HTTP status; null when no response came (connection error or timeout). */
  status: number | null;
  /** When the attempt ended, service clock, RFC 3339. */
  at: string;
  /** 1 for the first attempt; 0 for a message dropped before any. */
  attempt: number;
  /** delivered: a success status; retrying: another attempt follows; failed: given up; dropped: the channel's queue was full, or a fault rule dropped it. */
  outcome: 'delivered' | 'retrying' | 'failed' | 'dropped';
  error?: string;
  /** The fault rule that acted on the attempt (docs/faults.md). */
  fault?: string;
}

interface ChannelQueue {
  channelId: string;
  connectionId: string;
  /** pending[0] is the message being sent or retried. */
  pending: Message[];
  /** Attempts made so far at pending[0]. */
  attempts: number;
  /** idle: nothing to send; ready: waiting for a slot; sending: a request in flight; backoff: waiting to retry. */
  state: 'idle' | 'ready' | 'sending' | 'backoff';
  closed: boolean;
  log: DeliveryAttempt[];
  /** Aborts the in-flight request when the channel goes. */
  abort: AbortController | undefined;
  /** Cancels the pending retry of pending[0]. */
  cancelBackoff: Cancel | undefined;
}

// https://developers.google.com/workspace/calendar/api/guides/push: the receiver's success codes (102 is informational in HTTP/1.1 and never a
// final status, so Node's client cannot report it) and the statuses Google retries.
const SUCCESS = new Set([200, 201, 202, 204]);
const RETRIED = new Set([500, 502, 503, 504]);

export class Notifier {
  readonly #app: App;
  readonly #options: DeliveryOptions;
  readonly #scheduler: Scheduler;
  readonly #client: WebhookClient;
  readonly #faults: FaultRules;
  readonly #queues = new Map<string, ChannelQueue>();
  /** Channels with a message ready to send, in the order they will get a slot. */
  readonly #ready = new Set<ChannelQueue>();
  #inFlight = 0;
  #pumpScheduled = false;
  #lastPurge: number;

  /** `faults`: the service's fault rules, of which those on push.delivery act on each attempt. */
  constructor(app: App, scheduler: Scheduler, options: DeliveryOptions, faults: FaultRules = new FaultRules()) {
    this.#app = app;
    this.#faults = faults;
    this.#options = options;
    this.#scheduler = scheduler;
    this.#client = new WebhookClient(options.timeoutMs, app, scheduler);
    this.#lastPurge = app.clock.now();
  }

  /**
   * Assigns the channel's next message number (persisted at once) and queues the message.
   * Does nothing for a channel that is gone or expired.
   */
  notify(channelId: string, state: ResourceState): void {
    const { store, clock } = this.#app;
    const now = clock.now();
    if (now >= this.#lastPurge + PURGE_INTERVAL_MS || now < this.#lastPurge) this.purge();
    const channel = store.transaction(() => {
      const current = store.getChannel(channelId);
      if (!current || !isLive(current, now)) return undefined;
      store.putChannel({ ...current, nextMessageNumber: current.nextMessageNumber + 1 });
      return current;
    });
    if (!channel) return;
    const queue = this.#queueOf(channel);
    const message = { messageNumber: channel.nextMessageNumber, state };
    if (queue.pending.length >= this.#options.pendingLimit) {
      this.#record(queue, message, { status: null, error: `${this.#options.pendingLimit} messages already wait for this channel` }, 0, 'dropped');
      return;
    }
    queue.pending.push(message);
    if (queue.state === 'idle') this.#makeReady(queue);
  }

  /** The delivery log of a channel, oldest attempt first. */
  deliveries(channelId: string): readonly DeliveryAttempt[] {
    return this.#queues.get(channelId)?.log ?? [];
  }

  /** Drops the queue and log of every channel that is gone from the store or expired (service clock). */
  purge(): void {
    const now = this.#app.clock.now();
    this.#lastPurge = now;
    for (const [id, queue] of this.#queues) {
      const channel = this.#app.store.getChannel(id);
      if (!channel || !isLive(channel, now)) this.#close(id, queue);
    }
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
    this.#client.destroy();
  }

  #queueOf(channel: ChannelRecord): ChannelQueue {
    let queue = this.#queues.get(channel.id);
    if (!queue) {
      queue = { channelId: channel.id, connectionId: channel.connectionId, pending: [], attempts: 0, state: 'idle', closed: false, log: [], abort: undefined, cancelBackoff: undefined };
      this.#queues.set(channel.id, queue);
    }
    return queue;
  }

  #close(channelId: string, queue: ChannelQueue): void {
    queue.closed = true;
    queue.pending = [];
    queue.abort?.abort();
    queue.cancelBackoff?.();
    this.#ready.delete(queue);
    this.#queues.delete(channelId);
  }

  #makeReady(queue: ChannelQueue): void {
    queue.state = 'ready';
    this.#ready.add(queue);
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  /** Starts the next ready channels' messages while slots are free. */
  #pump(): void {
    while (this.#inFlight < this.#options.maxInFlight) {
      const next = this.#ready.values().next();
      if (next.done) return;
      this.#ready.delete(next.value);
      void this.#sendFirst(next.value);
    }
  }

  /** One attempt at the channel's first pending message, then what follows from its answer. */
  async #sendFirst(queue: ChannelQueue): Promise<void> {
    const message = queue.pending[0];
    const channel = this.#app.store.getChannel(queue.channelId);
    if (!channel) return this.#close(queue.channelId, queue);
    if (!message || !isLive(channel, this.#app.clock.now())) {
      queue.pending = [];
      queue.state = 'idle';
      return;
    }
    queue.state = 'sending';
    queue.attempts++;
    queue.abort = new AbortController();
    this.#inFlight++;
    let answer: WebhookAnswer;
    try {
      answer = await postWithFaults(this.#faults, this.#app, this.#client, channel, message, queue.abort.signal);
    } catch (error) {
      this.#app.log.error(`push delivery to channel ${queue.channelId} failed`, error);
      answer = { status: null, error: 'internal error', final: true };
    } finally {
      this.#inFlight--;
      queue.abort = undefined;
      this.#pump();
    }
    if (queue.closed) return;
    const delivered = answer.status !== null && SUCCESS.has(answer.status);
    const retry = !delivered && !answer.final && (answer.status === null || RETRIED.has(answer.status)) && queue.attempts < this.#options.maxAttempts;
    this.#record(queue, message, answer, queue.attempts, answer.dropped ? 'dropped' : delivered ? 'delivered' : retry ? 'retrying' : 'failed');
    if (retry) {
      queue.state = 'backoff';
      queue.cancelBackoff = this.#scheduler.after(this.#options.retryBaseMs * 2 ** (queue.attempts - 1), () => {
        queue.cancelBackoff = undefined;
        this.#makeReady(queue);
      });
      return;
    }
    queue.pending.shift();
    queue.attempts = 0;
    if (queue.pending.length > 0) this.#makeReady(queue);
    else queue.state = 'idle';
  }

  #record(queue: ChannelQueue, message: Message, answer: WebhookAnswer, attempt: number, outcome: DeliveryAttempt['outcome']): void {
    queue.log.push({
      messageNumber: message.messageNumber,
      state: message.state,
      status: answer.status,
      at: new Date(this.#app.clock.now()).toISOString(),
      attempt,
      outcome,
      ...(answer.error === undefined ? {} : { error: answer.error }),
      ...(answer.fault === undefined ? {} : { fault: answer.fault }),
    });
    if (queue.log.length > this.#options.logLimit) queue.log.splice(0, queue.log.length - this.#options.logLimit);
  }
}
