// A small router: routes are matched in table order against path segments. A pattern segment
// `:name` matches any one non-empty segment and yields it percent-decoded exactly once, so
// `/calendars/aiko.tanaka%40example.com/events` gives calendarId `aiko.tanaka@example.com` and an
// encoded `/` (`%2F`) stays inside its segment. No wildcards, no optional segments, no regexes.

export type Params = Record<string, string>;

interface Route<H> {
  /** The literal segments by position; undefined where the pattern takes a parameter. */
  literals: Array<string | undefined>;
  /** The parameters' positions and names. */
  params: Array<{ at: number; name: string }>;
  handler: H;
}

export type Match<H> =
  | { kind: 'found'; handler: H; params: Params }
  | { kind: 'none' };

export class Router<H> {
  // By method, then by number of segments, each list in table order: a request looks only at the
  // routes it could match (this runs on every request).
  readonly #routes = new Map<string, Route<H>[][]>();

  add(method: string, pattern: string, handler: H): this {
    const segments = split(pattern);
    const literals = segments.map((segment) => (segment.startsWith(':') ? undefined : segment));
    const params = segments.flatMap((segment, at) => (segment.startsWith(':') ? [{ at, name: segment.slice(1) }] : []));
    let byLength = this.#routes.get(method);
    if (byLength === undefined) this.#routes.set(method, (byLength = []));
    (byLength[segments.length] ??= []).push({ literals, params, handler });
    return this;
  }

  /** The first route whose method and path both match; a path-only match is still 'none'. */
  match(method: string, path: string): Match<H> {
    const segments = split(path);
    for (const route of this.#routes.get(method)?.[segments.length] ?? []) {
      const params = matchSegments(route, segments);
      if (params) return { kind: 'found', handler: route.handler, params };
    }
    return { kind: 'none' };
  }
}

function split(path: string): string[] {
  const trimmed = path.startsWith('/') ? path.slice(1) : path;
  return trimmed === '' ? [] : trimmed.split('/');
}

function matchSegments(route: Route<unknown>, actual: string[]): Params | undefined {
  // The literal segments first: most routes tried fail on one, before any decoding.
  const { literals } = route;
  for (let i = 0; i < literals.length; i++) {
    const expected = literals[i];
    if (expected !== undefined && expected !== actual[i]) return undefined;
  }
  const params: Params = {};
  for (const { at, name } of route.params) {
    const segment = actual[at] as string;
    if (segment === '') return undefined;
    const decoded = decodeSegment(segment);
    if (decoded === undefined) return undefined;
    params[name] = decoded;
  }
  return params;
}

function decodeSegment(segment: string): string | undefined {
  // Most segments (`primary`, event ids) hold nothing to decode.
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed percent-encoding: the route does not match
  }
}
