// The HTTP API written once: every runtime adapter (Express, node:http, Lambda) translates its
// request into an HttpRequest, calls handle(), and writes the HttpResponse back.
// Order of checks: route (404) -> key (401) -> quota (429) -> validation (400) -> answer.

import { pino, type Logger } from 'pino';
import type { Engine } from '../../engine/engine.js';
import type { KvStore } from '../kv/store.js';
import { parseJsonObject } from './body.js';
import { createDocs } from './docs.js';
import { classifyError, errorBody, HttpError } from './errors.js';
import { createErrorLog } from './error-log.js';
import { createHealthCheck, type HealthReport } from './health.js';
import type { KeyRing } from './keys.js';
import { RouteMatcher, withoutTrailingSlash } from './match.js';
import { buildOpenApiDocument } from './openapi.js';
import { consumeQuota, quotaHeaders } from './quota.js';
import { requestIdFor, type HttpRequest, type HttpResponse, type Query } from './request.js';
import { carrierRoutes, dropPointRoutes } from './carrier-routes.js';
import { JsonText, type Route } from './route.js';
import { unifiedRoutes } from './unified-routes.js';

// The package's `./http` entry: what an embedder needs to build a core.
export type { HttpRequest, HttpResponse, Query } from './request.js';
export { parseQueryString } from './request.js';
export { MAX_BODY_BYTES } from './body.js';
export { KeyRing, parseApiKeys, PLANS, type ApiKeyRecord, type Plan } from './keys.js';
export { KvUnavailableError, type KvStore } from '../kv/store.js';
export { createKvStore } from '../kv/create.js';

export interface AppOptions {
  engine: Engine;
  keys: KeyRing;
  kv: KvStore;
  /** One JSON line per request. Default: silent, so embedding the API does not write to stdout. */
  logger?: Logger;
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
  /** Whether some route answers this method and path (lets a mounted router fall through). */
  matches(method: string, path: string): boolean;
  readonly routes: readonly Route[];
  /** Closes the KV store; call after the server has stopped taking requests. */
  close(): Promise<void>;
}

/** The API's version in the OpenAPI document; it changes when the interface does, not per release. */
export const API_VERSION = '1.0.0';

const JSON_TYPE = 'application/json; charset=utf-8';
const PUBLIC_PATH = /^\/(api\/health|openapi\.json|docs|docs\/.*)$/;

/**
 * The route table of an engine: the unified endpoints, then the drop points and each carrier's own
 * (the health report lists its probes in this order, as the spec does).
 */
export function buildRoutes(engine: Engine): Route[] {
  return [...unifiedRoutes(engine), ...dropPointRoutes(engine), ...engine.carriers.flatMap((c) => carrierRoutes(engine, c))];
}

export function createApp({ engine, keys, kv, logger = pino({ level: 'silent' }) }: AppOptions): App {
  const routes = buildRoutes(engine);
  const matcher = new RouteMatcher(routes);
  const health = createHealthCheck(routes, kv, logger);
  const docs = createDocs();
  const logError = createErrorLog(logger);
  // Built on first request: generating it takes milliseconds a Lambda cold start should not pay.
  let openapi: string | undefined;
  // A report is served many times over (see health.ts): serialized once.
  let healthText: { report: HealthReport; text: string } | undefined;

  /** Endpoints without a key: the health report, the OpenAPI document and its viewer. */
  async function answerPublic(req: RequestHead, path: string): Promise<HttpResponse | null> {
    if (path === '/api/health') {
      const report = await health();
      if (healthText?.report !== report) healthText = { report, text: JSON.stringify(report) };
      const age = Math.max(0, Math.floor((Date.now() - Date.parse(report.timestamp)) / 1000));
      return json(report.status === 'unhealthy' ? 503 : 200, healthText.text, { 'Cache-Control': 'no-store', Age: String(age) });
    }
    if (path === '/openapi.json') {
      openapi ??= JSON.stringify(buildOpenApiDocument(routes, API_VERSION));
      return json(200, openapi, { 'Cache-Control': 'public, max-age=300' });
    }
    // `/docs` and `/docs/` differ: the page's relative URLs resolve beside or inside it.
    return docs(req.path);
  }

  /** `headers` collects what every later answer carries, error or not (the rate-limit headers). */
  async function answer(req: RequestHead, readBody: () => Promise<string | undefined>, headers: Record<string, string>): Promise<HttpResponse> {
    const path = withoutTrailingSlash(req.path);
    if (isPublic(req.method, path)) {
      const publicAnswer = await answerPublic(req, path);
      if (publicAnswer) return publicAnswer;
    }
    const found = matcher.match(req.method, req.path);
    if (!found) throw new HttpError(404, `no route for ${req.method} ${req.path.slice(0, 200)}`);
    const key = keys.lookup(req.headers['x-api-key']);
    if (!key) throw new HttpError(401, 'missing or invalid API key: send it in the X-API-Key header');
    const decision = await consumeQuota(kv, key);
    Object.assign(headers, quotaHeaders(decision));
    if (!decision.allowed) throw new HttpError(429, `monthly quota of ${decision.limit} calls exceeded`);
    const repeated = repeatedParam(req.query, found.route.repeatable);
    if (repeated) throw new HttpError(400, `${repeated} must be given once`);
    const body = found.route.body ? parseJsonObject(await readBody()) : undefined;
    const result = await found.route.answer({ query: req.query, params: found.params, body, key });
    return json(200, result instanceof JsonText ? result.text : JSON.stringify(result), { 'Cache-Control': 'no-store' });
  }

  async function serve(req: RequestHead, readBody: () => Promise<string | undefined>): Promise<HttpResponse> {
    const started = performance.now();
    const requestId = requestIdFor(req.headers['x-request-id']);
    const headers: Record<string, string> = {};
    let response: HttpResponse;
    try {
      response = await answer(req, readBody, headers);
    } catch (err) {
      const { status, message, internal } = classifyError(err);
      if (internal) logError(err, requestId);
      response = json(status, errorBody(message), { 'Cache-Control': 'no-store' });
    }
    Object.assign(response.headers, headers, { 'X-Request-Id': requestId });
    if (logger.isLevelEnabled('info')) {
      const ms = Math.round((performance.now() - started) * 100) / 100;
      logger.info({ requestId, method: req.method, path: req.path, status: response.status, ms }, 'request');
    }
    return response;
  }

  return {
    routes,
    matches: (method, path) => isPublic(method, withoutTrailingSlash(path)) || matcher.match(method, path) !== null,
    serve,
    handle: (req) => serve(req, async () => req.body),

    close: () => kv.close(),
  };
}

function isPublic(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && PUBLIC_PATH.test(path);
}

/** The first parameter given more than once where only one value makes sense. */
function repeatedParam(query: Query, allowed: readonly string[] = []): string | undefined {
  for (const name in query) if (Array.isArray(query[name]) && !allowed.includes(name)) return name;
  return undefined;
}

function json(status: number, body: string, headers: Record<string, string>): HttpResponse {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body };
}
