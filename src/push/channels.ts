// Watch channels (https://developers.google.com/workspace/calendar/api/guides/push, https://developers.google.com/workspace/calendar/api/v3/reference/channels/stop; https://developers.google.com/workspace/calendar/api/v3/reference/channels): the watch request's validation, the
// channel a watch opens, its wire shape, and the rule for which tokens may stop it.
//
// Choices where Google documents nothing:
// - A channel id used before on this workspace, by any connection, whether its channel is live,
//   expired, stopped or gone with its user or connection, is `400 channelIdNotUnique` with the
//   message "Channel id <id> not unique", as Google answers a reused id: developers report that
//   answer (https://github.com/autokitteh/autokitteh/pull/1015) and that an id stays refused
//   after its channel is stopped (https://github.com/windmill-labs/windmill/pull/8870). The
//   store remembers used ids until reset or fixture load (the newest 100,000 of them).
// - The effective expiration is the soonest of `params.ttl` (default 604800 s), the requested
//   `expiration`, and a hard cap of 7 days. Google cuts a longer request to its own limit ("the
//   more restrictive of the requested value and Google's internal limit",
//   https://developers.google.com/calendar/api/guides/push) without naming that limit for
//   Calendar; 7 days is the lifetime developers report seeing, and a choice.
// - `address` may be `http:` as well as `https:`: the service runs on loopback for local tests,
//   where a receiver with a trusted certificate is rarely at hand. An `https:` address still gets
//   full certificate verification.
// - `id` and `token` travel back as header values (X-Goog-Channel-ID, X-Goog-Channel-Token), so
//   they must be printable ASCII; anything else could not be delivered.
// - An address that reaches the service itself (src/push/address.ts) is `400
//   push.webhookUrlUnauthorized`, the reason and wording Google's channel service gives for an
//   address it will not deliver to ("Unauthorized WebHook callback channel: <address>"); the
//   message goes on to say why, since here the cause is always the same.
// - A connection holds at most MAX_ACTIVE_CHANNELS_PER_CONNECTION live channels (expired ones do
//   not count; stopped ones are gone, though their ids stay used): each one costs every write to its collection a message,
//   and a token must not be able to multiply that without bound. Google documents no such limit
//   and no reason for it, so one more is the generic `400 badRequest` naming the limit.

import { invalidMember } from '../api/body-rules.ts';
import { GoogleApiError, googleErrors } from '../api/google-error.ts';
import { sha256 } from '../crypto/crypto.ts';
import type { ChannelRecord, ChannelResource, Store } from '../store/store.ts';
import { reachesService } from './address.ts';
import type { ServiceAddress } from './address.ts';
import { assertEnum, assertObject, assertString } from '../validation/validation.ts';
import type { JsonRecord } from '../validation/validation.ts';

/** https://developers.google.com/workspace/calendar/api/guides/push: the default `params.ttl`, also the longest lifetime a channel gets. */
export const DEFAULT_TTL_SECONDS = 604_800;
const MAX_LIFETIME_MS = DEFAULT_TTL_SECONDS * 1000;
const MAX_ID_LENGTH = 64;
const MAX_TOKEN_LENGTH = 256;
const MAX_ADDRESS_LENGTH = 2048;
/** Live channels one connection may hold at once. */
export const MAX_ACTIVE_CHANNELS_PER_CONNECTION = 100;
const CHANNEL_TYPES = ['web_hook', 'webhook'];
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export interface WatchRequest {
  id: string;
  address: string;
  token: string | null;
  /** Requested expiration (Unix ms), when given. */
  expiration: number | undefined;
  /** `params.ttl` in seconds, when given. */
  ttlSeconds: number | undefined;
}

type Body = JsonRecord;

function bodyObject(value: unknown): Body {
  assertObject(value, '', () => googleErrors.badRequest('The request body must be a JSON object (a Channel).'));
  return value;
}

function requiredText(body: Body, name: string, maxLength: number): string {
  const value = body[name];
  if (value === undefined || value === null || value === '') throw googleErrors.required(`${name} is required`);
  return checkedText(name, value, maxLength);
}

function checkedText(name: string, value: unknown, maxLength: number): string {
  assertString(value, name, invalidMember);
  if (value.length > maxLength) throw googleErrors.invalid(`${name} must be at most ${maxLength} characters`);
  return value;
}

function headerSafe(name: string, value: string): string {
  if (!PRINTABLE_ASCII.test(value)) throw googleErrors.invalid(`${name} must contain printable ASCII characters only`);
  return value;
}

/** A non-negative int64 sent as a decimal string (the discovery format) or as a JSON number. */
function int64(name: string, value: unknown): number {
  const number = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) throw googleErrors.invalid(`${name} must be a non-negative integer`);
  return number;
}

