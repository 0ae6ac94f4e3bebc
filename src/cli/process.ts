// The CLI's process, once main.ts has checked the Node version and switched the compile cache on:
// its heap tuning, then the command line (run.ts).

import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runCli } from './run.ts';

// Resident memory: V8 doubles its young generation while much of what it allocates
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

// No top-level await: the package's build (.ci/bundle-package.ts) runs modules as functions.
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
