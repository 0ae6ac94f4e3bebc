// The consent page of docs/oauth.md: one form posting nonce, user and decision back to
// /oauth/authorize. No script; the only style is a fixed block allowed by its hash, so the CSP
// can forbid everything else. Every reflected value goes through escapeHtml.

import { createHash } from 'node:crypto';
import { html } from '../http/result.ts';
import type { Result } from '../http/result.ts';
import type { UserRecord } from '../store/store.ts';
import { escapeHtml } from './html.ts';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#202124}' +
  'code{background:#f1f3f4;padding:.1rem .3rem;border-radius:3px;word-break:break-all}' +
  'select,button{font-size:1rem;padding:.4rem .8rem;margin:.3rem .3rem .3rem 0}';
const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');

export interface ConsentPageInput {
  /** Where the form posts: /oauth/authorize under the workspace's prefix (docs/workspaces.md). */
  action: string;
  nonce: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  users: readonly UserRecord[];
}

export function renderConsentPage(input: ConsentPageInput): Result {
  const options = input.users
    .map((user, i) => `<option value="${escapeHtml(user.id)}"${i === 0 ? ' selected' : ''}>${escapeHtml(`${user.name} · ${user.email}`)}</option>`)
    .join('\n        ');
  const scopes = input.scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`).join('\n      ');
  const body = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Local Calendar: consent</title>
  <style>${STYLE}</style>
</head>
<body>
  <h1>Grant access</h1>
  <p>The application <code>${escapeHtml(input.clientId)}</code> asks for:</p>
  <ul>
      ${scopes}
  </ul>
  <form method="post" action="${escapeHtml(input.action)}">
    <input type="hidden" name="nonce" value="${escapeHtml(input.nonce)}">
    <p><label for="user">Test user</label><br>
      <select id="user" name="user">
        ${options}
      </select></p>
    <p><button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button></p>
  </form>
</body>
</html>
`;
  return html(200, body, securityHeaders(input.redirectUri));
}

/**
 * docs/oauth.md. form-action must also allow the redirect URI's origin: browsers apply it to the
 * redirect that follows the form post. Referrer-Policy same-origin, not no-referrer: with
 * no-referrer browsers send `Origin: null` on the post, which the cross-site check refuses.
 */
function securityHeaders(redirectUri: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    `form-action 'self' ${new URL(redirectUri).origin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}
