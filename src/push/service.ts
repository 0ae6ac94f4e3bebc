// The push-notification service of one running App: it subscribes to the App's lifecycle events
// and owns the Notifier. The composition root (src/index.ts) starts it once per App with
// startPush(app, scheduler) and passes the Notifier it returns to the calendar surface (for the
// watch methods) and the management surface (for GET /__svc/channels). Each start subscribes a
// new Notifier to the App's events, so only the root starts it, once.
//
// Channels live in the store, so on a database file they outlive a restart: a change made after
// the restart is delivered to them with the next persisted message number. Under :memory: the
// store, and with it every channel, is new on each start.

import type { App } from '../app/app.ts';
import type { Scheduler } from '../domain/scheduler.ts';
import type { FaultRules } from '../faults/rules.ts';
import type { ChannelResource } from '../store/store.ts';
import { isLive } from './channels.ts';
import { DEFAULT_DELIVERY_OPTIONS, Notifier } from './delivery.ts';
import type { DeliveryAttempt, DeliveryOptions } from './delivery.ts';

/**
 * `scheduler` runs the retry waits and attempt timeouts: real timers, or a test's. `faults`: the
 * service's fault rules (docs/faults.md), when the caller has them.
 */
export function startPush(app: App, scheduler: Scheduler, options: Partial<DeliveryOptions> = {}, faults?: FaultRules): Notifier {
  const notifier = new Notifier(app, scheduler, { ...DEFAULT_DELIVERY_OPTIONS, ...options }, faults);
  app.onCollectionChanged((resource) => notifyWatchers(app, notifier, resource));
  app.onConnectionRevoked((connectionId) => notifier.forgetConnection(connectionId));
  app.onWorkspaceReplaced(() => notifier.forgetAll());
  app.onShutdown(() => notifier.shutdown());
  return notifier;
}

// https://developers.google.com/workspace/calendar/api/guides/push: `exists` after any create, update or delete in the watched collection, to
// every live channel watching it. One transaction for all their message numbers: a collection
// watched by many channels costs the writer one commit, not one per channel.
function notifyWatchers(app: App, notifier: Notifier, resource: ChannelResource): void {
  const now = app.clock.now();
  // An indexed lookup: every write calls this, and most resources have no channel.
  const watching = app.store.listChannelsWatching(resource).filter((channel) => isLive(channel, now));
  if (watching.length === 0) return;
  app.store.transaction(() => {
    for (const channel of watching) notifier.notify(channel.id, 'exists');
  });
}

export interface ManagedChannel {
  id: string;
  resourceId: string;
  resourceUri: string;
  address: string;
  /** RFC 3339, like every instant of the management API. */
  expiration: string;
  connectionId: string;
  deliveries: readonly DeliveryAttempt[];
}

/**
 * GET /__svc/channels (docs/management-api.md): every stored channel, expired ones included, with its delivery
 * log; an expired channel's log is purged first, so it shows none.
 */
export function listChannelsForManagement(app: App, notifier: Notifier): { channels: ManagedChannel[] } {
  notifier.purge();
  return {
    channels: app.store.listChannels().map((channel) => ({
      id: channel.id,
      resourceId: channel.resourceId,
      resourceUri: channel.resourceUri,
      address: channel.address,
      expiration: new Date(channel.expiration).toISOString(),
      connectionId: channel.connectionId,
      deliveries: notifier.deliveries(channel.id),
    })),
  };
}
