// The request journal's management routes (docs/journal.md): GET /__svc/requests reads it with
// filters, DELETE /__svc/requests empties it. The journal itself is src/journal/.

import { empty, jsonText } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';
import type { Journal, JournalQuery } from '../journal/journal.ts';
import { checkParameters, integer, page, text } from './query.ts';

const PARAMETERS = ['since', 'operation', 'status', 'userId', 'limit'];

export function addRequestRoutes(routes: Router<Handler>, journal: Journal): Router<Handler> {
  return routes
    .add('GET', '/__svc/requests', (req) => jsonText(200, journal.read(journalQuery(req.query))))
    .add('DELETE', '/__svc/requests', () => {
      journal.clear();
      return empty(204);
    });
}

function journalQuery(params: URLSearchParams): JournalQuery {
  checkParameters(params, PARAMETERS, 'the filters are');
  return {
    ...page(params),
    status: integer(params, 'status', 100, 599),
    operation: text(params, 'operation'),
    userId: text(params, 'userId'),
  };
}
