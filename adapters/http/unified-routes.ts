// The unified endpoints: one query across every unified carrier (or the can-reach carriers).

import { parsedQueries, type Engine } from '../../engine/engine.js';
import { canReachQuerySchema, geocodeQuerySchema, placeQuerySchema, searchQuerySchema, zipBatchSchema } from '../../engine/requests.js';
import { BATCH_DESCRIPTION, pascalCase } from './carrier-routes.js';
import { defineRoute, JsonText, once, type ExampleInput, type Route, type RouteLink } from './route.js';

/** The place parameters, of which a request gives at least one; the engine resolves them (places.ts). */
const PLACE_PARAMS = ['zip', 'city', 'state'] as const;

const PLACE_RULES =
  'Give at least one of `zip`, `city` and `state`. A ZIP the gazetteer holds wins over city and state, and a `state` ' +
  'the ZIP is not in is a 400 that says so; an unknown ZIP falls back to city and state; a place that names nothing ' +
  'the gazetteer holds is answered with no results. `state` must be a US state the gazetteer holds (a 400 says when it is not).';

export function unifiedRoutes(engine: Engine): Route[] {
  const queries = parsedQueries(engine);
  const tag = 'Unified';
  const tagDescription = 'One query across every unified carrier: search, batch, geocode, which carriers serve a place, can-reach';
  const unifiedCarriers = engine.carriers.filter((c) => c.unified);
  // The first unified carrier with a ZIP to show: a carrier of the dataset may have no location yet.
  const probeZip = once(() => {
    for (const c of unifiedCarriers) {
      const zip = queries.exampleZip(c.id);
      if (zip !== undefined) return zip;
    }
    return undefined;
  });
  /** An example request asked with a ZIP of the data's. */
  const withZip = (make: (zip: string) => ExampleInput) => () => {
    const zip = probeZip();
    return zip === undefined ? undefined : make(zip);
  };
  const reachable = engine.carriers.filter((c) => c.canReach);
  const places = { requiresOneOf: PLACE_PARAMS, description: PLACE_RULES };
  const knownSearch = () => ({ carriers: unifiedCarriers.map((c) => c.id) });
  /** Links from a search's answer to the list of each carrier listed by ZIP, asked with the search's own ZIP. */
  const carrierLinks = (zip: string) => () =>
    Object.fromEntries(
      unifiedCarriers
        .filter((c) => c.lookup === 'zip')
        .map((c): [string, RouteLink] => [
          `carrierLocations${pascalCase(c.id)}`,
          { operationId: `carrierLocations${pascalCase(c.id)}`, parameters: { zip }, description: `${c.name} locations by the searched ZIP` },
        ]),
    );
  return [
    defineRoute({
      method: 'POST',
      path: '/api/search',
      operationId: 'searchWithBody',
      geojson: true,
      tag,
      tagDescription,
      ...places,
      known: knownSearch,
      example: withZip((zip) => ({ body: { zip } })),
      links: carrierLinks('$request.body#/zip'),
      summary: 'The unified search with its parameters in a JSON body: the same answer as GET /api/locations (one billed call)',
      body: searchQuerySchema,
      response: 'searchResult',
      errors: [400],
      probe: {
        label: 'POST /api/search',
        input: () => {
          const zip = probeZip();
          return zip === undefined ? undefined : { query: {}, params: {}, body: { zip } };
        },
      },
      answer: ({ body }) => new JsonText(queries.searchJson(body), true),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations',
      operationId: 'search',
      geojson: true,
      tag,
      tagDescription,
      ...places,
      known: knownSearch,
      example: withZip((zip) => ({ query: { zip } })),
      links: carrierLinks('$request.query.zip'),
      summary: 'Search every unified carrier around a ZIP, city or state (one billed call)',
      query: searchQuerySchema,
      repeatable: ['carriers'],
      response: 'searchResult',
      errors: [400],
      answer: ({ query }) => new JsonText(queries.searchJson(query), true),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/locations/batch',
      operationId: 'searchBatch',
      geojson: true,
      tag,
      tagDescription,
      description: BATCH_DESCRIPTION,
      example: withZip((zip) => ({ body: { zips: [zip] } })),
      summary: "Exact matches for several ZIPs across every unified carrier, up to the plan's batch limit",
      body: zipBatchSchema,
      response: 'searchBatchResult',
      errors: [400],
      answer: ({ body, key }) => queries.searchBatch(body.zips, key.batchLimit),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations/geocode',
      operationId: 'geocode',
      tag,
      tagDescription,
      example: withZip((zip) => ({ query: { zip } })),
      summary: 'Resolve a ZIP to its point and canonical city/state (found: false when unknown)',
      query: geocodeQuerySchema,
      response: 'geocodeResult',
      errors: [400],
      answer: ({ query }) => queries.geocode(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations/which-carriers',
      operationId: 'whichCarriers',
      tag,
      tagDescription,
      ...places,
      example: withZip((zip) => ({ query: { zip } })),
      summary: 'Carriers serving a place, nearest first, and those that do not',
      query: placeQuerySchema,
      response: 'whichCarriersResult',
      errors: [400],
      answer: ({ query }) => queries.whichCarriers(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/locations/can-reach',
      operationId: 'canReach',
      geojson: true,
      tag,
      tagDescription,
      ...places,
      known: () => ({ carrier: reachable.map((c) => c.id) }),
      example: withZip((zip) => ({ query: reachable[0] === undefined ? { zip } : { zip, carrier: reachable[0].id } })),
      summary: 'Whether one carrier reaches a place, with the alternatives that do',
      query: canReachQuerySchema,
      response: 'canReachResult',
      errors: [400],
      answer: ({ query }) => queries.canReach(query),
    }),
  ];
}
