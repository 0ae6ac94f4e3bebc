// Spec "Endpoints": unsupported methods on /oauth/* and the hosted provider's /oauth2/... paths
// answer 501 unsupportedFeature.

import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { call, startService } from '../_helpers/service.ts';

let base: string;
before(async (t) => {
  base = await startService(t as never);
});

const UNSUPPORTED = { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' };

const cases: Array<[string, string]> = [
  ['PUT', '/oauth/authorize'],
  ['DELETE', '/oauth/authorize'],
  ['PATCH', '/oauth/token'],
  ['GET', '/oauth/token'],
  ['GET', '/oauth/revoke'],
  ['GET', '/oauth'],
  ['GET', '/oauth/'],
  ['GET', '/oauth/userinfo'],
  ['POST', '/oauth/introspect'],
  ['GET', '/oauth/authorize/extra'],
  ['POST', '/oauth2/token'],
  ['POST', '/oauth2/v4/token'],
  ['GET', '/oauth2/v3/userinfo'],
  ['GET', '/oauth2/v2/userinfo'],
  ['GET', '/oauth2/v2/auth'],
  ['POST', '/oauth2/revoke'],
  ['GET', '/oauth2/v3/certs'],
  ['GET', '/.well-known/openid-configuration'],
  ['PUT', '/userinfo'],
  ['DELETE', '/userinfo'],
];

for (const [method, path] of cases) {
  it(`${method} ${path} -> 501`, async () => {
    const res = await call(`${base}${path}`, { method });
    assert.equal(res.status, 501);
    assert.deepEqual(res.json, UNSUPPORTED);
  });
}
