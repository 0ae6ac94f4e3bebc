// Reading OAuth request parameters (query or form) with the duplicate rule of RFC 6749 §3.1 /
// §3.2: "Request and response parameters MUST NOT be included more than once."

import { OAuthError } from './errors.ts';

/** The parameter's only value; undefined when absent; invalid_request when repeated. */
export function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new OAuthError('invalid_request', `Parameter ${name} is repeated.`);
  return values[0];
}

/** A required parameter: absent or empty is invalid_request (RFC 6749 §4.1.2.1, §5.2). */
export function required(params: URLSearchParams, name: string): string {
  const value = single(params, name);
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `Missing required parameter: ${name}.`);
  return value;
}
