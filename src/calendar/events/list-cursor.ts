// Where the next page of an events listing starts: one cursor kind per way a listing reads the
// store (list-pages.ts, instance-sync.ts, instances.ts), and the one place cursors become
// page tokens and back. The code works with the readable members below; on the wire a cursor
// keeps its one-letter keys (short tokens, and tokens made before this module still read the
// same). The kind itself is not written: a page token carries a fingerprint of its query
// (list-query.ts), and the query alone decides how the listing reads, hence the kind. A token
// that does not decode into the kind its query expects is 400 invalid, as one that is not a
// page token at all (paging.ts).

import type { App } from '../../app/app.ts';
import type { JsonObject } from '../../store/store.ts';
import { invalidPageToken, makePageToken, readPageToken } from '../paging.ts';

/** A position in start-then-id order, the order of an expanded window. */
export interface StartAndId {
  readonly start: number;
  readonly id: string;
}

/**
 * Where a page of an incremental expanded sync stopped inside the change it reports
 * (instance-sync.ts): among the series' instances now, its former instances gone (by original
 * start), or its exceptions no longer listed (by id).
 */
export type SyncPosition =
  | { readonly phase: 'listedNow'; readonly after: StartAndId | undefined }
  | { readonly phase: 'formerGone'; readonly afterKey: number }
  | { readonly phase: 'exceptionsGone'; readonly afterId: string };

export type ListCursor =
  /** No window: records in change order, after this change sequence. */
  | { readonly kind: 'changes'; readonly afterSeq: number }
  /** A window without expansion: records by id (or change order, as a padded key), after `afterKey`. */
  | { readonly kind: 'window'; readonly afterKey: string; readonly watermark: number }
  /** singleEvents=true: occurrences by start then id; series expanded up to `seriesTo`. */
  | { readonly kind: 'singleEvents'; readonly after: StartAndId; readonly watermark: number; readonly seriesTo: number }
  /** singleEvents=true&orderBy=updated: the sorted window, from this offset. */
  | { readonly kind: 'singleEventsByUpdated'; readonly offset: number; readonly watermark: number; readonly seriesTo: number }
  /** singleEvents=true with a syncToken: changes after `afterSeq`, resuming inside change `within.seq`. */
  | {
      readonly kind: 'instanceSync';
      readonly afterSeq: number;
      readonly within: { readonly seq: number; readonly position: SyncPosition | undefined } | undefined;
      readonly seriesTo: number;
    }
  /** events.instances: one series' occurrences by start then id. */
  | { readonly kind: 'instances'; readonly after: StartAndId };

export type ListCursorKind = ListCursor['kind'];
export type CursorOf<K extends ListCursorKind> = Extract<ListCursor, { kind: K }>;

const PHASE_CODES = { listedNow: 'a', formerGone: 'b', exceptionsGone: 'c' } as const;

function positionFields(position: SyncPosition): JsonObject {
  switch (position.phase) {
    case 'listedNow':
      return position.after === undefined ? { p: 'a' } : { p: 'a', t: position.after.start, i: position.after.id };
    case 'formerGone':
      return { p: 'b', k: position.afterKey };
    case 'exceptionsGone':
      return { p: 'c', i: position.afterId };
  }
}

function cursorFields(cursor: ListCursor): JsonObject {
  switch (cursor.kind) {
    case 'changes':
      return { s: cursor.afterSeq };
    case 'window':
      return { k: cursor.afterKey, w: cursor.watermark };
    case 'singleEvents':
      return { t: cursor.after.start, i: cursor.after.id, w: cursor.watermark, h: cursor.seriesTo };
    case 'singleEventsByUpdated':
      return { n: cursor.offset, w: cursor.watermark, h: cursor.seriesTo };
    case 'instanceSync': {
      const within = cursor.within;
      if (within === undefined) return { a: cursor.afterSeq, h: cursor.seriesTo };
      const position = within.position === undefined ? {} : { r: positionFields(within.position) };
      return { a: cursor.afterSeq, q: within.seq, ...position, h: cursor.seriesTo };
    }
    case 'instances':
      return { t: cursor.after.start, i: cursor.after.id };
  }
}

