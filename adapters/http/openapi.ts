// The OpenAPI 3.1 document, generated from the route table: the same zod schemas that the engine
// validates input with and that the tests check 200 bodies against. What the schemas cannot hold
// comes from the loaded data (enums of carrier ids and regions, examples and their answers) and
// from each route (its rules in words, links to other operations).

import { SNAPSHOT_VERSION } from '../../engine/snapshot-format.js';
import * as z from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { pathParamSchema } from '../../engine/requests.js';
import { MAX_BODY_BYTES } from './body.js';
import { GEOJSON_MEDIA_TYPE } from '../../engine/geojson.js';
import { responseSchemas } from '../../engine/responses.js';
import { errorSchema, healthReportSchema, locationFeatureCollectionSchema } from './document-schemas.js';
import { KV_PROBES } from './health.js';
import { SERVICE_KEY } from './keys.js';
import { JsonText, type Route } from './route.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid parameters or body; `error` names the parameter',
  401: 'Missing or invalid API key',
  404: 'Not found',
  429: 'Monthly quota exceeded',
  503: 'The quota store is unavailable',
};

const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.string().meta({ description: 'Calls allowed this month' }),
  'X-RateLimit-Remaining': z.string().meta({ description: 'Calls left this month' }),
  'X-RateLimit-Reset': z.string().meta({ description: 'Unix seconds when the monthly count restarts' }),
});

const retryAfterHeaders = rateLimitHeaders.extend({
  'Retry-After': z.string().meta({ description: 'Seconds until the quota resets' }),
});

function errorResponse(status: number) {
  return {
    description: ERROR_DESCRIPTIONS[status] ?? 'Error',
    ...(status === 429 ? { headers: retryAfterHeaders } : status === 400 || status === 404 ? { headers: rateLimitHeaders } : {}),
    content: { 'application/json': { schema: errorSchema } },
  };
}

/** The answer a route gives its example request, as JSON; undefined when the data has no example to ask with. */
function exampleAnswer(route: Route): { input: NonNullable<ReturnType<NonNullable<Route['example']>>>; answer: unknown } | undefined {
  const input = route.example?.();
  if (input === undefined) return undefined;
  const answer = route.answer({ query: input.query ?? {}, params: input.params ?? {}, body: input.body, key: SERVICE_KEY });
  return { input, answer: answer instanceof JsonText ? JSON.parse(answer.text) : answer };
}

function operation(route: Route): ZodOpenApiOperationObject {
  const names = route.path.split('/').filter((p) => p.startsWith(':')).map((p) => p.slice(1));
  const responses: ZodOpenApiResponsesObject = {
    200: {
      description: route.geojson ? 'OK: JSON, or GeoJSON to a client that asks for it with `Accept: application/geo+json`' : 'OK',
      headers: rateLimitHeaders,
      content: {
        'application/json': { schema: responseSchemas[route.response] },
        ...(route.geojson ? { [GEOJSON_MEDIA_TYPE]: { schema: locationFeatureCollectionSchema } } : {}),
      },
    },
  };
  for (const status of [...route.errors, 401, 429, 503]) responses[`${status}` as `4${string}`] = errorResponse(status);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    requestParams: {
      ...(route.query ? { query: route.query } : {}),
      // A path's segment is never empty (the router matches none): the document says so.
      ...(names.length ? { path: z.object(Object.fromEntries(names.map((n) => [n, route.pathParams?.[n] ?? pathParamSchema(n).check(z.minLength(1))]))) } : {}),
    },
    ...(route.body
      ? {
          requestBody: {
            required: true,
            description: `A JSON object of at most ${MAX_BODY_BYTES} bytes, in UTF-8, not compressed (a compressed body is not read: a 400 names its Content-Encoding)`,
            content: { 'application/json': { schema: route.body } },
          },
        }
      : {}),
    responses,
  };
}

type Json = Record<string, any>;

/**
 * Adds to a generated operation what comes from the route rather than from its schemas: the data's
 * enums, the rule of the place parameters, the example request with its answer, and links.
 */
