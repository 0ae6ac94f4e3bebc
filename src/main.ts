#!/usr/bin/env node
// CLI entry point (docs/cli.md), also the package's `bin`. It stays tiny and is written in
// syntax every Node with ES modules parses (no `?.`, `??` or top-level await): an older Node must
// reach the one-line floor message, not a SyntaxError in a module it has not even run yet. Node's
// compile cache goes on before the rest of the service is imported, so that the rest is cached;
// from a source checkout, so does the direct resolution of the service's own imports; from the
// package, the service starts from its modules in one file (docs/performance.md "Start-up").

import { enableCompileCache } from './cli/compile-cache.ts';
import { nodeFloor } from './cli/node-floor.ts';
import { openPackageModules } from './cli/package-modules.ts';
import { resolveSourceImportsDirectly } from './cli/source-imports.ts';

const floor = nodeFloor(process.versions.node);
if (floor !== undefined) {
  process.stderr.write(`needs Node >= ${floor} (this is ${process.version})\n`);
  process.exitCode = 2;
} else {
  enableCompileCache();
  if (import.meta.url.endsWith('.ts')) {
    resolveSourceImportsDirectly();
    void import('./cli/process.ts');
  } else {
    // The package: its modules from one script, which its build writes beside main.js; the
    // compile cache's flush after start-up writes the script's code cache too.
    const modules = openPackageModules(new URL('./modules.js', import.meta.url));
    (modules.load('cli/compile-cache.js') as { alsoFlush(flush: () => void): void }).alsoFlush(modules.saveCodeCache);
    modules.load('cli/process.js');
  }
}
