// One notification message sent to a webhook: a POST with an empty body and the X-Goog-* headers,
// user agent APIs-Google (https://developers.google.com/workspace/calendar/api/guides/push), with a per-attempt timeout. Scheduling, retries and
// the delivery log are src/push/delivery.ts's.
//
// The last line of the self-address defence (src/push/address.ts): an address that reaches the
// service itself is never contacted, whether written as such (a channel stored before the rule, or
// by another process) or a host name that resolves to it, checked on each address the name
// resolves to, at connection time. Node's client follows no redirects, so a receiver cannot
// bounce a message back to the service either.

import type { ClientRequest } from 'node:http';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Scheduler } from '../domain/scheduler.ts';
import type { ChannelRecord } from '../store/store.ts';
import { effectivePort, reachesService, resolvedAddressReachesService } from './address.ts';
import type { ServiceAddress } from './address.ts';

// Not imported as ES modules, for start-up time (see src/http/server.ts). node:https (with TLS
// under it, some milliseconds to load) is loaded by the first message to an https: address.
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
type Https = typeof import('node:https');
let https: Https | undefined;
const httpsModule = (): Https => (https ??= process.getBuiltinModule('node:https'));

export type ResourceState = 'sync' | 'exists';

export interface Message {
  messageNumber: number;
  state: ResourceState;
}

export interface WebhookAnswer {
  /** The receiver's HTTP status; null when no response came (connection error or timeout). */
  status: number | null;
  error?: string;
  /** No retry could change the outcome: the address reaches the service itself, so nothing was sent. */
  final?: true;
  /** A fault rule dropped the message (src/push/delivery-faults.ts): counted as sent, never sent. */
  dropped?: true;
  /** The id of the fault rule that acted on the attempt. */
  fault?: string;
}

const USER_AGENT = 'APIs-Google';
const SELF_ADDRESS = 'the address reaches this service itself; nothing was sent';

class SelfAddressError extends Error {}

export class WebhookClient {
  readonly #timeoutMs: number;
  readonly #service: ServiceAddress;
  readonly #scheduler: Scheduler;
  readonly #httpAgent = new HttpAgent({ keepAlive: true });
  #httpsAgent: InstanceType<Https['Agent']> | undefined;

  /** `service` is read at each message: the App's port and base URL are set once it listens. */
  constructor(timeoutMs: number, service: ServiceAddress, scheduler: Scheduler) {
    this.#timeoutMs = timeoutMs;
    this.#service = service;
    this.#scheduler = scheduler;
  }

  /** One POST; resolves with the status, or with null and the reason when no response came. */
  post(channel: ChannelRecord, message: Message, signal: AbortSignal): Promise<WebhookAnswer> {
    const url = new URL(channel.address);
    const service = this.#service;
    if (reachesService(url, service)) return Promise.resolve({ status: null, error: SELF_ADDRESS, final: true });
    const secure = url.protocol === 'https:';
    return new Promise((resolve) => {
      let settled = false;
      const settle = (answer: WebhookAnswer): void => {
        if (settled) return;
        settled = true;
        cancelTimeout();
        resolve(answer);
      };
      const send = secure ? httpsModule().request : httpRequest;
      const options = {
        method: 'POST',
        headers: headersFor(channel, message),
        agent: secure ? (this.#httpsAgent ??= new (httpsModule().Agent)({ keepAlive: true })) : this.#httpAgent,
        lookup: guardedLookup(effectivePort(url), service),
        signal,
      };
      const request: ClientRequest = send(url, options, (response) => {
        // The body is not read, only drained so the connection can be reused.
        response.resume();
        settle({ status: response.statusCode ?? null });
      });
      const cancelTimeout = this.#scheduler.after(this.#timeoutMs, () => request.destroy(new Error(`no response within ${this.#timeoutMs} ms`)));
      request.on('error', (error) => settle(error instanceof SelfAddressError ? { status: null, error: SELF_ADDRESS, final: true } : { status: null, error: error.message }));
      request.on('close', () => settle({ status: null, error: 'connection closed before a response' }));
      request.end();
    });
  }

  destroy(): void {
    this.#httpAgent.destroy();
    this.#httpsAgent?.destroy();
  }
}

function headersFor(channel: ChannelRecord, message: Message): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Length': '0',
    'User-Agent': USER_AGENT,
    'X-Goog-Channel-ID': channel.id,
    // RFC 7231 §7.1.1.1 IMF-fixdate (RFC 1123 form), as Google sends it (https://developers.google.com/workspace/calendar/api/guides/push).
    'X-Goog-Channel-Expiration': new Date(channel.expiration).toUTCString(),
    'X-Goog-Message-Number': String(message.messageNumber),
    'X-Goog-Resource-ID': channel.resourceId,
    'X-Goog-Resource-State': message.state,
    'X-Goog-Resource-URI': channel.resourceUri,
  };
  if (channel.token !== null) headers['X-Goog-Channel-Token'] = channel.token;
  return headers;
}

/** dns.lookup that fails the connection when any address the name resolves to is the service. */
function guardedLookup(port: number, service: ServiceAddress): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    process.getBuiltinModule('node:dns').lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = typeof address === 'string' ? [address] : address.map((entry) => entry.address);
      if (addresses.some((ip) => resolvedAddressReachesService(ip, port, service))) return callback(new SelfAddressError(SELF_ADDRESS), address, family);
      callback(null, address, family);
    });
  };
}
