// Channels on a database file outlive a restart and go on delivering with the next message
// number; an expired one stays silent; under :memory: none survives (https://developers.google.com/workspace/calendar/api/guides/push, spec
// "Watch channel"). The webhook receiver outlives both service runs.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { api } from '../_helpers/calendar.ts';
import { ManualScheduler } from '../_helpers/manual-time.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { advanceClock, obtainToken } from '../_helpers/oauth.ts';
import { call } from '../_helpers/service.ts';
import { attemptsSettled, startWebhook } from '../_helpers/webhook.ts';
import type { WebhookReceiver } from '../_helpers/webhook.ts';

const NEW_EVENT = { summary: 'After restart', start: { dateTime: '2026-10-21T10:00:00+09:00' }, end: { dateTime: '2026-10-21T11:00:00+09:00' } };

function watch(url: string, access: string, hook: WebhookReceiver, id: string, extra: Record<string, unknown> = {}) {
  return api(url, access, 'calendars/primary/events/watch', { method: 'POST', body: { id, type: 'web_hook', address: `${hook.url}/${id}`, ...extra } });
}

function insert(url: string, access: string) {
  return api(url, access, 'calendars/primary/events', { method: 'POST', body: NEW_EVENT });
}

function numbers(hook: WebhookReceiver, path: string): string[] {
  return hook.at(path).map((h) => `${h.headers['x-goog-message-number']}:${h.headers['x-goog-resource-state']}`);
}

describe('channels on a database file', { skip: SQLITE_SKIP }, () => {
  it('survive a restart; the next change delivers with the next message number', async (t) => {
    const hook = await startWebhook(t);
    const db = join(mkdtempSync(join(tmpdir(), 'cal-push-')), 'calendar.db');
    const first = await start({ port: 0, db });
    const { access_token: access } = await obtainToken(first.url, { scope: 'calendar' });
    const opened = await watch(first.url, access, hook, 'durable', { token: 'kept' });
    assert.equal(opened.status, 200, opened.text);
    await hook.waitFor('/durable', 1);
    assert.equal((await insert(first.url, access)).status, 200);
    await hook.waitFor('/durable', 2);
    await first.close();

    const second = await start({ port: 0, db });
    t.after(() => second.close());
    const listed = (await call(`${second.url}/__svc/channels`)).json.channels;
    assert.deepEqual(listed.map((c: { id: string; deliveries: unknown[] }) => [c.id, c.deliveries]), [['durable', []]]);
    // the access token is persisted too (spec, "Access token")
    assert.equal((await insert(second.url, access)).status, 200);
    const hooks = await hook.waitFor('/durable', 3);
    assert.deepEqual(numbers(hook, '/durable'), ['1:sync', '2:exists', '3:exists']);
    const last = hooks[2];
    assert.equal(last?.headers['x-goog-resource-id'], opened.json.resourceId);
    assert.equal(last?.headers['x-goog-resource-uri'], opened.json.resourceUri);
    assert.equal(last?.headers['x-goog-channel-token'], 'kept');
    assert.equal(last?.headers['x-goog-channel-expiration'], new Date(Number(opened.json.expiration)).toUTCString());
  });

  it('an expired channel stays silent after a restart', async (t) => {
    const hook = await startWebhook(t);
    const db = join(mkdtempSync(join(tmpdir(), 'cal-push-')), 'calendar.db');
    const first = await start({ port: 0, db });
    const { access_token: access } = await obtainToken(first.url, { scope: 'calendar' });
    assert.equal((await watch(first.url, access, hook, 'brief', { params: { ttl: '60' } })).status, 200);
    await hook.waitFor('/brief', 1);
    await first.close();

    const scheduler = new ManualScheduler();
    const second = await start({ port: 0, db, scheduler });
    t.after(() => second.close());
    await advanceClock(second.url, 61);
    assert.equal((await watch(second.url, access, hook, 'control')).status, 200);
    assert.equal((await insert(second.url, access)).status, 200);
    // the change went to every live channel at once: once control has it and nothing is in flight,
    // the expired channel would have had it too
    await hook.waitFor('/control', 2);
    await attemptsSettled(scheduler);
    assert.deepEqual(numbers(hook, '/brief'), ['1:sync']);
  });
});

describe('channels under :memory:', () => {
  it('do not survive a restart', async (t) => {
    const hook = await startWebhook(t);
    const first = await start({ port: 0 });
    const { access_token: access } = await obtainToken(first.url, { scope: 'calendar' });
    assert.equal((await watch(first.url, access, hook, 'ephemeral')).status, 200);
    assert.equal((await call(`${first.url}/__svc/channels`)).json.channels.length, 1);
    await first.close();
    const second = await start({ port: 0 });
    t.after(() => second.close());
    assert.deepEqual((await call(`${second.url}/__svc/channels`)).json.channels, []);
  });
});
