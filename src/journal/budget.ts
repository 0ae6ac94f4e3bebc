// How much reading one request's body and query may cost the journal (docs/journal.md, SECURITY.md): every
// reading of the body and of the strings inside it, at every depth, draws on one budget, so the
// work stays linear in what was sent. A body that would overdraw it is kept as its size alone.

/** JSON nesting plus the readings nested inside strings; past it, JSON.stringify risks the stack. */
export const MAX_DEPTH = 100;
/** JSON values, form fields and multipart parts, all readings together. */
const MAX_VALUES = 10_000;
/** Characters read again by the readings (four times the largest body the journal keeps). */
const MAX_CHARS = 256 * 1024;

/** Thrown, and caught where the body is kept, when a reading would overdraw its budget. */
export class OverBudget extends Error {}

export class Budget {
  #values = MAX_VALUES;
  #chars = MAX_CHARS;

  /** Throws OverBudget when the budget cannot pay for `values` more values and `chars` more characters. */
  spend(values: number, chars: number): void {
    this.#values -= values;
    this.#chars -= chars;
    if (this.#values < 0 || this.#chars < 0) throw new OverBudget('the journal reads no more of this body');
  }

  /** Whether `values` more values, nested `depth` deep, would stay within the budget. */
  affords(values: number, depth: number): boolean {
    return values <= this.#values && depth <= MAX_DEPTH;
  }
}

/** Throws OverBudget past MAX_DEPTH. */
export function checkDepth(depth: number): void {
  if (depth > MAX_DEPTH) throw new OverBudget('the journal reads no deeper into this body');
}
