// What a handler returns. One function (src/http/respond.ts) writes every result, so handlers
// never touch node:http's response object.

export interface Result {
  status: number;
  headers: Record<string, string>;
  /**
   * The serialised body (UTF-8 bytes when already encoded; several buffers are sent one after
   * another, as a list page of cached renderings is); null for an empty body.
   */
  body: string | Buffer | readonly Buffer[] | null;
}

const JSON_TYPE = 'application/json; charset=UTF-8';

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Result {
  return jsonText(status, JSON.stringify(value), headers);
}

/** A JSON body already serialised (cached renderings). */
export function jsonText(status: number, text: string | Buffer | readonly Buffer[], headers: Record<string, string> = {}): Result {
  // nosniff (SECURITY.md): a browser never runs an answer that echoes a caller's text as script
  // or styles, whatever a page loading it as <script> or <link> hopes for.
  return { status, headers: { 'Content-Type': JSON_TYPE, 'X-Content-Type-Options': 'nosniff', ...headers }, body: text };
}

export function html(status: number, text: string, headers: Record<string, string> = {}): Result {
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers }, body: text };
}

export function empty(status: number, headers: Record<string, string> = {}): Result {
  return { status, headers, body: null };
}

export function redirect(location: string, headers: Record<string, string> = {}): Result {
  return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store', ...headers }, body: null };
}