function completeOperation(op: Json, route: Route): void {
  const known = route.known?.() ?? {};
  const body: Json | undefined = op.requestBody?.content['application/json'].schema;
  const withEnum = (schema: Json, values: readonly string[]) => {
    if (values.length === 0) return;
    if (schema.type === 'array') schema.items.enum = [...values];
    else schema.enum = [...values];
  };
  for (const [name, values] of Object.entries(known)) {
    for (const param of op.parameters ?? []) if (param.name === name) withEnum(param.schema, values);
    if (body?.properties?.[name]) withEnum(body.properties[name], values);
  }
  if (route.requiresOneOf) {
    // A body states the rule as JSON Schema; query parameters cannot, so the operation names them (x-requires-one-of).
    if (body) body.anyOf = route.requiresOneOf.map((name) => ({ required: [name] }));
    op['x-requires-one-of'] = [...route.requiresOneOf];
  }
  const example = exampleAnswer(route);
  if (example) {
    const { input, answer } = example;
    for (const param of op.parameters ?? []) {
      const value = param.in === 'path' ? input.params?.[param.name] : input.query?.[param.name];
      if (value === undefined) continue;
      // Query text as the typed value a client passes: a number is written `5`, an array one id a value.
      const { type } = param.schema;
      param.example = type === 'array' ? [value].flat() : type === 'number' || type === 'integer' ? Number(value) : value;
    }
    if (body && input.body) op.requestBody.content['application/json'].example = input.body;
    op.responses['200'].content['application/json'].example = answer;
  }
  const links = route.links?.();
  if (links && Object.keys(links).length > 0) op.responses['200'].links = links;
}

/** The health report's example: each probe label of the routes, then the store's, as the live report lists them. */
function healthExample(routes: readonly Route[]): z.input<typeof healthReportSchema> {
  const names = [...routes.flatMap((r) => (r.probe ? [r.probe.label] : [])), ...KV_PROBES];
  return {
    status: 'healthy',
    total_ms: 4,
    timestamp: '2026-03-02T12:00:00.000Z',
    probes: names.map((name) => ({ name, ok: true, ms: 0 })),
    data: { source: 'snapshot', name: 'sample.snapshot', loadedAt: '2026-03-02T11:59:00.000Z', snapshotVersion: SNAPSHOT_VERSION },
    reload: null,
  };
}

export function buildOpenApiDocument(routes: readonly Route[], version: string): object {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  paths['/api/health'] = {
    get: {
      operationId: 'health',
      tags: ['Service'],
      summary: 'Health report: probes of the endpoints and of the key-value store (no key needed)',
      security: [],
      responses: {
        200: { description: 'Healthy or degraded', content: { 'application/json': { schema: healthReportSchema, example: healthExample(routes) } } },
        503: { description: 'Unhealthy: the key-value store fails', content: { 'application/json': { schema: healthReportSchema } } },
      },
    },
  };
  const tags = new Map<string, string>();
  for (const route of routes) if (!tags.has(route.tag)) tags.set(route.tag, route.tagDescription);
  tags.set('Service', 'The state of the service, without a key');
  const doc = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Carrier Location Lookup',
      version,
      description:
        'Terminals, offices and drop points of freight carriers near a US ZIP, city or state. ' +
        'Send your key in `X-API-Key`; every keyed response carries `X-RateLimit-*` headers. ' +
        'Checks run in this order: the route (404, or 405 with `Allow` for a path asked with a method it does not take), ' +
        'the key (401), the quota (429), the input (400, its `error` naming the parameter), then the answer. ' +
        'Enums of carrier ids and regions list what the loaded data holds.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: [...tags].map(([name, description]) => ({ name, description })),
    // Relative to where this document is served (OpenAPI 3): a client reading it from under a mount
    // point (`app.use('/carriers', ...)`) calls the API there, not at the host's root.
    servers: [{ url: '.', description: 'where this document is served' }],
    security: [{ apikey: [] }],
    components: { securitySchemes: { apikey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    paths,
  }) as Json;
  for (const route of routes) {
    completeOperation(doc.paths[route.path.replace(/:([A-Za-z]+)/g, '{$1}')][route.method.toLowerCase()], route);
  }
  return doc;
}