function num(fields: JsonObject, key: string): number | undefined {
  const value = fields[key];
  return typeof value === 'number' ? value : undefined;
}

function str(fields: JsonObject, key: string): string | undefined {
  const value = fields[key];
  return typeof value === 'string' ? value : undefined;
}

function startAndId(fields: JsonObject): StartAndId | undefined {
  const start = num(fields, 't');
  const id = str(fields, 'i');
  return start === undefined || id === undefined ? undefined : { start, id };
}

/** A sync position from its fields; null when they are not one. */
function positionOf(fields: JsonObject): SyncPosition | null {
  const afterKey = num(fields, 'k');
  const afterId = str(fields, 'i');
  switch (fields.p) {
    case PHASE_CODES.listedNow:
      return { phase: 'listedNow', after: startAndId(fields) };
    case PHASE_CODES.formerGone:
      return afterKey === undefined ? null : { phase: 'formerGone', afterKey };
    case PHASE_CODES.exceptionsGone:
      return afterId === undefined ? null : { phase: 'exceptionsGone', afterId };
    default:
      return null;
  }
}

function instanceSyncOf(fields: JsonObject): CursorOf<'instanceSync'> | undefined {
  const afterSeq = num(fields, 'a');
  const seriesTo = num(fields, 'h');
  if (afterSeq === undefined || seriesTo === undefined) return undefined;
  const seq = num(fields, 'q');
  if (seq === undefined) return { kind: 'instanceSync', afterSeq, within: undefined, seriesTo };
  const r = fields.r;
  if (r === undefined) return { kind: 'instanceSync', afterSeq, within: { seq, position: undefined }, seriesTo };
  const position = typeof r === 'object' && r !== null && !Array.isArray(r) ? positionOf(r) : null;
  return position === null ? undefined : { kind: 'instanceSync', afterSeq, within: { seq, position }, seriesTo };
}

/** Each kind read back from its fields; undefined when the fields are not a cursor of that kind. */
const DECODERS: { [K in ListCursorKind]: (fields: JsonObject) => CursorOf<K> | undefined } = {
  changes: (fields) => {
    const afterSeq = num(fields, 's');
    return afterSeq === undefined ? undefined : { kind: 'changes', afterSeq };
  },
  window: (fields) => {
    const afterKey = str(fields, 'k');
    const watermark = num(fields, 'w');
    return afterKey === undefined || watermark === undefined ? undefined : { kind: 'window', afterKey, watermark };
  },
  singleEvents: (fields) => {
    const after = startAndId(fields);
    const watermark = num(fields, 'w');
    const seriesTo = num(fields, 'h');
    return after === undefined || watermark === undefined || seriesTo === undefined ? undefined : { kind: 'singleEvents', after, watermark, seriesTo };
  },
  singleEventsByUpdated: (fields) => {
    const offset = num(fields, 'n');
    const watermark = num(fields, 'w');
    const seriesTo = num(fields, 'h');
    return offset === undefined || watermark === undefined || seriesTo === undefined
      ? undefined
      : { kind: 'singleEventsByUpdated', offset, watermark, seriesTo };
  },
  instanceSync: instanceSyncOf,
  instances: (fields) => {
    const after = startAndId(fields);
    return after === undefined ? undefined : { kind: 'instances', after };
  },
};

/** The page token for `cursor`, bound to the query fingerprint it pages through. */
export function makeListToken(app: App, fingerprint: string, cursor: ListCursor): string {
  return makePageToken(app, fingerprint, cursorFields(cursor));
}

/** The cursor a page token holds, of the kind its query reads by; 400 invalid when it holds none. */
export function readListToken<K extends ListCursorKind>(app: App, fingerprint: string, token: string, kind: K): CursorOf<K> {
  const cursor = DECODERS[kind](readPageToken(app, fingerprint, token));
  if (cursor === undefined) throw invalidPageToken();
  return cursor;
}
