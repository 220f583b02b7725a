// Finds the route for a method and path: one map lookup for fixed paths, a segment-by-segment
// comparison for the few routes with path parameters.

import type { Route } from './route.js';

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

interface ParamRoute {
  route: Route;
  /** Literal segments, or null where the route has a parameter. */
  segments: (string | null)[];
  names: (string | null)[];
}

/** Fixed routes have no parameters: one shared, frozen match each. */
const NO_PARAMS: Record<string, string> = Object.freeze({});

export class RouteMatcher {
  /** Method, then path: no key string to build per request. */
  private readonly fixed = new Map<string, Map<string, RouteMatch>>();
  private readonly withParams: ParamRoute[] = [];

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const parts = route.path.split('/').slice(1);
      if (parts.some((p) => p.startsWith(':'))) {
        this.withParams.push({
          route,
          segments: parts.map((p) => (p.startsWith(':') ? null : p)),
          names: parts.map((p) => (p.startsWith(':') ? p.slice(1) : null)),
        });
      } else {
        let byPath = this.fixed.get(route.method);
        if (!byPath) this.fixed.set(route.method, (byPath = new Map()));
        byPath.set(route.path, Object.freeze({ route, params: NO_PARAMS }));
      }
    }
  }

  /** HEAD is answered as GET; one trailing slash is ignored. */
  match(method: string, rawPath: string): RouteMatch | null {
    const verb = method === 'HEAD' ? 'GET' : method;
    const path = withoutTrailingSlash(rawPath);
    const fixed = this.fixed.get(verb)?.get(path);
    if (fixed) return fixed;
    const parts = path.split('/').slice(1);
    for (const candidate of this.withParams) {
      if (candidate.route.method !== verb || candidate.segments.length !== parts.length) continue;
      const params = matchSegments(candidate, parts);
      if (params) return { route: candidate.route, params };
    }
    return null;
  }
}

/** One trailing slash is ignored on every path, as Express does by default. */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function matchSegments(candidate: ParamRoute, parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const literal = candidate.segments[i];
    if (literal === null) {
      if (parts[i] === '') return null;
      params[candidate.names[i]!] = decodeSegment(parts[i]);
    } else if (literal !== parts[i]) {
      return null;
    }
  }
  return params;
}

/** Malformed percent-encoding is kept as typed: the lookup then simply finds nothing. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
