// Spec "Limits": at most 1,000 consents pending at a time; the next gets 429 rateLimitExceeded.
// Its own file, so the 1,000 pending consents do not leak into other tests.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { advanceClock, approveConsent, authorizeQuery, parseConsentPage } from '../_helpers/oauth.ts';
import { call, startService } from '../_helpers/service.ts';

it('the 1,001st pending consent gets 429 rateLimitExceeded until one ends', async (t) => {
  const base = await startService(t);
  const url = `${base}/oauth/authorize?${authorizeQuery()}`;
  let first = '';
  for (let i = 0; i < 1000; i += 50) {
    const pages = await Promise.all(Array.from({ length: 50 }, () => call(url)));
    for (const page of pages) assert.equal(page.status, 200);
    if (i === 0) first = parseConsentPage((pages[0] as { text: string }).text).nonce;
  }
  const refused = await call(url);
  assert.equal(refused.status, 429);
  assert.equal(refused.json.error, 'rateLimitExceeded');
  assert.equal(typeof refused.json.error_description, 'string');

  // a decided consent frees its place
  await approveConsent(base, first, 'user-aiko');
  assert.equal((await call(url)).status, 200);
  assert.equal((await call(url)).status, 429);

  // expired consents do not count
  await advanceClock(base, 300);
  assert.equal((await call(url)).status, 200);
});

it('reset deletes every pending consent', async (t) => {
  const base = await startService(t);
  const page = parseConsentPage((await call(`${base}/oauth/authorize?${authorizeQuery()}`)).text);
  assert.equal((await call(`${base}/__svc/reset`, { method: 'POST' })).status, 204);
  await assert.rejects(approveConsent(base, page.nonce, 'user-aiko'), /invalid_request/);
});
