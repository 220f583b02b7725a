// The unified endpoints: one query across every unified carrier (or the can-reach carriers).

import type { Engine } from '../../engine/engine.js';
import { canReachQuerySchema, geocodeQuerySchema, placeQuerySchema, searchQuerySchema, zipBatchSchema } from '../../engine/requests.js';
import * as res from '../../engine/responses.js';
import { defineRoute, JsonText, once, type Route } from './route.js';

export function unifiedRoutes(engine: Engine): Route[] {
  const tag = 'Unified';
  const unified = engine.carriers.find((c) => c.unified);
  const probeZip = once(() => (unified === undefined ? undefined : engine.examples(unified.id).zip));
  return [
    defineRoute({
      method: 'POST',
      path: '/api/search',
      geojson: true,
      tag,
      summary: 'The unified search with its parameters in a JSON body: the same answer as GET /api/locations (one billed call)',
      body: searchQuerySchema,
      response: res.searchResultSchema,
      errors: [400],
      probe: {
        label: 'POST /api/search',
        input: () => {
          const zip = probeZip();
          return zip === undefined ? undefined : { query: {}, params: {}, body: { zip } };
        },
      },
      answer: ({ body }) => new JsonText(engine.searchJson(body)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations',
      geojson: true,
      tag,
      summary: 'Search every unified carrier around a ZIP, city or state (one billed call)',
      query: searchQuerySchema,
      repeatable: ['carriers'],
      response: res.searchResultSchema,
      errors: [400],
      answer: ({ query }) => new JsonText(engine.searchJson(query)),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/locations/batch',
      geojson: true,
      tag,
      summary: "Exact matches for several ZIPs across every unified carrier, up to the plan's batch limit",
      body: zipBatchSchema,
      response: res.searchBatchResultSchema,
      errors: [400],
      answer: ({ body, key }) => engine.searchBatch(body, { maxPerRequest: key.batchLimit }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations/geocode',
      tag,
      summary: 'Resolve a ZIP to its point and canonical city/state (found: false when unknown)',
      query: geocodeQuerySchema,
      response: res.geocodeResultSchema,
      errors: [400],
      answer: ({ query }) => engine.geocode(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations/which-carriers',
      tag,
      summary: 'Carriers serving a place, nearest first, and those that do not',
      query: placeQuerySchema,
      response: res.whichCarriersResultSchema,
      errors: [400],
      answer: ({ query }) => engine.whichCarriers(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations/can-reach',
      geojson: true,
      tag,
      summary: 'Whether one carrier reaches a place, with the alternatives that do',
      query: canReachQuerySchema,
      response: res.canReachResultSchema,
      errors: [400],
      answer: ({ query }) => engine.canReach(query),
    }),
  ];
}
