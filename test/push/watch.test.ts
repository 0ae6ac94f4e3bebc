// events.watch, calendarList.watch and channels.stop over HTTP, with a webhook receiver on port 0
// (https://developers.google.com/workspace/calendar/api/guides/push, https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/watch, https://developers.google.com/workspace/calendar/api/v3/reference/events/watch, https://developers.google.com/workspace/calendar/api/v3/reference/channels/stop, docs/management-api.md GET /__svc/channels).
//
// "Nothing is delivered" is checked against a control channel on the same collection that stays
// open: the change is sent to every channel watching on the same turn, so once the control channel
// has received it and no attempt is in flight (the service's timers are a ManualScheduler), the
// stopped one would have too. Retry waits are stepped on that scheduler, never waited for.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { DEFAULT_DELIVERY_OPTIONS } from '../../src/push/delivery.ts';
import { api, INSUFFICIENT_PERMISSIONS, NOT_FOUND, reason } from '../_helpers/calendar.ts';
import { ManualScheduler } from '../_helpers/manual-time.ts';
import { advanceClock, obtainToken } from '../_helpers/oauth.ts';
import { call, postJson } from '../_helpers/service.ts';
import { attemptsSettled, startWebhook } from '../_helpers/webhook.ts';
import { BACKENDS, databaseFor, skipUnless } from '../_helpers/backends.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import type { WebhookReceiver } from '../_helpers/webhook.ts';

const AIKO = 'aiko.tanaka@example.com';
const TEAM = 'team-aiko@group.calendar.example.com';
const BEN = 'ben.clarke@example.com';
const WEEK_MS = 604_800_000;
const DEFAULT_FIXTURE = new URL('../../fixtures/default.json', import.meta.url);

const NEW_EVENT = { summary: 'Watched', start: { dateTime: '2026-10-20T10:00:00+09:00' }, end: { dateTime: '2026-10-20T11:00:00+09:00' } };

interface Ctx {
  url: string;
  hook: WebhookReceiver;
  scheduler: ManualScheduler;
}

async function setup(t: { after(fn: () => unknown): void }): Promise<Ctx> {
  const scheduler = new ManualScheduler();
  const service = await start({ port: 0, scheduler });
  t.after(() => service.close());
  return { url: service.url, hook: await startWebhook(t), scheduler };
}

async function token(url: string, scope: string, user = 'user-aiko'): Promise<{ access: string; connectionId: string; refresh?: string }> {
  const obtained = await obtainToken(url, { user, scope, offline: true });
  return { access: obtained.access_token, connectionId: obtained.connectionId as string, ...(obtained.refresh_token ? { refresh: obtained.refresh_token } : {}) };
}

function channel(hook: WebhookReceiver, id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, type: 'web_hook', address: `${hook.url}/${id}`, ...extra };
}

function watchEvents(url: string, access: string, calendarId: string, body: unknown) {
  return api(url, access, `calendars/${encodeURIComponent(calendarId)}/events/watch`, { method: 'POST', body });
}

function watchList(url: string, access: string, body: unknown) {
  return api(url, access, 'users/me/calendarList/watch', { method: 'POST', body });
}

function stop(url: string, access: string | undefined, body: unknown) {
  return api(url, access, 'channels/stop', { method: 'POST', body });
}

function insertEvent(url: string, access: string, calendarId = 'primary') {
  return api(url, access, `calendars/${encodeURIComponent(calendarId)}/events`, { method: 'POST', body: NEW_EVENT });
}

function states(hook: WebhookReceiver, path: string): string[] {
  return hook.at(path).map((h) => `${h.headers['x-goog-message-number']}:${h.headers['x-goog-resource-state']}`);
}

async function serviceNow(url: string): Promise<number> {
  return Date.parse((await call(`${url}/__svc/clock`)).json.now);
}

/** Waits until the control channel received `count` messages and every message sent was answered. */
async function settle(ctx: Ctx, controlPath: string, count: number): Promise<void> {
  await ctx.hook.waitFor(controlPath, count);
  await attemptsSettled(ctx.scheduler);
}

