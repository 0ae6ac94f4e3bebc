// Building the page's elements and reporting failures. Values reach the page only as text nodes
// and attribute values (never as HTML), so nothing the API returns can become markup.

/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * An element with attributes and children; `on<event>` members become listeners.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | boolean | ((event: Event) => void)>} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (value === true) element.setAttribute(key, '');
    else if (value !== false) element.setAttribute(key, value);
  }
  element.append(...nodes(children));
  return element;
}

/** Children as DOM.append takes them: the absent ones left out, numbers as text. @param {Child[]} children */
function nodes(children) {
  return children.flatMap((child) => (child === null || child === undefined || child === false ? [] : [typeof child === 'number' ? String(child) : child]));
}

/**
 * The element with that id, of that type (the page's markup is fixed, so a miss is a bug).
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return element;
}

/**
 * A table with a header row; each row is a list of cells.
 * @param {string[]} headings
 * @param {Child[][]} rows
 * @param {string} caption
 */
export function table(headings, rows, caption) {
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, ...words(cell)))))),
  );
}

/**
 * A cell's text with each word kept whole: ids, e-mail addresses and timestamps have hyphens,
 * where a browser would otherwise break a line, and the cell may break only between words.
 * @param {Child} cell
 * @returns {Child[]}
 */
function words(cell) {
  if (typeof cell !== 'string' && typeof cell !== 'number') return [cell];
  return String(cell)
    .split(/(\s+)/)
    .map((part, i) => (i % 2 === 1 ? part : part !== '' && h('span', { class: 'word' }, part)));
}

/** A value shown whole, as indented JSON. @param {unknown} value */
export function jsonBlock(value) {
  return h('pre', { class: 'json' }, JSON.stringify(value, null, 2));
}

/**
 * Replaces an element's children, unless what they show has not changed since the last call:
 * a refresh then leaves the keyboard focus and open <details> where they were.
 * @param {HTMLElement} element
 * @param {unknown} data what the children are made from
 * @param {() => Child[]} render
 */
export function renderIfChanged(element, data, render) {
  const key = JSON.stringify(data);
  if (element.dataset.shown === key) return;
  element.dataset.shown = key;
  element.replaceChildren(...nodes(render()));
}

const MAX_ERRORS = 5;

/**
 * A failure as the page shows it, with a button that dismisses it.
 * @param {unknown} error
 */
function errorItem(error) {
  const message = error instanceof Error ? error.message : String(error);
  const item = h('p', { class: 'error' }, message, ' ');
  item.append(h('button', { type: 'button', onclick: () => item.remove() }, 'Dismiss'));
  return item;
}

/**
 * Shows a failure nothing on the page caused (a panel's refresh, the address) at the top of the
 * page until dismissed.
 * @param {unknown} error
 */
export function showError(error) {
  const region = byId('errors', HTMLDivElement);
  region.prepend(errorItem(error));
  while (region.childElementCount > MAX_ERRORS) region.lastElementChild?.remove();
}

/**
 * The place for the failures of what `anchor` does (a form, a row of controls): an alert right
 * after it, made on first use.
 * @param {Element} anchor
 */
function errorSlot(anchor) {
  const next = anchor.nextElementSibling;
  if (next instanceof HTMLDivElement && next.classList.contains('error-slot')) return next;
  const slot = h('div', { class: 'error-slot', role: 'alert' });
  anchor.after(slot);
  return slot;
}

/**
 * Runs an action of the page, showing its failure instead of losing it to the console: right
 * after `anchor`, the form or controls the person used, where they are looking (the next try
 * there clears it), or at the top of the page when no one acted.
 * @param {() => Promise<unknown>} action
 * @param {Element} [anchor]
 * @returns {Promise<void>}
 */
export async function attempt(action, anchor) {
  if (anchor !== undefined) errorSlot(anchor).replaceChildren();
  try {
    await action();
  } catch (error) {
    if (anchor === undefined) showError(error);
    else errorSlot(anchor).replaceChildren(errorItem(error));
  }
}

/**
 * Makes every element with a `data-confirm` question ask it before it acts: the page's
 * destructive buttons (reset, load a fixture, revoke, delete, clear) cannot be undone. One
 * listener, in the document's capture phase, runs before any button's own listener and before a
 * form's submission (pressing Enter in a field clicks the form's submit button, so it asks too);
 * a dismissed question stops the click there and nothing is sent. window.confirm is the
 * browser's own dialog: operable with the keyboard, read by screen readers, allowed by the CSP.
 */
export function confirmBeforeActing() {
  document.addEventListener(
    'click',
    (event) => {
      const asking = event.target instanceof Element ? event.target.closest('[data-confirm]') : null;
      if (!(asking instanceof HTMLElement) || window.confirm(asking.dataset.confirm ?? '')) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    true,
  );
}

/**
 * A form whose submission runs `action` with its fields instead of navigating; a failure shows
 * right after the form.
 * @param {HTMLFormElement} form
 * @param {(fields: FormData) => Promise<unknown>} action
 */
export function onSubmit(form, action) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt(() => action(new FormData(form)), form);
  });
}

/**
 * A button outside a form whose click runs `action`; a failure shows right after the paragraph
 * or row of controls that holds it.
 * @param {HTMLButtonElement} button
 * @param {() => Promise<unknown>} action
 */
export function onClick(button, action) {
  button.addEventListener('click', () => void attempt(action, button.parentElement ?? button));
}

/** A form field's text, trimmed. @param {FormData} fields @param {string} name */
export function field(fields, name) {
  const value = fields.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
