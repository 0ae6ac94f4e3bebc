// The outbox's management routes (docs/invitations.md): GET /__svc/outbox reads, a page at a time, the
// e-mails Google would have sent about event writes (recorded by src/calendar/events/invitation-mail.ts,
// kept in the store so that a refused write records none, and bounded there:
// src/store/outbox-bounds.ts), oldest first; DELETE /__svc/outbox empties it. Reset and fixture
// load empty it too, as they empty the whole workspace.

import type { App } from '../app/app.ts';
import { empty, json } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';
import { checkParameters, page } from './query.ts';

const PARAMETERS = ['since', 'limit'];

export function addOutboxRoutes(routes: Router<Handler>, app: App): Router<Handler> {
  return routes
    .add('GET', '/__svc/outbox', (req) => {
      checkParameters(req.query, PARAMETERS, 'the parameters are');
      const { since, limit } = page(req.query);
      const { messages, last } = app.store.readOutbox(since, limit);
      return json(200, {
        messages: messages.map((m) => ({
          id: m.id,
          at: new Date(m.at).toISOString(),
          to: m.to,
          kind: m.kind,
          eventId: m.eventId,
          calendarId: m.calendarId,
          fromUserId: m.fromUserId,
          summary: m.summary,
        })),
        last,
      });
    })
    .add('DELETE', '/__svc/outbox', () => {
      app.store.clearOutbox();
      return empty(204);
    });
}

