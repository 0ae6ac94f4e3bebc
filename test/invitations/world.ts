// The workspace of the invitation tests (docs/invitations.md): three test users in three zones, each
// signed in with a calendar token, on the memory or SQLite store, and one call per user.

import { api, tokenFor } from '../_helpers/calendar.ts';
import { databaseFor } from '../_helpers/backends.ts';
import type { Backend } from '../_helpers/backends.ts';
import { call, postJson, startService } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

export const AIKO = 'aiko@example.com';
export const BEN = 'ben@example.com';
export const CLEO = 'cleo@example.com';
export const EXTERNAL = 'guest@elsewhere.example.org';

export const USERS = { aiko: AIKO, ben: BEN, cleo: CLEO } as const;
export type Who = keyof typeof USERS;

export function worldFixture(aikoEvents: object[] = []): object {
  return {
    clients: [{ id: 'local-calendar-client', secret: 'local-calendar-secret', redirectUris: ['http://127.0.0.1:3000/oauth2callback'] }],
    users: [
      { id: 'user-aiko', name: 'Aiko Tanaka', email: AIKO, timeZone: 'Asia/Tokyo', calendars: [{ primary: true, events: aikoEvents }] },
      { id: 'user-ben', name: 'Ben Carter', email: BEN, timeZone: 'Europe/London' },
      { id: 'user-cleo', name: 'Cleo Diaz', email: CLEO, timeZone: 'America/New_York' },
    ],
  };
}

export interface World {
  url: string;
  /** `who` calls /calendar/v3/<path>. */
  as(who: Who, method: string, path: string, body?: unknown): Promise<Answer>;
  /** The event path on `who`'s primary calendar. */
  events(who: Who, rest?: string): string;
  outbox(): Promise<any[]>;
  /** POST /__svc/fixtures (which revokes every token), then signs everyone in again. */
  load(fixture: object): Promise<void>;
}

export async function startWorld(t: { after(fn: () => unknown): void }, backend: Backend, fixture: object = worldFixture()): Promise<World> {
  const url = await startService(t, { fixture, db: databaseFor(t, backend) });
  await postJson(`${url}/__svc/clock`, { now: '2030-03-06T12:00:00Z' });
  const tokens = { aiko: '', ben: '', cleo: '' };
  const signIn = async (): Promise<void> => {
    for (const who of Object.keys(tokens) as Who[]) tokens[who] = await tokenFor(url, 'https://www.googleapis.com/auth/calendar', `user-${who}`);
  };
  await signIn();
  return {
    load: async (next) => {
      const answer = await postJson(`${url}/__svc/fixtures`, next);
      if (answer.status !== 200) throw new Error(`fixture load: ${answer.status} ${answer.text}`);
      await signIn();
    },
    url,
    as: (who, method, path, body) => api(url, tokens[who], path, body === undefined ? { method } : { method, body }),
    events: (who, rest = '') => `calendars/${encodeURIComponent(USERS[who])}/events${rest}`,
    outbox: async () => (await call(`${url}/__svc/outbox`)).json.messages,
  };
}

/** A one-hour meeting on 2030-03-10 at `hour` UTC. */
export function meeting(extra: object = {}, hour = 9): Record<string, unknown> {
  const h = String(hour).padStart(2, '0');
  const h1 = String(hour + 1).padStart(2, '0');
  return { summary: 'Planning', start: { dateTime: `2030-03-10T${h}:00:00Z` }, end: { dateTime: `2030-03-10T${h1}:00:00Z` }, ...extra };
}
