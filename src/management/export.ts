// Workspace export and health (docs/journal.md): GET /__svc/fixtures (the workspace as a fixture,
// built by src/fixtures/export.ts), the inspector's read-only views of a user's calendars and of
// a calendar's events over a window (bound to no token: the calendar's owner is the viewer), and
// GET /__svc/health, a readiness probe.

import { performance } from 'node:perf_hooks';
import type { App } from '../app/app.ts';
import { calendarText } from '../calendar/calendars.ts';
import type { CalendarCaches } from '../calendar/context.ts';
import { viewWindow, WindowQueryError, windowViewBody } from '../calendar/window-view.ts';
import { exportFixture } from '../fixtures/export.ts';
import { json, jsonText } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';
import { packageVersion } from '../config/version.ts';
import { ManagementError } from './errors.ts';

export function addExportRoutes(routes: Router<Handler>, app: App, caches: CalendarCaches): void {
  // Real time, not the service clock: a test that moves the clock does not age the process.
  const startedAt = performance.now();
  routes
    .add('GET', '/__svc/fixtures', () => json(200, exportFixture(app.store)))
    .add('GET', '/__svc/users/:id/calendars', (_req, params) => {
      const user = app.store.getUser(params.id as string);
      if (!user) throw new ManagementError(404, 'not_found', `No test user with id ${JSON.stringify(params.id)}.`);
      // The primary calendar first, then the others by id.
      const calendars = app.store.listCalendarsByOwner(user.id).sort((a, b) => Number(b.primary) - Number(a.primary));
      return json(200, {
        calendars: calendars.map((c) => ({ id: c.id, summary: calendarText(c, 'summary') ?? '', timeZone: c.timeZone, primary: c.primary })),
      });
    })
    .add('GET', '/__svc/calendars/:calendarId/events', (req, params) => {
      const calendar = app.store.getCalendar(params.calendarId as string);
      if (!calendar) throw new ManagementError(404, 'not_found', `No calendar with id ${JSON.stringify(params.calendarId)}.`);
      let window;
      try {
        window = viewWindow(req.query);
      } catch (error) {
        if (error instanceof WindowQueryError) throw new ManagementError(400, 'invalid_request', error.message);
        throw error;
      }
      return jsonText(200, windowViewBody(app, caches, calendar, window, req.baseUrl));
    })
    .add('GET', '/__svc/health', () =>
      json(200, { status: 'ok', store: app.store.backend, version: packageVersion(), uptimeSeconds: Math.floor((performance.now() - startedAt) / 1000) }),
    );
}
