// The instants the service can name: the bounds of an unbounded listing window, of a series'
// expansion horizon and of a clock the management API sets.

/**
 * Instants that stand for "no bound": 0001-01-01 and 10000-01-01 UTC, the years RFC 3339 can
 * write, well inside what Date and Intl accept even after zone offsets are applied.
 */
export const TIME_MIN = -62_135_596_800_000;
export const TIME_MAX = 253_402_300_800_000;
