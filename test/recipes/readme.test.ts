// README "Testing your app" shows each recipe whole, and .ci/run runs the files under
// test/recipes/ (run.ts): the two must stay the same code, so a change to one without the other
// fails here (no test runner needs to be installed for this check).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readmeCodeBlocks } from '../_helpers/readme.ts';
import { RECIPES, RECIPES_DIR } from './recipes.ts';

test('README "Testing your app" shows every recipe exactly as the file CI runs', () => {
  const blocks = readmeCodeBlocks('Testing your app');
  for (const recipe of RECIPES) {
    const program = readFileSync(join(RECIPES_DIR, recipe.file), 'utf8');
    assert.ok(blocks.includes(program), `README "Testing your app" lacks test/recipes/${recipe.file} verbatim (${recipe.runner})`);
  }
});
