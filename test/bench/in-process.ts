// The in-process rows: what a test file pays per test when it drives the service through the
// handle of src/index.ts in its own process (README "Testing your app"): start() after the first,
// token(), and a workspace per test. Memory store, default fixture; medians of many calls.

import { ServiceError, start } from '../../src/index.ts';

export interface InProcessRow {
  name: string;
  backend: string;
  result: string;
  target: { text: string; met: boolean };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function timed(count: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const began = performance.now();
    await run();
    times.push(performance.now() - began);
  }
  return median(times);
}

function row(name: string, ms: number, limitMs: number): InProcessRow {
  return { name, backend: 'memory', result: `${ms.toFixed(2)} ms`, target: { text: `<= ${limitMs} ms (median)`, met: ms <= limitMs } };
}

export async function inProcessRows(quick: boolean): Promise<{ rows: InProcessRow[]; notes: string[] }> {
  const count = quick ? 10 : 200;
  const rows: InProcessRow[] = [];
  const notes: string[] = [];
  // The first start() loads the service's modules; a test file pays that once.
  await (await start({ port: 0 })).close();
  const started: Array<{ close(): Promise<void> }> = [];
  rows.push(row('in-process start() after the first', await timed(count, async () => started.push(await start({ port: 0 }))), 1));
  for (const service of started) await service.close();

  const service = await start({ port: 0 });
  try {
    await service.token();
    rows.push(row('token() in process (consent flow over HTTP)', await timed(count, () => service.token()), 50));
    try {
      const workspaces: Array<{ delete(): Promise<void> }> = [];
      const ms = await timed(count, async () => workspaces.push(await service.workspace()));
      rows.push(row('a workspace per test: workspace() in process', ms, 5));
      for (const workspace of workspaces) await workspace.delete();
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      notes.push(`workspace() row skipped: this build answers POST /__svc/workspaces with ${error.status}`);
    }
  } finally {
    await service.close();
  }
  return { rows, notes };
}
