// Secrets never enter the request journal (CONTRACT §9): the value of any field named below reads
// "[redacted]", in the query, in a form body and at any depth of a JSON body. The names are
// matched without regard to case, so `Access_Token` is no way around the rule.

export const REDACTED = '[redacted]';

const SECRET_NAMES: ReadonlySet<string> = new Set([
  'client_secret',
  'code',
  'code_verifier',
  'refresh_token',
  'access_token',
  'oauth_token',
  'token',
  'nonce',
  'authorization',
]);

export function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase());
}

/**
 * Redacts a value fresh from JSON.parse in place, and says whether it is no deeper than
 * `maxDepth` (deeper values are not kept: JSON.stringify of the journal page could overflow the
 * stack on them). A loop over a stack rather than recursion, for the same reason.
 */
export function redactJson(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { node, depth } = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return false;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!Array.isArray(node) && isSecretName(key)) record[key] = REDACTED;
      else pending.push({ node: record[key], depth: depth + 1 });
    }
  }
  return true;
}
