// How the calendar API refuses a JSON body member that breaks a rule of src/validation/validation.ts:
// 400 invalid, "<path> <rule>" (`defaultReminders[0].minutes must be an integer from 0 to
// 40320`). Event bodies are not worded here: they answer with Google's own messages
// (src/event-model/input-error.ts).

import { ruleText } from '../validation/validation.ts';
import type { Fail, OwnWording } from '../validation/validation.ts';
import { googleErrors } from './google-error.ts';

// The calendar API has always said "an object" where fixtures say "a JSON object".
const CALENDAR_API_WORDING: OwnWording = { object: 'must be an object' };

/** A refused body member. */
export const invalidMember: Fail = (path, rule) => googleErrors.invalid(`${path} ${ruleText(rule, CALENDAR_API_WORDING)}`);

/** A refused body member that the error names as its location, as freeBusy's errors do. */
export const invalidLocatedMember: Fail = (path, rule) => googleErrors.invalid(`${path} ${ruleText(rule, CALENDAR_API_WORDING)}`, path);
