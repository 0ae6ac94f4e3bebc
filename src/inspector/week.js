// The users panel and the week grid (CONTRACT §11): each test user with their calendars, and one
// calendar's week, Monday to Sunday in the calendar's own time zone, as GET
// /__svc/calendars/{id}/events (§10) lists it: recurring series already expanded, cancelled
// events included (showDeleted) and marked, transparent ones marked, all-day events on top of
// their day. An event opens on its attendees and their answers (§13), then its whole resource.
// `?user=<id>&date=YYYY-MM-DD` opens the week containing that date, and the address follows the
// week shown so that it can be copied. A series the service cannot expand (a rule stored before
// today's caps, §19) comes in the view's `unexpandable` instead of as instances: it is listed
// above the week, marked, with the reason, and the rest of the week is shown as usual.

import { api, withQuery } from './api.js';
import { attempt, byId, field, h, jsonBlock, onSubmit, renderIfChanged, showError } from './dom.js';

/** @typedef {{ id: string, name: string, email: string, timeZone: string }} User */
/** @typedef {{ id: string, summary: string, timeZone: string, primary: boolean }} Calendar */
/** @typedef {{ dateTime?: string, date?: string, timeZone?: string }} EventTime */
/**
 * @typedef {{ email?: string, displayName?: string, responseStatus?: string, self?: boolean,
 *   organizer?: boolean, optional?: boolean, comment?: string }} Attendee
 */
/**
 * @typedef {{ id: string, status?: string, summary?: string, transparency?: string,
 *   recurringEventId?: string, start?: EventTime, end?: EventTime, originalStartTime?: EventTime,
 *   attendees?: Attendee[] }} CalendarEvent
 */
/** @typedef {{ event: CalendarEvent, allDay: boolean, label: string, sortKey: string }} Placed */
/** @typedef {{ status: number, error: string, error_description: string, event: CalendarEvent }} Unexpandable */

const DAY_MS = 86_400_000;

