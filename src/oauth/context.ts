// What every OAuth handler works with: the app (store, clock, log) and the in-memory state.

import type { App } from '../app/app.ts';
import type { FaultRules } from '../faults/rules.ts';
import type { BearerCache } from './bearer.ts';
import type { AuthorizationCodes, PendingConsents } from './pending.ts';
import type { PurgeCount } from './tokens.ts';

export interface OAuthContext {
  app: App;
  consents: PendingConsents;
  codes: AuthorizationCodes;
  /** Shared with the calendar API: made by the composition root. */
  bearers: BearerCache;
  purge: PurgeCount;
  /** The service's fault rules (docs/faults.md) on oauth.token, oauth.revoke and oauth.userinfo. */
  faults: FaultRules;
}