describe('events.watch', () => {
  it('answers the Channel and sends sync (number 1) with the X-Goog-* headers', async (t) => {
    const { url, hook } = await setup(t);
    const { access } = await token(url, 'calendar');
    const before = await serviceNow(url);
    const res = await watchEvents(url, access, 'primary', channel(hook, 'ch-1', { token: 'app-token' }));
    const after = await serviceNow(url);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=UTF-8');
    assert.deepEqual(Object.keys(res.json), ['kind', 'id', 'resourceId', 'resourceUri', 'token', 'expiration']);
    assert.equal(res.json.kind, 'api#channel');
    assert.equal(res.json.id, 'ch-1');
    assert.equal(res.json.resourceUri, `${url}/calendar/v3/calendars/primary/events`);
    assert.equal(res.json.token, 'app-token');
    // int64 as a string, default ttl 604800 s
    assert.equal(typeof res.json.expiration, 'string');
    const expiration = Number(res.json.expiration);
    assert.ok(expiration >= before + WEEK_MS && expiration <= after + WEEK_MS, `${expiration}`);

    const [sync] = await hook.waitFor('/ch-1', 1);
    assert.equal(sync?.method, 'POST');
    assert.equal(sync?.body, '');
    assert.equal(sync?.headers['content-length'], '0');
    assert.equal(sync?.headers['user-agent'], 'APIs-Google');
    assert.equal(sync?.headers['x-goog-channel-id'], 'ch-1');
    assert.equal(sync?.headers['x-goog-message-number'], '1');
    assert.equal(sync?.headers['x-goog-resource-state'], 'sync');
    assert.equal(sync?.headers['x-goog-resource-id'], res.json.resourceId);
    assert.equal(sync?.headers['x-goog-resource-uri'], res.json.resourceUri);
    assert.equal(sync?.headers['x-goog-channel-token'], 'app-token');
    assert.equal(sync?.headers['x-goog-channel-expiration'], new Date(expiration).toUTCString());
  });

  it('sends exists, numbered in order, after each insert, patch, update and delete through the API', async (t) => {
    const { url, hook } = await setup(t);
    const { access } = await token(url, 'calendar');
    assert.equal((await watchEvents(url, access, 'primary', channel(hook, 'ch-seq'))).status, 200);
    await hook.waitFor('/ch-seq', 1);

    const inserted = await insertEvent(url, access);
    assert.equal(inserted.status, 200, inserted.text);
    await hook.waitFor('/ch-seq', 2);
    const path = `calendars/primary/events/${inserted.json.id}`;
    assert.equal((await api(url, access, path, { method: 'PATCH', body: { summary: 'Patched' } })).status, 200);
    await hook.waitFor('/ch-seq', 3);
    assert.equal((await api(url, access, path, { method: 'PUT', body: { ...NEW_EVENT, summary: 'Updated' } })).status, 200);
    await hook.waitFor('/ch-seq', 4);
    assert.equal((await api(url, access, path, { method: 'DELETE' })).status, 204);
    await hook.waitFor('/ch-seq', 5);
    assert.deepEqual(states(hook, '/ch-seq'), ['1:sync', '2:exists', '3:exists', '4:exists', '5:exists']);
  });

  it('sends exists when one instance of a recurring event changes', async (t) => {
    const { url, hook } = await setup(t);
    const { access } = await token(url, 'calendar');
    const series = await api(url, access, 'calendars/primary/events', {
      method: 'POST',
      body: {
        summary: 'Daily',
        start: { dateTime: '2026-10-20T09:00:00+09:00', timeZone: 'Asia/Tokyo' },
        end: { dateTime: '2026-10-20T09:30:00+09:00', timeZone: 'Asia/Tokyo' },
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      },
    });
    assert.equal(series.status, 200, series.text);
    const instances = await api(url, access, `calendars/primary/events/${series.json.id}/instances`);
    assert.equal(instances.status, 200, instances.text);
    const second = instances.json.items[1].id as string;

    assert.equal((await watchEvents(url, access, 'primary', channel(hook, 'ch-inst'))).status, 200);
    await hook.waitFor('/ch-inst', 1);
    assert.equal((await api(url, access, `calendars/primary/events/${second}`, { method: 'PATCH', body: { summary: 'Moved' } })).status, 200);
    await hook.waitFor('/ch-inst', 2);
    assert.equal((await api(url, access, `calendars/primary/events/${second}`, { method: 'DELETE' })).status, 204);
    await hook.waitFor('/ch-inst', 3);
    assert.deepEqual(states(hook, '/ch-inst'), ['1:sync', '2:exists', '3:exists']);
  });

  it('watches one calendar: changes elsewhere do not notify; primary and the calendar id share the resourceId', async (t) => {
    const ctx = await setup(t);
    const { url, hook } = ctx;
    const { access } = await token(url, 'calendar');
    const byAlias = await watchEvents(url, access, 'primary', channel(hook, 'ch-alias'));
    const byId = await watchEvents(url, access, AIKO, channel(hook, 'ch-id'));
    const team = await watchEvents(url, access, TEAM, channel(hook, 'ch-team'));
    assert.equal(byAlias.json.resourceId, byId.json.resourceId);
    assert.notEqual(team.json.resourceId, byId.json.resourceId);
    assert.equal(byId.json.resourceUri, `${url}/calendar/v3/calendars/${encodeURIComponent(AIKO)}/events`);
    await hook.waitFor('/ch-team', 1);

    assert.equal((await insertEvent(url, access, TEAM)).status, 200);
    await settle(ctx, '/ch-team', 2);
    assert.deepEqual(states(hook, '/ch-alias'), ['1:sync']);
    assert.deepEqual(states(hook, '/ch-id'), ['1:sync']);
    // a calendar-list change is not an events change
    assert.equal((await api(url, access, `users/me/calendarList/${encodeURIComponent(TEAM)}`, { method: 'PATCH', body: { colorId: '3' } })).status, 200);
    assert.equal((await insertEvent(url, access, TEAM)).status, 200);
    await settle(ctx, '/ch-team', 3);
    assert.deepEqual(states(hook, '/ch-team'), ['1:sync', '2:exists', '3:exists']);
  });

  it('404 notFound for a calendar the caller does not own, or an unknown one', async (t) => {
    const { url, hook } = await setup(t);
    const { access } = await token(url, 'calendar');
    for (const calendarId of [BEN, 'nobody@example.com']) {
      const res = await watchEvents(url, access, calendarId, channel(hook, 'ch-404'));
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, NOT_FOUND);
    }
    const listed = (await call(`${url}/__svc/channels`)).json.channels;
    assert.deepEqual(listed, []);
  });
});

