// Finds the route for a method and path: one map lookup for fixed paths, a segment-by-segment
// comparison for the few routes with path parameters.

import { decodeComponent, notPercentEncoded } from './request.js';
import type { Route } from './route.js';

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
  /**
   * The 400 message of a path parameter that is not percent-encoded UTF-8 (kept as typed in
   * params): the route is found, and the core refuses the input after key and quota.
   */
  unreadable?: string;
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
      const found = matchSegments(candidate, parts);
      if (found) return found;
    }
    return null;
  }

  /**
   * The methods routes answer at a path, GET with HEAD: the `Allow` of a 405 when the path is known
   * and the method is not. Asked only once a match has failed, so it costs nothing on the hot path.
   */
  allowedMethods(rawPath: string): string[] {
    const verbs = new Set<string>([...this.fixed.keys(), ...this.withParams.map((c) => c.route.method)]);
    const allowed = [...verbs].filter((verb) => this.match(verb, rawPath) !== null).sort();
    return allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
  }
}

/** One trailing slash is ignored on every path, as Express does by default. */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function matchSegments(candidate: ParamRoute, parts: string[]): RouteMatch | null {
  const params: Record<string, string> = {};
  let unreadable: string | undefined;
  for (let i = 0; i < parts.length; i++) {
    const literal = candidate.segments[i];
    if (literal === null) {
      if (parts[i] === '') return null;
      const name = candidate.names[i]!;
      const value = decodeComponent(parts[i]);
      if (value === undefined) unreadable ??= notPercentEncoded(name);
      params[name] = value ?? parts[i];
    } else if (literal !== parts[i]) {
      return null;
    }
  }
  return unreadable === undefined ? { route: candidate.route, params } : { route: candidate.route, params, unreadable };
}
