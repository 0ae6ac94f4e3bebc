// The pure channel rules of src/push/channels.ts: expiration arithmetic, resource ids, liveness.
// The refusals of a watch body are tested over HTTP in watch.test.ts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoogleApiError } from '../../src/api/google-error.ts';
import { effectiveExpiration, isLive, parseWatchRequest, resourceIdFor } from '../../src/push/channels.ts';
import type { ChannelRecord } from '../../src/store/store.ts';

const NOW = Date.UTC(2026, 9, 19, 0, 0, 0);
const WEEK_MS = 604_800_000;
const base = { id: 'c', type: 'web_hook', address: 'https://hooks.example.test/cal' };

describe('effectiveExpiration', () => {
  const of = (extra: Record<string, unknown>) => effectiveExpiration(parseWatchRequest({ ...base, ...extra }), NOW);

  it('defaults to 604800 s', () => assert.equal(of({}), NOW + WEEK_MS));
  it('follows params.ttl, as a string or a number', () => {
    assert.equal(of({ params: { ttl: '3600' } }), NOW + 3_600_000);
    assert.equal(of({ params: { ttl: 90 } }), NOW + 90_000);
  });
  it('follows a sooner requested expiration, as a string or a number', () => {
    assert.equal(of({ expiration: String(NOW + 5000) }), NOW + 5000);
    assert.equal(of({ expiration: NOW + 5000, params: { ttl: '3600' } }), NOW + 5000);
  });
  it('caps at 7 days however long the ttl or far the expiration', () => {
    assert.equal(of({ params: { ttl: String(365 * 86_400) } }), NOW + WEEK_MS);
    assert.equal(of({ expiration: NOW + 2 * WEEK_MS }), NOW + WEEK_MS);
  });
  it('refuses an expiration that is not in the future', () => {
    for (const expiration of [NOW, NOW - 1, 0]) {
      assert.throws(() => of({ expiration }), (e: unknown) => e instanceof GoogleApiError && e.detail.message === 'expiration must be in the future');
    }
  });
});

describe('parseWatchRequest', () => {
  it('keeps id, token and the normalised address; token null when absent', () => {
    assert.deepEqual(parseWatchRequest({ ...base, address: 'HTTP://LocalHost:8080/a b', token: 't' }), {
      id: 'c',
      address: 'http://localhost:8080/a%20b',
      token: 't',
      expiration: undefined,
      ttlSeconds: undefined,
    });
    assert.equal(parseWatchRequest(base).token, null);
    assert.equal(parseWatchRequest({ ...base, token: null }).token, null);
  });
  it('ignores kind, payload and params other than ttl', () => {
    assert.equal(parseWatchRequest({ ...base, kind: 'api#channel', payload: true, params: { other: 'x' } }).ttlSeconds, undefined);
  });
});

describe('resourceIdFor', () => {
  it('is stable per collection, distinct across collections, and reveals no id', () => {
    const events = resourceIdFor({ kind: 'events', calendarId: 'aiko@example.com' });
    assert.equal(resourceIdFor({ kind: 'events', calendarId: 'aiko@example.com' }), events);
    assert.notEqual(resourceIdFor({ kind: 'events', calendarId: 'ben@example.com' }), events);
    // a user id equal to a calendar id still names another collection
    assert.notEqual(resourceIdFor({ kind: 'calendarList', userId: 'aiko@example.com' }), events);
    assert.match(events, /^[A-Za-z0-9_-]{27}$/);
    assert.ok(!events.includes('aiko'));
  });
});

describe('isLive', () => {
  it('a channel is live strictly before its expiration', () => {
    const channel = { expiration: NOW } as ChannelRecord;
    assert.equal(isLive(channel, NOW - 1), true);
    assert.equal(isLive(channel, NOW), false);
  });
});
