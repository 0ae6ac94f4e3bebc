// The page's one way to the service: the JSON API of docs/management-api.md, docs/faults.md, docs/journal.md and docs/invitations.md, same-origin,
// so the cross-site check of docs/management-api.md lets it through. A non-2xx answer becomes an ApiError worded from
// the management error body (`{"error", "error_description"}`), which the page shows as it is.

export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status 0 when the service did not answer at all
   */
  constructor(message, status) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/**
 * The workspace prefix (docs/workspaces.md) the page was opened under: '' at the root, '/w/{id}' in a
 * workspace. Every path the page calls is the workspace's.
 */
export const PREFIX = location.pathname.slice(0, Math.max(0, location.pathname.lastIndexOf('/__svc/ui')));

/**
 * Calls the service and returns its parsed JSON answer (undefined for an empty one, as 204s are).
 * @param {string} method
 * @param {string} path absolute path, e.g. /__svc/users
 * @param {unknown} [body] sent as JSON
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit} */
  const init = body === undefined ? { method } : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(PREFIX + path, init);
  } catch {
    throw new ApiError(`${method} ${path}: the service did not answer (is it still running?)`, 0);
  }
  const text = await response.text();
  const value = parseJson(text);
  if (!response.ok) {
    const reason = isErrorBody(value) ? `${value.error}: ${value.error_description ?? ''}` : text.slice(0, 300);
    throw new ApiError(`${method} ${path} answered ${response.status}. ${reason}`, response.status);
  }
  return value;
}

/** @param {string} path @param {Record<string, string>} query */
export function withQuery(path, query) {
  return `${path}?${new URLSearchParams(query)}`;
}

/** @param {string} text @returns {unknown} */
function parseJson(text) {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** @param {unknown} value @returns {value is { error: string, error_description?: string }} */
function isErrorBody(value) {
  return typeof value === 'object' && value !== null && typeof (/** @type {{ error?: unknown }} */ (value).error) === 'string';
}
