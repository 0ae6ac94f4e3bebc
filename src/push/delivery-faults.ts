// Fault rules on the service's own webhook POSTs (docs/faults.md, `push.delivery`), acted out on the
// real delivery path: the Notifier calls postWithFaults() for every attempt instead of posting
// directly, and treats what it returns as the receiver's answer.
//   drop           the message counts as sent (its number is spent, nothing retries) but is never sent;
//   webhookStatus  the attempt is recorded as answered with the rule's status, nothing sent: a
//                  500/502/503/504 then goes through the Notifier's real retry and backoff;
//   duplicate      the message is sent twice with the same message number; the second answer counts;
//   delayMs        the attempt waits that many real milliseconds first.

import type { App } from '../app/app.ts';
import { PUSH_DELIVERY } from '../faults/catalogue.ts';
import type { FaultRules, FaultSubject } from '../faults/rules.ts';
import type { ChannelRecord } from '../store/store.ts';
import type { Message, WebhookAnswer, WebhookClient } from './webhook-request.ts';

export async function postWithFaults(
  faults: FaultRules,
  app: App,
  client: WebhookClient,
  channel: ChannelRecord,
  message: Message,
  signal: AbortSignal,
): Promise<WebhookAnswer> {
  const decision = faults.names(PUSH_DELIVERY) ? faults.decide(deliverySubject(app, channel)) : undefined;
  if (decision === undefined) return client.post(channel, message, signal);
  const { ruleId: fault, spec } = decision;
  if (spec.delayMs > 0) await faults.delay(spec.delayMs);
  switch (spec.error) {
    case 'drop':
      return { status: null, error: `dropped by fault rule ${fault}: counted as sent, never sent`, final: true, dropped: true, fault };
    case 'webhookStatus':
      return { status: spec.status ?? null, fault };
    case 'duplicate':
      await client.post(channel, message, signal);
      return { ...(await client.post(channel, message, signal)), fault };
    default:
      return { ...(await client.post(channel, message, signal)), fault };
  }
}

/** What a webhook POST states: its channel, the calendar it watches, and the connection's user and client. */
function deliverySubject(app: App, channel: ChannelRecord): FaultSubject {
  const connection = app.store.getConnection(channel.connectionId);
  const user = connection && app.store.getUser(connection.userId);
  return {
    operation: PUSH_DELIVERY,
    channelId: channel.id,
    userId: connection?.userId ?? null,
    clientId: connection?.clientId ?? null,
    calendarId: channel.resource.kind === 'events' ? channel.resource.calendarId : undefined,
    primaryCalendarId: user?.email,
  };
}
