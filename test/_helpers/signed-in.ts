// A service for the enclosing describe block with a user signed in (Aiko with a `calendar` token
// unless told otherwise), and calls to the Calendar API with that token: the setup most
// Calendar API test files share.

import { before } from 'node:test';
import { api, tokenFor, useService } from './calendar.ts';
import type { ApiInit } from './calendar.ts';
import type { Answer } from './service.ts';

export interface SignedIn {
  readonly url: string;
  /** The access token; read it inside tests. */
  readonly token: string;
  call(path: string, method?: string, body?: unknown): Promise<Answer>;
  api(path: string, init?: ApiInit): Promise<Answer>;
}

export interface SignInOptions {
  fixture?: object;
  scope?: string | string[];
  user?: string;
}

export function useSignedIn({ fixture, scope = 'calendar', user }: SignInOptions = {}): SignedIn {
  const service = fixture === undefined ? useService() : useService(fixture);
  let token = '';
  before(async () => {
    token = await tokenFor(service.url, scope, user);
  });
  return {
    get url() {
      return service.url;
    },
    get token() {
      return token;
    },
    call: (path, method = 'GET', body) => api(service.url, token, path, body === undefined ? { method } : { method, body }),
    api: (path, init) => api(service.url, token, path, init),
  };
}
