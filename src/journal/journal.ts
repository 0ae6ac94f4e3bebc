// The request journal (docs/journal.md): a bounded ring of the requests answered outside /__svc/,
// newest last. Each request is read and redacted once, when it is recorded (entry.ts); reading
// writes the kept entries out, parsing nothing. The ring is bounded by its number of entries and
// by the bytes of their texts: the oldest entries go first. Recording never blocks or fails a
// request: an exception is logged, never thrown.

import type { Clock } from '../domain/clock.ts';
import type { Logger } from '../http/log.ts';
import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { LastQuery, entryOf, entryText } from './entry.ts';
import type { Entry } from './entry.ts';

/** What the ring's entries may hold in all, their texts' UTF-8 bytes summed. */
const MAX_BYTES = 16 * 1024 * 1024;

const PAGE_START = Buffer.from('{"requests":[');

export interface JournalQuery {
  /** Entries with a greater id. */
  since: number;
  limit: number;
  operation?: string | undefined;
  status?: number | undefined;
  userId?: string | undefined;
}

export class Journal {
  // Grown as entries arrive, up to #capacity: an idle workspace (docs/workspaces.md) holds no slots.
  readonly #slots: Array<Entry | undefined> = [];
  readonly #capacity: number;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #lastQuery = new LastQuery();
  /** The slot of the oldest entry. */
  #first = 0;
  #count = 0;
  #bytes = 0;
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
      const entry = entryOf(req, result, { id: this.#nextId, at: this.#clock.now(), durationMs }, this.#lastQuery);
      this.#nextId++;
      while (this.#count > 0 && (this.#count === capacity || this.#bytes + entry.bytes > MAX_BYTES)) this.#dropOldest();
      this.#slots[(this.#first + this.#count) % capacity] = entry;
      this.#count++;
      this.#bytes += entry.bytes;
    } catch (error) {
      this.#log.error('the request journal could not record a request', error);
    }
  }

  /**
   * GET /__svc/requests's JSON text, in parts written one after another: the entries after
   * `since` that pass the filters, oldest first, at most `limit`, and `last`, the id of the newest
   * entry held whatever the filters (0 when the journal is empty). Each entry is encoded as it is
   * written out, so a page of 16 MiB is never also held as one string, nor as two.
   */
  read(query: JournalQuery): Buffer[] {
    const page: Buffer[] = [PAGE_START];
    let entries = 0;
    const capacity = this.#capacity;
    // The ids held run without gaps from oldest to newest, so `since` gives the first slot to read.
    const last = this.#count === 0 ? 0 : this.#nextId - 1;
    const oldestId = this.#nextId - this.#count;
    const skip = Math.max(0, Math.min(this.#count, query.since - oldestId + 1));
    for (let i = skip; i < this.#count && entries < query.limit; i++) {
      const entry = this.#slots[(this.#first + i) % capacity] as Entry;
      if (query.operation !== undefined && entry.operation !== query.operation) continue;
      if (query.status !== undefined && entry.status !== query.status) continue;
      if (query.userId !== undefined && entry.userId !== query.userId) continue;
      page.push(Buffer.from(entries++ === 0 ? entryText(entry) : `,${entryText(entry)}`, 'utf8'));
    }
    page.push(Buffer.from(`],"last":${last}}`));
    return page;
  }

  /** Empties the journal (DELETE /__svc/requests, reset, fixture load); numbering goes on. */
  clear(): void {
    this.#slots.length = 0;
    this.#first = 0;
    this.#count = 0;
    this.#bytes = 0;
  }

  #dropOldest(): void {
    const capacity = this.#capacity;
    this.#bytes -= (this.#slots[this.#first] as Entry).bytes;
    this.#slots[this.#first] = undefined;
    this.#first = (this.#first + 1) % capacity;
    this.#count--;
  }
}
