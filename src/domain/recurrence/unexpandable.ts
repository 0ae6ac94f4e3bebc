// Why a stored series cannot be expanded: its rule is refused when it is compiled (RecurrenceError:
// a database written before a cap that now refuses it), or expanding it over the window asked for
// needs more than the request's step budget (ExpansionBudgetError). The caller decides what that
// means for its answer: the Calendar API's 400 invalid, an incremental sync's 410
// fullSyncRequired, the inspector view's marked series (SECURITY.md).

import { ExpansionBudgetError } from './cost.ts';
import { RecurrenceError } from './rrule.ts';

export function isUnexpandable(error: unknown): error is RecurrenceError | ExpansionBudgetError {
  return error instanceof RecurrenceError || error instanceof ExpansionBudgetError;
}
