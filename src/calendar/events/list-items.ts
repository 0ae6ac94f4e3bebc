// The bytes of listed events, from rendering to the response body (the speed
// tricks of the read path behind one seam). The wire shape itself is resource.ts; this
// module owns what becomes of it:
// - Rendered JSON, cached as UTF-8 bytes. Reads serialise the same stored versions over and over
//   (a client paging a calendar, polling an event), and rendering plus JSON.stringify is most of
//   a read's cost. A rendering is fully determined by the record version (its id and change
//   sequence: every write takes a new one, Store.nextSeq, never reused) and the render context,
//   so the bytes are cached under exactly those, in one RenderCache per App. Replacing the
//   workspace empties the cache (nothing in it can be asked for again); it is bounded by the
//   bytes it holds, starting over when full.
// - List items: texts are kept as the JSON followed by a comma. A page is then its items sent one
//   after another with nothing between them (half the writes of items and separators), and a
//   single event is the item without its last byte (itemJson: a view, not a copy).
// - The page splice: an envelope's head (envelope.ts), the items, the last one's comma
//   dropped, and the close, handed to the response as they are.

import type { App } from '../../app/app.ts';
import type { EventRecord, JsonObject } from '../../store/store.ts';
import { occurrenceCancelled } from '../../event-model/occurrences.ts';
import type { Occurrence } from '../../event-model/occurrences.ts';
import { renderEvent, renderInstance, renderTombstone } from './resource.ts';
import type { RenderContext, UntouchedInstance } from './resource.ts';

const TEXT_CACHE_BYTES = 16 * 1024 * 1024;

interface CachedText {
  readonly seq: number;
  readonly variant: string;
  readonly text: Buffer;
}

/**
 * Texts by render context, then by id (one version per id: an exception and the untouched
 * instance it replaced share an id, told apart by `variant`). Bounded by starting over when the
 * texts it holds pass TEXT_CACHE_BYTES.
 */
export class RenderCache {
  readonly #contexts = new Map<string, Map<string, CachedText>>();
  #bytes = 0;

  /** The texts of one render context; look this up once per request. */
  scope(ctx: RenderContext): Map<string, CachedText> {
    const key = `${ctx.calendar.id}\n${ctx.calendar.timeZone}\n${ctx.zone}\n${ctx.baseUrl}\n${ctx.maxAttendees ?? ''}`;
    let texts = this.#contexts.get(key);
    if (texts === undefined) {
      texts = new Map();
      this.#contexts.set(key, texts);
    }
    return texts;
  }

  text(texts: Map<string, CachedText>, id: string, seq: number, variant: string, render: () => JsonObject): Buffer {
    const cached = texts.get(id);
    if (cached !== undefined && cached.seq === seq && cached.variant === variant) return cached.text;
    const text = listItem(render());
    const bytes = this.#bytes + text.length - (cached?.text.length ?? 0);
    if (bytes > TEXT_CACHE_BYTES) this.clear();
    this.#bytes = bytes > TEXT_CACHE_BYTES ? text.length : bytes;
    texts.set(id, { seq, variant, text });
    return text;
  }

  clear(): void {
    // Scopes handed out earlier stay valid maps: empty them rather than drop them.
    for (const texts of this.#contexts.values()) texts.clear();
    this.#contexts.clear();
    this.#bytes = 0;
  }
}

/**
 * An App's cache of rendered events, cleared whenever its workspace is replaced. The composition
 * root (src/index.ts) makes one per App and hands it to the calendar surface (CalendarCaches).
 */
export function createRenderCache(app: App): RenderCache {
  const cache = new RenderCache();
  app.onWorkspaceReplaced(() => cache.clear());
  return cache;
}

/** A render context with its slice of the App's text cache. */
export interface TextContext {
  readonly ctx: RenderContext;
  readonly cache: RenderCache;
  readonly texts: Map<string, CachedText>;
}

export function textContext(cache: RenderCache, ctx: RenderContext): TextContext {
  return { ctx, cache, texts: cache.scope(ctx) };
}

/** A wire value as a list item: its UTF-8 JSON followed by a comma. */
export function listItem(value: JsonObject): Buffer {
  return Buffer.from(`${JSON.stringify(value)},`, 'utf8');
}

/** A list item's JSON alone, without its trailing comma. */
export function itemJson(item: Buffer): Buffer {
  return item.subarray(0, item.length - 1);
}

/** renderEvent as a list item (UTF-8 JSON and a comma). */
export function eventText(record: EventRecord, tc: TextContext): Buffer {
  return tc.cache.text(tc.texts, record.id, record.seq, 'event', () => renderEvent(record, tc.ctx));
}

/** renderTombstone as a list item (not cached: deletions are listed once per sync). */
export function tombstoneText(record: EventRecord, ctx: RenderContext): Buffer {
  return listItem(renderTombstone(record, ctx));
}

/** renderInstance as a list item (an untouched instance: the master's version and the instance id). */
export function instanceText(instance: UntouchedInstance, tc: TextContext): Buffer {
  const variant = instance.cancelled ? 'cancelled-instance' : 'instance';
  return tc.cache.text(tc.texts, instance.id, instance.master.seq, variant, () => renderInstance(instance, tc.ctx));
}

/** One item of an expanded window, as a list item: exceptions are rendered as the records they are. */
export function occurrenceText(o: Occurrence, tc: TextContext): Buffer {
  if (o.kind === 'single') return eventText(o.record, tc);
  const exception = o.instance.exception;
  if (exception !== undefined) return eventText(exception.record, tc);
  return instanceText({ master: o.master, series: o.series, key: o.instance.originalStart, id: o.id, times: o, cancelled: occurrenceCancelled(o) }, tc);
}

const CLOSE = Buffer.from(']}');

/**
 * A list's body: `head` (ending in `"items":[`), then the items with the last one's comma
 * dropped, then `]}`. An empty page (every sync that finds nothing) is one string, written with
 * the head of the answer.
 */
export function pageBody(head: string, items: readonly Buffer[]): string | Buffer[] {
  if (items.length === 0) return `${head}]}`;
  const parts: Buffer[] = [Buffer.from(head, 'utf8'), ...items];
  parts[parts.length - 1] = itemJson(parts[parts.length - 1] as Buffer);
  parts.push(CLOSE);
  return parts;
}
