// The HTTP API written once: every runtime adapter (Express, node:http, Lambda) translates its
// request into a RequestHead, calls serve() with a way to read the body, and writes the
// HttpResponse back (handle() is serve() for a request whose body is already a string).
// Order of checks: route (404) -> key (401) -> quota (429) -> validation (400) -> answer.

import { pino, type Logger } from 'pino';
import type { Engine } from '../../engine/engine.js';
import { plural } from '../../engine/plural.js';
import { KvUnavailableError, type KvStore } from '../kv/store.js';
import { readJsonObject } from './body.js';
import { createDocs } from './docs.js';
import { classifyError, errorResponse } from './errors.js';
import { gzipLarge } from './compression.js';
import { createErrorLog } from './error-log.js';
import { createCors } from './cors.js';
import { createMapPage, type MapOptions } from './map.js';
import { createHealthCheck, type DataInfo, type HealthReport, type ReloadStatus } from './health.js';
import type { ApiKeyRecord, KeyRing } from './keys.js';
import { RouteMatcher, withoutTrailingSlash, type RouteMatch } from './match.js';
import { addQuotaHeaders, consumeQuota, type QuotaDecision } from './quota.js';
import { clientAddress, JSON_TYPE, requestIdFor, sharedBody, shownPath, unreadableParams, withEveryAnswerHeaders, type HttpRequest, type HttpResponse, type Query, type SharedBody } from './request.js';
import { carrierRoutes, dropPointRoutes, networkRoutes } from './carrier-routes.js';
import { geoJsonAnswer, wantsGeoJson } from './geojson.js';
import { JsonText, readsQuery, type Route } from './route.js';
import { unifiedRoutes } from './unified-routes.js';

// The package's `./http` entry: what an embedder needs to build a core.
export type { HttpRequest, HttpResponse, Query } from './request.js';
export { parseQueryString } from './request.js';
export { MAX_BODY_BYTES } from './body.js';
export { KeyRing, parseApiKeys, PLANS, type ApiKeyRecord, type Plan } from './keys.js';
export { KvConfigError, KvUnavailableError, type KvStore } from '../kv/store.js';
export { createKvStore } from '../kv/create.js';

export interface AppOptions {
  engine: Engine;
  keys: KeyRing;
  kv: KvStore;
  /** One JSON line per request. Default: silent, so embedding the API does not write to stdout. */
  logger?: Logger | undefined;
  /** Origins browser pages may call from (CORS_ORIGINS): a list, or `*`. Default none. */
  corsOrigins?: '*' | readonly string[] | undefined;
  /** Proxies trusted to add the client's address to X-Forwarded-For (TRUST_PROXY); default 0: none. */
  trustProxy?: number | undefined;
  /** Where the engine's data came from, for the health report; default: an engine passed in, loaded now. */
  data?: DataInfo | undefined;
  /** The last reload's outcome, shared by the cores a server switches between (reload.ts). */
  reloads?: ReloadStatus | undefined;
  /** The /map page's tile server, if any (MAP_TILES_URL). */
  map?: MapOptions | undefined;
}

/** A request before its body: route, key and quota are decided from this alone. */
export type RequestHead = Omit<HttpRequest, 'body'>;

export interface App {
  /** Answers a request whose body is already at hand (Lambda, tests). */
  handle(request: HttpRequest): Promise<HttpResponse>;
  /**
   * Answers a request whose body is still on its way: `readBody` is called only for a route that
   * takes a body, and only once the key and the quota allow it, so nobody can make the server
   * read (and hold) a body without a valid key.
   */
  serve(head: RequestHead, readBody: () => Promise<string | undefined>): Promise<HttpResponse>;
  /**
   * serve() without the promise where none is needed: the answer itself when nothing had to be
   * waited for (a keyed GET on an in-process store), else a promise of it. For adapters on a hot
   * path (node:http): a promise per request is an allocation and a turn of the microtask queue.
   */
  answer(head: RequestHead, readBody: () => Promise<string | undefined>): HttpResponse | Promise<HttpResponse>;
  /**
   * Whether the path is the API's: some route answers it, with this method or (a 405) another one.
   * A mounted router lets every other path fall through to the host app.
   */
  matches(method: string, path: string): boolean;
  readonly routes: readonly Route[];
  /** Closes the KV store; call after the server has stopped taking requests. */
  close(): Promise<void>;
}

