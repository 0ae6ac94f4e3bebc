// The opened event (docs/inspector.md, docs/invitations.md): a side panel beside the week with room to read it, its
// title, times and marks, its attendees and their answers, then its whole resource as JSON. The
// panel takes the keyboard focus when it opens; Close or Escape gives it back to the event it was
// opened from. On a narrow window it covers the page (inspector.css).

import { byId, h, jsonBlock, renderIfChanged } from './dom.js';

/** @typedef {import('./week.js').CalendarEvent} CalendarEvent */
/** @typedef {import('./week.js').Attendee} Attendee */

export function createEventPanel() {
  const panel = byId('event-panel', HTMLElement);
  const title = byId('event-panel-title', HTMLHeadingElement);
  const body = byId('event-panel-body', HTMLDivElement);
  /** @type {{ event: CalendarEvent, when: string, marks: string[] } | undefined} */
  let shown;

  function close() {
    if (shown === undefined) return;
    const id = shown.event.id;
    shown = undefined;
    panel.hidden = true;
    for (const opener of document.querySelectorAll('[aria-controls="event-panel"]')) opener.setAttribute('aria-expanded', 'false');
    // The grid may have been redrawn since: the event's box of now, wherever it is.
    const opener = [...document.querySelectorAll('#week-grid [data-event-id]')].find((box) => box instanceof HTMLElement && box.dataset.eventId === id);
    if (opener instanceof HTMLElement) opener.focus();
  }

  function draw() {
    if (shown === undefined) return;
    const { event, when, marks } = shown;
    title.textContent = event.summary ?? '(no title)';
    const attendees = event.attendees ?? [];
    renderIfChanged(body, shown, () => [
      h('p', { class: 'when' }, when, ...marks.map((mark) => h('span', { class: 'tag' }, mark))),
      attendees.length > 0 && h('h4', {}, 'Attendees'),
      attendees.length > 0 && attendeeList(attendees),
      h('h4', {}, 'Event resource'),
      jsonBlock(event),
    ]);
  }

  byId('event-panel-close', HTMLButtonElement).addEventListener('click', close);
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });

  return {
    /**
     * @param {CalendarEvent} event
     * @param {string} when its times as the week shows them
     * @param {string[]} marks cancelled, free, declined, recurring
     * @param {HTMLElement} opener
     */
    open(event, when, marks, opener) {
      shown = { event, when, marks };
      draw();
      panel.hidden = false;
      for (const other of document.querySelectorAll('[aria-controls="event-panel"]')) other.setAttribute('aria-expanded', String(other === opener));
      title.focus();
    },
    /**
     * After the week is drawn anew: the open event as the service now has it, if it is still there.
     * @param {(id: string) => { event: CalendarEvent, when: string, marks: string[] } | undefined} find
     */
    update(find) {
      const now = shown && find(shown.event.id);
      if (now === undefined) return;
      shown = now;
      draw();
    },
    close,
  };
}

/**
 * Each attendee with their answer; `self` is the owner of the calendar shown (docs/invitations.md: on a copy, the
 * invitee).
 * @param {Attendee[]} attendees
 */
function attendeeList(attendees) {
  return h(
    'ul',
    { class: 'attendees', 'aria-label': 'Attendees and their answers' },
    ...attendees.map((attendee) =>
      h(
        'li',
        {},
        attendee.displayName ? `${attendee.displayName} <${attendee.email ?? ''}>` : (attendee.email ?? '(no e-mail)'),
        ': ',
        h('span', { class: 'response' }, attendee.responseStatus ?? '(no responseStatus)'),
        attendee.organizer && h('span', { class: 'tag' }, 'organizer'),
        attendee.optional && h('span', { class: 'tag' }, 'optional'),
        attendee.self && h('span', { class: 'tag' }, 'this calendar'),
        attendee.comment && h('q', { class: 'comment' }, attendee.comment),
      ),
    ),
  );
}
