// Telling the service's own pages from other sites' (docs/oauth.md and docs/management-api.md), by the two headers a
// browser sets and page script cannot: Sec-Fetch-Site (W3C Fetch Metadata) and Origin (RFC 6454
// docs/calendar-api.md, sent on every POST). Each one that is present must vouch for the request; a request with
// neither is not from a browser (curl, a test's HTTP client) and this check does not apply to it.

import { header } from './request.ts';
import type { ApiRequest } from './request.ts';

export interface SameOriginRule {
  /** The Sec-Fetch-Site values accepted. */
  sites: readonly string[];
  /** True for an Origin header value that is the service itself (`null` never is). */
  isOwnOrigin(origin: string): boolean;
}

export function fromOwnOrigin(req: ApiRequest, rule: SameOriginRule): boolean {
  const site = header(req, 'sec-fetch-site');
  const origin = header(req, 'origin');
  return (site === undefined || rule.sites.includes(site)) && (origin === undefined || rule.isOwnOrigin(origin));
}
