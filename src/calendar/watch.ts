// events.watch, calendarList.watch and channels.stop (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/watch, https://developers.google.com/workspace/calendar/api/v3/reference/events/watch, https://developers.google.com/workspace/calendar/api/v3/reference/channels/stop;
// https://developers.google.com/workspace/calendar/api/guides/push): the Calendar API's side of push notifications. The route table in routes.ts
// has already authenticated the caller and checked the scope; channels and their delivery are the
// push package's (src/push/), which knows nothing of the Calendar API.
//
// The watch methods accept the list methods' query parameters (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/watch, https://developers.google.com/workspace/calendar/api/v3/reference/events/watch) but, as
// Google documents no effect of them on notifications, ignore them: every change to the watched
// collection is reported.

import { jsonBody } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { assertNotServiceAddress, assertStoppable, openChannel, parseStopRequest, parseWatchRequest, renderChannel } from '../push/channels.ts';
import type { ChannelResource } from '../store/store.ts';
import { resolveOwnedCalendar } from './calendars.ts';
import type { CalendarCall, CalendarHandler } from './context.ts';
import { noContent, respond } from './respond.ts';

/**
 * Opens the channel, then queues its `sync` message (number 1), which may reach the receiver
 * before this answer does, as with Google (https://developers.google.com/workspace/calendar/api/guides/push).
 */
function watch(call: CalendarCall, resource: ChannelResource, path: string): Result {
  const request = parseWatchRequest(jsonBody(call.req));
  assertNotServiceAddress(request.address, call.app);
  const channel = openChannel({
    store: call.app.store,
    now: call.app.clock.now(),
    connectionId: call.auth.connection.id,
    resource,
    resourceUri: `${call.app.baseUrl}/calendar/v3/${path}`,
    request,
  });
  call.notifier.notify(channel.id, 'sync');
  return respond(call, renderChannel(channel));
}

/**
 * events.watch: the events of one calendar the caller owns (404 otherwise). The resourceUri keeps
 * the calendarId as the caller wrote it (`primary` stays `primary`, as Google's does); the
 * watched collection is the resolved calendar.
 */
export const eventsWatch: CalendarHandler = (call) => {
  const calendarId = call.params.calendarId as string;
  const calendar = resolveOwnedCalendar(call, calendarId);
  return watch(call, { kind: 'events', calendarId: calendar.id }, `calendars/${encodeURIComponent(calendarId)}/events`);
};

/** calendarList.watch: the caller's calendar list (https://developers.google.com/workspace/calendar/api/guides/push: calendar-list channels are per user). */
export const calendarListWatch: CalendarHandler = (call) =>
  watch(call, { kind: 'calendarList', userId: call.auth.user.id }, 'users/me/calendarList');

/** channels.stop: 204; 404 notFound unless the channel is the caller connection's own (spec, "Bearer authentication"). */
export const channelsStop: CalendarHandler = (call) => {
  const stop = parseStopRequest(jsonBody(call.req));
  const { store } = call.app;
  store.transaction(() => {
    assertStoppable(store, call.auth.connection.id, stop);
    store.deleteChannel(stop.id);
  });
  call.notifier.forgetChannel(stop.id);
  return noContent();
};
