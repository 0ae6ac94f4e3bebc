// src/oauth/pending.ts: pending consents and authorization codes, used or not, are deleted on the
// service clock once expired, in the order they expire whatever order
// the clock made them in, and never while they are live at the current clock time.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AuthorizationCodes, CODE_LIFETIME_MS, CONSENT_LIFETIME_MS, PendingConsents, SPENT_CODE_KEPT_MS } from '../../src/oauth/pending.ts';
import type { ConnectionRecord } from '../../src/store/store.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const T = Date.UTC(2026, 10, 23, 9, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const consent = { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', scopes: ['openid'], state: undefined, offline: false, codeChallenge: undefined, generation: '0' };
const connection = (id: string): ConnectionRecord => ({ id, clientId: 'c', userId: 'u', scopes: ['openid'], offline: false, createdAt: T });
const grant = (connectionId: string) => ({ connection: connection(connectionId), redirectUri: 'http://127.0.0.1/cb', codeChallenge: undefined });

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('pending consents', () => {
  it('counts only the live ones after the clock moved back, though they expire out of the order they came', () => {
    const consents = new PendingConsents();
    // Opened a day ahead, then the clock moved back: those opened now expire first.
    const ahead = consents.open(consent, T + DAY);
    const now = Array.from({ length: 3 }, () => consents.open(consent, T));
    assert.equal(consents.count(T), 4);
    assert.equal(consents.count(T + CONSENT_LIFETIME_MS), 1);
    for (const nonce of now) assert.equal(consents.find(nonce, T + CONSENT_LIFETIME_MS), undefined);
    assert.ok(consents.find(ahead, T + CONSENT_LIFETIME_MS), 'live until a day and five minutes from T');
    assert.ok(consents.find(ahead, T + DAY + CONSENT_LIFETIME_MS - 1));
    assert.equal(consents.find(ahead, T + DAY + CONSENT_LIFETIME_MS), undefined);
  });

  it('never deletes a consent live at the current clock time, after the clock moved either way', () => {
    const consents = new PendingConsents();
    const early = consents.open(consent, T);
    // Far ahead, everything open is swept...
    const ahead = consents.open(consent, T + DAY);
    assert.equal(consents.count(T + DAY), 1);
    assert.equal(consents.find(early, T), undefined, 'swept while expired, and stays gone');
    // ...then back: the one opened ahead is live for a day more, and sweeps at this time leave it.
    const back = consents.open(consent, T);
    assert.equal(consents.count(T + CONSENT_LIFETIME_MS), 1);
    assert.equal(consents.find(back, T + CONSENT_LIFETIME_MS), undefined);
    assert.ok(consents.find(ahead, T + CONSENT_LIFETIME_MS));
  });
});

describe('authorization codes', () => {
  it('a used code is remembered, for its replay to revoke, for SPENT_CODE_KEPT_MS after its use', () => {
    const codes = new AuthorizationCodes();
    const code = codes.issue(grant('k1'), T);
    codes.consume(code, 'k1', T + 1000);
    assert.deepEqual(codes.lookup(code, T + 2 * CODE_LIFETIME_MS), { kind: 'spent', connectionId: 'k1' });
    assert.deepEqual(codes.lookup(code, T + 1000 + SPENT_CODE_KEPT_MS - 1), { kind: 'spent', connectionId: 'k1' });
    assert.deepEqual(codes.lookup(code, T + 1000 + SPENT_CODE_KEPT_MS), { kind: 'unknown' });
  });

  it('a code issued ahead of a clock moved back stays live until its own expiry', () => {
    const codes = new AuthorizationCodes();
    const ahead = codes.issue(grant('k1'), T + DAY);
    // Codes issued and looked up at T sweep what has expired by T; the code from ahead has not.
    for (let i = 0; i < 100; i++) codes.lookup(codes.issue(grant('k2'), T), T + CODE_LIFETIME_MS);
    assert.equal(codes.lookup(ahead, T + CODE_LIFETIME_MS).kind, 'live');
    assert.equal(codes.lookup(ahead, T + DAY + CODE_LIFETIME_MS).kind, 'unknown');
  });

  it('200,000 codes, used or not, the clock moved past them between batches: the heap stays bounded', () => {
    const codes = new AuthorizationCodes();
    let now = T;
    let baseline = 0;
    let unused = '';
    for (let batch = 1; batch <= 10; batch++) {
      for (let i = 0; i < 10_000; i++) {
        const used = codes.issue(grant(`k${i}`), now);
        codes.consume(used, `k${i}`, now);
        unused = codes.issue(grant(`k${i}`), now);
      }
      if (batch === 2) baseline = heapAfterGc();
      now += SPENT_CODE_KEPT_MS + CODE_LIFETIME_MS;
    }
    // Without the sweeps, 160,000 more codes than at the baseline: tens of megabytes.
    const grown = heapAfterGc() - baseline;
    assert.ok(grown < 4 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(1)} MiB`);
    // (Still in use, so the collector could not take the codes with it.)
    assert.equal(codes.lookup(unused, now - SPENT_CODE_KEPT_MS - 1).kind, 'live');
  });
});
