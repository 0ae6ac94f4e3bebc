// README "Quickstarts" shows each quickstart program whole, and .ci/run runs the files under
// test/quickstarts/: the two must stay the same code, so a change to one without the other fails
// here (no client library is needed for this check).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { QUICKSTARTS, QUICKSTARTS_DIR } from './languages.ts';

const README = new URL('../../README.md', import.meta.url).pathname;

function quickstartsSection(readme: string): string {
  const start = readme.indexOf('\n## Quickstarts\n');
  assert.notEqual(start, -1, 'README.md has no "## Quickstarts" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
}

test('README "Quickstarts" shows every quickstart program exactly as the file CI runs', () => {
  const blocks = codeBlocks(quickstartsSection(readFileSync(README, 'utf8')));
  for (const quickstart of QUICKSTARTS) {
    const program = readFileSync(join(QUICKSTARTS_DIR, quickstart.file), 'utf8');
    assert.ok(blocks.includes(program), `README "Quickstarts" lacks test/quickstarts/${quickstart.file} verbatim (${quickstart.language})`);
  }
});
