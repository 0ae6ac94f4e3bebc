// The recurrence package's public entry: what the calendar layer and the fixtures use of it,
// re-exported from the module that owns each part. It holds no code. Everything the layers
// above need of recurrence expansion comes through here (parsing comes from rrule.ts), so the
// files behind it can change without touching their importers.
//
//   series.ts          the Series model and its occurrence keys
//   rule.ts            the parsed form of recurrence lines (rrule.ts parses them)
//   cost.ts            the per-period candidate cap and the per-request step budget
//   rule-compile.ts    one rule made ready to evaluate
//   rule-days.ts       day-level BYxxx matching
//   rule-periods.ts    a rule's periods and their candidates
//   rule-iterate.ts    one rule's keys in instant order (COUNT, UNTIL, DST gaps)
//   recurrence-set.ts  RRULE/RDATE minus EXRULE/EXDATE, merged lazily; first and last
//   window.ts          occurrences as spans overlapping a window
//   exceptions.ts      stored exceptions merged with the occurrences
//   instance-id.ts     Google's instance ids
//   unexpandable.ts    the errors that say a series cannot be expanded

export type { OccurrenceKey, Series } from './series.ts';
export { dateKey, keyToDate } from './series.ts';
export type { ExpansionBudget } from './cost.ts';
export { ExpansionBudgetError, expansionBudget } from './cost.ts';
export { lastOccurrence, occurrences } from './recurrence-set.ts';
export { isOccurrence, occurrenceSpan, overlaps, seriesBounds } from './window.ts';
export type { ExceptionTiming, Instance } from './exceptions.ts';
export { instancesInWindow } from './exceptions.ts';
export { formatInstanceId, parseInstanceId } from './instance-id.ts';
export { isUnexpandable } from './unexpandable.ts';