/** The API's version in the OpenAPI document; it changes when the interface does, not per release. */
export const API_VERSION = '1.0.0';

const PUBLIC_PATH = /^\/(api\/health|openapi\.json|docs|docs\/.*|map|map\/.*)$/;

/**
 * The route table of an engine: the unified endpoints, then the drop points and each carrier's own
 * (the health report lists its probes in this order, as docs/http-api.md does), then the carriers' networks.
 */
export function buildRoutes(engine: Engine): Route[] {
  return [
    ...unifiedRoutes(engine),
    ...dropPointRoutes(engine),
    ...engine.carriers.flatMap((c) => carrierRoutes(engine, c)),
    ...networkRoutes(engine),
  ];
}

export function createApp({ engine, keys, kv, logger = pino({ level: 'silent' }), corsOrigins, trustProxy = 0, data, reloads, map }: AppOptions): App {
  const routes = buildRoutes(engine);
  const matcher = new RouteMatcher(routes);
  const health = createHealthCheck(routes, kv, logger, data, reloads);
  const docs = createDocs();
  const mapPage = createMapPage(map);
  const logError = createErrorLog(logger);
  const cors = createCors(corsOrigins);
  // Built on first request: generating it takes milliseconds a Lambda cold start should not pay, and
  // its code (zod-openapi, the response schemas) is imported then: a bundle keeps it in a chunk of its own.
  let openapi: Promise<SharedBody> | undefined;
  // A report is served many times over (see health.ts): serialized once.
  let healthText: { report: HealthReport; text: SharedBody } | undefined;

  /** Endpoints without a key: the health report, the OpenAPI document and its viewer, the map page. */
  async function answerPublic(req: RequestHead, path: string): Promise<HttpResponse | null> {
    if (path === '/api/health') {
      const report = await health();
      if (healthText?.report !== report) healthText = { report, text: sharedBody(JSON.stringify(report)) };
      const age = Math.max(0, Math.floor((Date.now() - Date.parse(report.timestamp)) / 1000));
      return { status: report.status === 'unhealthy' ? 503 : 200, headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', Age: String(age) }, ...healthText.text };
    }
    if (path === '/openapi.json') {
      if (!openapi) {
        const made = import('./openapi.js').then(({ buildOpenApiDocument }) => sharedBody(JSON.stringify(buildOpenApiDocument(routes, API_VERSION))));
        // A build that failed is not kept: the next request tries again.
        made.catch(() => {
          if (openapi === made) openapi = undefined;
        });
        openapi = made;
      }
      const document = await openapi;
      return { status: 200, headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'public, max-age=300' }, ...document };
    }
    // `/docs` and `/docs/` differ (as `/map` and `/map/` do): the page's relative URLs resolve beside or inside it.
    return docs(req.path) ?? mapPage(req.path);
  }

  function serve(req: RequestHead, readBody: () => Promise<string | undefined>): Promise<HttpResponse> {
    const answered = answer(req, readBody);
    return answered instanceof Promise ? answered : Promise.resolve(answered);
  }

  function answer(req: RequestHead, readBody: () => Promise<string | undefined>): HttpResponse | Promise<HttpResponse> {
    const requestId = requestIdFor(req.headers['x-request-id']);
    const caller: Caller = { keyId: undefined };
    // The clock is read only for the log line: with the level off, a request does no logging work.
    // process.hrtime, which Node has loaded: the global `performance` loads its perf_hooks modules
    // on first use, about 1.6 ms of a Lambda start under the options Lambda's runtime gives node.
    const started = logger.isLevelEnabled('info') ? process.hrtime.bigint() : undefined;
    // Preflights come without a key, and cost none of its quota.
    const answered = cors.isPreflight(req) ? cors.preflight(req, requestId) : respond(req, readBody, requestId, caller);
    return answered instanceof Promise
      ? answered.then((response) => gzipLarge(req.headers, finish(req, response, requestId, caller, started)))
      : gzipLarge(req.headers, finish(req, answered, requestId, caller, started));
  }

  /** What every answer gets, and its log line. */
  function finish(req: RequestHead, response: HttpResponse, requestId: string, caller: Caller, started: bigint | undefined): HttpResponse {
    withEveryAnswerHeaders(response.headers, requestId);
    cors.decorate(req, response.headers);
    if (started !== undefined) {
      // Milliseconds to the hundredth (the clock counts nanoseconds).
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100;
      const fields = { requestId, method: req.method, path: shownPath(req.path), status: response.status, ms, client: clientAddress(req, trustProxy), keyId: caller.keyId };
      if (response.status >= 500) logger.warn(fields, 'request');
      else logger.info(fields, 'request');
    }
    return response;
  }

  /**
   * Never rejects nor throws: every failure is an answer. It waits only for what must be waited
   * for (a public answer, a store that counts over the network, a body), and answers with no
   * promise at all when nothing was: a keyed GET on the memory store runs to its answer in one
   * call. Refusals are returned, not thrown: a flood of keyless calls should cost as little as possible.
   */
  function respond(req: RequestHead, readBody: () => Promise<string | undefined>, requestId: string, caller: Caller): HttpResponse | Promise<HttpResponse> {
    try {
      const path = withoutTrailingSlash(req.path);
      if (isPublic(req.method, path)) return respondPublic(req, readBody, path, requestId, caller);
      return respondKeyed(req, readBody, path, requestId, caller);
    } catch (err) {
      return failed(err, requestId, undefined);
    }
  }

  /** A public path's answer, or the keyed routes' when it has none (`/docs/nothing`). */
  async function respondPublic(req: RequestHead, readBody: () => Promise<string | undefined>, path: string, requestId: string, caller: Caller): Promise<HttpResponse> {
    try {
      const response = await answerPublic(req, path);
      if (response) {
        response.headers['X-Request-Id'] = requestId;
        return response;
      }
    } catch (err) {
      return failed(err, requestId, undefined);
    }
    return respondKeyed(req, readBody, path, requestId, caller);
  }

  /** Route (404, 405), key (401), quota. */
  function respondKeyed(req: RequestHead, readBody: () => Promise<string | undefined>, path: string, requestId: string, caller: Caller): HttpResponse | Promise<HttpResponse> {
    try {
      const found = matcher.match(req.method, req.path);
      if (!found) {
        const allowed = allowedMethods(path);
        // `GET /docs/nothing`: a path of the docs page's that holds no asset is not found, whatever else it takes.
        if (allowed.length === 0 || allowed.includes(req.method)) return jsonError(404, `no route for ${req.method} ${shownPath(req.path)}`, requestId);
        const allow = allowed.join(', ');
        return errorResponse(405, `method ${req.method.slice(0, 20)} is not allowed on ${shownPath(path)}: use ${allow}`, { 'X-Request-Id': requestId, Allow: allow });
      }
      const key = keys.lookup(req.headers['x-api-key']);
      if (!key) return jsonError(401, 'missing or invalid API key: send it in the X-API-Key header', requestId);
      caller.keyId = key.name;
      const counted = consumeQuota(kv, key);
      if (counted instanceof Promise) {
        return counted.then(
          (decision) => answerRoute(req, readBody, found, key, decision, requestId),
          (err: unknown) => failed(err, requestId, undefined),
        );
      }
      return answerRoute(req, readBody, found, key, counted, requestId);
    } catch (err) {
      return failed(err, requestId, undefined);
    }
  }

  /** Once counted: the quota's verdict (429), the input (400), the body if the route takes one, the answer. */
  function answerRoute(req: RequestHead, readBody: () => Promise<string | undefined>, found: RouteMatch, key: ApiKeyRecord, decision: QuotaDecision, requestId: string): HttpResponse | Promise<HttpResponse> {
    try {
      health.storeAnswered(true);
      if (!decision.allowed) return jsonError(429, `monthly quota of ${plural(decision.limit, 'call')} exceeded`, requestId, decision);
      // Parameters the adapter could not decode (request.ts, match.ts): input errors like any other,
      // of the parameters the route reads; any other is ignored, however it is written.
      const unreadable = found.unreadable ?? unreadableRead(req.query, found.route);
      if (unreadable !== undefined) return jsonError(400, unreadable, requestId, decision);
      const repeated = repeatedParam(req.query, found.route);
      if (repeated) return jsonError(400, `${repeated} must be given once`, requestId, decision);
      if (!found.route.body) return answerWith(req, found, undefined, key, decision, requestId);
      return readJsonObject(readBody, req.headers).then(
        (body) => answerWith(req, found, body, key, decision, requestId),
        (err: unknown) => failed(err, requestId, decision),
      );
    } catch (err) {
      return failed(err, requestId, decision);
    }
  }

  function answerWith(req: RequestHead, { route, params }: RouteMatch, body: Record<string, unknown> | undefined, key: ApiKeyRecord, decision: QuotaDecision, requestId: string): HttpResponse {
    try {
      const result = route.answer({ query: req.query, params, body, key });
      if (route.geojson && wantsGeoJson(req.headers.accept)) return geoJsonAnswer(result, jsonAnswer(200, '', requestId, decision));
      const answer =
        result instanceof JsonText ? jsonAnswer(200, result.text, requestId, decision, result.ascii) : jsonAnswer(200, JSON.stringify(result), requestId, decision);
      if (!route.geojson) return answer;
      // Caches keep the two forms apart.
      answer.headers.Vary = 'Accept';
      return answer;
    } catch (err) {
      return failed(err, requestId, decision);
    }
  }

  /** A failure as its answer: input and store errors say what went wrong, anything else is logged and a 500. */
  function failed(err: unknown, requestId: string, decision: QuotaDecision | undefined): HttpResponse {
    if (err instanceof KvUnavailableError) health.storeAnswered(false);
    const { status, message, internal } = classifyError(err);
    if (internal) logError(err, requestId);
    return jsonError(status, message, requestId, decision);
  }

  /** The methods a known path takes (a 405's `Allow`), or none for a path nothing answers. */
  function allowedMethods(path: string): string[] {
    return PUBLIC_PATH.test(path) ? ['GET', 'HEAD'] : matcher.allowedMethods(path);
  }

  return {
    routes,
    matches: (method, path) =>
      isPublic(method, withoutTrailingSlash(path)) || matcher.match(method, path) !== null || allowedMethods(withoutTrailingSlash(path)).length > 0,
    serve,
    answer,
    handle: (req) => serve(req, async () => req.body),

    close: () => kv.close(),
  };
}