describe('watch request validation', () => {
  it('refuses a bad Channel body with a 400 naming the problem', async (t) => {
    const { url, hook, scheduler } = await setup(t);
    const { access } = await token(url, 'calendar');
    const address = `${hook.url}/v`;
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['no id', { type: 'web_hook', address }, 'required', /^id is required/],
      ['empty id', { id: '', type: 'web_hook', address }, 'required', /^id is required/],
      ['no type', { id: 'v1', address }, 'required', /^type is required/],
      ['no address', { id: 'v1', type: 'web_hook' }, 'required', /^address is required/],
      ['id not a string', { id: 7, type: 'web_hook', address }, 'invalid', /^id must be a string/],
      ['id of 65 characters', { id: 'x'.repeat(65), type: 'web_hook', address }, 'invalid', /^id must be at most 64 characters/],
      ['id with a control character', { id: 'a\nb', type: 'web_hook', address }, 'invalid', /^id must contain printable ASCII/],
      ['token of 257 characters', { id: 'v1', type: 'web_hook', address, token: 't'.repeat(257) }, 'invalid', /^token must be at most 256/],
      ['token not ASCII', { id: 'v1', type: 'web_hook', address, token: 'tökén' }, 'invalid', /^token must contain printable ASCII/],
      ['unknown type', { id: 'v1', type: 'email', address }, 'invalid', /^type must be web_hook or webhook/],
      ['relative address', { id: 'v1', type: 'web_hook', address: '/hook' }, 'invalid', /^address must be an absolute http: or https: URL/],
      ['ftp address', { id: 'v1', type: 'web_hook', address: 'ftp://127.0.0.1/hook' }, 'invalid', /^address must be an absolute http: or https: URL/],
      ['address with user info', { id: 'v1', type: 'web_hook', address: 'http://u:p@127.0.0.1/hook' }, 'invalid', /^address must not contain user information/],
      ['address with a fragment', { id: 'v1', type: 'web_hook', address: 'http://127.0.0.1/hook#x' }, 'invalid', /^address must not contain a fragment/],
      ['ttl not a number', { id: 'v1', type: 'web_hook', address, params: { ttl: 'soon' } }, 'invalid', /^params.ttl must be a non-negative integer/],
      ['ttl zero', { id: 'v1', type: 'web_hook', address, params: { ttl: '0' } }, 'invalid', /^params.ttl must be at least 1 second/],
      ['params not an object', { id: 'v1', type: 'web_hook', address, params: 'ttl=5' }, 'invalid', /^params must be an object/],
      ['expiration not a number', { id: 'v1', type: 'web_hook', address, expiration: 'tomorrow' }, 'invalid', /^expiration must be a non-negative integer/],
      ['expiration in the past', { id: 'v1', type: 'web_hook', address, expiration: '1000' }, 'invalid', /^expiration must be in the future/],
      ['an array body', [], 'badRequest', /JSON object/],
    ];
    for (const [label, body, expectedReason, message] of cases) {
      for (const res of [await watchEvents(url, access, 'primary', body), await watchList(url, access, body)]) {
        assert.equal(res.status, 400, `${label}: ${res.text}`);
        assert.equal(reason(res).reason, expectedReason, label);
        assert.match(String(reason(res).message), message, label);
      }
    }
    const notJson = await api(url, access, 'calendars/primary/events/watch', { method: 'POST', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
    // nothing was opened, nothing delivered
    assert.deepEqual((await call(`${url}/__svc/channels`)).json.channels, []);
    await attemptsSettled(scheduler);
    assert.equal(hook.received.length, 0);
  });

  it('accepts type webhook, a numeric ttl and expiration, and the longest id and token', async (t) => {
    const { url, hook } = await setup(t);
    const { access } = await token(url, 'calendar');
    const id = 'i'.repeat(64);
    const res = await watchEvents(url, access, 'primary', { id, type: 'webhook', address: `${hook.url}/long`, token: 'k'.repeat(256), params: { ttl: 120 } });
    assert.equal(res.status, 200, res.text);
    const [sync] = await hook.waitFor('/long', 1);
    assert.equal(sync?.headers['x-goog-channel-id'], id);
    assert.equal(sync?.headers['x-goog-channel-token'], 'k'.repeat(256));
  });

  // Google cuts an expiration beyond its limit to that limit ("the more restrictive of the
  // requested value and Google's internal limit", https://developers.google.com/calendar/api/guides/push)
  // but names no number for Calendar: 7 days is a choice (src/push/channels.ts).
  it('the expiration is the soonest of params.ttl, the requested expiration and 7 days', async (t) => {
    const { url, hook } = await setup(t);
    const { access } = await token(url, 'calendar');
    const expirationOf = async (id: string, extra: Record<string, unknown>) => {
      const before = await serviceNow(url);
      const res = await watchEvents(url, access, 'primary', channel(hook, id, extra));
      assert.equal(res.status, 200, res.text);
      return { before, after: await serviceNow(url), expiration: Number(res.json.expiration) };
    };
    const within = (value: number, low: number, high: number) => assert.ok(value >= low && value <= high, `${value} not in [${low}, ${high}]`);

    const ttl = await expirationOf('e-ttl', { params: { ttl: '3600' } });
    within(ttl.expiration, ttl.before + 3_600_000, ttl.after + 3_600_000);
    const requested = (await serviceNow(url)) + 600_000;
    assert.equal((await expirationOf('e-requested', { expiration: String(requested), params: { ttl: '3600' } })).expiration, requested);
    const ttlWins = await expirationOf('e-ttl-wins', { expiration: requested + 10_000_000, params: { ttl: '60' } });
    within(ttlWins.expiration, ttlWins.before + 60_000, ttlWins.after + 60_000);
    const capped = await expirationOf('e-capped', { params: { ttl: String(30 * 86_400) } });
    within(capped.expiration, capped.before + WEEK_MS, capped.after + WEEK_MS);
    const farExpiration = await expirationOf('e-far', { expiration: requested + 30 * 86_400_000 });
    within(farExpiration.expiration, farExpiration.before + WEEK_MS, farExpiration.after + WEEK_MS);
    // the service clock, not the wall clock, sets it (30 minutes: the access token lives an hour)
    await advanceClock(url, 1800);
    const moved = await expirationOf('e-moved', {});
    within(moved.expiration, moved.before + WEEK_MS, moved.after + WEEK_MS);
  });

  // Google's answer to a reused id, as developers report it: 400 channelIdNotUnique, "Channel id
  // <id> not unique" (https://github.com/autokitteh/autokitteh/pull/1015), also after the
  // channel was stopped (https://github.com/windmill-labs/windmill/pull/8870).
  for (const backend of BACKENDS) {
    it(`a channel id used before is 400 channelIdNotUnique, for any connection, stopped or gone; reset forgets (${backend})`, { skip: skipUnless(backend) }, async (t) => {
      const hook = await startWebhook(t);
      const service = await start({ port: 0, scheduler: new ManualScheduler(), db: databaseFor(t, backend) });
      t.after(() => service.close());
      const { url } = service;
      const aiko = await token(url, 'calendar');
      const ben = await token(url, 'calendar', 'user-ben');
      const refused = async (id: string, access = ben.access) => {
        const res = await watchEvents(url, access, 'primary', channel(hook, id));
        assert.equal(res.status, 400, `${id}: ${res.text}`);
        assert.equal(reason(res).reason, 'channelIdNotUnique');
        assert.equal(reason(res).message, `Channel id ${id} not unique`);
      };
      const first = await watchEvents(url, aiko.access, 'primary', channel(hook, 'dup'));
      assert.equal(first.status, 200);
      for (const res of [
        await watchEvents(url, aiko.access, TEAM, channel(hook, 'dup')),
        await watchList(url, aiko.access, channel(hook, 'dup')),
        await watchEvents(url, ben.access, 'primary', channel(hook, 'dup')),
      ]) {
        assert.equal(res.status, 400);
        assert.equal(reason(res).reason, 'channelIdNotUnique');
        assert.equal(reason(res).message, 'Channel id dup not unique');
      }
      assert.equal((await stop(url, aiko.access, { id: 'dup', resourceId: first.json.resourceId })).status, 204);
      await refused('dup');
      await refused('dup', aiko.access);
      // a channel gone with its connection or its user leaves its id used too
      assert.equal((await watchEvents(url, aiko.access, 'primary', channel(hook, 'revoked'))).status, 200);
      assert.equal((await call(`${url}/__svc/connections/${aiko.connectionId}/revoke`, { method: 'POST' })).status, 204);
      await refused('revoked');
      assert.equal((await watchEvents(url, ben.access, 'primary', channel(hook, 'deleted-user'))).status, 200);
      assert.equal((await call(`${url}/__svc/users/user-ben`, { method: 'DELETE' })).status, 204);
      await refused('deleted-user', (await token(url, 'calendar')).access);
      assert.equal((await call(`${url}/__svc/reset`, { method: 'POST' })).status, 204);
      const fresh = await token(url, 'calendar');
      for (const id of ['dup', 'revoked', 'deleted-user']) assert.equal((await watchEvents(url, fresh.access, 'primary', channel(hook, id))).status, 200, id);
    });
  }

  it('a stopped channel\'s id stays used across a restart and for a second service on the same file', { skip: SQLITE_SKIP }, async (t) => {
    const hook = await startWebhook(t);
    const db = databaseFor(t, 'sqlite');
    const first = await start({ port: 0, scheduler: new ManualScheduler(), db });
    const second = await start({ port: 0, scheduler: new ManualScheduler(), db });
    t.after(() => second.close());
    const aiko = await token(first.url, 'calendar');
    const opened = await watchEvents(first.url, aiko.access, 'primary', channel(hook, 'kept'));
    assert.equal(opened.status, 200);
    assert.equal((await stop(first.url, aiko.access, { id: 'kept', resourceId: opened.json.resourceId })).status, 204);
    const other = await token(second.url, 'calendar', 'user-ben');
    assert.equal(reason(await watchEvents(second.url, other.access, 'primary', channel(hook, 'kept'))).reason, 'channelIdNotUnique');
    await first.close();
    const restarted = await start({ port: 0, scheduler: new ManualScheduler(), db });
    t.after(() => restarted.close());
    const again = await token(restarted.url, 'calendar');
    assert.equal(reason(await watchEvents(restarted.url, again.access, 'primary', channel(hook, 'kept'))).reason, 'channelIdNotUnique');
  });
});

describe('calendarList.watch', () => {
  it('answers the Channel for the caller\'s list and sends exists after insert, patch, update and delete of an entry', async (t) => {
    const { url, hook } = await setup(t);
    const { access } = await token(url, 'calendar');
    const res = await watchList(url, access, channel(hook, 'list'));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.resourceUri, `${url}/calendar/v3/users/me/calendarList`);
    assert.equal(res.json.token, undefined);
    await hook.waitFor('/list', 1);
    const entry = `users/me/calendarList/${encodeURIComponent(TEAM)}`;
    assert.equal((await api(url, access, entry, { method: 'PATCH', body: { colorId: '5' } })).status, 200);
    await hook.waitFor('/list', 2);
    assert.equal((await api(url, access, entry, { method: 'PUT', body: { colorId: '6' } })).status, 200);
    await hook.waitFor('/list', 3);
    assert.equal((await api(url, access, entry, { method: 'DELETE' })).status, 204);
    await hook.waitFor('/list', 4);
    assert.equal((await api(url, access, 'users/me/calendarList', { method: 'POST', body: { id: TEAM } })).status, 200);
    await hook.waitFor('/list', 5);
    assert.deepEqual(states(hook, '/list'), ['1:sync', '2:exists', '3:exists', '4:exists', '5:exists']);
    assert.equal(hook.at('/list')[0]?.headers['x-goog-channel-token'], undefined);
  });

  it('is per user: another user\'s list changes and event changes do not notify', async (t) => {
    const ctx = await setup(t);
    const { url, hook } = ctx;
    const aiko = await token(url, 'calendar');
    const ben = await token(url, 'calendar', 'user-ben');
    const aikoList = await watchList(url, aiko.access, channel(hook, 'aiko-list'));
    const benList = await watchList(url, ben.access, channel(hook, 'ben-list'));
    assert.notEqual(aikoList.json.resourceId, benList.json.resourceId);
    await hook.waitFor('/aiko-list', 1);
    assert.equal((await insertEvent(url, aiko.access)).status, 200);
    assert.equal((await api(url, ben.access, 'users/me/calendarList/primary', { method: 'PATCH', body: { colorId: '2' } })).status, 200);
    await settle(ctx, '/ben-list', 2);
    assert.deepEqual(states(hook, '/aiko-list'), ['1:sync']);
  });
});

