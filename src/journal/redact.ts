// Secrets never enter the request journal (docs/journal.md). A field named below reads "[redacted]"
// wherever it appears: in the query, in the body, and in any string inside them that itself
// reads as JSON, multipart parts or a form (readings.ts), whatever Content-Type claimed. A string
// that holds such a field at any depth reads "[redacted]" as a whole. The names are matched
// without regard to case, so `Access_Token` is no way around the rule.

import { Budget, checkDepth } from './budget.ts';
import { readJson, readParts } from './readings.ts';

export const REDACTED = '[redacted]';

const SECRET_NAMES: ReadonlySet<string> = new Set([
  'client_secret',
  'code',
  'code_verifier',
  'refresh_token',
  'access_token',
  'oauth_token',
  'token',
  'nonce',
  'authorization',
]);

// Most names are none of the lengths above, and are told apart without lowering their case.
const SECRET_LENGTHS: ReadonlySet<number> = new Set([...SECRET_NAMES].map((name) => name.length));

export function isSecretName(name: string): boolean {
  return SECRET_LENGTHS.has(name.length) && SECRET_NAMES.has(name.toLowerCase());
}

// A secret name given a value in text no reading parses: a JavaScript object literal, JSON with a
// trailing comma, `Authorization: Bearer …` pasted into a description.
const NAME_WITH_VALUE = new RegExp(`(?<![\\w-])(?:${[...SECRET_NAMES].join('|')})["'\\s]*[:=]`, 'i');

// The safety net for a secret sent under no secret name: the service's tokens, codes and nonces
// are 256 random bits in 43 base64url digits, access tokens 8 digits of expiry more (see
// src/crypto/crypto.ts randomToken and src/oauth/token-format.ts). A whole run of [A-Za-z0-9_-]
// of exactly that length with an upper-case letter in it is taken for one; event ids (base32hex,
// lower case) never are. (The regular expression /(?<![\w-])(?=[\w-]*[A-Z])(?:[\w-]{51}|[\w-]{43})(?![\w-])/g
// says the same; its lookarounds cost a microsecond on a sync token, and this scan runs for the
// path and every query value of every request.)
const TOKEN_LENGTH = 43;
const ACCESS_TOKEN_LENGTH = 51;

/** The text with every token-shaped run replaced by "[redacted]". */
export function scrubTokens(text: string): string {
  if (text.length < TOKEN_LENGTH) return text;
  let scrubbed: string | undefined;
  let copied = 0;
  let runStart = 0;
  let capital = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : -1;
    // a-z, A-Z, 0-9, _ and -
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d) continue;
    if (c >= 0x41 && c <= 0x5a) {
      capital = true;
      continue;
    }
    const length = i - runStart;
    if (capital && (length === TOKEN_LENGTH || length === ACCESS_TOKEN_LENGTH)) {
      scrubbed = (scrubbed ?? '') + text.slice(copied, runStart) + REDACTED;
      copied = i;
    }
    runStart = i + 1;
    capital = false;
  }
  return scrubbed === undefined ? text : scrubbed + text.slice(copied);
}

/**
 * A string as the journal shows it: "[redacted]" when it holds a secret in any reading, else the
 * string with token-shaped runs scrubbed. `depth`: the nesting the string sits in.
 */
export function redactString(text: string, depth: number, budget: Budget): string {
  return holdsSecret(text, depth, budget) ? REDACTED : scrubTokens(text);
}

/**
 * A value fresh from JSON.parse as the journal shows it: secret-named members read "[redacted]",
 * members whose name holds a secret are renamed "[redacted]" and hide their value, strings go
 * through redactString. Objects and arrays are changed in place.
 */
