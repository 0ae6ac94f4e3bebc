// The outbox's management routes (CONTRACT §13): GET /__svc/outbox lists the e-mails Google
// would have sent about event writes (recorded by src/calendar/invitation-mail.ts, kept in the
// store so that a refused write records none), oldest first; DELETE /__svc/outbox empties it.
// Reset and fixture load empty it too, as they empty the whole workspace.

import type { App } from '../app.ts';
import { empty, json } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';

export function addOutboxRoutes(routes: Router<Handler>, app: App): Router<Handler> {
  return routes
    .add('GET', '/__svc/outbox', () =>
      json(200, {
        messages: app.store.listOutboxMessages().map((m) => ({
          id: String(m.seq),
          at: new Date(m.at).toISOString(),
          to: m.to,
          kind: m.kind,
          eventId: m.eventId,
          calendarId: m.calendarId,
          fromUserId: m.fromUserId,
          summary: m.summary,
        })),
      }),
    )
    .add('DELETE', '/__svc/outbox', () => {
      app.store.clearOutbox();
      return empty(204);
    });
}
