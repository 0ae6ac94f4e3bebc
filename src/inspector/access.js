// Who holds access (docs/management-api.md, docs/inspector.md): the connections (client, user, scopes, offline, created),
// each with a Revoke button that asks first (dom.js confirmBeforeActing), and the push channels
// with their delivery log.

import { api } from './api.js';
import { attempt, byId, h, renderIfChanged, table } from './dom.js';

/** @typedef {{ id: string, clientId: string, userId: string, scopes: string[], offline: boolean, createdAt: string }} Connection */
/**
 * @typedef {{ messageNumber: number, state: string, status: number | null, at: string, attempt: number,
 *   outcome: string, error?: string, fault?: string }} Delivery
 */
/**
 * @typedef {{ id: string, resourceId: string, resourceUri: string, address: string, expiration: string,
 *   connectionId: string, deliveries: Delivery[] }} Channel
 */

/** @param {() => Promise<void>} changed called after a revoke, so that the other panels catch up */
export function createAccessPanel(changed) {
  const connections = byId('connections', HTMLDivElement);
  const channels = byId('channels', HTMLDivElement);

  /** @param {Connection} connection */
  async function revoke(connection) {
    await api('POST', `/__svc/connections/${encodeURIComponent(connection.id)}/revoke`);
    await changed();
  }

  /** @param {Connection[]} list */
  function connectionTable(list) {
    if (list.length === 0) return [h('p', { class: 'quiet' }, 'No connections: no app has been granted access since the last reset.')];
    const rows = list.map((c) => [
      c.id,
      c.clientId,
      c.userId,
      h('ul', { class: 'scopes' }, ...c.scopes.map((scope) => h('li', {}, scope))),
      c.offline ? 'yes' : 'no',
      c.createdAt,
      h(
        'button',
        {
          type: 'button',
          'aria-label': `Revoke connection ${c.id}`,
          'data-confirm': `Revoke connection ${c.id} (${c.clientId} for ${c.userId})? Its tokens stop working at once.`,
          onclick: () => void attempt(() => revoke(c), connections),
        },
        'Revoke',
      ),
    ]);
    return [table(['Connection', 'Client', 'User', 'Scopes', 'Offline', 'Created', 'Action'], rows, 'Connections between apps and test users')];
  }

  /** @param {Channel[]} list */
  function channelBlocks(list) {
    if (list.length === 0) return [h('p', { class: 'quiet' }, 'No channels: nothing is being watched.')];
    return list.map((channel) =>
      h(
        'article',
        { class: 'channel' },
        h('h3', {}, `Channel ${channel.id}`),
        h(
          'dl',
          {},
          ...[
            ['Resource', channel.resourceUri],
            ['Resource id', channel.resourceId],
            ['Address', channel.address],
            ['Expiration', channel.expiration],
            ['Connection', channel.connectionId],
          ].flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
        ),
        channel.deliveries.length === 0
          ? h('p', { class: 'quiet' }, 'No deliveries yet.')
          : table(
              ['Message', 'State', 'Attempt', 'Outcome', 'Status', 'At', 'Note'],
              channel.deliveries.map((d) => [
                d.messageNumber,
                d.state,
                d.attempt,
                d.outcome,
                d.status ?? 'no answer',
                d.at,
                [d.error, d.fault && `fault ${d.fault}`].filter(Boolean).join('; '),
              ]),
              `Delivery log of channel ${channel.id}`,
            ),
      ),
    );
  }

  return {
    async refresh() {
      const [c, ch] = await Promise.all([api('GET', '/__svc/connections'), api('GET', '/__svc/channels')]);
      const connectionList = /** @type {{ connections: Connection[] }} */ (c).connections;
      const channelList = /** @type {{ channels: Channel[] }} */ (ch).channels;
      renderIfChanged(connections, connectionList, () => connectionTable(connectionList));
      renderIfChanged(channels, channelList, () => channelBlocks(channelList));
    },
  };
}
