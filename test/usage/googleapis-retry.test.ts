// Google's official Node client (googleapis, with gaxios under it) against the usage limits of
// docs/usage-limits.md: what its own retry logic does with the service's 429 and 403 answers. gaxios
// retries 429 (and 5xx) on GET by default and never 403 unless told to (its retry config,
// `statusCodesToRetry`); googleapis turns retries on for every call. A retry hook of the client
// (`onRetryAttempt`) moves the service clock a minute, so the retry finds room in the window, and
// `retryBackoff` stands in for gaxios's real backoff wait, so nothing here sleeps.
//
// The client is installed outside the repository, where .ci/run puts it for the quickstarts
// (test/quickstarts/languages.ts); without it this file skips with the reason.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODE_CLIENT_DIR } from '../quickstarts/languages.ts';
import { advanceClock, obtainToken } from '../_helpers/oauth.ts';
import { call, postJson, startService } from '../_helpers/service.ts';

const INSTALLED = existsSync(join(NODE_CLIENT_DIR, 'node_modules', 'googleapis', 'package.json'));
const SKIP = INSTALLED ? false : `googleapis is not installed in ${NODE_CLIENT_DIR} (.ci/run installs it there)`;
if (SKIP) console.log(`# skipped: ${SKIP}`);

/** The client, loaded from its own folder as an application there would load it. */
function googleapis(): any {
  return createRequire(join(NODE_CLIENT_DIR, 'index.js'))('googleapis');
}

interface Retries {
  attempts: number;
}

/** A service with limits on, and a googleapis Calendar client of Aiko's; `retryConfig` is gaxios's. */
async function client(t: { after(fn: () => unknown): void }, limits: { quotaUserPerMinute: number; quotaProjectPerMinute: number }, retryConfig: object) {
  const url = await startService(t, { quotas: true, ...limits });
  assert.equal((await postJson(`${url}/__svc/clock`, { now: '2030-01-07T09:00:00.000Z' })).status, 200);
  const { google } = googleapis();
  const auth = new google.auth.OAuth2();
  auth.setCredentials({ access_token: (await obtainToken(url, { scope: 'calendar' })).access_token });
  const calendar = google.calendar({ version: 'v3', rootUrl: `${url}/`, auth, retryConfig });
  const sent = async (): Promise<number> => (await call(`${url}/__svc/usage`)).json.byMethod['calendar.calendarList.list'] ?? 0;
  return { url, calendar, sent };
}

/** gaxios retry settings that wait for nothing and count the retries. */
function immediate(retries: Retries, extra: object = {}): object {
  return {
    retryBackoff: () => Promise.resolve(),
    onRetryAttempt: () => {
      retries.attempts++;
    },
    ...extra,
  };
}

/** The call fails as gaxios reports Google's error: the status, and the envelope's first reason. */
async function rejectsWith(call: Promise<unknown>, status: number, reason: string): Promise<any> {
  let caught: any;
  await assert.rejects(call, (error: any) => {
    caught = error;
    return true;
  });
  assert.equal(caught.status, status);
  assert.equal(caught.response.data.error.errors[0].domain, 'usageLimits');
  assert.equal(caught.response.data.error.errors[0].reason, reason);
  return caught;
}

describe('googleapis against the usage limits', { skip: SKIP }, () => {
  it('429 rateLimitExceeded: the client retries on its own and succeeds once the minute has room', async (t) => {
    const retries = { attempts: 0 };
    let url = '';
    const started = await client(t, { quotaUserPerMinute: 100, quotaProjectPerMinute: 2 }, {
      ...immediate(retries),
      // The minute passes while the client backs off.
      onRetryAttempt: async () => {
        retries.attempts++;
        await advanceClock(url, 60);
      },
    });
    url = started.url;
    await started.calendar.calendarList.list();
    await started.calendar.calendarList.list();
    const third = await started.calendar.calendarList.list();
    assert.equal(third.status, 200);
    assert.equal(retries.attempts, 1);
    assert.equal(await started.sent(), 4, 'three calls, one of them sent twice');
  });

  it('429 rateLimitExceeded: with no room in time the client gives up after its retries and sees Google\'s error', async (t) => {
    const retries = { attempts: 0 };
    const { calendar, sent } = await client(t, { quotaUserPerMinute: 100, quotaProjectPerMinute: 1 }, immediate(retries));
    await calendar.calendarList.list();
    const error = await rejectsWith(calendar.calendarList.list(), 429, 'rateLimitExceeded');
    assert.equal(error.response.data.error.status, 'RESOURCE_EXHAUSTED');
    // gaxios's default: three retries.
    assert.equal(retries.attempts, 3);
    assert.equal(await sent(), 5);
  });

  it('403 userRateLimitExceeded: not retried by default, the caller sees the error naming the per-user limit', async (t) => {
    const retries = { attempts: 0 };
    const { calendar, sent } = await client(t, { quotaUserPerMinute: 1, quotaProjectPerMinute: 100 }, immediate(retries));
    await calendar.calendarList.list();
    const error = await rejectsWith(calendar.calendarList.list(), 403, 'userRateLimitExceeded');
    assert.match(error.message, /Queries per minute per user/);
    assert.equal(retries.attempts, 0);
    assert.equal(await sent(), 2);
  });

  it('403 userRateLimitExceeded: a client told to retry 403 succeeds once the minute has room', async (t) => {
    const retries = { attempts: 0 };
    let url = '';
    const started = await client(t, { quotaUserPerMinute: 1, quotaProjectPerMinute: 100 }, {
      ...immediate(retries),
      statusCodesToRetry: [[403, 403], [429, 429], [500, 599]],
      onRetryAttempt: async () => {
        retries.attempts++;
        await advanceClock(url, 60);
      },
    });
    url = started.url;
    await started.calendar.calendarList.list();
    const second = await started.calendar.calendarList.list();
    assert.equal(second.status, 200);
    assert.equal(retries.attempts, 1);
  });
});
