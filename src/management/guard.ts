// Who may use the management API (docs/management-api.md). It has no credentials by design, so these checks,
// run before routing, are what keeps a web page open in the tester's browser from driving it:
//   1. the Host check: DNS rebinding (a page on evil.example re-resolved to 127.0.0.1);
//   2. the cross-site check: a page on another origin posting a form or calling fetch();
//   3. JSON bodies only: a form can send only urlencoded, multipart or text/plain bodies without a
//      CORS preflight (which docs/calendar-api.md#browser-apps never grants here), so a body of another type never reaches a
//      handler, even from a browser too old to send the headers of step 2.

import type { App } from '../app/app.ts';
import { acceptedHosts, addressedTo, HOST_REFUSED } from '../http/allowed-host.ts';
import { header } from '../http/request.ts';
import type { ApiRequest } from '../http/request.ts';
import { fromOwnOrigin } from '../http/same-origin.ts';
import { ManagementError } from './errors.ts';

/** The error that refuses the request, or undefined to let it through to routing. */
export function refusal(app: App, req: ApiRequest): ManagementError | undefined {
  const hosts = acceptedHosts(app.host, app.baseUrl, app.allowedHosts);
  if (!addressedTo(req, hosts)) return new ManagementError(403, 'forbidden', HOST_REFUSED);
  if (!openToOtherSites(req) && !fromOwnOrigin(req, { sites: OWN_SITES, isOwnOrigin: (origin) => ownOrigins(app, hosts, req).has(origin) })) {
    return new ManagementError(403, 'forbidden', 'Cross-site requests to /__svc/ are refused: only the service itself and non-browser clients may use it.');
  }
  if (hasBody(req) && !isJson(header(req, 'content-type'))) {
    return new ManagementError(415, 'unsupported_media_type', 'The request body must be JSON: send Content-Type: application/json.');
  }
  return undefined;
}

// `none`: a request the person made themselves (typed or bookmarked), not one from a page.
const OWN_SITES = ['same-origin', 'none'];

// docs/management-api.md and docs/inspector.md: the inspector's HTML document may be opened by a link from another site; it
// changes nothing until a person acts on it, and its own requests are same-origin.
function openToOtherSites(req: ApiRequest): boolean {
  return req.method === 'GET' && req.path === '/__svc/ui';
}

// The service itself: the base URL's origin, or http:// plus an accepted host name and the
// service's own port (the inspector works whether opened as localhost or 127.0.0.1). Exact
// strings, as browsers serialise an origin (RFC 6454 §6.1: lower case, no default port).
function ownOrigins(app: App, hosts: ReadonlySet<string>, req: ApiRequest): Set<string> {
  const port = req.localPort === 80 ? '' : `:${req.localPort}`;
  const origins = new Set([...hosts].map((host) => `http://${host}${port}`));
  if (app.baseUrl) origins.add(new URL(app.baseUrl).origin);
  return origins;
}

// A body is framed by a non-zero Content-Length or by Transfer-Encoding (RFC 9112 §6.3). Judged
// from the headers, so a refused body is never read.
function hasBody(req: ApiRequest): boolean {
  return header(req, 'transfer-encoding') !== undefined || Number(header(req, 'content-length') ?? 0) > 0;
}

// RFC 9110 §8.3.1: type and subtype are case-insensitive; parameters (charset) may follow `;`.
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json[ \t]*(?:;|$)/i.test(contentType.trim());
}
