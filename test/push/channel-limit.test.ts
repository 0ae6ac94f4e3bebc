// At most MAX_ACTIVE_CHANNELS_PER_CONNECTION live channels per connection:
// one more is 400 badRequest naming the limit; stopped and expired channels do not count.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { MAX_ACTIVE_CHANNELS_PER_CONNECTION } from '../../src/push/channels.ts';
import { api, reason } from '../_helpers/calendar.ts';
import { advanceClock, obtainToken } from '../_helpers/oauth.ts';
import { startWebhook } from '../_helpers/webhook.ts';

describe('channels per connection', () => {
  it(`${MAX_ACTIVE_CHANNELS_PER_CONNECTION} active channels at most; stopped and expired ones free a place`, async (t) => {
    const service = await start({ port: 0 });
    t.after(() => service.close());
    const hook = await startWebhook(t);
    const url = service.url;
    const { access_token: access } = await obtainToken(url, { scope: 'calendar.readonly' });
    const watch = (token: string, id: string, ttl = '3600') =>
      api(url, token, 'calendars/primary/events/watch', { method: 'POST', body: { id, type: 'web_hook', address: `${hook.url}/h`, params: { ttl } } });

    const opened = [];
    // Ten short-lived channels among the hundred: they expire first.
    for (let n = 0; n < MAX_ACTIVE_CHANNELS_PER_CONNECTION; n++) {
      const answer = await watch(access, `c${n}`, n < 10 ? '60' : '3600');
      assert.equal(answer.status, 200, `channel ${n}`);
      opened.push(answer.json as { id: string; resourceId: string });
    }
    const refused = await watch(access, 'one-too-many');
    assert.equal(refused.status, 400);
    assert.equal(reason(refused).reason, 'badRequest');
    assert.match(reason(refused).message ?? '', new RegExp(`already has ${MAX_ACTIVE_CHANNELS_PER_CONNECTION} active channels`));

    // Another connection, even of the same user, has its own allowance.
    const { access_token: other } = await obtainToken(url, { scope: 'calendar.readonly' });
    assert.equal((await watch(other, 'other-connection')).status, 200);

    // A stopped channel frees its place, once.
    const first = opened[0] as { id: string; resourceId: string };
    assert.equal((await api(url, access, 'channels/stop', { method: 'POST', body: { id: first.id, resourceId: first.resourceId } })).status, 204);
    assert.equal((await watch(access, 'after-stop')).status, 200);
    assert.equal((await watch(access, 'after-stop-2')).status, 400);

    // Expired channels (service clock) do not count: nine of the short-lived ones are still stored.
    await advanceClock(url, 61);
    for (let n = 0; n < 9; n++) assert.equal((await watch(access, `after-expiry-${n}`)).status, 200, `after expiry ${n}`);
    assert.equal((await watch(access, 'after-expiry-full')).status, 400);
  });
});
