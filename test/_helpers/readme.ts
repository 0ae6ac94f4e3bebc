// The code blocks and headings of the project's Markdown pages, for the tests that keep the
// programs a page shows the same as the files CI runs, and its links and citations reachable.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The code blocks of `page` (a path from the repository's root), each block's text without its
 * fences: of the whole page, or of its section `## {section}` only.
 */
export function codeBlocks(page: string, section?: string): string[] {
  let text = readFileSync(ROOT + page, 'utf8');
  if (section !== undefined) {
    const start = text.indexOf(`\n## ${section}\n`);
    assert.notEqual(start, -1, `${page} has no "## ${section}" section`);
    const end = text.indexOf('\n## ', start + 1);
    text = text.slice(start, end === -1 ? undefined : end);
  }
  return [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
}

const FENCED = /^```[^\n]*\n[\s\S]*?^```$/gm;

/** The text of each heading of `markdown`, outside fenced blocks, as written. */
export function headings(markdown: string): string[] {
  return [...markdown.replace(FENCED, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((match) => match[1] as string);
}

/** Heading anchors as GitHub makes them: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings(markdown)) {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}
