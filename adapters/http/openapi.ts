// The OpenAPI 3.1 document, generated from the route table: the same zod schemas that the engine
// validates input with and that the tests check 200 bodies against.

import * as z from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { GEOJSON_MEDIA_TYPE, locationFeatureCollectionSchema } from '../../engine/geojson.js';
import { errorSchema } from './errors.js';
import { healthReportSchema } from './health.js';
import type { Route } from './route.js';

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

function operation(route: Route): ZodOpenApiOperationObject {
  const names = route.path.split('/').filter((p) => p.startsWith(':')).map((p) => p.slice(1));
  const responses: ZodOpenApiResponsesObject = {
    200: {
      description: route.geojson ? 'OK: JSON, or GeoJSON to a client that asks for it with `Accept: application/geo+json`' : 'OK',
      headers: rateLimitHeaders,
      content: {
        'application/json': { schema: route.response },
        ...(route.geojson ? { [GEOJSON_MEDIA_TYPE]: { schema: locationFeatureCollectionSchema } } : {}),
      },
    },
  };
  for (const status of [...route.errors, 401, 429, 503]) responses[`${status}` as `4${string}`] = errorResponse(status);
  return {
    tags: [route.tag],
    summary: route.summary,
    requestParams: {
      ...(route.query ? { query: route.query } : {}),
      ...(names.length ? { path: z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) } : {}),
    },
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses,
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
      tags: ['Service'],
      summary: 'Health report: probes of the endpoints and of the key-value store (no key needed)',
      security: [],
      responses: {
        200: { description: 'Healthy or degraded', content: { 'application/json': { schema: healthReportSchema } } },
        503: { description: 'Unhealthy: the key-value store fails', content: { 'application/json': { schema: healthReportSchema } } },
      },
    },
  };
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Carrier Location Lookup',
      version,
      description:
        'Terminals, offices and drop points of freight carriers near a US ZIP, city or state. ' +
        'Send your key in `X-API-Key`; every keyed response carries `X-RateLimit-*` headers.',
    },
    // Relative to where this document is served (OpenAPI 3): a client reading it from under a mount
    // point (`app.use('/carriers', ...)`) calls the API there, not at the host's root.
    servers: [{ url: '.', description: 'where this document is served' }],
    security: [{ apikey: [] }],
    components: { securitySchemes: { apikey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    paths,
  });
}
