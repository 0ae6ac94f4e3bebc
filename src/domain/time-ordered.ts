// Identifiers that begin with the time they were made, so that newer ones sort after older ones.
//
// Event ids are part of the primary key of SQLite's events table. A random id lands on a page of
// its own, and every page a commit touches is 4 KiB written to the WAL and later copied back by a
// checkpoint; ids that grow with time all land on the right-hand edge, a page or two per commit
// however many events it holds. The rest of an id stays random, and all of it base32hex.

export const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** Digits of timePrefix: 50 bits of milliseconds, enough until the year 37,000. */
export const TIME_PREFIX_LENGTH = 10;
const LARGEST = 2 ** (5 * TIME_PREFIX_LENGTH) - 1;

/** `ms` as TIME_PREFIX_LENGTH base32hex digits, so prefixes sort as their times do. */
export function timePrefix(ms: number): string {
  // A service clock set before 1970 or far ahead only loses the ordering, never the identifier.
  let rest = Math.min(Math.max(Math.floor(ms), 0), LARGEST);
  let digits = '';
  for (let i = 0; i < TIME_PREFIX_LENGTH; i++) {
    digits = BASE32HEX[rest % 32] + digits;
    rest = Math.floor(rest / 32);
  }
  return digits;
}