/** What the log says of who asked: the key's name (never the key), once it is known. */
interface Caller {
  keyId: string | undefined;
}

function isPublic(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && PUBLIC_PATH.test(path);
}

/** The first parameter the route reads given more than once where only one value makes sense. */
function repeatedParam(query: Query, route: Route): string | undefined {
  for (const name in query) if (Array.isArray(query[name]) && !route.repeatable?.includes(name) && readsQuery(route, name)) return name;
  return undefined;
}

/** The 400 message of the first parameter the route reads whose value did not decode. */
function unreadableRead(query: Query, route: Route): string | undefined {
  const unreadable = unreadableParams(query);
  if (unreadable !== undefined) for (const { name, message } of unreadable) if (readsQuery(route, name)) return message;
  return undefined;
}

/** A JSON answer of the keyed API: one headers object, its properties always added in the same order. */
function jsonAnswer(status: number, body: string, requestId: string, decision?: QuotaDecision, ascii = false): HttpResponse {
  const headers: Record<string, string> = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', 'X-Request-Id': requestId };
  if (decision) addQuotaHeaders(headers, decision);
  return { status, headers, body, ascii };
}

/** Errors carry the rate-limit headers too, once the quota has been consulted. */
function jsonError(status: number, message: string, requestId: string, decision?: QuotaDecision): HttpResponse {
  const headers: Record<string, string> = { 'X-Request-Id': requestId };
  return errorResponse(status, message, decision ? addQuotaHeaders(headers, decision) : headers);
}