describe('channels.stop', () => {
  it('204 with an empty body for the opening connection; nothing is delivered afterwards', async (t) => {
    const ctx = await setup(t);
    const { url, hook } = ctx;
    const { access } = await token(url, 'calendar');
    const opened = await watchEvents(url, access, 'primary', channel(hook, 'stopped'));
    await watchEvents(url, access, 'primary', channel(hook, 'control'));
    await hook.waitFor('/stopped', 1);
    const res = await stop(url, access, { id: 'stopped', resourceId: opened.json.resourceId, token: 'ignored' });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await insertEvent(url, access)).status, 200);
    await settle(ctx, '/control', 2);
    assert.deepEqual(states(hook, '/stopped'), ['1:sync']);
    // gone: a second stop is 404
    assert.equal((await stop(url, access, { id: 'stopped', resourceId: opened.json.resourceId })).status, 404);
  });

  it('404 notFound for another connection of the same user, another user, a wrong resourceId or an unknown id; the channel goes on', async (t) => {
    const { url, hook } = await setup(t);
    const owner = await token(url, 'calendar');
    const sameUser = await token(url, 'calendar');
    const ben = await token(url, 'calendar', 'user-ben');
    const opened = await watchEvents(url, owner.access, 'primary', channel(hook, 'kept'));
    const resourceId = opened.json.resourceId as string;
    for (const [access, body] of [
      [sameUser.access, { id: 'kept', resourceId }],
      [ben.access, { id: 'kept', resourceId }],
      [owner.access, { id: 'kept', resourceId: 'wrong' }],
      [owner.access, { id: 'unknown', resourceId }],
    ] as const) {
      const res = await stop(url, access, body);
      assert.equal(res.status, 404, JSON.stringify(body));
      assert.deepEqual(res.json, NOT_FOUND);
    }
    assert.equal((await insertEvent(url, owner.access)).status, 200);
    await hook.waitFor('/kept', 2);
    assert.deepEqual(states(hook, '/kept'), ['1:sync', '2:exists']);
    assert.equal((await stop(url, owner.access, { id: 'kept', resourceId })).status, 204);
  });

  it('400 for a body without id or resourceId', async (t) => {
    const { url } = await setup(t);
    const { access } = await token(url, 'calendar');
    const missingId = await stop(url, access, { resourceId: 'r' });
    assert.equal(missingId.status, 400);
    assert.equal(reason(missingId).reason, 'required');
    assert.match(String(reason(missingId).message), /^id is required/);
    const missingResource = await stop(url, access, { id: 'x' });
    assert.equal(missingResource.status, 400);
    assert.match(String(reason(missingResource).message), /^resourceId is required/);
  });

  it('401 without a token', async (t) => {
    const { url } = await setup(t);
    assert.equal((await stop(url, undefined, { id: 'x', resourceId: 'y' })).status, 401);
  });
});

