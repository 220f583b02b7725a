// The runtime-neutral request and response every adapter translates to and from, and the small
// parsing helpers the adapters share so Express, node:http and Lambda see identical input.

import { randomUUID } from 'node:crypto';
import { parse } from 'fast-querystring';

/** Repeated parameters (`?a=1&a=2`) arrive as arrays; validation decides whether that is allowed. */
export type Query = Record<string, string | string[] | undefined>;

export interface HttpRequest {
  method: string;
  /** Path relative to where the API is mounted, without the query string, still percent-encoded. */
  path: string;
  query: Query;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string | undefined;
}

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Already serialized (JSON for the API, HTML/JS/CSS for /docs). */
  body: string;
}

/**
 * Parses `a=1&b=2&a=3` (no leading `?`), `+` as a space, repeated names as arrays. The object has
 * no Object.prototype, so a parameter named `__proto__` or `constructor` is just data. Malformed
 * percent-encoding is kept as typed, as in path parameters. fast-querystring does this in a single
 * pass, several times faster than URLSearchParams on the short queries this API takes.
 */
export function parseQueryString(search: string): Query {
  return parse(search) as Query;
}

export function addQueryValue(query: Query, name: string, value: string): void {
  const previous = query[name];
  if (previous === undefined) query[name] = value;
  else if (Array.isArray(previous)) previous.push(value);
  else query[name] = [previous, value];
}

/** Header maps from runtimes that keep the client's casing or send repeated headers as arrays. */
export function normalizeHeaders(
  headers: Record<string, string | string[] | number | undefined> | null | undefined,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = Object.create(null);
  if (!headers) return out;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

/** Keeps a caller's request id for tracing across services unless it could pollute the logs. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Splits a request target (`/path?query`, or absolute-form `http://host/path?query`) in two. */
export function splitTarget(target: string): { path: string; search: string } {
  let rest = target;
  if (!rest.startsWith('/')) {
    const scheme = rest.indexOf('://');
    const slash = scheme < 0 ? -1 : rest.indexOf('/', scheme + 3);
    rest = slash < 0 ? '/' : rest.slice(slash);
  }
  const q = rest.indexOf('?');
  return q < 0 ? { path: rest, search: '' } : { path: rest.slice(0, q), search: rest.slice(q + 1) };
}
