// CLI entry point (CONTRACT §1). Kept tiny on purpose: Node's compile cache is switched on before
// the rest of the service is imported, so later starts skip type stripping (PERFORMANCE-NOTES.md).

import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { runCli } = await import('./cli/run.ts');
process.exitCode = await runCli(process.argv.slice(2));
