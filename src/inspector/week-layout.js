// Where each event of a week goes, as a calendar draws it (docs/inspector.md): all-day events in the
// strip on top of their days, timed ones in their day's column at their wall-clock times in the
// calendar's zone, and events that overlap side by side. Pure functions of the view's answer
// (GET /__svc/calendars/{id}/events, docs/management-api.md), so the drawing (week.js) only turns boxes into elements.
//
// Times are wall-clock times, as a calendar shows them: on the day a zone's clocks go back, an
// event from 00:30 to 03:30 lasts four hours but fills the three hour rows its times name; on the
// day they go forward, 01:30 to 03:30 fills two rows for its one hour. The hour rows stay 24.

/** @typedef {import('./week.js').CalendarEvent} CalendarEvent */
/** @typedef {{ event: CalendarEvent, label: string }} AllDay */
/**
 * One day's part of a timed event: minutes from that day's 00:00 on the wall clock (end up to
 * 1440), and its column among the events it overlaps.
 * @typedef {{ event: CalendarEvent, label: string, start: number, end: number, column: number, columns: number }} Box
 */

const DAY_MS = 86_400_000;
export const DAY_MINUTES = 1440;
// The least a box is drawn as, so that a zero-length event (or one the clocks going back shrink
// to nothing) can still be read and clicked.
export const MIN_BOX_MINUTES = 20;

/**
 * The week's events, day by day: all-day ones for the strip, timed ones as boxes. A timed event
 * is cut at midnight into one box per day it overlaps; a cancelled instance listed without times
 * sits at its original start.
 * @param {CalendarEvent[]} items
 * @param {string} timeZone
 * @param {string[]} days
 */
export function layoutWeek(items, timeZone, days) {
  /** @type {Map<string, AllDay[]>} */
  const allDay = new Map(days.map((day) => [day, []]));
  /** @type {Map<string, Box[]>} */
  const timed = new Map(days.map((day) => [day, []]));
  for (const event of items) {
    const start = event.start ?? event.originalStartTime;
    const end = event.end ?? start;
    if (start === undefined || end === undefined) continue;
    if (start.date !== undefined) {
      // The end date is exclusive (RFC 5545 §3.6.1, as the Calendar API writes it).
      const last = end.date !== undefined && end.date > start.date ? addDays(end.date, -1) : start.date;
      for (const day of days) if (day >= start.date && day <= last) allDay.get(day)?.push({ event, label: 'all day' });
      continue;
    }
    if (start.dateTime === undefined) continue;
    const from = Date.parse(start.dateTime);
    const to = end.dateTime === undefined ? from : Math.max(from, Date.parse(end.dateTime));
    const first = zoned(from, timeZone);
    // An event ending at midnight does not spill into the next day.
    const lastDay = to > from ? zoned(to - 1, timeZone).date : first.date;
    const last = zoned(to, timeZone);
    const label = `${first.time}–${last.date === first.date ? last.time : `${dayLabel(last.date)} ${last.time}`}`;
    for (const day of days) {
      if (day < first.date || day > lastDay) continue;
      const startMinute = day === first.date ? minutes(first.time) : 0;
      const endMinute = day === last.date ? minutes(last.time) : DAY_MINUTES;
      timed.get(day)?.push({ event, label, start: startMinute, end: Math.max(startMinute, endMinute), column: 0, columns: 1 });
    }
  }
  for (const boxes of timed.values()) sideBySide(boxes);
  return { allDay, timed };
}

/**
 * Gives overlapping boxes columns, as calendars do: boxes sorted by start (the longer first), a
 * run of boxes that overlap one another shares its width, each box in the first column free at
 * its start. Overlap is judged on the drawn extent (at least MIN_BOX_MINUTES), so that no two
 * boxes cover each other.
 * @param {Box[]} boxes one day's
 */
function sideBySide(boxes) {
  boxes.sort((a, b) => a.start - b.start || b.end - a.end);
  /** @type {Box[]} */
  let run = [];
  /** The drawn end of each column of the run. @type {number[]} */
  let columnEnds = [];
  let runEnd = -1;
  const closeRun = () => {
    for (const box of run) box.columns = columnEnds.length;
    run = [];
    columnEnds = [];
  };
  for (const box of boxes) {
    if (box.start >= runEnd) closeRun();
    const drawnEnd = drawnEndOf(box);
    const free = columnEnds.findIndex((end) => end <= box.start);
    box.column = free === -1 ? columnEnds.length : free;
    columnEnds[box.column] = drawnEnd;
    run.push(box);
    runEnd = Math.max(runEnd, drawnEnd);
  }
  closeRun();
}

/** @param {Box} box */
export function drawnEndOf(box) {
  return Math.min(DAY_MINUTES, Math.max(box.end, box.start + MIN_BOX_MINUTES));
}

/** @param {string} time HH:MM */
function minutes(time) {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * The date and wall-clock time of an instant in a time zone.
 * @param {number} instant
 * @param {string} timeZone
 */
export function zoned(instant, timeZone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * The instant a day begins in a time zone (its 00:00, or the first minute after it where the
 * clocks skip midnight): the UTC midnight moved by the zone's offset, twice, so that an offset
 * that changes in between is caught.
 * @param {string} day YYYY-MM-DD
 * @param {string} timeZone
 */
export function startOfDay(day, timeZone) {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let instant = utcMidnight;
  for (let pass = 0; pass < 2; pass++) {
    const wall = zoned(instant, timeZone);
    instant += utcMidnight - Date.parse(`${wall.date}T${wall.time}:00Z`);
  }
  return instant;
}

/** @param {string} day YYYY-MM-DD @param {number} count */
export function addDays(day, count) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of the (ISO 8601) week holding that day. @param {string} day */
export function mondayOf(day) {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** @param {string} day */
export function dayLabel(day) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
}
