// Calendar API test helpers: a small fixture with two users, tokens through the real OAuth flow,
// and one function that calls /calendar/v3/ with a bearer token.

import { after, before } from 'node:test';
import { gzipSync } from 'node:zlib';
import { start } from '../../src/index.ts';
import type { RunningService } from '../../src/index.ts';
import { obtainToken } from './oauth.ts';
import { call } from './service.ts';
import type { Answer } from './service.ts';

export const AIKO = 'aiko.tanaka@example.com';
export const TEAM = 'team-aiko@group.calendar.example.com';
export const HIDDEN = 'hidden-aiko@group.calendar.example.com';
export const BEN = 'ben.carter@example.com';
export const BEN_PRIVATE = 'ben-private@group.calendar.example.com';

export const CALENDAR_FIXTURE = {
  clients: [{ id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUris: ['http://127.0.0.1:3000/oauth2callback'] }],
  users: [
    {
      id: 'user-aiko',
      name: 'Aiko Tanaka',
      email: AIKO,
      timeZone: 'Asia/Tokyo',
      calendars: [
        { primary: true, summary: 'Aiko Tanaka', defaultReminders: [{ method: 'popup', minutes: 30 }] },
        { id: TEAM, summary: 'Team', description: 'Team calendar', location: 'Tokyo', colorId: '7' },
        { id: HIDDEN, summary: 'Hidden', hidden: true, timeZone: 'UTC' },
      ],
    },
    {
      id: 'user-ben',
      name: 'Ben Carter',
      email: BEN,
      timeZone: 'Europe/London',
      calendars: [{ id: BEN_PRIVATE, summary: 'Ben private' }],
    },
  ],
};

/**
 * Starts a service for the enclosing describe block (or file) and stops it afterwards; read
 * `.url` inside tests.
 */
export function useService(fixture: object = CALENDAR_FIXTURE): { readonly url: string } {
  const state = { url: '' };
  let service: RunningService | undefined;
  before(async () => {
    service = await start({ port: 0, fixture });
    state.url = service.url;
  });
  after(() => service?.close());
  return state;
}

export async function tokenFor(url: string, scope: string | string[], user = 'user-aiko'): Promise<string> {
  return (await obtainToken(url, { user, scope })).access_token;
}

export interface ApiInit {
  method?: string;
  /** Sent as JSON (or gzip-compressed JSON with `gzip`). */
  body?: unknown;
  gzip?: boolean;
  headers?: Record<string, string>;
}

/** Calls `/calendar/v3/<path>` with `Authorization: Bearer <token>` (no header when token is undefined). */
export function api(url: string, token: string | undefined, path: string, init: ApiInit = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  let body: Buffer | undefined;
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify(init.body), 'utf8');
    if (init.gzip) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
  }
  return call(`${url}/calendar/v3/${path}`, { method: init.method ?? 'GET', headers, ...(body ? { body } : {}) });
}

export const AUTH_ERROR = {
  error: {
    code: 401,
    message: 'Invalid Credentials',
    errors: [{ domain: 'global', reason: 'authError', message: 'Invalid Credentials', locationType: 'header', location: 'Authorization' }],
    status: 'UNAUTHENTICATED',
  },
};

export const INSUFFICIENT_PERMISSIONS = {
  error: {
    code: 403,
    message: 'Request had insufficient authentication scopes.',
    errors: [{ domain: 'global', reason: 'insufficientPermissions', message: 'Insufficient Permission' }],
    status: 'PERMISSION_DENIED',
  },
};

export const NOT_FOUND = {
  error: { code: 404, message: 'Not Found', errors: [{ domain: 'global', reason: 'notFound', message: 'Not Found' }], status: 'NOT_FOUND' },
};

export const UNSUPPORTED = { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' };

/** errors[0] of a Google error envelope. */
export function reason(answer: Answer): { reason?: string; message?: string; location?: string; locationType?: string; domain?: string } {
  return answer.json?.error?.errors?.[0] ?? {};
}
