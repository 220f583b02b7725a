// The API's route table: the unified endpoints here, and the per-carrier ones (carrier-routes.ts)
// derived from the engine's carriers, so a dataset with other carriers gets its own endpoints.
// Each route names its documented input (the engine's own zod schemas from engine/params.ts) and
// its 200 body schema; `answer` returns the 200 body.
//
// The raw query goes to the engine unparsed: the engine validates its input with those same
// schemas and throws InvalidInputError naming the parameter, so parsing here too would only do the
// work twice on the hot path.

import { z } from 'zod';
import { canReachQuerySchema, geocodeQuerySchema, placeQuerySchema, searchQuerySchema, zipListSchema } from '../../engine/params.js';
import type { Engine } from '../../engine/types.js';
import { carrierRoutes, dropPointRoutes } from './carrier-routes.js';
import type { ApiKeyRecord } from './keys.js';
import type { Query } from './request.js';
import * as res from './responses.js';

export interface RouteInput {
  query: Query;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  /** The parsed JSON object body of POST routes; empty for GET. */
  body: Record<string, unknown>;
  key: ApiKeyRecord;
}

/** A request the health report makes to check that the route answers. */
export interface Probe {
  label: string;
  input: () => Pick<RouteInput, 'query' | 'params'>;
}

export interface Route {
  method: 'GET' | 'POST';
  /** `/api/carrier-b-location/terminal/:num`; `:name` segments are path parameters. */
  path: string;
  tag: string;
  summary: string;
  query?: z.ZodObject;
  body?: z.ZodObject;
  response: z.ZodType;
  /** Query parameters that may be repeated (`?carriers=a&carriers=b`); any other repeated one is a 400. */
  repeatable?: readonly string[];
  /** Statuses documented besides 200, 401 and 429. */
  errors: readonly number[];
  probe?: Probe;
  /** The 200 body: a value to serialize, or JsonText the engine has already serialized. */
  answer(input: RouteInput): unknown;
}

/** A 200 body that is already JSON text. */
export class JsonText {
  constructor(readonly text: string) {}
}

// The engine checks these at run time; the casts only tell TypeScript what it will accept.
const as = <T>(value: unknown) => value as T;

export function buildRoutes(engine: Engine): Route[] {
  // Drop points before the carriers: the health report lists its probes in this order, as the spec does.
  return [...unifiedRoutes(engine), ...dropPointRoutes(engine), ...engine.carriers.flatMap((c) => carrierRoutes(engine, c))];
}

function unifiedRoutes(engine: Engine): Route[] {
  const tag = 'Unified';
  return [
    {
      method: 'GET',
      path: '/api/locations',
      tag,
      summary: 'Search every unified carrier around a ZIP, city or state (one billed call)',
      query: searchQuerySchema,
      repeatable: ['carriers'],
      response: res.searchResultSchema,
      errors: [400],
      answer: ({ query }) => new JsonText(engine.searchJson(as(query))),
    },
    {
      method: 'POST',
      path: '/api/locations/batch',
      tag,
      summary: "Exact matches for several ZIPs across every unified carrier, up to the plan's batch limit",
      body: z.object({ zips: zipListSchema('zips') }),
      response: res.searchBatchResultSchema,
      errors: [400],
      answer: ({ body, key }) => engine.searchBatch(as(body), { maxPerRequest: key.batchLimit }),
    },
    {
      method: 'GET',
      path: '/api/locations/geocode',
      tag,
      summary: 'Resolve a ZIP to its point and canonical city/state (found: false when unknown)',
      query: geocodeQuerySchema,
      response: res.geocodeResultSchema,
      errors: [400],
      answer: ({ query }) => engine.geocode(as(query)),
    },
    {
      method: 'GET',
      path: '/api/locations/which-carriers',
      tag,
      summary: 'Carriers serving a place, nearest first, and those that do not',
      query: placeQuerySchema,
      response: res.whichCarriersResultSchema,
      errors: [400],
      answer: ({ query }) => engine.whichCarriers(as(query)),
    },
    {
      method: 'GET',
      path: '/api/locations/can-reach',
      tag,
      summary: 'Whether one carrier reaches a place, with the alternatives that do',
      query: canReachQuerySchema,
      response: res.canReachResultSchema,
      errors: [400],
      answer: ({ query }) => engine.canReach(as(query)),
    },
  ];
}

