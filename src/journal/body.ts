// A request's body as the journal keeps it (docs/journal.md): read once, when the request is
// recorded, as JSON, else as multipart parts, else as a form, with its secrets redacted in every
// reading (redact.ts), and serialized. What cannot be kept so is kept as its size alone:
// `{"truncated": true, "bytes": n}` for a body over 64 KiB, or one whose reading would overdraw
// its budget (budget.ts) or serialize to more than 64 KiB; `{"unparsed": true, "bytes": n}` for
// one no reading takes, rather than raw text whose secrets could not be found; and
// `{"redacted": true, "bytes": n}` for one whose readings disagree where a secret lies.

import { Budget, OverBudget } from './budget.ts';
import { readJson, readParts } from './readings.ts';
import { isSecretName, redactFields, redactJson } from './redact.ts';

/** Bodies, and their redacted serializations, larger than this are kept as their size alone. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The body's JSON text for the journal entry; `null` for an empty body. */
export function bodyText(body: Buffer): string {
  if (body.length === 0) return 'null';
  if (body.length > MAX_BODY_BYTES) return marker('truncated', body.length);
  const text = body.toString('utf8');
  let shown: string;
  try {
    shown = JSON.stringify(readBody(text, body.length, new Budget()));
  } catch (error) {
    if (error instanceof OverBudget) return marker('truncated', body.length);
    throw error;
  }
  // UTF-8 takes at most three bytes a character, so most texts need no counting.
  return shown.length * 3 > MAX_BODY_BYTES && Buffer.byteLength(shown) > MAX_BODY_BYTES ? marker('truncated', body.length) : shown;
}

function readBody(text: string, bytes: number, budget: Budget): unknown {
  const json = readJson(text, 0, budget, true);
  if (json !== undefined) return formAgrees(text, budget) ? redactJson(json, 0, budget) : { redacted: true, bytes };
  const parts = readParts(text);
  if (parts !== undefined) return formAgrees(text, budget) ? redactFields(parts, 0, budget) : { redacted: true, bytes };
  if (text.includes('=')) {
    budget.spend(0, text.length);
    return redactFields(new URLSearchParams(text), 0, budget);
  }
  return { unparsed: true, bytes };
}

/**
 * Whether the text read as a form keeps every secret-named field's value within what the reading
 * shown redacts: one JSON string and the structure after it, or one part and the delimiters after
 * it. A value that runs on into another string or part (`{"a":"&token=","b":"<secret>"}`) takes
 * in what the reading shown keeps apart. The fields are found in the raw text, which is what the
 * quotes and headers are part of.
 */
function formAgrees(text: string, budget: Budget): boolean {
  let equals = text.indexOf('=');
  if (equals === -1) return true;
  budget.spend(0, text.length);
  for (let start = 0; start < text.length && equals !== -1; ) {
    const amp = text.indexOf('&', start);
    const end = amp === -1 ? text.length : amp;
    if (equals < end) {
      budget.spend(1, 0);
      if (isSecretName(formName(text.slice(start, equals))) && runsOn(text.slice(equals + 1, end))) return false;
      equals = text.indexOf('=', end);
    }
    start = end + 1;
  }
  return true;
}

/** Whether a raw form value reaches into a second JSON string, or another part's headers. */
function runsOn(value: string): boolean {
  return value.indexOf('"') !== value.lastIndexOf('"') || /content-disposition/i.test(value);
}

/** A form field's name as a form reader decodes it (`%74oken` is `token`). */
function formName(raw: string): string {
  return raw.includes('%') || raw.includes('+') ? (new URLSearchParams(raw).keys().next().value ?? '') : raw;
}

function marker(kind: 'truncated' | 'unparsed', bytes: number): string {
  return `{"${kind}":true,"bytes":${bytes}}`;
}
