// The running service's shared state and the workspace operations that cross API surfaces:
// loading a fixture, reset, revoking a connection, deleting a user. Surfaces that keep state in
// memory (pending consents, authorization codes, delivery queues) subscribe to the lifecycle
// events here instead of being called by name, so management code needs no knowledge of them.

import type { Clock } from '../domain/clock.ts';
import type { Logger } from '../http/log.ts';
import { bumpGeneration } from '../store/generation.ts';
import type { ChannelResource, Store } from '../store/store.ts';
import type { Fixture } from '../fixtures/fixture.ts';
import { loadFixture } from '../fixtures/load.ts';
import type { LoadedCounts } from '../fixtures/load.ts';

export class App {
  readonly store: Store;
  readonly clock: Clock;
  readonly log: Logger;
  /** Parses the startup fixture anew for each reset. */
  readonly #startupFixture: () => Fixture;
  /** Public base URL without trailing slash; set once the server is listening. */
  baseUrl = '';
  /** The configured --host, for the management Host check. */
  readonly host: string;
  /** More Host values that check accepts (--allowed-hosts). */
  readonly allowedHosts: readonly string[];
  /** The TCP port the server is bound to; set once it is listening (webhooks must not point at it). */
  port = 0;
  readonly #resetListeners: Array<() => void> = [];
  readonly #fixtureListeners: Array<() => void> = [];
  readonly #revokeListeners: Array<(connectionId: string) => void> = [];
  readonly #shutdownListeners: Array<() => void> = [];
  readonly #changeListeners: Array<(resource: ChannelResource) => void> = [];

  constructor(deps: { store: Store; clock: Clock; log: Logger; startupFixture: () => Fixture; host: string; allowedHosts?: readonly string[] }) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.log = deps.log;
    this.#startupFixture = deps.startupFixture;
    this.host = deps.host;
    this.allowedHosts = deps.allowedHosts ?? [];
  }

  /**
   * Called after the workspace's data is replaced (reset, fixture load, a checkpoint restored):
   * drop all in-memory OAuth and channel state, and every cache of what the store held.
   */
  onWorkspaceReplaced(listener: () => void): void {
    this.#resetListeners.push(listener);
  }

  /**
   * Called after a reset or fixture load, after the onWorkspaceReplaced listeners: what is not
   * data (fault rules, the journal) goes too. A checkpoint restore leaves those alone.
   */
  onFixtureLoaded(listener: () => void): void {
    this.#fixtureListeners.push(listener);
  }

  /** Called after a connection is revoked: drop its codes, stop its deliveries. */
  onConnectionRevoked(listener: (connectionId: string) => void): void {
    this.#revokeListeners.push(listener);
  }

  /** Called after a committed write changed a watchable collection (push notifications). */
  onCollectionChanged(listener: (resource: ChannelResource) => void): void {
    this.#changeListeners.push(listener);
  }

  /** Writers call this after their transaction committed: an events collection or a user's calendar list changed. */
  collectionChanged(resource: ChannelResource): void {
    for (const listener of this.#changeListeners) listener(resource);
  }

  /** Called when the service stops: cancel timers and pending deliveries. */
  onShutdown(listener: () => void): void {
    this.#shutdownListeners.push(listener);
  }

  shutdown(): void {
    for (const listener of this.#shutdownListeners) listener();
  }

  /** Replaces the whole workspace with a validated fixture (all connections, tokens and channels go). */
  loadFixture(fixture: Fixture): LoadedCounts {
    const counts = this.store.transaction(() => {
      this.store.clearWorkspace();
      bumpGeneration(this.store);
      return loadFixture(this.store, fixture, this.clock.now());
    });
    for (const listener of this.#resetListeners) listener();
    for (const listener of this.#fixtureListeners) listener();
    return counts;
  }

  /** Puts back the data a snapshot kept (Store.takeSnapshot); page and sync tokens taken since go stale. */
  restoreSnapshot(id: number): void {
    this.store.transaction(() => {
      this.store.restoreSnapshot(id);
      bumpGeneration(this.store);
    });
    for (const listener of this.#resetListeners) listener();
  }

  /** POST /__svc/reset: back to the startup fixture and to real time. */
  reset(): void {
    this.clock.reset();
    this.loadFixture(this.#startupFixture());
  }

  /** Revokes a connection: its tokens, codes and channels go. False when it does not exist. */
  revokeConnection(connectionId: string): boolean {
    if (!this.store.getConnection(connectionId)) return false;
    this.store.deleteConnection(connectionId);
    for (const listener of this.#revokeListeners) listener(connectionId);
    return true;
  }

  /** DELETE /__svc/users/{id}: the user, their calendars, events, connections and channels go. */
  deleteUser(userId: string): boolean {
    if (!this.store.getUser(userId)) return false;
    const connections = this.store.listConnections().filter((c) => c.userId === userId);
    this.store.deleteUser(userId);
    for (const connection of connections) {
      for (const listener of this.#revokeListeners) listener(connection.id);
    }
    return true;
  }
}
