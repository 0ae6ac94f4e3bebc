// Fault rules (docs/faults.md, docs/inspector.md): the rules with their live hits and remaining counts, each with
// a Delete button that asks first (dom.js confirmBeforeActing), and a form over the docs/faults.md catalogue that adds one. The service validates the rule
// (an error that does not fit the method is its 400 invalid_fault, shown on the page as it is);
// the form only leaves out what was left empty.

import { api } from './api.js';
import { attempt, byId, field, h, onClick, onSubmit, renderIfChanged, table } from './dom.js';

/**
 * @typedef {{ id: string | number, match: Record<string, unknown>, error?: string, times?: number, afterMatches?: number,
 *   delayMs?: number, retryAfterSeconds?: number, status?: number, remaining: number | null, hits: number }} Rule
 */

// The `error` catalogue of docs/faults.md, with what each answers.
/** @type {[string, string][]} */
const ERRORS = [
  ['rateLimitExceeded', '403 rateLimitExceeded'],
  ['tooManyRequests', '429, Retry-After when set'],
  ['userRateLimitExceeded', '403 userRateLimitExceeded'],
  ['quotaExceeded', '403 quotaExceeded'],
  ['backendError', '500 backendError'],
  ['serviceUnavailable', '503 backendError'],
  ['authError', '401 authError, token stays valid'],
  ['fullSyncRequired', '410, list calls'],
  ['notFound', '404 notFound'],
  ['invalid_grant', '400, oauth.token only'],
  ['drop', 'push.delivery: never arrives'],
  ['webhookStatus', 'push.delivery: recorded as that status'],
  ['duplicate', 'push.delivery: arrives twice'],
];

// Suggestions for match.method (any method id of the route table is accepted, docs/faults.md).
const METHODS = [
  '*',
  'calendar.events.list',
  'calendar.events.get',
  'calendar.events.insert',
  'calendar.events.patch',
  'calendar.events.update',
  'calendar.events.delete',
  'calendar.events.instances',
  'calendar.events.watch',
  'calendar.calendarList.list',
  'calendar.calendars.get',
  'calendar.freebusy.query',
  'calendar.channels.stop',
  'oauth.token',
  'oauth.revoke',
  'oauth.userinfo',
  'push.delivery',
];

const MATCH_TEXT = ['calendarId', 'userId', 'clientId', 'grantType', 'channelId'];
const RULE_NUMBERS = ['times', 'afterMatches', 'delayMs', 'retryAfterSeconds', 'status'];

export function createFaultsPanel() {
  const list = byId('fault-list', HTMLDivElement);
  const form = byId('fault-form', HTMLFormElement);
  const errorSelect = /** @type {HTMLSelectElement} */ (form.elements.namedItem('error'));
  errorSelect.append(h('option', { value: '' }, 'none (delay only)'), ...ERRORS.map(([name, what]) => h('option', { value: name }, `${name}: ${what}`)));
  errorSelect.value = 'backendError';
  byId('fault-methods', HTMLDataListElement).append(...METHODS.map((method) => h('option', { value: method })));

  async function refresh() {
    const rules = /** @type {{ faults: Rule[] }} */ (await api('GET', '/__svc/faults')).faults;
    renderIfChanged(list, rules, () => [ruleTable(rules)]);
  }

  /** @param {Rule[]} rules */
  function ruleTable(rules) {
    if (rules.length === 0) return h('p', { class: 'quiet' }, 'No fault rules: every request is answered normally.');
    const rows = rules.map((rule) => {
      const { method, ...narrowing } = rule.match;
      return [
        String(rule.id),
        String(method),
        Object.entries(narrowing)
          .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
          .join(' '),
        rule.error ?? 'none',
        rule.remaining === null ? 'unlimited' : rule.remaining,
        rule.hits,
        [rule.afterMatches ? `after ${rule.afterMatches}` : '', rule.delayMs ? `delay ${rule.delayMs} ms` : '', rule.retryAfterSeconds !== undefined ? `Retry-After ${rule.retryAfterSeconds}` : '', rule.status !== undefined ? `status ${rule.status}` : '']
          .filter(Boolean)
          .join(', '),
        h(
          'button',
          { type: 'button', 'aria-label': `Delete fault ${rule.id}`, 'data-confirm': `Delete fault rule ${rule.id}?`, onclick: () => void attempt(() => remove(rule), list) },
          'Delete',
        ),
      ];
    });
    return table(['Rule', 'Method', 'Match', 'Error', 'Remaining', 'Hits', 'Options', 'Action'], rows, 'Fault rules, applied in this order');
  }

  /** @param {Rule} rule */
  async function remove(rule) {
    await api('DELETE', `/__svc/faults/${encodeURIComponent(String(rule.id))}`);
    await refresh();
  }

  onSubmit(form, async (fields) => {
    /** @type {Record<string, unknown>} */
    const match = { method: field(fields, 'method') };
    for (const name of MATCH_TEXT) if (field(fields, name) !== '') match[name] = field(fields, name);
    if (field(fields, 'syncToken') !== '') match.syncToken = field(fields, 'syncToken') === 'true';
    /** @type {Record<string, unknown>} */
    const rule = { match };
    if (field(fields, 'error') !== '') rule.error = field(fields, 'error');
    for (const name of RULE_NUMBERS) if (field(fields, name) !== '') rule[name] = Number(field(fields, name));
    await api('POST', '/__svc/faults', rule);
    await refresh();
  });
  onClick(byId('faults-delete-all', HTMLButtonElement), async () => {
    await api('DELETE', '/__svc/faults');
    await refresh();
  });

  return { refresh };
}