function parseAddress(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw googleErrors.invalid('address must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw googleErrors.invalid('address must be an absolute http: or https: URL');
  if (url.username !== '' || url.password !== '') throw googleErrors.invalid('address must not contain user information');
  if (url.hash !== '') throw googleErrors.invalid('address must not contain a fragment');
  return url.href;
}

/** The Channel body of events.watch and calendarList.watch (https://developers.google.com/workspace/calendar/api/v3/reference/channels). */
export function parseWatchRequest(value: unknown): WatchRequest {
  const body = bodyObject(value);
  const id = headerSafe('id', requiredText(body, 'id', MAX_ID_LENGTH));
  const type = requiredText(body, 'type', 32);
  assertEnum(type, CHANNEL_TYPES, 'type', () => googleErrors.invalid('type must be web_hook or webhook'));
  const address = parseAddress(requiredText(body, 'address', MAX_ADDRESS_LENGTH));
  const token = body.token === undefined || body.token === null ? null : headerSafe('token', checkedText('token', body.token, MAX_TOKEN_LENGTH));
  const expiration = body.expiration === undefined || body.expiration === null ? undefined : int64('expiration', body.expiration);
  let ttlSeconds: number | undefined;
  if (body.params !== undefined && body.params !== null) {
    assertObject(body.params, 'params', () => googleErrors.invalid('params must be an object of strings'));
    const ttl = body.params.ttl;
    if (ttl !== undefined) {
      ttlSeconds = int64('params.ttl', ttl);
      if (ttlSeconds === 0) throw googleErrors.invalid('params.ttl must be at least 1 second');
    }
  }
  return { id, address, token, expiration, ttlSeconds };
}

/** Refuses an address that reaches the service itself (src/push/address.ts). */
export function assertNotServiceAddress(address: string, service: ServiceAddress): void {
  if (!reachesService(new URL(address), service)) return;
  throw new GoogleApiError({
    status: 400,
    reason: 'push.webhookUrlUnauthorized',
    message: `Unauthorized WebHook callback channel: ${address} reaches this calendar service itself; point the channel at a receiver of your own`,
  });
}

/** The soonest of the ttl, the requested expiration and the 7-day cap (https://developers.google.com/workspace/calendar/api/guides/push). */
export function effectiveExpiration(request: WatchRequest, now: number): number {
  const ttlMs = Math.min((request.ttlSeconds ?? DEFAULT_TTL_SECONDS) * 1000, MAX_LIFETIME_MS);
  const expiration = Math.min(now + ttlMs, request.expiration ?? Number.POSITIVE_INFINITY);
  if (expiration <= now) throw googleErrors.invalid('expiration must be in the future');
  return expiration;
}

/** Opaque and stable per watched collection (https://developers.google.com/workspace/calendar/api/guides/push): every channel on one collection shares it. */
export function resourceIdFor(resource: ChannelResource): string {
  const key = resource.kind === 'events' ? `events\n${resource.calendarId}` : `calendarList\n${resource.userId}`;
  return sha256(key).slice(0, 27);
}

/** A channel delivers until its expiration, read on the service clock. */
export function isLive(channel: ChannelRecord, now: number): boolean {
  return now < channel.expiration;
}

function channelIdNotUnique(id: string): GoogleApiError {
  return new GoogleApiError({ status: 400, reason: 'channelIdNotUnique', message: `Channel id ${id} not unique` });
}

export interface OpenChannel {
  store: Store;
  now: number;
  connectionId: string;
  resource: ChannelResource;
  resourceUri: string;
  request: WatchRequest;
}

/** Stores a new channel; its first message (sync) will carry number 1. */
export function openChannel(open: OpenChannel): ChannelRecord {
  const { store, now, request } = open;
  const expiration = effectiveExpiration(request, now);
  return store.transaction(() => {
    if (store.getChannel(request.id) || store.isChannelIdRemembered(request.id)) throw channelIdNotUnique(request.id);
    const active = store.listChannels().filter((channel) => channel.connectionId === open.connectionId && isLive(channel, now)).length;
    if (active >= MAX_ACTIVE_CHANNELS_PER_CONNECTION) {
      throw googleErrors.badRequest(`This connection already has ${MAX_ACTIVE_CHANNELS_PER_CONNECTION} active channels, the most it may hold: stop one (channels.stop) or let one expire first`);
    }
    const channel: ChannelRecord = {
      id: request.id,
      resourceId: resourceIdFor(open.resource),
      resourceUri: open.resourceUri,
      address: request.address,
      token: request.token,
      expiration,
      connectionId: open.connectionId,
      resource: open.resource,
      nextMessageNumber: 1,
      createdAt: now,
    };
    store.putChannel(channel);
    store.rememberChannelId(channel.id);
    return channel;
  });
}

/** The Channel resource a watch answers with; `expiration` is an int64 string (https://developers.google.com/workspace/calendar/api/v3/reference/channels). */
export function renderChannel(channel: ChannelRecord): Record<string, string> {
  const out: Record<string, string> = {
    kind: 'api#channel',
    id: channel.id,
    resourceId: channel.resourceId,
    resourceUri: channel.resourceUri,
  };
  if (channel.token !== null) out.token = channel.token;
  out.expiration = String(channel.expiration);
  return out;
}

/** The `{id, resourceId}` of a channels.stop body (https://developers.google.com/workspace/calendar/api/v3/reference/channels/stop). */
export function parseStopRequest(value: unknown): { id: string; resourceId: string } {
  const body = bodyObject(value);
  return { id: requiredText(body, 'id', MAX_ID_LENGTH), resourceId: requiredText(body, 'resourceId', 256) };
}

/**
 * Whether the caller may stop the channel a stop names: only the connection that opened it
 * (spec, "Bearer authentication"). Any other case is indistinguishable from an unknown channel.
 */
export function assertStoppable(store: Store, connectionId: string, stop: { id: string; resourceId: string }): void {
  const channel = store.getChannel(stop.id);
  if (!channel || channel.connectionId !== connectionId || channel.resourceId !== stop.resourceId) throw googleErrors.notFound();
}
