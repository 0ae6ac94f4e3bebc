// The code blocks of the project's Markdown pages, for the tests that keep the programs a page
// shows the same as the files CI runs.

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
