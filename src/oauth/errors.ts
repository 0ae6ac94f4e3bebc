// The one error type of the OAuth surface (RFC 6749 §4.1.2.1, §5.2 and docs/oauth.md's OAuth error
// table): a closed union of codes, each with its fixed HTTP status. Handlers throw OAuthError;
// renderOAuthError in src/oauth/routes.ts is the only place that turns it into a response.

export const OAUTH_ERROR_STATUS = {
  invalid_request: 400,
  invalid_client: 400, // docs/oauth.md's error table says 400 for a failed client authentication, Basic included
  invalid_grant: 400,
  invalid_scope: 400,
  unsupported_response_type: 400,
  unsupported_grant_type: 400,
  unsupported_feature: 400,
  invalidParameter: 400,
  forbidden: 403,
  rateLimitExceeded: 429,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERROR_STATUS;

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  constructor(code: OAuthErrorCode, description: string) {
    super(description);
    this.code = code;
  }

  get status(): number {
    return OAUTH_ERROR_STATUS[this.code];
  }
}

/** The wire shape of every OAuth-surface error: `{error, error_description}`. */
export function oauthErrorBody(code: string, description: string): { error: string; error_description: string } {
  return { error: code, error_description: description };
}