describe('channels stopped by the workspace', () => {
  // Each case: Aiko's connection opens `victim`; a second connection's `control` channel on the
  // same calendar (when the case leaves the calendar in place) proves a later change went out.
  async function victimAndControl(t: { after(fn: () => unknown): void }) {
    const ctx = await setup(t);
    const victim = await token(ctx.url, 'calendar');
    const other = await token(ctx.url, 'calendar');
    assert.equal((await watchEvents(ctx.url, victim.access, 'primary', channel(ctx.hook, 'victim'))).status, 200);
    assert.equal((await watchList(ctx.url, victim.access, channel(ctx.hook, 'victim-list'))).status, 200);
    assert.equal((await watchEvents(ctx.url, other.access, 'primary', channel(ctx.hook, 'control'))).status, 200);
    await ctx.hook.waitFor('/victim', 1);
    await ctx.hook.waitFor('/control', 1);
    return { ...ctx, victim, other };
  }

  async function assertVictimSilent(ctx: Ctx & { other: { access: string } }) {
    assert.equal((await insertEvent(ctx.url, ctx.other.access)).status, 200);
    await settle(ctx, '/control', 2);
    assert.deepEqual(states(ctx.hook, '/victim'), ['1:sync']);
    const ids = (await call(`${ctx.url}/__svc/channels`)).json.channels.map((c: { id: string }) => c.id);
    assert.deepEqual(ids, ['control']);
  }

  it('POST /oauth/revoke', async (t) => {
    const ctx = await victimAndControl(t);
    const res = await call(`${ctx.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: ctx.victim.refresh as string }).toString(),
    });
    assert.equal(res.status, 200);
    await assertVictimSilent(ctx);
  });

  it('POST /__svc/connections/{grantId}/revoke', async (t) => {
    const ctx = await victimAndControl(t);
    assert.equal((await call(`${ctx.url}/__svc/connections/${ctx.victim.connectionId}/revoke`, { method: 'POST' })).status, 204);
    await assertVictimSilent(ctx);
  });

  it('DELETE /__svc/users/{id}', async (t) => {
    const ctx = await setup(t);
    const aiko = await token(ctx.url, 'calendar');
    const ben = await token(ctx.url, 'calendar', 'user-ben');
    assert.equal((await watchEvents(ctx.url, aiko.access, 'primary', channel(ctx.hook, 'aiko'))).status, 200);
    assert.equal((await watchList(ctx.url, aiko.access, channel(ctx.hook, 'aiko-list'))).status, 200);
    assert.equal((await watchEvents(ctx.url, ben.access, 'primary', channel(ctx.hook, 'ben'))).status, 200);
    assert.equal((await call(`${ctx.url}/__svc/users/user-aiko`, { method: 'DELETE' })).status, 204);
    const ids = (await call(`${ctx.url}/__svc/channels`)).json.channels.map((c: { id: string }) => c.id);
    assert.deepEqual(ids, ['ben']);
  });

  for (const [name, replace] of [
    ['POST /__svc/reset', (url: string) => call(`${url}/__svc/reset`, { method: 'POST' })],
    ['POST /__svc/fixtures', (url: string) => postJson(`${url}/__svc/fixtures`, JSON.parse(readFileSync(DEFAULT_FIXTURE, 'utf8')))],
  ] as const) {
    it(name, async (t) => {
      const ctx = await victimAndControl(t);
      const answer = await replace(ctx.url);
      assert.ok(answer.status === 204 || answer.status === 200, answer.text);
      assert.deepEqual((await call(`${ctx.url}/__svc/channels`)).json.channels, []);
      // the same calendar, watched afresh by a new connection, hears the next change; the old channels do not
      const fresh = await token(ctx.url, 'calendar');
      assert.equal((await watchEvents(ctx.url, fresh.access, 'primary', channel(ctx.hook, 'fresh'))).status, 200);
      assert.equal((await insertEvent(ctx.url, fresh.access)).status, 200);
      await settle(ctx, '/fresh', 2);
      assert.deepEqual(states(ctx.hook, '/victim'), ['1:sync']);
      assert.deepEqual(states(ctx.hook, '/control'), ['1:sync']);
    });
  }
});

describe('delivery through the service', () => {
  it('retries after a 500: two attempts logged, the message delivered once', async (t) => {
    const { url, hook, scheduler } = await setup(t);
    const { access, connectionId } = await token(url, 'calendar');
    hook.failNext(1, 500);
    const opened = await watchEvents(url, access, 'primary', channel(hook, 'retry'));
    const { retryBaseMs } = DEFAULT_DELIVERY_OPTIONS;
    await scheduler.until(() => scheduler.waiting(retryBaseMs) === 1, 'the retry wait');
    scheduler.advance(retryBaseMs);
    await hook.waitFor('/retry', 2);
    await attemptsSettled(scheduler);
    assert.deepEqual(hook.at('/retry').map((h) => [h.headers['x-goog-message-number'], h.answered]), [
      ['1', 500],
      ['1', 200],
    ]);
    const listed = (await call(`${url}/__svc/channels`)).json.channels[0];
    assert.deepEqual({ ...listed, deliveries: undefined }, {
      id: 'retry',
      resourceId: opened.json.resourceId,
      resourceUri: opened.json.resourceUri,
      address: `${hook.url}/retry`,
      expiration: new Date(Number(opened.json.expiration)).toISOString(),
      connectionId,
      deliveries: undefined,
    });
    assert.deepEqual(listed.deliveries.map((d: any) => [d.messageNumber, d.state, d.status, d.outcome]), [
      [1, 'sync', 500, 'retrying'],
      [1, 'sync', 200, 'delivered'],
    ]);
    assert.ok(listed.deliveries.every((d: any) => !Number.isNaN(Date.parse(d.at))));
  });

  it('an expired channel (service clock) delivers nothing', async (t) => {
    const ctx = await setup(t);
    const { url, hook } = ctx;
    const { access } = await token(url, 'calendar');
    assert.equal((await watchEvents(url, access, 'primary', channel(hook, 'short', { params: { ttl: '60' } }))).status, 200);
    await hook.waitFor('/short', 1);
    await advanceClock(url, 61);
    assert.equal((await watchEvents(url, access, 'primary', channel(hook, 'control'))).status, 200);
    assert.equal((await insertEvent(url, access)).status, 200);
    await settle(ctx, '/control', 2);
    assert.deepEqual(states(hook, '/short'), ['1:sync']);
    // still listed, with its past expiration
    const listed = (await call(`${url}/__svc/channels`)).json.channels.map((c: { id: string }) => c.id);
    assert.deepEqual(listed, ['short', 'control']);
  });

  it('the API answer does not wait for the receiver', { timeout: 10_000 }, async (t) => {
    const { url, hook, scheduler } = await setup(t);
    const { access } = await token(url, 'calendar');
    hook.hangNext(5);
    const res = await watchEvents(url, access, 'primary', channel(hook, 'slow'));
    assert.equal(res.status, 200);
    await hook.waitFor('/slow', 1);
    assert.equal((await insertEvent(url, access)).status, 200);
    // The attempt never times out on this scheduler: the receiver still holds the sync message.
    assert.deepEqual(hook.at('/slow').map((h) => h.answered), [null]);
    assert.equal(scheduler.waiting(DEFAULT_DELIVERY_OPTIONS.timeoutMs), 1, 'the watch and insert answered while the receiver hung');
  });
});

describe('scopes', () => {
  it('watch needs a scope that allows the matching list operation; stop is allowed by each scope docs/calendar-api.md lists', async (t) => {
    const { url, hook } = await setup(t);
    const cases: Array<[string, { events: boolean; list: boolean; stop: boolean }]> = [
      ['calendar', { events: true, list: true, stop: true }],
      ['calendar.readonly', { events: true, list: true, stop: true }],
      ['calendar.events', { events: true, list: false, stop: true }],
      ['calendar.events.readonly', { events: true, list: false, stop: true }],
      ['calendar.calendarlist', { events: false, list: true, stop: true }],
      ['calendar.calendarlist.readonly', { events: false, list: true, stop: true }],
      ['calendar.calendars.readonly', { events: false, list: false, stop: false }],
      ['calendar.freebusy', { events: false, list: false, stop: false }],
      ['calendar.events.freebusy', { events: false, list: false, stop: false }],
    ];
    for (const [scope, allowed] of cases) {
      const { access } = await token(url, scope);
      const events = await watchEvents(url, access, 'primary', channel(hook, `${scope}-e`));
      const list = await watchList(url, access, channel(hook, `${scope}-l`));
      for (const [res, ok] of [[events, allowed.events], [list, allowed.list]] as const) {
        if (ok) assert.equal(res.status, 200, `${scope}: ${res.text}`);
        else assert.deepEqual([res.status, res.json], [403, INSUFFICIENT_PERMISSIONS], scope);
      }
      const own = allowed.events ? events : allowed.list ? list : undefined;
      const stopped = await stop(url, access, { id: own?.json.id ?? 'none', resourceId: own?.json.resourceId ?? 'none' });
      if (!allowed.stop) assert.deepEqual([stopped.status, stopped.json], [403, INSUFFICIENT_PERMISSIONS], scope);
      else assert.equal(stopped.status, 204, `${scope}: ${stopped.text}`);
    }
  });
});
