// Google's 24-entry calendar colour palette (the `calendar` half of colors.get; https://developers.google.com/workspace/calendar/api/v3/reference/colors
// notes the live keys "1"-"24") and the nearest-entry rule calendarList writes use with
// colorRgbFormat=true.

export const CALENDAR_PALETTE: ReadonlyMap<string, string> = new Map([
  ['1', '#ac725e'],
  ['2', '#d06b64'],
  ['3', '#f83a22'],
  ['4', '#fa573c'],
  ['5', '#ff7537'],
  ['6', '#ffad46'],
  ['7', '#42d692'],
  ['8', '#16a765'],
  ['9', '#7bd148'],
  ['10', '#b3dc6c'],
  ['11', '#fbe983'],
  ['12', '#fad165'],
  ['13', '#92e1c0'],
  ['14', '#9fe1e7'],
  ['15', '#9fc6e7'],
  ['16', '#4986e7'],
  ['17', '#9a9cff'],
  ['18', '#b99aff'],
  ['19', '#c2c2c2'],
  ['20', '#cabdbf'],
  ['21', '#cca6ac'],
  ['22', '#f691b2'],
  ['23', '#cd74e6'],
  ['24', '#a47ae2'],
]);

/** The foreground live calendar-list entries carry with a palette colour (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList). */
export const DEFAULT_FOREGROUND = '#000000';

export const RGB_COLOUR = /^#[0-9a-fA-F]{6}$/;

function channels(rgb: string): [number, number, number] {
  const n = Number.parseInt(rgb.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/** The palette id whose background is closest to `rgb` (Euclidean in RGB; ties go to the lower id). */
export function nearestColorId(rgb: string): string {
  const [r, g, b] = channels(rgb);
  let best = '1';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [id, background] of CALENDAR_PALETTE) {
    const [pr, pg, pb] = channels(background);
    const distance = (r - pr) ** 2 + (g - pg) ** 2 + (b - pb) ** 2;
    if (distance < bestDistance) {
      best = id;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The colour a calendar gets when nobody chose one: derived from its id, so it is stable across
 * restarts and independent of other calendars.
 */
export function defaultColorId(calendarId: string): string {
  let hash = 0;
  for (const unit of calendarId) hash = (hash * 31 + (unit.codePointAt(0) as number)) >>> 0;
  return String((hash % CALENDAR_PALETTE.size) + 1);
}
