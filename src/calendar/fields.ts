// Google's partial-response selector, the `fields` system parameter (METHODS.md §1.2):
//
//   fields    = selection *( "," selection )
//   selection = path [ "(" fields ")" ]          items(id,summary)  is  items/id,items/summary
//   path      = name *( "/" name )               a/b selects b inside a
//   name      = "*" / 1*( any char but , ( ) / * and white space )
//
// `*` selects every member at its level. Selections are a union: a member selected whole and also
// through a sub-path is returned whole. Arrays are transparent (a selection applies to each
// element), and a name the response lacks selects nothing. The selector is checked for syntax
// only, before the handler runs, so a malformed one refuses the request without side effects.

import { googleErrors } from '../api/google-error.ts';
import { stringParam } from './params.ts';

/** 'all' keeps the whole value; otherwise the listed members (and, with a wildcard, every member). */
export type FieldSelector = 'all' | { readonly keys: ReadonlyMap<string, FieldSelector>; readonly wildcard?: FieldSelector };

/** The parsed `fields` parameter; undefined when absent or empty (the full response). */
export function fieldsParam(query: URLSearchParams): FieldSelector | undefined {
  const text = stringParam(query, 'fields');
  return text === undefined || text.trim() === '' ? undefined : parseFieldSelector(text);
}

export function parseFieldSelector(text: string): FieldSelector {
  const parser = new Parser(text);
  const selector = parser.fields();
  parser.end();
  return selector;
}

class Parser {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  fields(): FieldSelector {
    let selector = this.#selection();
    while (this.#peek() === ',') {
      this.#at++;
      selector = merge(selector, this.#selection());
    }
    return selector;
  }

  end(): void {
    if (this.#peek() !== undefined) this.#fail();
  }

  #selection(): FieldSelector {
    const path = [this.#name()];
    while (this.#peek() === '/') {
      this.#at++;
      path.push(this.#name());
    }
    let inner: FieldSelector = 'all';
    if (this.#peek() === '(') {
      this.#at++;
      inner = this.fields();
      if (this.#peek() !== ')') this.#fail();
      this.#at++;
    }
    return path.reduceRight<FieldSelector>(
      (selected, name) => (name === '*' ? { keys: new Map(), wildcard: selected } : { keys: new Map([[name, selected]]) }),
      inner,
    );
  }

  #name(): string {
    this.#skipSpace();
    const name = /^[^,()/\s]+/.exec(this.#text.slice(this.#at))?.[0];
    // A wildcard is a whole name, never part of one (`a*`, `*a`).
    if (name === undefined || (name.includes('*') && name !== '*')) this.#fail();
    this.#at += name.length;
    return name;
  }

  #peek(): string | undefined {
    this.#skipSpace();
    return this.#text[this.#at];
  }

  #skipSpace(): void {
    while (this.#at < this.#text.length && /\s/.test(this.#text[this.#at] as string)) this.#at++;
  }

  #fail(): never {
    throw googleErrors.invalid(`Invalid field selection ${this.#text}`, 'fields');
  }
}

function merge(a: FieldSelector, b: FieldSelector): FieldSelector {
  if (a === 'all' || b === 'all') return 'all';
  const keys = new Map(a.keys);
  for (const [name, selected] of b.keys) {
    const existing = keys.get(name);
    keys.set(name, existing === undefined ? selected : merge(existing, selected));
  }
  const wildcard = a.wildcard === undefined ? b.wildcard : b.wildcard === undefined ? a.wildcard : merge(a.wildcard, b.wildcard);
  return wildcard === undefined ? { keys } : { keys, wildcard };
}

/** The parts of `value` the selector names, in the value's own member order. */
export function applyFieldSelector(value: unknown, selector: FieldSelector): unknown {
  if (selector === 'all') return value;
  if (Array.isArray(value)) return value.map((item) => applyFieldSelector(item, selector));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const named = selector.keys.get(name);
    const selected =
      named === undefined ? selector.wildcard : selector.wildcard === undefined ? named : merge(named, selector.wildcard);
    if (selected !== undefined) out[name] = applyFieldSelector(member, selected);
  }
  return out;
}
