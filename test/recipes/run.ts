// Runs the recipes of README "Testing your app" (recipes.ts) with their runners, as .ci/run does
// after the quickstarts: each in the scratch folder, where the package name resolves to this
// checkout. A runner that is not installed is skipped with its reason; any failure exits 1.
//
//   bash test/recipes/install.sh
//   node --experimental-strip-types --no-warnings test/recipes/run.ts [runner…]

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECIPES, RECIPES_DIR, SCRATCH_DIR } from './recipes.ts';

const REPOSITORY = new URL('../..', import.meta.url).pathname;
const TIMEOUT_MS = 180_000;

// `import … from 'local-calendar-emulator'` in the scratch folder finds this checkout, as an
// installed package would be found; Node follows the link to the real path, outside node_modules.
mkdirSync(join(SCRATCH_DIR, 'node_modules'), { recursive: true });
const link = join(SCRATCH_DIR, 'node_modules', 'local-calendar-emulator');
rmSync(link, { recursive: true, force: true });
symlinkSync(REPOSITORY, link, 'dir');
// Vitest keeps transformed modules by path in the scratch folder; a run from another checkout
// (or of older code) must not be served from them.
for (const cache of ['.vite', '.vitest-cache']) rmSync(join(SCRATCH_DIR, 'node_modules', cache), { recursive: true, force: true });

const asked = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const recipe of RECIPES.filter((r) => asked.length === 0 || asked.includes(r.runner))) {
  const reason = recipe.unavailable();
  if (reason !== undefined) {
    skipped++;
    process.stdout.write(`SKIP ${recipe.runner}: ${reason}\n`);
    continue;
  }
  copyFileSync(join(RECIPES_DIR, recipe.file), join(SCRATCH_DIR, recipe.file));
  for (const [name, text] of Object.entries(recipe.config ?? {})) writeFileSync(join(SCRATCH_DIR, name), text);
  const [program, ...args] = recipe.argv() as [string, ...string[]];
  const began = performance.now();
  const result = spawnSync(program, args, { cwd: SCRATCH_DIR, encoding: 'utf8', timeout: TIMEOUT_MS, env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  const note = recipe.note === undefined ? '' : ` (${recipe.note})`;
  if (result.status === 0) {
    passed++;
    process.stdout.write(`PASS ${recipe.runner}: ${recipe.file} in ${seconds} s${note}\n`);
  } else {
    failed++;
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-40).join('\n');
    process.stdout.write(`FAIL ${recipe.runner}: ${recipe.file} ${result.error?.message ?? `exit ${result.status}`}${note}\n${output}\n`);
  }
}
process.stdout.write(`recipes: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exitCode = failed > 0 ? 1 : 0;
