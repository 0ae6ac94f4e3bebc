// The Host rule of the service's unauthenticated pages (docs/management-api.md, SECURITY.md): the management API and
// the consent page answer only requests addressed to a name of the service itself, so a page on
// evil.example that re-resolves its name to 127.0.0.1 (DNS rebinding) cannot read them.

import { header } from './request.ts';
import type { ApiRequest } from './request.ts';

/**
 * The Host values the service answers to: the configured host, localhost, 127.0.0.1, [::1], the
 * base URL's host (each on any port) and the --allowed-hosts entries (`name`, any port, or
 * `name:port`, that port only).
 */
export function acceptedHosts(configuredHost: string, baseUrl: string, allowed: readonly string[]): Set<string> {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]', bracketed(configuredHost).toLowerCase(), ...allowed]);
  if (baseUrl) hosts.add(new URL(baseUrl).hostname.toLowerCase());
  return hosts;
}

/** Whether the request's Host header is one of `hosts`, by its name alone or with its port. */
export function addressedTo(req: ApiRequest, hosts: ReadonlySet<string>): boolean {
  const match = HOST_HEADER.exec((header(req, 'host') ?? '').trim().toLowerCase());
  return match !== null && (hosts.has(match[1] as string) || hosts.has(match[0]));
}

/** The refusal's text names the way to accept a name that is the tester's own (a container's). */
export const HOST_REFUSED = 'Host not allowed: the service answers only to its own names. Add this one with --allowed-hosts (or CALENDAR_ALLOWED_HOSTS) if it is yours.';

// RFC 9110 §7.2: Host = uri-host [ ":" port ], the port all digits. Anything else
// (`127.0.0.1:80@evil.example`, `[::1]junk`) names no host and is refused.
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^:@[\]\s/]+)(?::\d*)?$/;

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
