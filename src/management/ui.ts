// The inspector page (docs/inspector.md): GET /__svc/ui answers its HTML document, GET /__svc/ui/<file>
// its scripts, stylesheet and icon. They are the static files of src/inspector/, read once per
// process, by the first request for one of them; the page is a client of the JSON API of docs/management-api.md, docs/faults.md and docs/journal.md and
// serves nothing else. Who may fetch them is guard.ts's business (the document alone may be opened
// from another site).

import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Result } from '../http/result.ts';
import type { Router } from '../http/router.ts';
import type { Handler } from '../http/surface.ts';
import { ManagementError } from './errors.ts';

const INSPECTOR_DIR = new URL('../inspector/', import.meta.url);
const DOCUMENT = 'index.html';

// The file types the page is made of; any other file of the folder (its tsconfig.json) is not served.
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// docs/inspector.md: everything comes from the service itself and nothing is inline, so `'self'` alone
// suffices and no nonce is needed. base-uri and form-action close the two holes default-src leaves
// open; frame-ancestors (and X-Frame-Options for older browsers) keeps the page out of other
// sites' frames, where its buttons could be clicked by a hidden overlay. Referrer-Policy
// same-origin, not no-referrer: with no-referrer the page's own POSTs would carry `Origin: null`,
// which the cross-site check of docs/management-api.md refuses.
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Adds GET /__svc/ui and GET /__svc/ui/:file to the management routes. */
export function addInspectorRoutes(routes: Router<Handler>): void {
  routes
    .add('GET', '/__svc/ui', (req) => {
      const document = pageDocument();
      return req.prefix ? underPrefix(document, req.prefix) : document;
    })
    .add('GET', '/__svc/ui/:file', (_req, params) => {
      const file = params.file as string;
      const result = file === DOCUMENT ? undefined : pageFiles().get(file);
      if (result === undefined) throw new ManagementError(404, 'not_found', `The inspector has no file ${JSON.stringify(file)}.`);
      return result;
    });
}

// Read once per process, by the first request for the page rather than at start-up: every
// workspace (docs/workspaces.md) serves the same files.
let inspectorFiles: Map<string, Result> | undefined;
const pageFiles = (): Map<string, Result> => (inspectorFiles ??= readInspectorFiles());

function pageDocument(): Result {
  const document = pageFiles().get(DOCUMENT);
  if (document === undefined) throw new Error(`src/inspector/${DOCUMENT} is missing`);
  return document;
}

// A workspace's inspector (docs/workspaces.md): the document's links to its files and to the export
// carry the workspace's prefix (the scripts find it in their own location, api.js).
function underPrefix(document: Result, prefix: string): Result {
  return { ...document, body: Buffer.from((document.body as Buffer).toString('utf8').replaceAll('"/__svc/', `"${prefix}/__svc/`)) };
}

// A fixed set of names read from disk here, looked up by exact name per request: no request path
// ever reaches the file system.
function readInspectorFiles(): Map<string, Result> {
  const files = new Map<string, Result>();
  for (const name of readdirSync(INSPECTOR_DIR)) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (contentType === undefined) continue;
    files.set(name, { status: 200, headers: { 'Content-Type': contentType, ...SECURITY_HEADERS }, body: readFileSync(new URL(name, INSPECTOR_DIR)) });
  }
  return files;
}
