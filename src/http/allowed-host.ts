// The Host rule of the service's unauthenticated pages (CONTRACT §5, §19): the management API and
// the consent page answer only requests addressed to a name of the service itself, so a page on
// evil.example that re-resolves its name to 127.0.0.1 (DNS rebinding) cannot read them.

import { header } from './request.ts';
import type { ApiRequest } from './request.ts';

/** The names the service answers to: the configured host, localhost, 127.0.0.1, [::1] and the base URL's host. */
export function acceptedHosts(configuredHost: string, baseUrl: string): Set<string> {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]', bracketed(configuredHost).toLowerCase()]);
  if (baseUrl) hosts.add(new URL(baseUrl).hostname.toLowerCase());
  return hosts;
}

/** Whether the request's Host header names one of `hosts`. */
export function addressedTo(req: ApiRequest, hosts: ReadonlySet<string>): boolean {
  const host = hostname(header(req, 'host') ?? '');
  return host !== undefined && hosts.has(host);
}

// RFC 9110 §7.2: Host = uri-host [ ":" port ], the port all digits. Anything else
// (`127.0.0.1:80@evil.example`, `[::1]junk`) names no host and is refused.
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^:@[\]\s/]+)(?::\d*)?$/;

function hostname(hostHeader: string): string | undefined {
  return HOST_HEADER.exec(hostHeader.trim().toLowerCase())?.[1];
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
