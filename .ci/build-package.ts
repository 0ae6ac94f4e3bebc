// Builds the package's JavaScript into dist/ (docs/cli.md): src/ with its types stripped by
// TypeScript (.ci/tsconfig.build.json: same module layout, relative `.ts` specifiers rewritten to
// `.js`, declarations beside), plus the inspector's static files as they are. package.json's
// `prepare` runs it, which npm does on `npm pack`, on `npm install` in a checkout and when it
// installs the repository from a git URL (after installing the dev dependencies); dist/ is
// never committed. It lives in .ci/ because the repository's top level holds only the
// project's fixed folders.
//
//   npx tsx .ci/build-package.ts

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDist } from './bundle-package.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const INSPECTOR = join(ROOT, 'src', 'inspector');
// What the service serves from src/inspector/ (src/management/ui.ts); its tsconfig.json is not.
const STATIC = new Set(['.js', '.html', '.css', '.svg']);

// A module removed from src/ must not live on in the package.
rmSync(DIST, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, '.ci', 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) {
  process.stderr.write('build-package: tsc failed\n');
  process.exit(1);
}

mkdirSync(join(DIST, 'inspector'), { recursive: true });
for (const name of readdirSync(INSPECTOR)) {
  if (STATIC.has(extname(name))) copyFileSync(join(INSPECTOR, name), join(DIST, 'inspector', name));
}

bundleDist(DIST);
