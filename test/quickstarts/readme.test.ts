// README "Quickstarts" shows each quickstart program whole, and .ci/run runs the files under
// test/quickstarts/: the two must stay the same code, so a change to one without the other fails
// here (no client library is needed for this check).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readmeCodeBlocks } from '../_helpers/readme.ts';
import { QUICKSTARTS, QUICKSTARTS_DIR } from './languages.ts';

test('README "Quickstarts" shows every quickstart program exactly as the file CI runs', () => {
  const blocks = readmeCodeBlocks('Quickstarts');
  for (const quickstart of QUICKSTARTS) {
    const program = readFileSync(join(QUICKSTARTS_DIR, quickstart.file), 'utf8');
    assert.ok(blocks.includes(program), `README "Quickstarts" lacks test/quickstarts/${quickstart.file} verbatim (${quickstart.language})`);
  }
});
