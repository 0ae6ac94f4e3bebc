// A service for the enclosing describe block with Aiko signed in (a `calendar` token), and one
// call that sends a method and a JSON body: the setup of the event-write test files.

import { before } from 'node:test';
import { api, tokenFor, useService } from './calendar.ts';
import type { Answer } from './service.ts';

export interface SignedIn {
  readonly url: string;
  call(path: string, method?: string, body?: unknown): Promise<Answer>;
}

export function useSignedIn(fixture?: object): SignedIn {
  const service = fixture === undefined ? useService() : useService(fixture);
  let token = '';
  before(async () => {
    token = await tokenFor(service.url, 'calendar');
  });
  return {
    get url() {
      return service.url;
    },
    call: (path, method = 'GET', body) => api(service.url, token, path, body === undefined ? { method } : { method, body }),
  };
}
