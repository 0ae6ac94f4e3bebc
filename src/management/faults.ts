// The fault rules' management routes (docs/faults.md): POST /__svc/faults adds a rule, GET lists
// them with live counts, DELETE removes one or all. The rules themselves, their checks and their
// matching are src/faults/'s; this file turns a refused rule into 400 invalid_fault, and one past
// the cap on rules held into 429 too_many_faults.

import { FaultRuleError } from '../faults/rule.ts';
import { MAX_FAULT_RULE_BYTES, TooManyFaultRulesError } from '../faults/rules.ts';
import type { FaultRules } from '../faults/rules.ts';
import { jsonBody } from '../http/request.ts';
import { empty, json } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';
import { ManagementError } from './errors.ts';

export function addFaultRoutes(routes: Router<Handler>, faults: FaultRules): Router<Handler> {
  return routes
    .add('POST', '/__svc/faults', (req) => {
      if (req.body.length > MAX_FAULT_RULE_BYTES) {
        throw new ManagementError(400, 'invalid_fault', `A fault rule is at most ${MAX_FAULT_RULE_BYTES} bytes of JSON; this one is ${req.body.length}.`);
      }
      try {
        return json(201, faults.add(jsonBody(req)));
      } catch (error) {
        if (error instanceof FaultRuleError) throw new ManagementError(400, 'invalid_fault', error.message);
        if (error instanceof TooManyFaultRulesError) throw new ManagementError(429, 'too_many_faults', error.message);
        throw error;
      }
    })
    .add('GET', '/__svc/faults', () => json(200, { faults: faults.list() }))
    .add('DELETE', '/__svc/faults', () => {
      faults.clear();
      return empty(204);
    })
    .add('DELETE', '/__svc/faults/:id', (_req, params) => {
      if (!faults.delete(params.id as string)) throw new ManagementError(404, 'not_found', `No fault rule with id ${JSON.stringify(params.id)}.`);
      return empty(204);
    });
}
