// The request journal (docs/journal.md): a bounded ring of the requests answered outside /__svc/,
// newest last. Each request is read, redacted and serialized once, when it is recorded
// (entry.ts); the ring keeps that text and the three values GET filters on, so reading only
// joins texts, whatever was sent. The ring is bounded by its number of entries and by the bytes
// of their texts: the oldest entries go first. Recording never blocks or fails a request: an
// exception is logged, never thrown.

import type { Clock } from '../domain/clock.ts';
import type { Logger } from '../http/log.ts';
import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { entryText } from './entry.ts';

/** What the ring's entries may hold in all, their texts' UTF-8 bytes summed. */
const MAX_BYTES = 16 * 1024 * 1024;

export interface JournalQuery {
  /** Entries with a greater id. */
  since: number;
  limit: number;
  operation?: string | undefined;
  status?: number | undefined;
  userId?: string | undefined;
}

interface Kept {
  operation: string | null;
  status: number;
  userId: string | null;
  /**
   * The whole entry, serialized: UTF-8 in a slab of the journal's own (never Buffer's shared
   * pool, which other allocations share and it would keep alive), so a page is written without
   * being copied or encoded.
   */
  text: Buffer;
}

// Entries are written into slabs rather than a buffer each: allocating a backing store per entry
// was a third of what recording a request cost. Entries leave the ring in the order they came,
// so a slab is freed once its last entry goes, and what slabs hold besides the entries stays
// bounded: the unused end of each is less than a quarter of it (an entry over a quarter of a
// slab gets a buffer of its own; one that does not fit starts the next slab), plus the slab
// being filled. A slab is an eighth of what the journal holds (4 to 64 KiB), so an idle
// workspace's few entries keep no large slab alive.
const MIN_SLAB = 4 * 1024;
const MAX_SLAB = 64 * 1024;

const PAGE_START = Buffer.from('{"requests":[');
const COMMA = Buffer.from(',');

export class Journal {
  // Grown as entries arrive, up to #capacity: an idle workspace (docs/workspaces.md) holds no slots.
  readonly #slots: Array<Kept | undefined> = [];
  readonly #capacity: number;
  readonly #clock: Clock;
  readonly #log: Logger;
  /** The slot of the oldest entry. */
  #first = 0;
  #count = 0;
  #bytes = 0;
  /** The slab entries are written into, and how much of it is used. */
  #slab: Buffer | undefined;
  #slabUsed = 0;
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
      const json = entryText(req, result, { id: this.#nextId, at: this.#clock.now(), durationMs });
      const text = this.#store(json);
      this.#nextId++;
      while (this.#count > 0 && (this.#count === capacity || this.#bytes + text.length > MAX_BYTES)) this.#dropOldest();
      const { trace } = req;
      this.#slots[(this.#first + this.#count) % capacity] = { operation: trace.operation, status: result.status, userId: trace.userId, text };
      this.#count++;
      this.#bytes += text.length;
    } catch (error) {
      this.#log.error('the request journal could not record a request', error);
    }
  }

  /**
   * GET /__svc/requests's JSON text, in parts written one after another: the entries after
   * `since` that pass the filters, oldest first, at most `limit`, and `last`, the id of the
   * newest entry held whatever the filters (0 when the journal is empty).
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
      const kept = this.#slots[(this.#first + i) % capacity] as Kept;
      if (query.operation !== undefined && kept.operation !== query.operation) continue;
      if (query.status !== undefined && kept.status !== query.status) continue;
      if (query.userId !== undefined && kept.userId !== query.userId) continue;
      if (entries++ > 0) page.push(COMMA);
      page.push(kept.text);
    }
    page.push(Buffer.from(`],"last":${last}}`));
    return page;
  }

  /** The entry's text as UTF-8, in the current slab when it fits (see MIN_SLAB). */
  #store(json: string): Buffer {
    const length = Buffer.byteLength(json);
    const slabSize = Math.min(MAX_SLAB, Math.max(MIN_SLAB, this.#bytes >> 3));
    if (length > slabSize / 4) {
      const own = Buffer.allocUnsafeSlow(length);
      own.write(json);
      return own;
    }
    if (this.#slab === undefined || this.#slabUsed + length > this.#slab.length) {
      this.#slab = Buffer.allocUnsafeSlow(slabSize);
      this.#slabUsed = 0;
    }
    const start = this.#slabUsed;
    this.#slab.write(json, start);
    this.#slabUsed += length;
    return this.#slab.subarray(start, this.#slabUsed);
  }

  /** Empties the journal (DELETE /__svc/requests, reset, fixture load); numbering goes on. */
  clear(): void {
    this.#slab = undefined;
    this.#slabUsed = 0;
    this.#slots.length = 0;
    this.#first = 0;
    this.#count = 0;
    this.#bytes = 0;
  }

  #dropOldest(): void {
    const capacity = this.#capacity;
    this.#bytes -= (this.#slots[this.#first] as Kept).text.length;
    this.#slots[this.#first] = undefined;
    this.#first = (this.#first + 1) % capacity;
    this.#count--;
  }
}
