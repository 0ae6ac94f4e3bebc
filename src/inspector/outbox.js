// The outbox panel (CONTRACT §11, §13): the e-mails Google would have sent about event writes,
// newest first (the API lists them oldest first), and Clear outbox (DELETE /__svc/outbox).

import { api } from './api.js';
import { attempt, byId, h, renderIfChanged, table } from './dom.js';

/**
 * @typedef {{ id: string, at: string, to: string, kind: string, eventId: string, calendarId: string,
 *   fromUserId: string, summary: string }} OutboxMessage
 */

export function createOutboxPanel() {
  const list = byId('outbox-messages', HTMLDivElement);

  async function refresh() {
    const answer = /** @type {{ messages: OutboxMessage[] }} */ (await api('GET', '/__svc/outbox'));
    const newestFirst = answer.messages.toReversed();
    renderIfChanged(list, newestFirst, () => [
      newestFirst.length === 0
        ? h('p', { class: 'quiet' }, 'The outbox is empty.')
        : table(
            ['At', 'To', 'Kind', 'Summary', 'From user', 'Event id'],
            newestFirst.map((m) => [m.at, m.to, m.kind, m.summary, m.fromUserId, m.eventId]),
            `${newestFirst.length} ${newestFirst.length === 1 ? 'message' : 'messages'} (newest first)`,
          ),
    ]);
  }

  byId('outbox-clear', HTMLButtonElement).addEventListener('click', () =>
    void attempt(async () => {
      await api('DELETE', '/__svc/outbox');
      await refresh();
    }),
  );

  return { refresh };
}
