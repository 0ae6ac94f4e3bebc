// Checkpoints (docs/workspaces.md): named copies of one workspace's data that a test takes before a
// scenario and restores after it. The data is the store's snapshot (Store.takeSnapshot): clients,
// users, calendars, events, connections, tokens and channels. The clock, journal, fault rules and
// outbox are not data and a restore leaves them as they are.
//
// Taking a name that is already held replaces that checkpoint, so a suite's beforeEach can take
// the same name each time. Checkpoints live as long as the workspace's store is open (a restart of
// the service drops them); a reset keeps them, as they are the test's, not the fixture's.

import type { App } from '../app/app.ts';
import { jsonBody } from '../http/request.ts';
import { empty, json } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';
import { ManagementError } from './errors.ts';

/** At most this many per workspace (docs/workspaces.md). */
export const MAX_CHECKPOINTS = 100;

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

interface Checkpoint {
  snapshot: number;
  createdAt: string;
}

export class Checkpoints {
  readonly #app: App;
  readonly #held = new Map<string, Checkpoint>();

  constructor(app: App) {
    this.#app = app;
  }

  take(name: string): { name: string; createdAt: string } {
    const replaced = this.#held.get(name);
    if (replaced === undefined && this.#held.size >= MAX_CHECKPOINTS) {
      throw new ManagementError(429, 'too_many_checkpoints', `A workspace holds at most ${MAX_CHECKPOINTS} checkpoints; delete one first.`);
    }
    const checkpoint = { snapshot: this.#app.store.takeSnapshot(), createdAt: new Date(this.#app.clock.now()).toISOString() };
    if (replaced !== undefined) this.#app.store.dropSnapshot(replaced.snapshot);
    // Deleted and set again, so the list stays in the order the checkpoints were taken.
    this.#held.delete(name);
    this.#held.set(name, checkpoint);
    return { name, createdAt: checkpoint.createdAt };
  }

  restore(name: string): void {
    this.#app.restoreSnapshot(this.#find(name).snapshot);
  }

  delete(name: string): void {
    this.#app.store.dropSnapshot(this.#find(name).snapshot);
    this.#held.delete(name);
  }

  list(): Array<{ name: string; createdAt: string }> {
    return [...this.#held].map(([name, checkpoint]) => ({ name, createdAt: checkpoint.createdAt }));
  }

  #find(name: string): Checkpoint {
    const checkpoint = this.#held.get(name);
    if (checkpoint === undefined) throw new ManagementError(404, 'not_found', `No checkpoint named ${JSON.stringify(name)}.`);
    return checkpoint;
  }
}

/** Adds /__svc/checkpoints (docs/workspaces.md) to the management routes. */
export function addCheckpointRoutes(routes: Router<Handler>, checkpoints: Checkpoints): void {
  routes
    .add('POST', '/__svc/checkpoints', (req) => {
      const body = jsonBody(req) as { name?: unknown } | null;
      const name = body !== null && typeof body === 'object' && !Array.isArray(body) ? body.name : undefined;
      if (typeof name !== 'string' || !NAME.test(name)) {
        throw new ManagementError(400, 'invalid_request', 'The body must be {"name": "..."}, a name of 1 to 100 letters, digits, ".", "_" or "-".');
      }
      return json(201, checkpoints.take(name));
    })
    .add('GET', '/__svc/checkpoints', () => json(200, { checkpoints: checkpoints.list() }))
    .add('POST', '/__svc/checkpoints/:name/restore', (_req, params) => {
      checkpoints.restore(params.name as string);
      return empty(204);
    })
    .add('DELETE', '/__svc/checkpoints/:name', (_req, params) => {
      checkpoints.delete(params.name as string);
      return empty(204);
    });
}
