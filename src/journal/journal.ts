// The request journal (CONTRACT §9): a bounded ring of the requests answered outside /__svc/,
// newest last. Recording sits on every request's path, so it keeps one flat object per request
// with what the request already has (its parsed query, its body text, its trace's values, the
// error answer); the wire entry, with the body parsed and secrets redacted, is built by entry.ts
// when GET /__svc/requests reads it. Recording never blocks or fails a request: the oldest entry
// is overwritten, and an exception is logged, never thrown.

import type { Clock } from '../domain/clock.ts';
import type { Logger } from '../http/log.ts';
import { header } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { toEntry } from './entry.ts';
import type { JournalEntry, Recorded } from './entry.ts';

/** Bodies larger than this are kept as their size alone (CONTRACT §9). */
const MAX_BODY_BYTES = 64 * 1024;

export interface JournalQuery {
  /** Entries with a greater id. */
  since: number;
  limit: number;
  operation?: string | undefined;
  status?: number | undefined;
  userId?: string | undefined;
}

export interface JournalPage {
  requests: JournalEntry[];
  /** The id of the newest entry held, whatever the filters; 0 when the journal is empty. */
  last: number;
}

export class Journal {
  // Grown as entries arrive, up to #capacity: an idle workspace (CONTRACT §15) holds no slots.
  readonly #slots: Array<Recorded | undefined> = [];
  readonly #capacity: number;
  readonly #clock: Clock;
  readonly #log: Logger;
  /** Where the next entry goes. */
  #next = 0;
  #count = 0;
  /** Ids go on across clear(), so a client polling with `since` never sees one twice. */
  #nextId = 1;

  /** `capacity` 0 records nothing. */
  constructor(capacity: number, clock: Clock, log: Logger) {
    this.#capacity = capacity;
    this.#clock = clock;
    this.#log = log;
  }

  /** Records a request after its answer was written; `durationMs` is real time, not the service clock. */
  record(req: ApiRequest, result: Result, durationMs: number): void {
    const capacity = this.#capacity;
    if (capacity === 0 || req.path === '/__svc' || req.path.startsWith('/__svc/')) return;
    try {
      const size = req.body.length;
      const { trace } = req;
      // Entries live for thousands of requests, so each holds as few objects as it can: an empty
      // query is not kept, the trace's values are copied out of it, and the body is kept as text
      // (a small Buffer is a slice of a shared 8 KiB pool, which it would keep alive).
      this.#slots[this.#next] = {
        id: this.#nextId++,
        at: this.#clock.now(),
        method: req.method,
        path: req.path,
        query: req.query.size === 0 ? undefined : req.query,
        operation: trace.operation,
        userId: trace.userId,
        clientId: trace.clientId,
        connectionId: trace.connectionId,
        fault: trace.fault,
        status: result.status,
        durationMs,
        body: size === 0 ? null : size > MAX_BODY_BYTES ? size : req.body.toString('utf8'),
        contentType: size === 0 ? undefined : header(req, 'content-type'),
        // Only a non-2xx answer names an error, and only then is the answer worth keeping.
        answer: result.status >= 200 && result.status < 300 ? undefined : result,
      };
      this.#next = (this.#next + 1) % capacity;
      if (this.#count < capacity) this.#count++;
    } catch (error) {
      this.#log.error('the request journal could not record a request', error);
    }
  }

  /** The entries after `since` that pass the filters, oldest first, at most `limit`. */
  read(query: JournalQuery): JournalPage {
    if (this.#count === 0) return { requests: [], last: 0 };
    const capacity = this.#capacity;
    const last = this.#nextId - 1;
    const requests: JournalEntry[] = [];
    // The ids held run without gaps from oldest to last, so `since` gives the first slot to read.
    const oldestId = last - this.#count + 1;
    const skip = Math.max(0, Math.min(this.#count, query.since - oldestId + 1));
    const first = (this.#next - this.#count + capacity) % capacity;
    for (let i = skip; i < this.#count && requests.length < query.limit; i++) {
      const recorded = this.#slots[(first + i) % capacity] as Recorded;
      if (query.operation !== undefined && recorded.operation !== query.operation) continue;
      if (query.status !== undefined && recorded.status !== query.status) continue;
      if (query.userId !== undefined && recorded.userId !== query.userId) continue;
      requests.push(toEntry(recorded));
    }
    return { requests, last };
  }

  /** Empties the journal (DELETE /__svc/requests, reset, fixture load); numbering goes on. */
  clear(): void {
    this.#slots.length = 0;
    this.#next = 0;
    this.#count = 0;
  }
}
