// The service's timers behind one seam: the wait before a webhook retry and the per-attempt
// webhook timeout (src/push/) run on the Scheduler the composition root (src/index.ts) creates,
// so tests drive them step by step (test/_helpers/manual-time.ts) instead of sleeping.
//
// A scheduler measures durations; it never says what time it is. Instants (expirations, stamps)
// are the service clock's (src/domain/clock.ts), which tests move on their own.

/** Cancels a scheduled task; does nothing once the task ran or was cancelled. */
export type Cancel = () => void;

export interface Scheduler {
  /** Runs `task` once, `delayMs` from now. */
  after(delayMs: number, task: () => void): Cancel;
}

/** The real timers. Unref'd: a pending retry or timeout never keeps a stopping process alive. */
export const timerScheduler: Scheduler = {
  after(delayMs, task) {
    const timer = setTimeout(task, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
