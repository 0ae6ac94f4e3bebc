// CLI entry point (CONTRACT §1). Kept tiny on purpose: Node's compile cache is switched on before
// the rest of the service is imported, so later starts skip type stripping (PERFORMANCE-NOTES.md).

import module from 'node:module';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Resident memory (issue 7): V8 doubles its young generation while much of what it allocates
// survives, as every event does while a workspace fills up, up to 32 MiB, and does not shrink it
// again; with the old generation grown alongside, 100k events inserted cost 2.1 KiB each of
// resident set instead of 1.1. Growth stops at YOUNG_SPACE_CAP: requests make short-lived
// garbage, for which a few MiB is room enough (no measurable change in throughput). The flag is
// read whenever V8 would grow the space, so it takes effect set at run time. Only the CLI does
// this: start() runs inside someone else's process, whose heap is not ours to tune.
const YOUNG_SPACE_CAP = 8 * 2 ** 20;
const youngSpace = new PerformanceObserver(() => {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (space === undefined || space.space_size < YOUNG_SPACE_CAP) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  youngSpace.disconnect();
});
youngSpace.observe({ entryTypes: ['gc'] });

const { runCli } = await import('./cli/run.ts');
process.exitCode = await runCli(process.argv.slice(2));
