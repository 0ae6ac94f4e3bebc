// docs/calendar-api.md: every path or method that is not routed answers 501 with docs/calendar-api.md's body.

import { json } from './result.ts';
import type { Result } from './result.ts';

export function unsupported(): Result {
  return json(501, { error: 'unsupportedFeature', error_description: 'Unsupported API endpoint or method.' });
}

/** A request refused before any surface owns it, in the same `{error, error_description}` shape. */
export function unroutedError(error: { status: number; message: string }): Result {
  return json(error.status, { error: 'invalid_request', error_description: error.message });
}
