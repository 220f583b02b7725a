// The HTTP API written once: every runtime adapter (Express, node:http, Lambda) translates its
// request into a RequestHead, calls serve() with a way to read the body, and writes the
// HttpResponse back (handle() is serve() for a request whose body is already a string).
// Order of checks: route (404) -> key (401) -> quota (429) -> validation (400) -> answer.

import { pino, type Logger } from 'pino';
import type { Engine } from '../../engine/engine.js';
import { KvUnavailableError, type KvStore } from '../kv/store.js';
import { readJsonObject } from './body.js';
import { createDocs } from './docs.js';
import { classifyError, errorResponse } from './errors.js';
import { createErrorLog } from './error-log.js';
import { createCors } from './cors.js';
import { createMapPage, type MapOptions } from './map.js';
import { createHealthCheck, type DataInfo, type HealthReport, type ReloadStatus } from './health.js';
import type { KeyRing } from './keys.js';
import { RouteMatcher, withoutTrailingSlash } from './match.js';
import { buildOpenApiDocument } from './openapi.js';
import { consumeQuota, quotaHeaders, type QuotaDecision } from './quota.js';
import { clientAddress, JSON_TYPE, requestIdFor, sharedBody, unreadableQuery, type HttpRequest, type HttpResponse, type Query, type SharedBody } from './request.js';
import { carrierRoutes, dropPointRoutes, networkRoutes } from './carrier-routes.js';
import { geoJsonAnswer, wantsGeoJson } from './geojson.js';
import { JsonText, type Route } from './route.js';
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
 * (the health report lists its probes in this order, as the spec does), then the carriers' networks.
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
  // Built on first request: generating it takes milliseconds a Lambda cold start should not pay.
  let openapi: SharedBody | undefined;
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
      openapi ??= sharedBody(JSON.stringify(buildOpenApiDocument(routes, API_VERSION)));
      return { status: 200, headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'public, max-age=300' }, ...openapi };
    }
    // `/docs` and `/docs/` differ (as `/map` and `/map/` do): the page's relative URLs resolve beside or inside it.
    return docs(req.path, req.headers) ?? mapPage(req.path);
  }

  function serve(req: RequestHead, readBody: () => Promise<string | undefined>): Promise<HttpResponse> {
    const requestId = requestIdFor(req.headers['x-request-id']);
    const caller: Caller = { keyId: undefined };
    // Preflights come without a key, and cost none of its quota.
    const answered = cors.isPreflight(req) ? Promise.resolve(cors.preflight(req, requestId)) : respond(req, readBody, requestId, caller);
    // The clock is read only for the log line: with the level off, a request does no logging work.
    const started = logger.isLevelEnabled('info') ? performance.now() : undefined;
    return answered.then((response) => {
      response.headers['X-Content-Type-Options'] = 'nosniff';
      cors.decorate(req, response.headers);
      if (started !== undefined) {
        const ms = Math.round((performance.now() - started) * 100) / 100;
        const fields = { requestId, method: req.method, path: req.path, status: response.status, ms, client: clientAddress(req, trustProxy), keyId: caller.keyId };
        if (response.status >= 500) logger.warn(fields, 'request');
        else logger.info(fields, 'request');
      }
      return response;
    });
  }

  /**
   * Never rejects: every failure is an answer. It awaits only what must be waited for (a public
   * answer, a store that counts over the network, a body), so a keyed GET on the memory store runs
   * to its answer without yielding. Refusals are returned, not thrown: a flood of keyless calls
   * should cost as little as possible.
   */
  async function respond(req: RequestHead, readBody: () => Promise<string | undefined>, requestId: string, caller: Caller): Promise<HttpResponse> {
    let decision: QuotaDecision | undefined;
    try {
      const path = withoutTrailingSlash(req.path);
      if (isPublic(req.method, path)) {
        const response = await answerPublic(req, path);
        if (response) {
          response.headers['X-Request-Id'] = requestId;
          return response;
        }
      }
      const found = matcher.match(req.method, req.path);
      if (!found) {
        const allowed = allowedMethods(path);
        // `GET /docs/nothing`: a path of the docs page's that holds no asset is not found, whatever else it takes.
        if (allowed.length === 0 || allowed.includes(req.method)) return jsonError(404, `no route for ${req.method} ${req.path.slice(0, 200)}`, requestId);
        const allow = allowed.join(', ');
        return errorResponse(405, `method ${req.method.slice(0, 20)} is not allowed on ${path.slice(0, 200)}: use ${allow}`, { 'X-Request-Id': requestId, Allow: allow });
      }
      const key = keys.lookup(req.headers['x-api-key']);
      if (!key) return jsonError(401, 'missing or invalid API key: send it in the X-API-Key header', requestId);
      caller.keyId = key.name;
      const counted = consumeQuota(kv, key);
      decision = counted instanceof Promise ? await counted : counted;
      health.storeAnswered(true);
      if (!decision.allowed) return jsonError(429, `monthly quota of ${decision.limit} calls exceeded`, requestId, decision);
      const { route, params } = found;
      // Parameters the adapter could not decode (request.ts, match.ts): input errors like any other.
      const unreadable = found.unreadable ?? unreadableQuery(req.query);
      if (unreadable !== undefined) return jsonError(400, unreadable, requestId, decision);
      const repeated = repeatedParam(req.query, route.repeatable);
      if (repeated) return jsonError(400, `${repeated} must be given once`, requestId, decision);
      const body = route.body ? await readJsonObject(readBody, req.headers['content-encoding']) : undefined;
      const result = route.answer({ query: req.query, params, body, key });
      if (!route.geojson) return jsonAnswer(200, result instanceof JsonText ? result.text : JSON.stringify(result), requestId, decision);
      if (wantsGeoJson(req.headers.accept)) return geoJsonAnswer(result, jsonAnswer(200, '', requestId, decision));
      const answer = jsonAnswer(200, result instanceof JsonText ? result.text : JSON.stringify(result), requestId, decision);
      // Caches keep the two forms apart.
      answer.headers.Vary = 'Accept';
      return answer;
    } catch (err) {
      if (err instanceof KvUnavailableError) health.storeAnswered(false);
      const { status, message, internal } = classifyError(err);
      if (internal) logError(err, requestId);
      return jsonError(status, message, requestId, decision);
    }
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

/** The first parameter given more than once where only one value makes sense. */
function repeatedParam(query: Query, allowed: readonly string[] = []): string | undefined {
  for (const name in query) if (Array.isArray(query[name]) && !allowed.includes(name)) return name;
  return undefined;
}

/** A JSON answer of the keyed API: one headers object, its properties always added in the same order. */
function jsonAnswer(status: number, body: string, requestId: string, decision?: QuotaDecision): HttpResponse {
  const headers: Record<string, string> = decision
    ? { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', 'X-Request-Id': requestId, ...quotaHeaders(decision) }
    : { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', 'X-Request-Id': requestId };
  return { status, headers, body };
}

/** Errors carry the rate-limit headers too, once the quota has been consulted. */
function jsonError(status: number, message: string, requestId: string, decision?: QuotaDecision): HttpResponse {
  return errorResponse(status, message, decision ? { 'X-Request-Id': requestId, ...quotaHeaders(decision) } : { 'X-Request-Id': requestId });
}
