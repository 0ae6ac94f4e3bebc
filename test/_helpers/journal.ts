// Reading the request journal (docs/journal.md) in tests.

import { call } from './service.ts';

export interface JournalPage {
  requests: Array<Record<string, any>>;
  last: number;
}

/** GET /__svc/requests with a query string (without `?`); fails the test on a non-200. */
export async function readJournal(url: string, query = ''): Promise<JournalPage> {
  const answer = await call(`${url}/__svc/requests${query ? `?${query}` : ''}`);
  if (answer.status !== 200) throw new Error(`GET /__svc/requests answered ${answer.status}: ${answer.text}`);
  return answer.json as JournalPage;
}

/** The newest journal entry. */
export async function lastEntry(url: string): Promise<Record<string, any>> {
  const { last } = await readJournal(url, 'limit=1');
  const entry = (await readJournal(url, `since=${last - 1}`)).requests[0];
  if (entry === undefined) throw new Error('the journal is empty');
  return entry;
}
