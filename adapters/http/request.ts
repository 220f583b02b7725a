// The runtime-neutral request and response every adapter translates to and from, and the small
// parsing helpers the adapters share so Express, node:http and Lambda see identical input.

import { parse } from 'fast-querystring';

/** Repeated parameters (`?a=1&a=2`) arrive as arrays; validation decides whether that is allowed. */
export type Query = Record<string, string | string[] | undefined>;

/**
 * Kept on a parsed query whose text could not be read whole (see unreadableParams). A symbol, not a
 * field of Query: parameters are data, and Query stays assignable to the engine's query types.
 */
const UNREADABLE = Symbol('unreadable query parameters');

/** A parameter whose value is not percent-encoded UTF-8: its name and the 400 message. */
export interface UnreadableParam {
  name: string;
  message: string;
}
type MarkedQuery = Query & { [UNREADABLE]?: UnreadableParam[] };

/**
 * The parameters of a parsed query whose value is not percent-encoded UTF-8, in order; undefined
 * when there are none. The core answers the first its route reads where it answers other input
 * errors, after route, key and quota, and ignores the others: the adapters only parse.
 */
export function unreadableParams(query: Query): readonly UnreadableParam[] | undefined {
  return (query as MarkedQuery)[UNREADABLE];
}

export interface HttpRequest {
  method: string;
  /** Path relative to where the API is mounted, without the query string, still percent-encoded. */
  path: string;
  query: Query;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string | undefined;
  /** The address the request came from, for the log (the socket's peer, or what the gateway saw). */
  client?: string | undefined;
}

/**
 * The client's address: the one the adapter saw, unless trusted proxies in front added the
 * client's to X-Forwarded-For (each appends the address it received from). With `trusted`
 * proxies, the entry that many from the end is the client; entries before it are the client's
 * own claims. As Express's `trust proxy` counts hops.
 */
export function clientAddress(req: Pick<HttpRequest, 'headers' | 'client'>, trusted: number): string | undefined {
  const forwarded = req.headers['x-forwarded-for'];
  if (trusted === 0 || forwarded === undefined) return plainAddress(req.client);
  const entries = forwarded.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 0) return plainAddress(req.client);
  return entries[Math.max(0, entries.length - trusted)];
}

/** An IPv4 peer of a dual-stack socket (`::ffff:203.0.113.7`) as the IPv4 address it is. */
export function plainAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Already serialized (JSON for the API, HTML/JS/CSS for /docs), or base64 text with `base64`. */
  body: string;
  /** The body is the base64 text of bytes (a gzipped /docs asset): adapters send the bytes. */
  base64?: boolean | undefined;
  /**
   * The body has no character beyond ASCII (a search's answer: ascii-json.ts in the engine): its
   * length is its byte count, which a server then need not read the body through to count.
   */
  ascii?: boolean | undefined;
  /**
   * The body's bytes, made once and shared by every answer that sends them (the public documents,
   * answered over and over without a key): a server writes these rather than encode a copy of the
   * body for each answer, which a client that pipelines requests and never reads would pile up.
   */
  bytes?: Buffer | undefined;
}

/** Adds a request header's name to an answer's Vary, after those already there. */
export function addVary(headers: Record<string, string>, name: string): void {
  headers.Vary = headers.Vary ? `${headers.Vary}, ${name}` : name;
}

/** A body served many times over, as text (for Lambda's result) and as the bytes servers write. */
export interface SharedBody {
  body: string;
  bytes: Buffer;
}

export const sharedBody = (body: string): SharedBody => ({ body, bytes: Buffer.from(body) });

/**
 * Parses `a=1&b=2&a=3` (no leading `?`), `+` as a space, repeated names as arrays. The object has
 * no Object.prototype, so a parameter named `__proto__` or `constructor` is just data.
 * fast-querystring does this in a single pass, several times faster than URLSearchParams on the
 * short queries this API takes. It keeps what it cannot decode as typed (`city=%E9` would read
 * "%E9"), so text with a `%` in it, rare, is checked again, for unreadableParams to tell.
 */
export function parseQueryString(search: string): Query {
  const query = parse(search) as MarkedQuery;
  if (search.includes('%')) {
    const unreadable = undecodableParams(search);
    if (unreadable.length > 0) query[UNREADABLE] = unreadable;
  }
  return query;
}

/** The 400 message of a parameter whose text is not percent-encoded UTF-8. */
export function notPercentEncoded(name: string): string {
  return `${name} is not valid percent-encoded UTF-8`;
}

/** Each parameter of the query text whose value does not decode, in order; one whose name does not is no route's, and left out. */
function undecodableParams(search: string): UnreadableParam[] {
  const found: UnreadableParam[] = [];
  for (const pair of search.split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || !pair.includes('%', eq)) continue;
    const name = decodeComponent(pair.slice(0, eq).replaceAll('+', ' '));
    if (name !== undefined && decodeComponent(pair.slice(eq + 1)) === undefined) found.push({ name, message: notPercentEncoded(name.slice(0, 40)) });
  }
  return found;
}

/**
 * Percent-decoded text, or undefined where it is not UTF-8 (`%E9`) or not percent-encoding at all
 * (`%ZZ`, a lone `%`). decodeURIComponent refuses exactly what fast-querystring's decoder does.
 */
export function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
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

/**
 * node:crypto's, taken when a request first needs an id of its own: a Lambda invocation comes with
 * one (its awsRequestId), and a Lambda start is spared loading node:crypto (see keys.ts's hashKey).
 */
let randomUUID: (() => string) | undefined;

/**
 * Keeps a caller's request id for tracing across services unless it could pollute the logs; else
 * `fallback` (a Lambda invocation's id), else a new one.
 */
export function requestIdFor(incoming: string | undefined, fallback?: string): string {
  if (incoming !== undefined && SANE_REQUEST_ID.test(incoming)) return incoming;
  if (fallback !== undefined) return fallback;
  randomUUID ??= process.getBuiltinModule('node:crypto').randomUUID;
  return randomUUID();
}

/**
 * Adds what every answer carries (docs/reliability.md, docs/http-api.md): the request's id, and
 * nosniff. The core adds them to its answers; a server's refusals and the Lambda handler's own
 * answers, given without the core, add them here too.
 */
export function withEveryAnswerHeaders(headers: Record<string, string>, requestId: string): Record<string, string> {
  headers['X-Request-Id'] = requestId;
  headers['X-Content-Type-Options'] = 'nosniff';
  return headers;
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

/**
 * A path as a log line or an error message shows it: its first 200 characters, enough to know it
 * by. A client's path can be some 16 KB long, and a log line should stay short (a pipe takes at
 * most 4 KiB whole).
 */
export function shownPath(path: string): string {
  return path.slice(0, 200);
}
