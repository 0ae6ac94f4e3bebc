// The week drawn as a calendar draws it (docs/inspector.md): the days side by side, each headed by its
// date and its all-day events, the hours down the side, each timed event a box placed and sized
// by its times (week-layout.js), overlapping ones side by side. Busy events are filled; the ones
// that leave the time free are drawn as outlines: transparent (marked free), declined by the
// calendar's owner, and cancelled (struck through). Each box is a button that opens the event in
// the side panel (event-panel.js). Boxes are placed through the CSS object model, which the
// page's Content-Security-Policy allows, unlike style attributes in markup.

import { h } from './dom.js';
import { DAY_MINUTES, dayLabel, drawnEndOf } from './week-layout.js';

/** @typedef {import('./week.js').CalendarEvent} CalendarEvent */
/** @typedef {import('./week-layout.js').Box} Box */
/** @typedef {import('./week-layout.js').AllDay} AllDay */
/** @typedef {{ allDay: Map<string, AllDay[]>, timed: Map<string, Box[]> }} Layout */
/** @typedef {(event: CalendarEvent, when: string, marks: string[], opener: HTMLElement) => void} Opener */

const HOURS = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`);

/**
 * The grid's cells, in the order the stylesheet's grid places them: the corner, the seven day
 * heads (sticky on top), the hours (sticky on the left), the seven day columns.
 * @param {string[]} days
 * @param {Layout} layout
 * @param {Opener} open
 */
export function weekCells(days, layout, open) {
  return [
    h('div', { class: 'corner' }, h('span', { class: 'all-day-label' }, 'All day')),
    ...days.map((day) => {
      const allDay = layout.allDay.get(day) ?? [];
      return h(
        'div',
        { class: 'day-head', 'data-date': day },
        h('h4', {}, dayLabel(day)),
        allDay.length > 0 && h('ul', { class: 'events all-day-events', 'aria-label': `All-day events of ${dayLabel(day)}` }, ...allDay.map(({ event, label }) => h('li', {}, eventButton(event, label, 'all-day', open)))),
      );
    }),
    h('div', { class: 'hours', 'aria-hidden': 'true' }, ...HOURS.map((hour) => h('span', {}, hour))),
    ...days.map((day) => {
      const boxes = layout.timed.get(day) ?? [];
      return h(
        'section',
        { class: 'day', 'data-date': day, 'aria-label': dayLabel(day) },
        boxes.length > 0 && h('ul', { class: 'events' }, ...boxes.map((box) => placed(box, open))),
      );
    }),
  ];
}

/**
 * A timed event's box, at its share of the day's height and of the width its run of overlapping
 * events shares.
 * @param {Box} box
 * @param {Opener} open
 */
function placed(box, open) {
  const item = h('li', { class: 'slot' }, eventButton(box.event, box.label, 'timed', open));
  const percent = (/** @type {number} */ minutes) => `${(minutes / DAY_MINUTES) * 100}%`;
  item.style.top = percent(box.start);
  item.style.height = percent(drawnEndOf(box) - box.start);
  item.style.left = `${(box.column / box.columns) * 100}%`;
  item.style.width = `${100 / box.columns}%`;
  return item;
}

/**
 * @param {CalendarEvent} event
 * @param {string} when
 * @param {'all-day' | 'timed'} kind
 * @param {Opener} open
 */
function eventButton(event, when, kind, open) {
  const marks = marksOf(event);
  const free = marks.some((mark) => mark === 'cancelled' || mark === 'free' || mark === 'declined');
  const classes = ['event', kind, free ? 'leaves-free' : 'busy', ...marks.filter((mark) => mark === 'cancelled' || mark === 'declined'), marks.includes('free') ? 'transparent' : ''];
  const title = event.summary ?? '(no title)';
  return h(
    'button',
    {
      type: 'button',
      class: classes.filter(Boolean).join(' '),
      'data-event-id': event.id,
      'aria-controls': 'event-panel',
      'aria-expanded': 'false',
      title: `${when} ${title}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`,
      onclick: (/** @type {Event} */ click) => open(event, when, marks, /** @type {HTMLElement} */ (click.currentTarget)),
    },
    h('span', { class: 'when' }, when),
    ' ',
    h('span', { class: 'title' }, title),
    ...marks.map((mark) => h('span', { class: 'tag' }, mark)),
  );
}

/**
 * What the box is marked with: whether it holds the time (cancelled, transparent, declined by
 * the calendar's owner leave it free), a series' instance, its guests.
 * @param {CalendarEvent} event
 */
export function marksOf(event) {
  const guests = event.attendees?.length ?? 0;
  return [
    event.status === 'cancelled' ? 'cancelled' : '',
    event.transparency === 'transparent' ? 'free' : '',
    event.attendees?.some((attendee) => attendee.self && attendee.responseStatus === 'declined') ? 'declined' : '',
    event.recurringEventId !== undefined ? 'recurring' : '',
    guests > 0 ? `${guests} ${guests === 1 ? 'guest' : 'guests'}` : '',
  ].filter(Boolean);
}