export function redactJson(node: unknown, depth: number, budget: Budget): unknown {
  budget.spend(1, 0);
  if (typeof node === 'string') return redactString(node, depth, budget);
  if (typeof node !== 'object' || node === null) return node;
  checkDepth(depth + 1);
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = redactJson(node[i], depth + 1, budget);
    return node;
  }
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (isSecretName(key)) {
      record[key] = REDACTED;
      continue;
    }
    const shownKey = redactString(key, depth + 1, budget);
    const value = shownKey === REDACTED ? REDACTED : redactJson(record[key], depth + 1, budget);
    if (shownKey !== key) delete record[key];
    record[shownKey] = value;
  }
  return record;
}

/**
 * Form fields, query parameters or multipart parts as an object: a name sent once maps to its
 * value, a name repeated to the array of its values in order. Secret-named fields read
 * "[redacted]"; a name that holds a secret reads "[redacted]" with its value.
 */
export function redactFields(fields: Iterable<[string, string]>, depth: number, budget: Budget): Record<string, string | string[]> {
  const shown = new Map<string, string | string[]>();
  for (const [name, raw] of fields) {
    budget.spend(1, 0);
    let key = name;
    let value = REDACTED;
    if (!isSecretName(name)) {
      key = redactString(name, depth + 1, budget);
      if (key !== REDACTED) value = redactString(raw, depth + 1, budget);
    }
    const seen = shown.get(key);
    if (seen === undefined) shown.set(key, value);
    else if (typeof seen === 'string') shown.set(key, [seen, value]);
    else seen.push(value);
  }
  // fromEntries defines own properties, so a field named __proto__ stays a field.
  return Object.fromEntries(shown);
}

// Every reading needs one of these: `=` or `%` a form, `:` or `=` a name with a value, a quote or
// bracket JSON, a line break (then `--`) multipart parts.
const MAY_HOLD_SECRET = /[=%:"[{\n]/;

/**
 * Whether a string holds a secret-named field in any reading: as JSON, as multipart parts, as a
 * form, or as a name followed by `:` or `=`, and so on inside what those readings find. Each
 * reading costs the budget the string's length, and strings no reading can take are passed over
 * by a glance at their characters.
 */
function holdsSecret(text: string, depth: number, budget: Budget): boolean {
  if (text.length < 3 || !(MAY_HOLD_SECRET.test(text) || text.startsWith('--'))) return false;
  checkDepth(depth + 1);
  if (NAME_WITH_VALUE.test(text)) return true;
  const json = readJson(text, depth + 1, budget);
  if (json !== undefined) {
    budget.spend(0, text.length);
    if (jsonHoldsSecret(json, depth + 1, budget)) return true;
  }
  if (text.includes('\n--') || text.startsWith('--')) {
    budget.spend(0, text.length);
    const parts = readParts(text);
    if (parts !== undefined && fieldsHoldSecret(parts, text, depth + 1, budget)) return true;
  }
  // A percent sign alone makes a form worth reading: `refresh_token%3D…` decodes to a field.
  if (text.includes('=') || text.includes('%')) {
    budget.spend(0, text.length);
    if (fieldsHoldSecret(new URLSearchParams(text), text, depth + 1, budget)) return true;
  }
  return false;
}

function jsonHoldsSecret(node: unknown, depth: number, budget: Budget): boolean {
  budget.spend(1, 0);
  if (typeof node === 'string') return holdsSecret(node, depth, budget);
  if (typeof node !== 'object' || node === null) return false;
  checkDepth(depth + 1);
  if (Array.isArray(node)) return node.some((item) => jsonHoldsSecret(item, depth + 1, budget));
  return Object.entries(node).some(([key, value]) => isSecretName(key) || holdsSecret(key, depth + 1, budget) || jsonHoldsSecret(value, depth + 1, budget));
}

/** `whole`: the text the fields were read from; a field that is all of it is not read again. */
function fieldsHoldSecret(fields: Iterable<[string, string]>, whole: string, depth: number, budget: Budget): boolean {
  for (const [name, value] of fields) {
    budget.spend(1, 0);
    if (isSecretName(name)) return true;
    if (name !== whole && holdsSecret(name, depth, budget)) return true;
    if (value !== whole && holdsSecret(value, depth, budget)) return true;
  }
  return false;
}
