// The users panel and the week (docs/inspector.md): each test user with their calendars, and one
// calendar's week, Monday to Sunday in the calendar's own time zone, as GET
// /__svc/calendars/{id}/events (docs/management-api.md) lists it: recurring series already expanded, cancelled
// events included (showDeleted) and marked, drawn as a calendar draws a week (week-grid.js). An
// event opens in the side panel (event-panel.js) on its attendees and their answers (docs/invitations.md), then
// its whole resource.
// `?user=<id>&date=YYYY-MM-DD` opens the week containing that date, and the address follows the
// week shown so that it can be copied. Without a date the page opens on the week of the
// calendar's nearest event (nearest.js) as the service clock (docs/management-api.md) tells the time, and a week with
// no events says where the next one is, with a button to go there. A series the service cannot
// expand (a rule stored before today's caps, SECURITY.md) comes in the view's `unexpandable` instead of
// as instances: it is listed above the week, marked, with the reason, and the rest of the week is
// shown as usual.

import { api, withQuery } from './api.js';
import { attempt, byId, field, h, jsonBlock, onSubmit, renderIfChanged, showError } from './dom.js';
import { createEventPanel } from './event-panel.js';
import { nearestEvent, startOf } from './nearest.js';
import { marksOf, weekCells } from './week-grid.js';
import { addDays, dayLabel, layoutWeek, mondayOf, startOfDay, zoned } from './week-layout.js';

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
/** @typedef {{ status: number, error: string, error_description: string, event: CalendarEvent }} Unexpandable */

const DAY_MS = 86_400_000;
// Where a week with no timed events is scrolled to: the working day, as calendars open.
const DEFAULT_FIRST_HOUR = 8;

