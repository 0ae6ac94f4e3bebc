#!/usr/bin/env node
// CLI entry point (docs/cli.md), also the package's `bin`. It stays tiny and is written in
// syntax every Node with ES modules parses (no `?.`, `??` or top-level await): an older Node must
// reach the one-line floor message, not a SyntaxError in a module it has not even run yet. Node's
// compile cache goes on before the rest of the service is imported, so that the rest is cached.
// The package starts the service from its modules in one script, and so does a source checkout
// that has written its own; otherwise the checkout imports src/, with the service's own imports
// resolved directly, and writes that script once it has started (docs/performance.md "Start-up").

import { alsoFlush, enableCompileCache } from './cli/compile-cache.ts';
import { nodeFloor } from './cli/node-floor.ts';
import { openPackageModules, openScriptModules } from './cli/package-modules.ts';
import type { PackageModules } from './cli/package-modules.ts';
import { resolveSourceImportsDirectly } from './cli/source-imports.ts';
import { currentSourceScript, sourceScriptWanted } from './cli/source-script.ts';

const floor = nodeFloor(process.versions.node);
if (floor !== undefined) {
  process.stderr.write(`needs Node >= ${floor} (this is ${process.version})\n`);
  process.exitCode = 2;
} else {
  enableCompileCache();
  if (!import.meta.url.endsWith('.ts')) {
    startFrom(openPackageModules(new URL('./modules.js', import.meta.url)), '.js');
  } else {
    const src = new URL('./', import.meta.url);
    const script = currentSourceScript(src);
    if (script !== undefined) {
      startFrom(openScriptModules(script.path, script.text, src), '.ts');
    } else {
      resolveSourceImportsDirectly();
      if (sourceScriptWanted()) alsoFlush(() => writeSourceScriptAside(src));
      void import('./cli/process.ts');
    }
  }
}

/** Runs the service's CLI from `modules` (ids ending in `extension`); the compile cache's flush after start-up writes their code cache too. */
function startFrom(modules: PackageModules, extension: string): void {
  (modules.load('cli/compile-cache' + extension) as { alsoFlush(flush: () => void): void }).alsoFlush(modules.saveCodeCache);
  modules.load('cli/process' + extension);
}

let scriptWritten = false;

/**
 * Has a thread of its own write the checkout's script, once: started just after the Listening
 * line (the flush comes just before it), and waited for when the service stops, so that a
 * service stopped at once, as a test harness or a benchmark may do, still leaves it behind.
 */
function writeSourceScriptAside(src: URL): void {
  if (scriptWritten) return;
  scriptWritten = true;
  setImmediate(function () {
    void import('node:worker_threads').then(function (threads) {
      const writer = new threads.Worker(new URL('./cli/source-script-worker.ts', import.meta.url), { workerData: src.href });
      // A thread that fails leaves the checkout starting from src/, as before; never the service down.
      writer.on('error', function () {});
    });
  });
}
