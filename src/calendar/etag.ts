// Entity tags of calendar resources and the conditional-request checks (https://developers.google.com/workspace/calendar/api/guides/version-resources).
//
// An etag derives from the record's change sequence: every write takes a new value from the
// workspace-wide `store.nextSeq()`, which never repeats, so the etag changes on every write and is
// stable otherwise. Its form copies Google's: a JSON string holding a quoted 16-digit number,
// raw `"etag": "\"0000000000000042\""` (https://developers.google.com/workspace/calendar/api/v3/reference/events). The HTTP ETag header carries the
// same quoted value.

import { googleErrors } from '../api/google-error.ts';
import { header } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';

export function etagFor(seq: number): string {
  return `"${String(seq).padStart(16, '0')}"`;
}

/** The entity tags listed in an If-Match / If-None-Match header (RFC 9110 §13.1.1, §13.1.2). */
function listedTags(value: string): string[] {
  return value
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/**
 * If-Match on update, patch and delete (RFC 9110 §13.1.1, strong comparison): when the header is
 * present and names neither `*` nor the current etag, 412 conditionNotMet.
 */
export function checkIfMatch(req: ApiRequest, currentEtag: string): void {
  const value = header(req, 'if-match');
  if (value === undefined) return;
  const tags = listedTags(value);
  if (tags.includes('*') || tags.includes(currentEtag)) return;
  throw googleErrors.conditionNotMet();
}

/**
 * If-None-Match on a read (RFC 9110 §13.1.2, weak comparison, so a `W/` prefix is ignored):
 * true when the client's copy is current and the answer is 304.
 */
export function isNotModified(req: ApiRequest, currentEtag: string): boolean {
  const value = header(req, 'if-none-match');
  if (value === undefined) return false;
  return listedTags(value).some((tag) => tag === '*' || tag.replace(/^W\//, '') === currentEtag);
}
