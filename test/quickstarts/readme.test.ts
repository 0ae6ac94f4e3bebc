// docs/quickstarts.md shows each quickstart program whole, and .ci/run runs the files under
// test/quickstarts/: the two must stay the same code, so a change to one without the other fails
// here (no client library is needed for this check).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { codeBlocks } from '../_helpers/readme.ts';
import { QUICKSTARTS, QUICKSTARTS_DIR } from './languages.ts';

test('docs/quickstarts.md shows every quickstart program exactly as the file CI runs', () => {
  const blocks = codeBlocks('docs/quickstarts.md');
  for (const quickstart of QUICKSTARTS) {
    const program = readFileSync(join(QUICKSTARTS_DIR, quickstart.file), 'utf8');
    assert.ok(blocks.includes(program), `docs/quickstarts.md lacks test/quickstarts/${quickstart.file} verbatim (${quickstart.language})`);
  }
});
