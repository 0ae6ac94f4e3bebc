// Seeded fuzzing for the hardening tests (test/hardening/): a small PRNG, generators of hostile
// strings and JSON, a mutator for valid requests, and the checks every answer must pass: a
// well-formed error of the right surface, never a 500, never a hang.
//
// Every run is reproducible: the seed is HARDENING_SEED (default below), and a failing case names
// its seed and index, so `HARDENING_SEED=<n> npm test` replays it.

import assert from 'node:assert/strict';
import type { Answer } from './service.ts';

export const SEED = Number(process.env.HARDENING_SEED ?? 0x5eed_c0de);

/** mulberry32: a tiny, fast, well-distributed 32-bit PRNG (public domain). */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A new generator for one sub-stream (so adding cases to one stream does not shift another). */
  fork(label: string): Rng {
    let h = this.#state ^ 0x9e3779b9;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
    return new Rng(h);
  }
}

/** Strings that have broken parsers, escapers and type checks elsewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  '\u0000abc',
  '%',
  '%zz',
  '%00',
  '%C0%AF',
  '\ud800',
  '\udfff\ud800',
  '𝄞é漢字',
  '\u202e\u200b',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '&lt;&amp;&#x27;',
  '\r\nSet-Cookie: x=1',
  '../../../../etc/passwd',
  '..%2F..%2F',
  '${jndi:ldap://x}',
  '{{7*7}}',
  "' OR 1=1 --",
  '"; DROP TABLE events; --',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '0',
  '-1',
  '-0',
  '1e309',
  '9007199254740993',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  '2026-02-30',
  '2026-13-01T00:00:00Z',
  '2026-10-19T25:61:61Z',
  '2026-10-19T10:00:00',
  '2026-10-19T10:00:00+24:00',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  'Asia/Tokyo',
  'Etc/GMT+14',
  'Not/AZone',
  'UTC',
  'RRULE:FREQ=DAILY',
  'primary',
  'a'.repeat(300),
  'x'.repeat(5000),
  '\u00e9'.repeat(2000),
];

export function hostileString(rng: Rng): string {
  if (rng.chance(0.8)) return rng.pick(HOSTILE_STRINGS);
  // Random code units, including lone surrogates and controls.
  const length = rng.int(1, 40);
  let out = '';
  for (let i = 0; i < length; i++) out += String.fromCharCode(rng.chance(0.7) ? rng.int(0x20, 0x7e) : rng.int(0, 0xffff));
  return out;
}

/** Any JSON value, nested at most `depth` deep. */
export function jsonValue(rng: Rng, depth = 2): unknown {
  switch (rng.int(0, depth > 0 ? 8 : 5)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1, 1.5, -0.0001, 1e308, -1e308, 2 ** 53 + 2, 2 ** 31, 86_400_000 * 366 * 10_000]);
    case 3:
    case 4:
    case 5:
      return hostileString(rng);
    case 6:
    case 7: {
      const out: unknown[] = [];
      for (let i = rng.int(0, 3); i > 0; i--) out.push(jsonValue(rng, depth - 1));
      return out;
    }
    default: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(0, 3); i > 0; i--) out[rng.chance(0.5) ? hostileString(rng) : rng.pick(['id', 'date', 'dateTime', 'timeZone', 'email'])] = jsonValue(rng, depth - 1);
      return out;
    }
  }
}

/**
 * A copy of `value` with 1-3 random changes at random depths: a member deleted, replaced by a
 * hostile value, or added under an unknown or known name; an array element replaced.
 */
export function mutate<T>(rng: Rng, value: T, extraKeys: readonly string[] = []): T {
  const copy = structuredClone(value) as unknown;
  for (let n = rng.int(1, 3); n > 0; n--) mutateOnce(rng, copy, extraKeys);
  return copy as T;
}

function mutateOnce(rng: Rng, root: unknown, extraKeys: readonly string[]): void {
  // Walk down to a random container.
  let node = root;
  for (let depth = 0; depth < 4 && rng.chance(0.6); depth++) {
    const children = containerChildren(node);
    if (children.length === 0) break;
    node = rng.pick(children);
  }
  if (Array.isArray(node)) {
    if (node.length > 0 && rng.chance(0.7)) node[rng.int(0, node.length - 1)] = jsonValue(rng);
    else node.push(jsonValue(rng));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  const action = rng.int(0, 2);
  if (action === 0 && keys.length > 0) {
    delete record[rng.pick(keys)];
  } else if (action === 1 && keys.length > 0) {
    record[rng.pick(keys)] = jsonValue(rng);
  } else {
    const name = extraKeys.length > 0 && rng.chance(0.6) ? rng.pick(extraKeys) : hostileString(rng);
    record[name] = jsonValue(rng);
  }
}

function containerChildren(node: unknown): unknown[] {
  if (typeof node !== 'object' || node === null) return [];
  return Object.values(node).filter((child) => typeof child === 'object' && child !== null);
}

/** Which error shape a surface answers with. */
export type SurfaceShape = 'oauth' | 'google' | 'management';

/**
 * Asserts an error answer is well formed for its surface: a 4xx (never a 500), JSON with the
 * right Content-Type, and the surface's body shape. `label` names the case in the message.
 */
export function assertWellFormedError(answer: Answer, shape: SurfaceShape, label: string): void {
  const where = `${label}: ${answer.status} ${answer.text.slice(0, 300)}`;
  assert.ok(answer.status >= 400 && answer.status < 500, `expected a 4xx, ${where}`);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/i, where);
  const body = answer.json;
  assert.ok(typeof body === 'object' && body !== null, `not JSON: ${where}`);
  if (shape === 'google') {
    const error = body.error;
    assert.equal(error?.code, answer.status, where);
    assert.equal(typeof error.message, 'string', where);
    assert.equal(typeof error.status, 'string', where);
    assert.notEqual(error.status, 'UNKNOWN', where);
    assert.ok(Array.isArray(error.errors) && error.errors.length >= 1, where);
    assert.equal(typeof error.errors[0].reason, 'string', where);
    assert.equal(typeof error.errors[0].domain, 'string', where);
  } else {
    assert.equal(typeof body.error, 'string', where);
    assert.equal(typeof body.error_description, 'string', where);
    assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description'], where);
  }
}

/** Runs `count` cases, `width` at a time, each with its own index; the first failure stops the run. */
export async function runCases(count: number, width: number, fn: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await fn(next++);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** Throws when `promise` takes longer than `ms`: a request that stalls the service is a failure. */
export async function within<T>(ms: number, label: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
