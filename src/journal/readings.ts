// The readings the journal tries on a body, or on a string inside one (docs/journal.md): JSON, the
// named parts of multipart/form-data, and a form. None trusts Content-Type: a client can send any
// of them under any type, so each is recognised by the text alone.

import { Budget, OverBudget } from './budget.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;

/** A JSON text's first character; `primitives` adds numbers, true, false and null. */
const CONTAINER_START = /^\s*["[{]/;
const ANY_START = /^\s*["[{\-0-9tfn]/;

const SHORT_JSON = 4096;

/**
 * The value of a JSON text, or undefined when the text is not JSON. A text whose nesting or
 * number of values would overdraw the budget throws OverBudget before JSON.parse runs: parsing
 * 64 KiB of `[[[…]]]` alone takes milliseconds. `depth` is the nesting the text sits in.
 */
export function readJson(text: string, depth: number, budget: Budget, primitives = false): unknown {
  if (!(primitives ? ANY_START : CONTAINER_START).test(text)) return undefined;
  // A short text parses quickly whatever its shape; the walk after the parse holds it to the budget.
  if (text.length > SHORT_JSON) {
    const shape = jsonShape(text);
    if (!budget.affords(shape.values, depth + shape.depth)) throw new OverBudget('a JSON text too deep or too wide');
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** How deep a JSON text nests and about how many values it holds, counted without parsing it. */
function jsonShape(text: string): { depth: number; values: number } {
  let depth = 0;
  let deepest = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      values++;
      if (++depth > deepest) deepest = depth;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
    else if (c === COMMA) values++;
  }
  return { depth: deepest, values };
}

/** `name="…"` (or unquoted) in a Content-Disposition header; `filename=` is not it. */
const DISPOSITION_NAME = /^content-disposition:.*?(?<![\w*])name=(?:"([^"]*)"|([^;\s]+))/i;

/**
 * The named parts of a multipart/form-data text (RFC 7578) as [name, content] pairs, or undefined
 * when it has none. The boundary is not taken from Content-Type, which may name another or none:
 * every line that begins with `--` is read as a delimiter. A part's content that holds such a line
 * is cut short there, which loses text but never shows any that was not read.
 */
export function readParts(text: string): Array<[string, string]> | undefined {
  const parts: Array<[string, string]> = [];
  let line = text.startsWith('--') ? 0 : text.indexOf('\n--') + 1;
  if (line === 0 && !text.startsWith('--')) return undefined;
  // `line` is the start of a delimiter line; each turn reads the headers and content after it.
  while (line < text.length) {
    let name: string | undefined;
    let content = -1;
    let next = endOfLine(text, line);
    while (next < text.length) {
      const end = endOfLine(text, next);
      const header = text.slice(next, end).replace(/\r?\n$/, '');
      if (header === '') {
        content = end;
        break;
      }
      if (header.startsWith('--')) break;
      const match = DISPOSITION_NAME.exec(header);
      if (match !== null) name ??= match[1] ?? match[2];
      next = end;
    }
    if (content === -1) {
      // Headers without a blank line after them: the next delimiter begins where they stopped.
      if (next >= text.length) break;
      line = next;
      continue;
    }
    const delimiter = text.indexOf('\n--', content - 1);
    const stop = delimiter === -1 ? text.length : delimiter;
    if (name !== undefined) parts.push([name, text.slice(content, text.charCodeAt(stop - 1) === 0x0d ? stop - 1 : stop)]);
    if (delimiter === -1) break;
    line = delimiter + 1;
  }
  return parts.length > 0 ? parts : undefined;
}

/** The index after the line that starts at `start` (after its `\n`), or the text's length. */
function endOfLine(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end + 1;
}
