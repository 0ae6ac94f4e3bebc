// The README's sections and code blocks, for the tests that keep the programs it shows the same
// as the files CI runs.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const README = new URL('../../README.md', import.meta.url).pathname;

/** The code blocks of README section `## {title}`, each block's text without its fences. */
export function readmeCodeBlocks(title: string): string[] {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.notEqual(start, -1, `README.md has no "## ${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
}
