// Time a test drives, so no test sleeps for time to pass:
// - frozenClock(): a service clock (src/domain/clock.ts) that stands still until the test steps it
//   with advance() or set();
// - ManualScheduler: the Scheduler (src/domain/scheduler.ts) of webhook retry waits and attempt
//   timeouts, whose tasks run only when the test calls advance().
// A task waiting on the scheduler is also a fact a test can wait for: every webhook attempt in flight
// holds its timeout task until its answer comes (src/push/webhook-request.ts), and every retry its
// wait, so `until(() => scheduler.waiting(timeoutMs) === 0)` means "no attempt in flight".

import { Clock } from '../../src/domain/clock.ts';
import type { Cancel, Scheduler } from '../../src/domain/scheduler.ts';

/** A service clock frozen at `instant` (an RFC 3339 string or epoch milliseconds). */
export function frozenClock(instant: string | number = '2026-10-20T00:00:00Z'): Clock {
  const at = typeof instant === 'number' ? instant : Date.parse(instant);
  return new Clock(() => at);
}

interface Task {
  due: number;
  /** The delay it was scheduled with. */
  delayMs: number;
  run: () => void;
}

/** How long until() waits for its condition before failing the test instead of hanging it. */
const UNTIL_LIMIT_MS = 10_000;

export class ManualScheduler implements Scheduler {
  /** Milliseconds this scheduler has been advanced. */
  #elapsed = 0;
  /** Waiting tasks, in the order they were scheduled. */
  #tasks: Task[] = [];
  #onChange: Array<() => void> = [];

  after(delayMs: number, run: () => void): Cancel {
    const task: Task = { due: this.#elapsed + delayMs, delayMs, run };
    this.#tasks.push(task);
    this.#changed();
    return () => {
      const index = this.#tasks.indexOf(task);
      if (index === -1) return;
      this.#tasks.splice(index, 1);
      this.#changed();
    };
  }

  /** Moves time forward by `ms`, running each task that falls due, soonest first (ties: first scheduled). */
  advance(ms: number): void {
    const target = this.#elapsed + ms;
    for (;;) {
      const next = this.#tasks.reduce<Task | undefined>((soonest, task) => (task.due <= target && (!soonest || task.due < soonest.due) ? task : soonest), undefined);
      if (!next) break;
      this.#tasks.splice(this.#tasks.indexOf(next), 1);
      this.#elapsed = next.due;
      next.run();
      this.#changed();
    }
    this.#elapsed = target;
  }

  /** The tasks waiting, or those scheduled with a delay of `delayMs`. */
  waiting(delayMs?: number): number {
    return delayMs === undefined ? this.#tasks.length : this.#tasks.filter((task) => task.delayMs === delayMs).length;
  }

  /**
   * Resolves once `condition` holds and still holds two turns of the event loop later (work the
   * service queued for a later turn, such as the notifier's sending, has then run). Rechecked at each
   * change of the waiting tasks, never on a timer; fails the test after UNTIL_LIMIT_MS.
   */
  async until(condition: () => boolean, what = 'the scheduler condition'): Promise<void> {
    const deadline = performance.now() + UNTIL_LIMIT_MS;
    for (;;) {
      if (condition()) {
        await nextTurn();
        await nextTurn();
        if (condition()) return;
        continue;
      }
      const changed = new Promise<boolean>((resolve) => this.#onChange.push(() => resolve(true)));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()))));
      const woken = await Promise.race([changed, expired]);
      clearTimeout(timer);
      if (!woken) throw new Error(`timed out waiting for ${what}`);
    }
  }

  #changed(): void {
    for (const wake of this.#onChange.splice(0)) wake();
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
