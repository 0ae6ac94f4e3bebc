// The OAuth state that lives in memory only (docs/oauth.md: pending consents and authorization codes are
// not persisted across restart): both keyed by the SHA-256 of their secret, so even a heap dump
// holds no usable nonce or code. Expired entries are deleted on the service clock as the maps are
// used, a few at a time; no timer keeps the process alive.

import type { ConnectionRecord } from '../store/store.ts';
import { SortedList } from '../store/sorted-list.ts';
import { randomToken, sha256 } from '../crypto/crypto.ts';

/** Spec "Limits": pending consent nonce lifetime 5 minutes, authorization code 60 seconds. */
export const CONSENT_LIFETIME_MS = 5 * 60 * 1000;
export const CODE_LIFETIME_MS = 60 * 1000;
/** Spec "Limits": at most 1,000 consents pending at a time. */
export const MAX_PENDING_CONSENTS = 1000;
/**
 * How long a used code is remembered after its use, so that its replay revokes what it issued
 * (RFC 6749 §4.1.2). Ten code lifetimes: a replay later than that is still refused, as an
 * unknown code, only without the revocation.
 */
export const SPENT_CODE_KEPT_MS = 10 * CODE_LIFETIME_MS;
/**
 * The most expired entries one lookup or insert deletes: more than one use adds (one entry), so
 * the expired ones only dwindle while a map is used, and no request pays for a backlog at once.
 */
const SWEEP_STEP = 16;

interface Expiring {
  expiresAt: number;
}

/** An entry's place in the expiry order. */
interface Slot {
  readonly expiresAt: number;
  readonly key: string;
}

const soonestFirst = (a: Slot, b: Slot): number => a.expiresAt - b.expiresAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * A Map of entries that expire by the service clock, also kept in expiry order: a sweep deletes
 * the entries expired at `now`, soonest first, and stops at the first live one. Expiry order is
 * not insertion order once the clock has moved back (the entries made after the move expire
 * before those made before it), and a sweep compares each entry's own expiry with the clock of
 * that moment, never a mark left by an earlier sweep: an entry live at the current clock time is
 * never deleted, whichever way the clock has moved.
 */
class ExpiringMap<V extends Expiring> {
  readonly #entries = new Map<string, V>();
  readonly #order = new SortedList<Slot>(soonestFirst);

  /** Deletes at most `limit` entries expired at `now`, soonest first. */
  sweep(now: number, limit: number): void {
    for (let swept = 0; swept < limit; swept++) {
      const first = this.#order.first();
      if (first === undefined || first.expiresAt > now) return;
      this.delete(first.key);
    }
  }

  get(key: string, now: number): V | undefined {
    this.sweep(now, SWEEP_STEP);
    const value = this.#entries.get(key);
    return value && value.expiresAt > now ? value : undefined;
  }

  set(key: string, value: V, now: number): void {
    this.sweep(now, SWEEP_STEP);
    this.delete(key);
    this.#entries.set(key, value);
    this.#order.insert({ expiresAt: value.expiresAt, key });
  }

  delete(key: string): void {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    this.#order.delete({ expiresAt: value.expiresAt, key });
  }

  /** The live entries: every expired one is deleted first. */
  size(now: number): number {
    this.sweep(now, Infinity);
    return this.#entries.size;
  }

  deleteWhere(test: (value: V) => boolean): void {
    for (const [key, value] of this.#entries) if (test(value)) this.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#order.clear();
  }
}

/** A validated authorization request waiting for the person's decision. */
export interface PendingConsent extends Expiring {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  offline: boolean;
  codeChallenge: string | undefined;
  /** The workspace generation when it was opened (store/generation.ts). */
  generation: string;
}

export class PendingConsents {
  readonly #map = new ExpiringMap<PendingConsent>();

  /**
   * The consents pending at `now`. Counting deletes the expired ones, all of them: at most
   * MAX_PENDING_CONSENTS, since a consent is opened only while fewer are pending.
   */
  count(now: number): number {
    return this.#map.size(now);
  }

  /** Stores the consent and returns its nonce (the only copy of the secret). */
  open(consent: Omit<PendingConsent, 'expiresAt'>, now: number): string {
    const nonce = randomToken();
    this.#map.set(sha256(nonce), { ...consent, expiresAt: now + CONSENT_LIFETIME_MS }, now);
    return nonce;
  }

  find(nonce: string, now: number): PendingConsent | undefined {
    return this.#map.get(sha256(nonce), now);
  }

  /** Single use: a decided consent's nonce is gone. */
  close(nonce: string): void {
    this.#map.delete(sha256(nonce));
  }

  clear(): void {
    this.#map.clear();
  }
}

/** What an authorization code is bound to (docs/oauth.md, "Authorization code", RFC 6749 §4.1.3). */
export interface CodeGrant extends Expiring {
  connection: ConnectionRecord;
  redirectUri: string;
  codeChallenge: string | undefined;
}

/** A code already exchanged, remembered for SPENT_CODE_KEPT_MS after its use. */
interface SpentCode extends Expiring {
  connectionId: string;
}

export type CodeLookup =
  | { kind: 'live'; grant: CodeGrant }
  | { kind: 'spent'; connectionId: string }
  | { kind: 'unknown' };

export class AuthorizationCodes {
  readonly #live = new ExpiringMap<CodeGrant>();
  /**
   * Codes already exchanged, by hash, with the connection they created: RFC 6749 §4.1.2 asks to
   * revoke what a reused code issued, so the marker outlives the code (by SPENT_CODE_KEPT_MS)
   * and goes with its connection.
   */
  readonly #spent = new ExpiringMap<SpentCode>();

  issue(grant: Omit<CodeGrant, 'expiresAt'>, now: number): string {
    const code = randomToken();
    this.#live.set(sha256(code), { ...grant, expiresAt: now + CODE_LIFETIME_MS }, now);
    return code;
  }

  lookup(code: string, now: number): CodeLookup {
    const hash = sha256(code);
    const grant = this.#live.get(hash, now);
    if (grant) return { kind: 'live', grant };
    const spent = this.#spent.get(hash, now);
    return spent === undefined ? { kind: 'unknown' } : { kind: 'spent', connectionId: spent.connectionId };
  }

  /** Single use: the code stops being exchangeable and is remembered as spent. */
  consume(code: string, connectionId: string, now: number): void {
    const hash = sha256(code);
    this.#live.delete(hash);
    this.#spent.set(hash, { connectionId, expiresAt: now + SPENT_CODE_KEPT_MS }, now);
  }

  /** The connection was revoked: its codes, live or spent, go with it. */
  dropConnection(connectionId: string): void {
    this.#live.deleteWhere((grant) => grant.connection.id === connectionId);
    this.#spent.deleteWhere((spent) => spent.connectionId === connectionId);
  }

  clear(): void {
    this.#live.clear();
    this.#spent.clear();
  }
}
