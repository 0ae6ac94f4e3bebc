// The live request journal (docs/journal.md, docs/inspector.md): newest first, polled once a second for the entries
// after the last one seen, filtered in the page by operation and status, each entry a <details>
// that opens on its whole record. Entries are only ever added or removed, never re-rendered, so an
// opened entry stays open while new ones arrive. The first poll asks for the newest few entries
// only, and an entry's record is laid out when it is first opened: a journal full of large bodies
// costs the page, and the service, no more than what is looked at.

import { api, withQuery } from './api.js';
import { attempt, byId, h, jsonBlock, showError } from './dom.js';

/**
 * @typedef {{ id: number, at: string, method: string, path: string, query: Record<string, string>,
 *   operation: string | null, userId: string | null, clientId: string | null, connectionId: string | null,
 *   status: number, durationMs: number, body: unknown, error: string | null, fault: string | null }} Entry
 */

const POLL_MS = 1000;
// What the page keeps; the service keeps far more (--journal-size), readable through the API.
const KEPT = 1000;
// The first poll's page: the newest entries, not the service's whole journal.
const FIRST = 50;
// Later polls read on from the last entry seen, a page at a time.
const PAGE = 200;

/** @param {() => void} activity called when new entries arrive: other panels may have changed */
export function createJournalPanel(activity) {
  const list = byId('journal-entries', HTMLOListElement);
  const operationFilter = byId('journal-operation', HTMLInputElement);
  const statusFilter = byId('journal-status', HTMLInputElement);
  const live = byId('journal-live', HTMLInputElement);
  const operations = byId('journal-operations', HTMLDataListElement);
  const count = byId('journal-count', HTMLParagraphElement);
  /** @type {Map<HTMLLIElement, Entry>} */
  const shown = new Map();
  const knownOperations = new Set();
  let last = 0;
  let failing = false;

  /** @type {Promise<void>} */
  let polling = Promise.resolve();

  // One poll at a time: two reading from the same `last` would add the same entries twice.
  function poll() {
    polling = polling.catch(() => undefined).then(fetchNew);
    return polling;
  }

  async function fetchNew() {
    // The first poll (and the first after the journal was emptied) starts from the newest
    // entries: `last` of a one-entry page says where they are.
    if (last === 0) last = Math.max(0, (await read(0, 1)).last - FIRST);
    const answer = await read(last, PAGE);
    // The journal was emptied (DELETE, reset or fixture load) since the last poll: ids go on
    // from where they were, so a `last` below ours means our entries are gone.
    if (answer.last < last) clear();
    for (const entry of answer.requests) add(entry);
    if (answer.requests.length > 0) {
      last = answer.requests.at(-1)?.id ?? last;
      while (list.childElementCount > KEPT) drop(/** @type {HTMLLIElement} */ (list.lastElementChild));
      activity();
    }
    countShown();
  }

  /**
   * @param {number} since
   * @param {number} limit
   * @returns {Promise<{ requests: Entry[], last: number }>}
   */
  function read(since, limit) {
    return api('GET', withQuery('/__svc/requests', { since: String(since), limit: String(limit) }));
  }

  /** @param {Entry} entry */
  function add(entry) {
    const details = h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'status' }, entry.status),
        ` ${entry.method} ${entry.path} `,
        h('span', { class: 'operation' }, entry.operation ?? 'unrouted'),
        entry.userId && ` ${entry.userId}`,
        entry.error && h('span', { class: 'tag' }, entry.error),
        entry.fault && h('span', { class: 'tag' }, `fault ${entry.fault}`),
        h('span', { class: 'quiet' }, ` #${entry.id} ${entry.at} ${entry.durationMs} ms`),
      ),
    );
    // The record is laid out once, when the entry is first opened.
    details.addEventListener('toggle', () => {
      if (details.open && details.childElementCount === 1) details.append(jsonBlock(entry));
    });
    const item = h('li', { class: `entry status-${String(entry.status).charAt(0)}xx`, 'data-id': String(entry.id) }, details);
    item.hidden = !matches(entry);
    shown.set(item, entry);
    list.prepend(item);
    if (entry.operation !== null && !knownOperations.has(entry.operation)) {
      knownOperations.add(entry.operation);
      operations.append(h('option', { value: entry.operation }));
    }
  }

  /** @param {HTMLLIElement} item */
  function drop(item) {
    shown.delete(item);
    item.remove();
  }

  function clear() {
    for (const item of [...shown.keys()]) drop(item);
  }

  /** @param {Entry} entry */
  function matches(entry) {
    const operation = operationFilter.value.trim().toLowerCase();
    const status = statusFilter.value.trim().toLowerCase();
    if (operation !== '' && !(entry.operation ?? 'unrouted').toLowerCase().includes(operation)) return false;
    // `401` is that status; `4xx` (or `4`) every status of that class.
    if (status !== '' && !String(entry.status).startsWith(status.replace(/x+$/, ''))) return false;
    return true;
  }

  function filter() {
    for (const [item, entry] of shown) item.hidden = !matches(entry);
    countShown();
  }

  function countShown() {
    const visible = [...shown.keys()].filter((item) => !item.hidden).length;
    count.textContent = `${visible} of ${shown.size} entries shown (newest first).`;
  }

  async function loop() {
    if (live.checked) {
      try {
        await poll();
        failing = false;
      } catch (error) {
        // One message per outage, not one a second.
        if (!failing) showError(error);
        failing = true;
      }
    }
    setTimeout(loop, POLL_MS);
  }

  operationFilter.addEventListener('input', filter);
  statusFilter.addEventListener('input', filter);
  byId('journal-clear', HTMLButtonElement).addEventListener('click', () =>
    void attempt(async () => {
      await api('DELETE', '/__svc/requests');
      clear();
      countShown();
    }),
  );

  return {
    start: loop,
    /** Polls now, after an action of the page (reset, fixture load) that empties the journal. */
    refresh: poll,
  };
}