export function createWeekPanel() {
  const users = byId('users', HTMLUListElement);
  const userSelect = byId('week-user', HTMLSelectElement);
  const calendarSelect = byId('week-calendar', HTMLSelectElement);
  const dateInput = byId('week-date', HTMLInputElement);
  const heading = byId('week-heading', HTMLHeadingElement);
  const grid = byId('week-grid', HTMLDivElement);
  const unexpandable = byId('week-unexpandable', HTMLUListElement);
  const query = new URLSearchParams(location.search);
  /** @type {User[]} */
  let knownUsers = [];
  let wantedUser = query.get('user') ?? '';
  let loadedCalendarsOf = '';

  /** No week to show: the grid and the list of series left out are emptied, to be drawn anew. */
  function clearWeek() {
    for (const element of [grid, unexpandable]) {
      element.replaceChildren();
      delete element.dataset.shown;
    }
  }

  async function refresh() {
    const answer = /** @type {{ users: User[] }} */ (await api('GET', '/__svc/users'));
    knownUsers = answer.users;
    renderIfChanged(users, knownUsers, () => knownUsers.map(userItem));
    renderIfChanged(userSelect, knownUsers, () => knownUsers.map((user) => h('option', { value: user.id }, `${user.name} (${user.id})`)));
    if (knownUsers.length === 0) {
      heading.textContent = 'The workspace has no test users.';
      clearWeek();
      return;
    }
    const user = knownUsers.find((u) => u.id === wantedUser);
    if (user === undefined && wantedUser !== '') {
      heading.textContent = `No test user with id ${JSON.stringify(wantedUser)}.`;
      clearWeek();
      wantedUser = '';
      throw new Error(`The address asks for user ${JSON.stringify(query.get('user'))}, which the workspace does not have.`);
    }
    const shown = user ?? /** @type {User} */ (knownUsers[0]);
    userSelect.value = shown.id;
    if (loadedCalendarsOf !== shown.id) await loadCalendars(shown);
    if (dateInput.value === '') await startDate(shown);
    await showWeek();
  }

  /**
   * The address's date, or today on the service clock in the user's time zone.
   * @param {User} user
   */
  async function startDate(user) {
    const asked = query.get('date');
    query.delete('date');
    // An <input type=date> takes only a valid YYYY-MM-DD and empties itself otherwise.
    if (asked !== null) dateInput.value = asked;
    if (dateInput.value !== '') return;
    dateInput.value = await today(user.timeZone);
    if (asked !== null) showError(`The address's date ${JSON.stringify(asked)} is not a YYYY-MM-DD date; showing today.`);
  }

  /** @param {User} user */
  function userItem(user) {
    return h(
      'li',
      {},
      h('button', { type: 'button', onclick: () => void attempt(() => selectUser(user.id)) }, `Week of ${user.name}`),
      ` ${user.id} · ${user.email} · ${user.timeZone}`,
    );
  }

  /** @param {User} user */
  async function loadCalendars(user) {
    const answer = /** @type {{ calendars: Calendar[] }} */ (await api('GET', `/__svc/users/${encodeURIComponent(user.id)}/calendars`));
    calendarSelect.replaceChildren(
      ...answer.calendars.map((calendar) => h('option', { value: calendar.id }, `${calendar.summary || calendar.id}${calendar.primary ? ' (primary)' : ''} · ${calendar.timeZone}`)),
    );
    const primary = answer.calendars.find((calendar) => calendar.primary);
    if (primary) calendarSelect.value = primary.id;
    loadedCalendarsOf = user.id;
  }

  /** @param {string} userId */
  async function selectUser(userId) {
    wantedUser = userId;
    loadedCalendarsOf = '';
    await refresh();
  }

  async function showWeek() {
    const calendarId = calendarSelect.value;
    if (calendarId === '' || dateInput.value === '') return;
    const monday = mondayOf(dateInput.value);
    const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
    // Any time zone's week lies within a day either side of the UTC one (offsets stay under ±24 h).
    const timeMin = new Date(Date.parse(`${monday}T00:00:00Z`) - DAY_MS).toISOString();
    const timeMax = new Date(Date.parse(`${addDays(monday, 8)}T00:00:00Z`)).toISOString();
    const answer = /** @type {{ timeZone: string, items: CalendarEvent[], unexpandable?: Unexpandable[] }} */ (
      await api('GET', withQuery(`/__svc/calendars/${encodeURIComponent(calendarId)}/events`, { timeMin, timeMax }))
    );
    wantedUser = userSelect.value;
    history.replaceState(null, '', `?${new URLSearchParams({ user: wantedUser, date: dateInput.value })}${location.hash}`);
    heading.textContent = `Week of ${dayLabel(monday)} ${monday.slice(0, 4)}, ${calendarSelect.selectedOptions[0]?.textContent ?? calendarId}`;
    const byDay = placeEvents(answer.items, answer.timeZone, days);
    renderIfChanged(grid, { calendarId, answer, days }, () => days.map((day) => dayColumn(day, byDay.get(day) ?? [])));
    const left = answer.unexpandable ?? [];
    renderIfChanged(unexpandable, { calendarId, left }, () => left.map(unexpandableItem));
  }

  /** @param {number} weeks */
  function move(weeks) {
    if (dateInput.value === '') return;
    dateInput.value = addDays(dateInput.value, 7 * weeks);
    void attempt(showWeek);
  }

  onSubmit(byId('week-form', HTMLFormElement), async (fields) => {
    const userId = field(fields, 'user');
    if (userId !== wantedUser) await selectUser(userId);
    else await showWeek();
  });
  userSelect.addEventListener('change', () => void attempt(() => selectUser(userSelect.value)));
  calendarSelect.addEventListener('change', () => void attempt(showWeek));
  byId('week-previous', HTMLButtonElement).addEventListener('click', () => move(-1));
  byId('week-next', HTMLButtonElement).addEventListener('click', () => move(1));

  return {
    refresh,
    /** After a reset or a fixture load: calendars may have changed under the same user ids. */
    forget() {
      loadedCalendarsOf = '';
    },
  };
}

/**
 * The events of each day of the week, all-day ones first, then by start. A timed event appears on
 * every day it overlaps; a cancelled instance listed without times sits at its original start.
 * @param {CalendarEvent[]} items
 * @param {string} timeZone
 * @param {string[]} days
 * @returns {Map<string, Placed[]>}
 */
