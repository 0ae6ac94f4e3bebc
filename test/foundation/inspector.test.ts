// The inspector page over raw HTTP (docs/inspector.md): its document and every file it
// loads are served with a strict CSP and the other security headers, the document has nothing
// inline and nothing from outside the service, only the page's own files are served, and the Host rule of docs/management-api.md
// and cross-site rules hold (the document alone may be opened from another site).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawRequest } from '../_helpers/raw-http.ts';
import { call, startService } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const CONTENT_TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };

function assertSecurityHeaders(answer: Answer, path: string): void {
  const csp = (answer.headers.get('content-security-policy') ?? '').split(';').map((directive) => directive.trim());
  for (const directive of ["default-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"]) assert.ok(csp.includes(directive), `${path}: ${directive} in ${csp.join('; ')}`);
  assert.ok(!csp.some((directive) => /unsafe-|\*|data:|blob:|https?:/.test(directive)), `${path}: nothing beyond 'self' (${csp.join('; ')})`);
  assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', path);
  assert.equal(answer.headers.get('x-frame-options'), 'DENY', path);
  assert.equal(answer.headers.get('cache-control'), 'no-store', path);
  assert.equal(answer.headers.get('referrer-policy'), 'same-origin', path);
}

/** The URLs a document's attributes and a module's imports name. */
function referencesOf(text: string): string[] {
  const attributes = [...text.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((m) => m[1] as string);
  const imports = [...text.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1] as string);
  return [...attributes, ...imports];
}

describe('the inspector page over HTTP (docs/inspector.md)', () => {
  it('serves the document and every file it loads, with the CSP and security headers, nothing inline and nothing from elsewhere', async (t) => {
    const url = await startService(t);
    const page = await call(`${url}/__svc/ui`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assertSecurityHeaders(page, '/__svc/ui');
    assert.doesNotMatch(page.text, /<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(page.text, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or handler');

    // Everything the document and its modules load, followed to the end: all served, all ours.
    const seen = new Set<string>();
    const queue = referencesOf(page.text).map((ref) => new URL(ref, `${url}/__svc/ui`));
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (next.hash !== '' && next.pathname === '/__svc/ui') continue; // the page's own anchors
      assert.equal(next.origin, url, `${next} is not the service's`);
      if (next.pathname === '/__svc/fixtures') continue; // the export link (docs/journal.md#workspace-export)
      if (seen.has(next.pathname)) continue;
      seen.add(next.pathname);
      const file = await call(next.href);
      assert.equal(file.status, 200, next.pathname);
      assert.equal(file.headers.get('content-type'), CONTENT_TYPES[next.pathname.split('.').at(-1) ?? ''], next.pathname);
      assertSecurityHeaders(file, next.pathname);
      if (next.pathname.endsWith('.js')) queue.push(...referencesOf(file.text).map((ref) => new URL(ref, next)));
    }
    for (const file of ['main.js', 'api.js', 'dom.js', 'week.js', 'journal.js', 'faults.js', 'access.js', 'outbox.js', 'workspace.js', 'inspector.css', 'icon.svg']) {
      assert.ok(seen.has(`/__svc/ui/${file}`), `${file} is loaded by the page`);
    }
  });

  it("serves only the page's own files: others, the folder's tsconfig and encoded paths are 404 not_found", async (t) => {
    const url = await startService(t);
    for (const path of ['/__svc/ui/nope.js', '/__svc/ui/tsconfig.json', '/__svc/ui/index.html', '/__svc/ui/..%2Fmanagement%2Fui.ts', '/__svc/ui/%2e%2e%2fapp.ts']) {
      const answer = await call(`${url}${path}`);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.json.error, 'not_found', path);
    }
  });

  it("keeps the management API's Host rule, and its cross-site rule for everything but the document itself", async (t) => {
    const url = await startService(t);
    for (const path of ['/__svc/ui', '/__svc/ui/main.js']) {
      const rebound = await rawRequest(url, path, { headers: { Host: 'evil.example' } });
      assert.equal(rebound.status, 403, `${path} with a foreign Host`);
      assert.equal(rebound.json.error, 'forbidden');
    }
    const linked = await call(`${url}/__svc/ui`, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(linked.status, 200, 'a link from another site may open the document');
    for (const headers of [{ 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }, { Origin: 'http://evil.example' }]) {
      for (const path of ['/__svc/ui/main.js', '/__svc/ui/inspector.css']) {
        const answer = await call(`${url}${path}`, { headers });
        assert.equal(answer.status, 403, `${path} with ${JSON.stringify(headers)}`);
      }
    }
    assert.equal((await call(`${url}/__svc/ui/main.js`, { headers: { 'Sec-Fetch-Site': 'same-origin' } })).status, 200);
  });
});
