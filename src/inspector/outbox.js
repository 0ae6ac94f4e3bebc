// The outbox panel (docs/inspector.md, docs/invitations.md): the newest e-mails Google would have sent about event
// writes, newest first, and Clear outbox (DELETE /__svc/outbox), which asks first (data-confirm
// in the markup).
//
// The outbox holds up to 10,000 messages and answers in pages, oldest first, so the panel never
// reads it whole: each refresh asks for one message (the oldest held, and with it the newest id),
// and then reads only the messages after the newest it shows, at most SHOWN of them. Ids go up by
// one per message, so "the newest SHOWN" starts at `last - SHOWN`. What the oldest held is newer
// than was trimmed or cleared away, and the panel drops it too.

import { api, withQuery } from './api.js';
import { byId, h, onClick, renderIfChanged, table } from './dom.js';

/**
 * @typedef {{ id: number, at: string, to: string, kind: string, eventId: string, calendarId: string,
 *   fromUserId: string, summary: string | null }} OutboxMessage
 */
/** @typedef {{ messages: OutboxMessage[], last: number }} OutboxPage */

// What the panel shows; the service keeps far more, readable through the API.
const SHOWN = 100;

/** @param {number} since @param {number} limit @returns {Promise<OutboxPage>} */
function read(since, limit) {
  return api('GET', withQuery('/__svc/outbox', { since: String(since), limit: String(limit) }));
}

export function createOutboxPanel() {
  const list = byId('outbox-messages', HTMLDivElement);
  /** Oldest first. @type {OutboxMessage[]} */
  let shown = [];

  /** @type {Promise<void>} */
  let loading = Promise.resolve();

  // One load at a time: two reading after the same newest message would show it twice.
  function refresh() {
    loading = loading.catch(() => undefined).then(load);
    return loading;
  }

  async function load() {
    const probe = await read(0, 1);
    const oldest = probe.messages[0];
    const kept = oldest === undefined ? [] : shown.filter((m) => m.id >= oldest.id);
    /** @type {OutboxMessage[]} */
    const fresh = [];
    let since = Math.max(kept.at(-1)?.id ?? 0, probe.last - SHOWN);
    while (since < probe.last) {
      const page = await read(since, SHOWN);
      const newest = page.messages.at(-1);
      if (newest === undefined) break;
      fresh.push(...page.messages);
      since = newest.id;
    }
    shown = [...kept, ...fresh].slice(-SHOWN);
    render(shown.toReversed(), oldest === undefined ? 0 : probe.last - oldest.id + 1);
  }

  /** @param {OutboxMessage[]} newestFirst @param {number} held */
  function render(newestFirst, held) {
    renderIfChanged(list, { newestFirst, held }, () => [
      newestFirst.length === 0
        ? h('p', { class: 'quiet' }, 'The outbox is empty.')
        : table(
            ['At', 'To', 'Kind', 'Summary', 'From user', 'Event id'],
            newestFirst.map((m) => [m.at, m.to, m.kind, m.summary, m.fromUserId, m.eventId]),
            `${held > newestFirst.length ? `The newest ${newestFirst.length} of ${held}` : newestFirst.length} ${held === 1 ? 'message' : 'messages'} (newest first)`,
          ),
    ]);
  }

  onClick(byId('outbox-clear', HTMLButtonElement), async () => {
    await api('DELETE', '/__svc/outbox');
    await refresh();
  });

  return { refresh };
}