function placeEvents(items, timeZone, days) {
  /** @type {Map<string, Placed[]>} */
  const byDay = new Map(days.map((day) => [day, []]));
  for (const event of items) {
    const start = event.start ?? event.originalStartTime;
    const end = event.end ?? start;
    if (start === undefined || end === undefined) continue;
    if (start.date !== undefined) {
      // All-day: the end date is exclusive (RFC 5545 §3.6.1, as the Calendar API writes it).
      const last = end.date !== undefined && end.date > start.date ? addDays(end.date, -1) : start.date;
      for (const day of days) if (day >= start.date && day <= last) byDay.get(day)?.push({ event, allDay: true, label: 'all day', sortKey: '' });
      continue;
    }
    if (start.dateTime === undefined) continue;
    const from = Date.parse(start.dateTime);
    const to = end.dateTime === undefined ? from : Date.parse(end.dateTime);
    const first = zoned(from, timeZone);
    // An event ending at midnight does not spill into the next day.
    const lastDay = to > from ? zoned(to - 1, timeZone).date : first.date;
    const last = zoned(to, timeZone);
    const label = `${first.time}–${last.date === first.date ? last.time : `${dayLabel(last.date)} ${last.time}`}`;
    for (const day of days) if (day >= first.date && day <= lastDay) byDay.get(day)?.push({ event, allDay: false, label, sortKey: `${first.date}T${first.time}` });
  }
  for (const placed of byDay.values()) placed.sort((a, b) => Number(b.allDay) - Number(a.allDay) || a.sortKey.localeCompare(b.sortKey));
  return byDay;
}

/** @param {string} day @param {Placed[]} placed */
function dayColumn(day, placed) {
  return h(
    'section',
    { class: 'day', 'data-date': day, 'aria-label': dayLabel(day) },
    h('h4', {}, dayLabel(day)),
    placed.length === 0 ? h('p', { class: 'quiet' }, 'No events') : h('ul', { class: 'events' }, ...placed.map(eventItem)),
  );
}

/** @param {Placed} placed */
function eventItem({ event, allDay, label }) {
  const cancelled = event.status === 'cancelled';
  const transparent = event.transparency === 'transparent';
  const attendees = event.attendees ?? [];
  const classes = ['event', allDay ? 'all-day' : 'timed', cancelled ? 'cancelled' : '', transparent ? 'transparent' : ''].filter(Boolean).join(' ');
  return h(
    'li',
    { class: classes, 'data-event-id': event.id },
    h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'when' }, label),
        ' ',
        h('span', { class: 'title' }, event.summary ?? '(no title)'),
        cancelled && h('span', { class: 'tag' }, 'cancelled'),
        transparent && h('span', { class: 'tag' }, 'free'),
        event.recurringEventId !== undefined && h('span', { class: 'tag' }, 'recurring'),
        attendees.length > 0 && h('span', { class: 'tag' }, `${attendees.length} ${attendees.length === 1 ? 'guest' : 'guests'}`),
      ),
      attendees.length > 0 && attendeeList(attendees),
      jsonBlock(event),
    ),
  );
}

/**
 * A series the view could not expand: its title, marked, the service's reason, then its resource.
 * @param {Unexpandable} left
 */
function unexpandableItem({ event, error_description }) {
  return h(
    'li',
    { class: 'event unexpandable', 'data-event-id': event.id },
    h(
      'details',
      {},
      h('summary', {}, h('span', { class: 'title' }, event.summary ?? '(no title)'), ' ', h('span', { class: 'tag' }, 'cannot be expanded')),
      h('p', { class: 'reason' }, error_description),
      jsonBlock(event),
    ),
  );
}

/**
 * Each attendee with their answer; `self` is the owner of the calendar shown (§13: on a copy, the
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

/**
 * The date and wall-clock time of an instant in a time zone.
 * @param {number} instant
 * @param {string} timeZone
 */
function zoned(instant, timeZone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** Today on the service clock (§5), in that time zone. @param {string} timeZone */
async function today(timeZone) {
  const clock = /** @type {{ now: string }} */ (await api('GET', '/__svc/clock'));
  return zoned(Date.parse(clock.now), timeZone).date;
}

/** @param {string} day YYYY-MM-DD @param {number} count */
function addDays(day, count) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of the (ISO 8601) week holding that day. @param {string} day */
function mondayOf(day) {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** @param {string} day */
function dayLabel(day) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
}
