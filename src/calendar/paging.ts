// Opaque page and sync tokens. A token is base64url JSON carrying the workspace generation, so a
// token from before a reset or fixture load is recognised as stale (410 fullSyncRequired for sync
// tokens, 400 for page tokens) instead of silently pointing into new data. What an events
// listing's page token points at is a typed cursor, written and read in events/list-cursor.ts.

import type { App } from '../app/app.ts';
import { googleErrors } from '../api/google-error.ts';
import { workspaceGeneration } from '../store/generation.ts';
import type { Json, JsonObject } from '../store/store.ts';
import type { SeriesWindow } from './horizon.ts';

function encode(app: App, kind: string, state: JsonObject): string {
  return Buffer.from(JSON.stringify({ k: kind, g: workspaceGeneration(app.store), ...state }), 'utf8').toString('base64url');
}

// Every list call reads and makes a token, and a client polling for changes sends the same one
// again and again: the text alone decides what a token decodes to (the kind and generation are
// checked on every use), so decoded tokens are kept, frozen, by their text; sync tokens are kept
// by what they say. Both maps start over when full.
const TOKEN_CACHE_LIMIT = 1024;
const decoded = new Map<string, JsonObject | null>();
const syncTokens = new Map<string, string>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= TOKEN_CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

function deepFreeze(value: Json): Json {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function parse(token: string): JsonObject | null {
  const known = decoded.get(token);
  if (known !== undefined) return known;
  let value: Json;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Json;
  } catch {
    value = null;
  }
  const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
  return remember(decoded, token, object === null ? null : (deepFreeze(object) as JsonObject));
}

function decode(app: App, kind: string, token: string): JsonObject | undefined {
  const value = parse(token);
  if (value === null || value.k !== kind || value.g !== workspaceGeneration(app.store)) return undefined;
  return value;
}

/**
 * A sync token naming the change sequence a client has seen, for one collection; for an
 * expanded events listing also the window its series were expanded over (horizon.ts).
 */
export function makeSyncToken(app: App, collection: string, seq: number, window?: SeriesWindow): string {
  const key = `${workspaceGeneration(app.store)}\n${collection}\n${seq}\n${window?.from}\n${window?.to}`;
  const known = syncTokens.get(key);
  if (known !== undefined) return known;
  const token = encode(app, 'sync', window === undefined ? { c: collection, s: seq } : { c: collection, s: seq, f: window.from, t: window.to });
  return remember(syncTokens, key, token);
}

/** What a sync token holds; unknown, tampered or stale tokens are 410 fullSyncRequired. */
export function readSyncState(app: App, collection: string, token: string): { seq: number; window: SeriesWindow | undefined } {
  const state = decode(app, 'sync', token);
  if (!state || state.c !== collection || typeof state.s !== 'number') throw googleErrors.fullSyncRequired();
  const window = typeof state.f === 'number' && typeof state.t === 'number' ? { from: state.f, to: state.t } : undefined;
  return { seq: state.s, window };
}

/** The sequence in a sync token (readSyncState). */
export function readSyncToken(app: App, collection: string, token: string): number {
  return readSyncState(app, collection, token).seq;
}

/**
 * A page token: the cursor plus a fingerprint of the query it belongs to, so a token replayed
 * with different parameters is refused rather than giving an inconsistent page.
 */
export function makePageToken(app: App, query: string, cursor: JsonObject): string {
  return encode(app, 'page', { q: query, c: cursor });
}

/** The error for a page token that is unknown, tampered, stale or made for another query. */
export function invalidPageToken(): Error {
  return googleErrors.invalid('Invalid page token value.', 'pageToken');
}

export function readPageToken(app: App, query: string, token: string): JsonObject {
  const state = decode(app, 'page', token);
  const cursor = state?.c;
  if (!state || state.q !== query || typeof cursor !== 'object' || cursor === null || Array.isArray(cursor)) throw invalidPageToken();
  return cursor;
}
