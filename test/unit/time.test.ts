// The service's time seams (src/domain/clock.ts, src/domain/scheduler.ts): a clock on an injected
// wall clock, as tests freeze it, and the real scheduler the composition root uses.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Clock } from '../../src/domain/clock.ts';
import { timerScheduler } from '../../src/domain/scheduler.ts';

const AT = Date.UTC(2026, 9, 20, 9, 0);

describe('Clock on a wall clock that stands still', () => {
  it('stays at its instant until stepped; set and reset are relative to that wall clock', () => {
    const clock = new Clock(() => AT);
    assert.equal(clock.now(), AT);
    clock.advance(90);
    assert.equal(clock.now(), AT + 90_000);
    assert.equal(clock.offsetSeconds, 90);
    clock.set(AT - 3_600_000);
    assert.equal(clock.now(), AT - 3_600_000);
    assert.equal(clock.offsetSeconds, -3600);
    clock.reset();
    assert.equal(clock.now(), AT);
  });
});

describe('timerScheduler', () => {
  it('runs a task after its delay, and never one that was cancelled', async () => {
    const ran: string[] = [];
    const cancel = timerScheduler.after(0, () => ran.push('cancelled'));
    cancel();
    await new Promise<void>((resolve) =>
      timerScheduler.after(1, () => {
        ran.push('due');
        resolve();
      }),
    );
    assert.deepEqual(ran, ['due']);
  });
});
