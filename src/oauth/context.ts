// What every OAuth handler works with: the app (store, clock, log) and the in-memory state.

import type { App } from '../app.ts';
import type { AuthorizationCodes, PendingConsents } from './pending.ts';

export interface OAuthContext {
  app: App;
  consents: PendingConsents;
  codes: AuthorizationCodes;
}
