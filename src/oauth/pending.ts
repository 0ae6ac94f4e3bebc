// The OAuth state that lives in memory only (spec: pending consents and authorization codes are
// not persisted across restart): both keyed by the SHA-256 of their secret, so even a heap dump
// holds no usable nonce or code. Expired entries are dropped lazily on every access; no timer
// keeps the process alive.

import type { ConnectionRecord } from '../store/store.ts';
import { randomToken, sha256 } from './hash.ts';

/** Spec "Limits": pending consent nonce lifetime 5 minutes, authorization code 60 seconds. */
export const CONSENT_LIFETIME_MS = 5 * 60 * 1000;
export const CODE_LIFETIME_MS = 60 * 1000;
/** Spec "Limits": at most 1,000 consents pending at a time. */
export const MAX_PENDING_CONSENTS = 1000;

interface Expiring {
  expiresAt: number;
}

/**
 * A Map of entries with an expiry. Lifetimes are constant, so insertion order is (almost) expiry
 * order and a sweep can stop at the first live entry; `get` checks each entry's own expiry, so a
 * clock moved backwards costs only a late sweep, never a wrong answer.
 */
class ExpiringMap<V extends Expiring> {
  readonly #entries = new Map<string, V>();

  sweep(now: number): void {
    for (const [key, value] of this.#entries) {
      if (value.expiresAt > now) break;
      this.#entries.delete(key);
    }
  }

  get(key: string, now: number): V | undefined {
    this.sweep(now);
    const value = this.#entries.get(key);
    return value && value.expiresAt > now ? value : undefined;
  }

  set(key: string, value: V): void {
    this.#entries.set(key, value);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  size(now: number): number {
    this.sweep(now);
    return this.#entries.size;
  }

  deleteWhere(test: (value: V) => boolean): void {
    for (const [key, value] of this.#entries) if (test(value)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
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
}

export class PendingConsents {
  readonly #map = new ExpiringMap<PendingConsent>();

  count(now: number): number {
    return this.#map.size(now);
  }

  /** Stores the consent and returns its nonce (the only copy of the secret). */
  open(consent: Omit<PendingConsent, 'expiresAt'>, now: number): string {
    const nonce = randomToken();
    this.#map.set(sha256(nonce), { ...consent, expiresAt: now + CONSENT_LIFETIME_MS });
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

/** What an authorization code is bound to (spec "Authorization code", RFC 6749 §4.1.3). */
export interface CodeGrant extends Expiring {
  connection: ConnectionRecord;
  redirectUri: string;
  codeChallenge: string | undefined;
}

export type CodeLookup =
  | { kind: 'live'; grant: CodeGrant }
  | { kind: 'spent'; connectionId: string }
  | { kind: 'unknown' };

export class AuthorizationCodes {
  readonly #live = new ExpiringMap<CodeGrant>();
  /**
   * Codes already exchanged, by hash, with the connection they created: RFC 6749 §4.1.2 asks to
   * revoke what a reused code issued, so the marker outlives the code and goes with its connection.
   */
  readonly #spent = new Map<string, string>();

  issue(grant: Omit<CodeGrant, 'expiresAt'>, now: number): string {
    const code = randomToken();
    this.#live.set(sha256(code), { ...grant, expiresAt: now + CODE_LIFETIME_MS });
    return code;
  }

  lookup(code: string, now: number): CodeLookup {
    const hash = sha256(code);
    const grant = this.#live.get(hash, now);
    if (grant) return { kind: 'live', grant };
    const connectionId = this.#spent.get(hash);
    return connectionId === undefined ? { kind: 'unknown' } : { kind: 'spent', connectionId };
  }

  /** Single use: the code stops being exchangeable and is remembered as spent. */
  consume(code: string, connectionId: string): void {
    const hash = sha256(code);
    this.#live.delete(hash);
    this.#spent.set(hash, connectionId);
  }

  /** The connection was revoked: its codes, live or spent, go with it. */
  dropConnection(connectionId: string): void {
    this.#live.deleteWhere((grant) => grant.connection.id === connectionId);
    for (const [hash, id] of this.#spent) if (id === connectionId) this.#spent.delete(hash);
  }

  clear(): void {
    this.#live.clear();
    this.#spent.clear();
  }
}