export function createWeekPanel() {
  const users = byId('users', HTMLUListElement);
  const weekForm = byId('week-form', HTMLFormElement);
  const userSelect = byId('week-user', HTMLSelectElement);
  const calendarSelect = byId('week-calendar', HTMLSelectElement);
  const dateInput = byId('week-date', HTMLInputElement);
  const heading = byId('week-heading', HTMLHeadingElement);
  const notice = byId('week-notice', HTMLDivElement);
  const grid = byId('week-grid', HTMLDivElement);
  const unexpandable = byId('week-unexpandable', HTMLUListElement);
  const eventPanel = createEventPanel();
  const query = new URLSearchParams(location.search);
  /** @type {User[]} */
  let knownUsers = [];
  let wantedUser = query.get('user') ?? '';
  let loadedCalendarsOf = '';
  /** What the page opened on, said until the person moves to another week. */
  let openingNote = '';
  /** The calendar and week last scrolled to its first event: a refresh does not scroll again. */
  let scrolledTo = '';

  /** No week to show: the grid and the list of series left out are emptied, to be drawn anew. */
  function clearWeek() {
    for (const element of [grid, unexpandable]) {
      element.replaceChildren();
      delete element.dataset.shown;
    }
    notice.replaceChildren();
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
   * The address's date, else the day of the calendar's nearest event, else today, on the service
   * clock in the user's time zone.
   * @param {User} user
   */
  async function startDate(user) {
    const asked = query.get('date');
    query.delete('date');
    // An <input type=date> takes only a valid YYYY-MM-DD and empties itself otherwise.
    if (asked !== null) dateInput.value = asked;
    if (dateInput.value !== '') return;
    const now = await serviceNow();
    dateInput.value = zoned(now, user.timeZone).date;
    if (asked !== null) {
      showError(`The address's date ${JSON.stringify(asked)} is not a YYYY-MM-DD date; showing today.`);
      return;
    }
    const calendarId = calendarSelect.value;
    const nearest = calendarId === '' ? undefined : await nearestEvent(calendarId, now);
    if (nearest === undefined) {
      openingNote = 'This calendar has no events; showing this week.';
      return;
    }
    dateInput.value = dayOf(nearest.event, user.timeZone, nearest.after ? now : undefined);
    openingNote = `Opened on the week of the ${nearest.after ? 'next event' : 'latest event (none is coming)'}: ${describe(nearest.event, user.timeZone)}.`;
  }

  /** @param {User} user */
  function userItem(user) {
    return h(
      'li',
      {},
      h('button', { type: 'button', onclick: () => void attempt(() => selectUser(user.id), users) }, `Week of ${user.name}`),
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
    openingNote = '';
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
    const layout = layoutWeek(answer.items, answer.timeZone, days);
    renderIfChanged(grid, { calendarId, answer, days }, () => weekCells(days, layout, eventPanel.open));
    const week = `${calendarId} ${monday}`;
    if (scrolledTo !== week) {
      scrolledTo = week;
      scrollToFirstEvent([...layout.timed.values()].flat().map((box) => box.start));
    }
    const left = answer.unexpandable ?? [];
    renderIfChanged(unexpandable, { calendarId, left }, () => left.map(unexpandableItem));
    const placed = [...layout.allDay.values(), ...layout.timed.values()].flat();
    eventPanel.update((id) => {
      const found = placed.find((p) => p.event.id === id);
      return found && { event: found.event, when: found.label, marks: marksOf(found.event) };
    });
    const empty = !placed.some(({ event }) => event.status !== 'cancelled');
    tell(empty ? await whereElse(calendarId, answer.timeZone, monday) : openingNote);
  }

  /**
   * Where the events are when this week has none: the next one after it, else the latest before.
   * @param {string} calendarId
   * @param {string} timeZone
   * @param {string} monday
   * @returns {Promise<string | [string, string]>} what to say, or that and the day to go to
   */
  async function whereElse(calendarId, timeZone, monday) {
    // The week has none, so the latest before its end is the latest before its start.
    const found = await nearestEvent(calendarId, startOfDay(addDays(monday, 7), timeZone));
    if (found === undefined) return 'No events this week, nor in any other: this calendar has none.';
    return [`No events this week. The ${found.after ? 'next one' : 'latest one'}: ${describe(found.event, timeZone)}.`, dayOf(found.event, timeZone)];
  }

  /**
   * Says something above the week, with a button to go to another day's week when there is one.
   * @param {string | [string, string]} what
   */
  function tell(what) {
    const [text, day] = typeof what === 'string' ? [what, undefined] : what;
    renderIfChanged(notice, what, () => [
      text,
      day !== undefined && ' ',
      day !== undefined && h('button', { type: 'button', onclick: () => go(day) }, 'Go to that week'),
    ]);
  }

  /** @param {number[]} starts the timed events' first minutes */
  function scrollToFirstEvent(starts) {
    const column = grid.querySelector('.day');
    const head = grid.querySelector('.day-head');
    if (!(column instanceof HTMLElement) || !(head instanceof HTMLElement)) return;
    const first = starts.length > 0 ? Math.min(...starts) : DEFAULT_FIRST_HOUR * 60;
    // An hour of room above the first event, under the sticky day heads.
    const hour = column.offsetHeight / 24;
    grid.scrollTop = column.offsetTop - head.offsetHeight + (first / 60) * hour - hour;
  }

  /** @param {string} day */
  function go(day) {
    dateInput.value = day;
    openingNote = '';
    void attempt(showWeek, weekForm);
  }

  onSubmit(weekForm, async (fields) => {
    const userId = field(fields, 'user');
    openingNote = '';
    if (userId !== wantedUser) await selectUser(userId);
    else await showWeek();
  });
  userSelect.addEventListener('change', () => void attempt(() => selectUser(userSelect.value), weekForm));
  calendarSelect.addEventListener('change', () => void attempt(showWeek, weekForm));
  byId('week-previous', HTMLButtonElement).addEventListener('click', () => dateInput.value !== '' && go(addDays(dateInput.value, -7)));
  byId('week-next', HTMLButtonElement).addEventListener('click', () => dateInput.value !== '' && go(addDays(dateInput.value, 7)));

  return {
    refresh,
    /** After a reset or a fixture load: calendars may have changed under the same user ids. */
    forget() {
      loadedCalendarsOf = '';
    },
  };
}

/** Now on the service clock (docs/management-api.md), which a test may have moved. */
async function serviceNow() {
  const clock = /** @type {{ now: string }} */ (await api('GET', '/__svc/clock'));
  return Date.parse(clock.now);
}

/**
 * The day whose week shows the event: the day it starts, or `now`'s day for one under way at `now`.
 * @param {CalendarEvent} event
 * @param {string} timeZone
 * @param {number} [now]
 */
function dayOf(event, timeZone, now = -Infinity) {
  const start = event.start ?? event.originalStartTime;
  const today = Number.isFinite(now) ? zoned(now, timeZone).date : '';
  if (start?.date !== undefined) return start.date >= today ? start.date : today;
  return zoned(Math.max(startOf(event) ?? now, now), timeZone).date;
}

/**
 * An event named with its day and time, e.g. “Weekly planning”, Mon 26 Oct 2026, 09:30.
 * @param {CalendarEvent} event
 * @param {string} timeZone
 */
function describe(event, timeZone) {
  const start = event.start ?? event.originalStartTime;
  const title = `“${event.summary ?? '(no title)'}”`;
  if (start?.date !== undefined) return `${title}, ${dayLabel(start.date)} ${start.date.slice(0, 4)}, all day`;
  const { date, time } = zoned(startOf(event) ?? 0, timeZone);
  return `${title}, ${dayLabel(date)} ${date.slice(0, 4)}, ${time}`;
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
