// POST /oauth/revoke (RFC 7009, docs/oauth.md, "POST /oauth/revoke", docs/oauth.md): no client
// authentication; a valid access or refresh token revokes its whole connection; an unknown token
// is not an error (RFC 7009 §2.2), so the answer does not tell whether a token existed.

import { faulted } from '../faults/intercept.ts';
import type { ApiRequest } from '../http/request.ts';
import { formBody } from '../http/request.ts';
import { empty } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import type { OAuthContext } from './context.ts';
import { OAuthError } from './errors.ts';
import { single } from './params.ts';
import { connectionOfToken } from './tokens.ts';

export function revokeToken(ctx: OAuthContext, req: ApiRequest): Result | Promise<Result> {
  const token = single(formBody(req), 'token') ?? single(req.query, 'token');
  if (token === undefined || token.trim() === '') throw new OAuthError('invalidParameter', 'Missing required parameter: token.');
  // docs/faults.md: a fault rule answers before anything is revoked.
  return faulted(ctx.faults, req, {}, () => {
    const connectionId = connectionOfToken(ctx.app, token);
    if (connectionId !== undefined) ctx.app.revokeConnection(connectionId);
    return empty(200);
  });
}
