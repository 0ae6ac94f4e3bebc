// The management API under /__svc/ (docs/management-api.md): test-control routes, unauthenticated by design
// because the service is a local test tool bound to loopback. guard.ts decides who may reach them
// (Host, cross-site and body-type checks), before routing.

import type { App } from '../app/app.ts';
import { TIME_MAX, TIME_MIN } from '../domain/time/bounds.ts';
import { FixtureError, parseFixture } from '../fixtures/fixture.ts';
import { parseRfc3339 } from '../domain/time/datetime.ts';
import { jsonBody, RequestError } from '../http/request.ts';
import { empty, json } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import { Router } from '../http/router.ts';
import type { Handler, Surface } from '../http/surface.ts';
import type { CalendarCaches } from '../calendar/context.ts';
import type { FaultRules } from '../faults/rules.ts';
import type { Journal } from '../journal/journal.ts';
import type { Notifier } from '../push/delivery.ts';
import type { Usage } from '../usage/usage.ts';
import { listChannelsForManagement } from '../push/service.ts';
import { ManagementError, renderManagementError } from './errors.ts';
import { addCheckpointRoutes } from './checkpoints.ts';
import type { Checkpoints } from './checkpoints.ts';
import { addExportRoutes } from './export.ts';
import { addFaultRoutes } from './faults.ts';
import { refusal } from './guard.ts';
import { addInspectorRoutes } from './ui.ts';
import { addRequestRoutes } from './requests.ts';
import { addOutboxRoutes } from './outbox.ts';
import { assertObject } from '../validation/validation.ts';
import type { Fail } from '../validation/validation.ts';

/** What the management routes read and steer besides the App, each made once per workspace by src/composition/workspace.ts. */
export interface ManagementDeps {
  /** The App's push notifier, whose delivery logs GET /__svc/channels shows. */
  notifier: Notifier;
  /** The fault rules /__svc/faults adds, lists and deletes (docs/faults.md). */
  faults: FaultRules;
  /** The request journal GET /__svc/requests reads (docs/journal.md). */
  journal: Journal;
  /** The Calendar API's read caches, which the read-only event views of docs/management-api.md share. */
  caches: CalendarCaches;
  /** The workspace's checkpoints (docs/workspaces.md). */
  checkpoints: Checkpoints;
  /** The usage counts GET /__svc/usage reports (docs/usage-limits.md), kept whether limits apply or not. */
  usage: Usage;
}

export function createManagementSurface(app: App, deps: ManagementDeps): Surface {
  const { notifier } = deps;
  const routes = new Router<Handler>()
    .add('POST', '/__svc/reset', () => {
      app.reset();
      return empty(204);
    })
    .add('POST', '/__svc/fixtures', (req) => {
      let fixture;
      try {
        fixture = parseFixture(jsonBody(req));
        return json(200, { loaded: app.loadFixture(fixture) });
      } catch (error) {
        if (error instanceof FixtureError) throw new ManagementError(400, 'invalid_fixture', error.message);
        throw error;
      }
    })
    .add('GET', '/__svc/users', () =>
      json(200, { users: app.store.listUsers().map((u) => ({ id: u.id, name: u.name, email: u.email, timeZone: u.timeZone })) }),
    )
    .add('DELETE', '/__svc/users/:id', (_req, params) => {
      if (!app.deleteUser(params.id as string)) throw new ManagementError(404, 'not_found', `No test user with id ${JSON.stringify(params.id)}.`);
      return empty(204);
    })
    .add('GET', '/__svc/connections', () =>
      json(200, {
        connections: app.store.listConnections().map((c) => ({
          id: c.id,
          clientId: c.clientId,
          userId: c.userId,
          scopes: c.scopes,
          offline: c.offline,
          createdAt: new Date(c.createdAt).toISOString(),
        })),
      }),
    )
    .add('POST', '/__svc/connections/:grantId/revoke', (_req, params) => {
      if (!app.revokeConnection(params.grantId as string)) {
        throw new ManagementError(404, 'not_found', `No connection with id ${JSON.stringify(params.grantId)}.`);
      }
      return empty(204);
    })
    .add('GET', '/__svc/channels', () => json(200, listChannelsForManagement(app, notifier)))
    .add('GET', '/__svc/usage', () => json(200, deps.usage.report()))
    .add('GET', '/__svc/clock', () => clockState(app))
    .add('POST', '/__svc/clock', (req) => {
      setClock(app, jsonBody(req));
      return clockState(app);
    });
  addRequestRoutes(routes, deps.journal);
  addInspectorRoutes(routes);
  addOutboxRoutes(routes, app);
  addExportRoutes(routes, app, deps.caches);
  addFaultRoutes(routes, deps.faults);
  addCheckpointRoutes(routes, deps.checkpoints);

  return managementSurface(app, 'management', (path) => path === '/__svc' || path.startsWith('/__svc/'), routes);
}

/** A surface with the management API's guard and error shape (docs/management-api.md), over `routes`. */
export function managementSurface(app: App, name: string, owns: (path: string) => boolean, routes: Router<Handler>): Surface {
  return {
    name,
    owns,
    routes,
    admit: (req) => {
      const refused = refusal(app, req);
      return refused && renderManagementError(refused);
    },
    renderError(error) {
      if (error instanceof ManagementError) return renderManagementError(error);
      if (error instanceof RequestError) {
        const code = error.status === 413 ? 'payload_too_large' : error.status === 414 ? 'uri_too_long' : 'invalid_request';
        return renderManagementError(new ManagementError(error.status, code, error.message));
      }
      app.log.error('internal error in the management API', error);
      return renderManagementError(new ManagementError(500, 'server_error', 'Internal error.'));
    },
  };
}

function clockState(app: App): Result {
  return json(200, { now: new Date(app.clock.now()).toISOString(), offsetSeconds: app.clock.offsetSeconds });
}

/** The management API's factory for the validation primitives: 400 invalid_request worded `message`. */
function invalidRequest(message: string): Fail {
  return () => new ManagementError(400, 'invalid_request', message);
}

// Body: {"advanceSeconds": n} or {"now": "RFC 3339"}, exactly one of them.
function setClock(app: App, body: unknown): void {
  assertObject(body, '', invalidRequest('The body must be a JSON object with advanceSeconds or now.'));
  const keys = Object.keys(body);
  if (keys.length !== 1 || (keys[0] !== 'advanceSeconds' && keys[0] !== 'now')) {
    throw new ManagementError(400, 'invalid_request', 'The body must have exactly one of advanceSeconds or now.');
  }
  if (keys[0] === 'advanceSeconds') {
    const seconds = body.advanceSeconds;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
      throw new ManagementError(400, 'invalid_request', 'advanceSeconds must be a finite number.');
    }
    // Past the years RFC 3339 can write, every timestamp the service renders would throw.
    const target = app.clock.now() + seconds * 1000;
    if (!(target >= TIME_MIN && target < TIME_MAX)) {
      throw new ManagementError(400, 'invalid_request', 'advanceSeconds must keep the clock between the years 0001 and 9999.');
    }
    app.clock.advance(seconds);
    return;
  }
  const now = body.now;
  let instant: number | undefined;
  if (typeof now === 'string') {
    try {
      instant = parseRfc3339(now, 'now');
    } catch {
      instant = undefined;
    }
  }
  if (instant === undefined) throw new ManagementError(400, 'invalid_request', 'now must be an RFC 3339 timestamp with offset.');
  app.clock.set(instant);
}
