// GET /userinfo (docs/oauth.md, "Profile response"): claims chosen by the token's scopes. Errors use
// Google's envelope, like the calendar API, since Google's userinfo endpoint answers that way.

import { googleErrors } from '../api/google-error.ts';
import { faulted } from '../faults/intercept.ts';
import type { ApiRequest } from '../http/request.ts';
import { json } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import { authenticate, hasAnyScope, traceIdentity } from './bearer.ts';
import type { BearerAuth } from './bearer.ts';
import type { OAuthContext } from './context.ts';
import { EMAIL_SCOPES, PROFILE_SCOPES, USERINFO_SCOPES } from './scopes.ts';

interface Profile {
  sub: string;
  id: string;
  email?: string;
  verified_email?: true;
  email_verified?: true;
  name?: string;
}

export function userinfo(ctx: OAuthContext, req: ApiRequest): Result | Promise<Result> {
  const auth = authenticate(ctx.app, ctx.bearers, req);
  traceIdentity(req, auth);
  if (!hasAnyScope(auth, USERINFO_SCOPES)) throw googleErrors.insufficientPermissions();
  // docs/faults.md: after authentication and the scope check, as on the calendar API.
  return faulted(ctx.faults, req, {}, () => profileAnswer(auth));
}

function profileAnswer(auth: BearerAuth): Result {
  // Never picture, given_name, family_name or locale: the test users have none of them.
  const profile: Profile = { sub: auth.user.id, id: auth.user.id };
  if (hasAnyScope(auth, EMAIL_SCOPES)) {
    profile.email = auth.user.email;
    profile.verified_email = true;
    profile.email_verified = true;
  }
  if (hasAnyScope(auth, PROFILE_SCOPES)) profile.name = auth.user.name;
  return json(200, profile, { 'Cache-Control': 'no-store' });
}
