// docs/testing.md shows each recipe whole, and README "Testing your app" the node:test one, while
// .ci/run runs the files under test/recipes/ (run.ts): they must stay the same code, so a change
// to one without the other fails here (no test runner needs to be installed for this check).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { codeBlocks } from '../_helpers/readme.ts';
import { RECIPES, RECIPES_DIR } from './recipes.ts';

test('docs/testing.md shows every recipe exactly as the file CI runs', () => {
  const blocks = codeBlocks('docs/testing.md');
  for (const recipe of RECIPES) {
    const program = readFileSync(join(RECIPES_DIR, recipe.file), 'utf8');
    assert.ok(blocks.includes(program), `docs/testing.md lacks test/recipes/${recipe.file} verbatim (${recipe.runner})`);
  }
});

test('README "Testing your app" shows the node:test recipe exactly as the file CI runs', () => {
  const program = readFileSync(join(RECIPES_DIR, 'node-test.test.mjs'), 'utf8');
  assert.ok(codeBlocks('README.md', 'Testing your app').includes(program), 'README "Testing your app" lacks test/recipes/node-test.test.mjs verbatim');
});
