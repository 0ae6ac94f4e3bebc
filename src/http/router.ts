// A small router: routes are matched in table order against path segments. A pattern segment
// `:name` matches any one non-empty segment and yields it percent-decoded exactly once, so
// `/calendars/aiko.tanaka%40example.com/events` gives calendarId `aiko.tanaka@example.com` and an
// encoded `/` (`%2F`) stays inside its segment. No wildcards, no optional segments, no regexes.

export type Params = Record<string, string>;

interface Route<H> {
  method: string;
  segments: string[];
  handler: H;
}

export type Match<H> =
  | { kind: 'found'; handler: H; params: Params }
  | { kind: 'none' };

export class Router<H> {
  readonly #routes: Route<H>[] = [];

  add(method: string, pattern: string, handler: H): this {
    this.#routes.push({ method, segments: split(pattern), handler });
    return this;
  }

  /** The first route whose method and path both match; a path-only match is still 'none'. */
  match(method: string, path: string): Match<H> {
    const segments = split(path);
    for (const route of this.#routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const params = matchSegments(route.segments, segments);
      if (params) return { kind: 'found', handler: route.handler, params };
    }
    return { kind: 'none' };
  }
}

function split(path: string): string[] {
  const trimmed = path.startsWith('/') ? path.slice(1) : path;
  return trimmed === '' ? [] : trimmed.split('/');
}

function matchSegments(pattern: string[], actual: string[]): Params | undefined {
  const params: Params = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const segment = actual[i] as string;
    if (expected.startsWith(':')) {
      if (segment === '') return undefined;
      const decoded = decodeSegment(segment);
      if (decoded === undefined) return undefined;
      params[expected.slice(1)] = decoded;
    } else if (expected !== segment) {
      return undefined;
    }
  }
  return params;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed percent-encoding: the route does not match
  }
}
