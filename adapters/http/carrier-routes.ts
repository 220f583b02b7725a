// Per-carrier endpoints, derived from each carrier's kind and lookup parameter, and the postal
// carriers' drop points. The raw query goes to the engine, which validates it (see routes.ts).

import { z } from 'zod';
import {
  carrierInfoQuerySchema,
  dropPointsQuerySchema,
  pagedSchema,
  pageSchema,
  searchTextSchema,
  serviceDaysQuerySchema,
  stateCodeSchema,
  transitQuerySchema,
  zipListSchema,
} from '../../engine/params.js';
import type { CarrierInfo, Engine, LookupParam } from '../../engine/types.js';
import * as res from './responses.js';
import type { Route } from './routes.js';

// The engine checks these at run time; the casts only tell TypeScript what it will accept.
const as = <T>(value: unknown) => value as T;

/** Place used by health probes: central Chicago, served by the national sample carriers. */
const PROBE_PLACE = { zip: '60601', state: 'IL', region: 'midwest', country: 'US', country_code: 'US' };

const lookupText = (description: string) => z.string().meta({ description });

/** Documented query of each carrier's list endpoint, by the carrier's lookup parameter. */
const LOOKUP_QUERIES: Record<LookupParam, z.ZodObject> = {
  zip: carrierInfoQuerySchema.extend({ page: pageSchema }),
  country_code: z.object({
    country_code: lookupText('ISO 3166-1 alpha-2 country code, case-insensitive'),
    city: z.string().optional(),
    page: pageSchema,
  }),
  region: z.object({
    region: lookupText('a region of the carrier (the sample: northeast, midwest, south, west)'),
    page: pageSchema,
  }),
  state: z.object({ state: stateCodeSchema(), page: pageSchema }),
  country: z.object({ country: lookupText('ISO 3166-1 alpha-2 country code'), page: pageSchema }),
};

const stateQuery = (required: boolean) =>
  z.object({ state: required ? stateCodeSchema() : stateCodeSchema().optional() });

/** The spec's probe labels call carrier-c's parameter `country`, though its lookup is `country_code`. */
const probeParam = (lookup: LookupParam) => (lookup === 'country_code' ? 'country' : lookup);

export function carrierRoutes(engine: Engine, carrier: CarrierInfo): Route[] {
  // Postal drop points have their own endpoints (/api/drop-points) and are only a can-reach carrier.
  if (carrier.kind === 'postal') return [];
  const { id, lookup } = carrier;
  const base = `/api/${id}-location`;
  const tag = id;
  const routes: Route[] = [
    {
      method: 'GET',
      path: base,
      tag,
      summary: `${carrier.name} locations by ${lookup}`,
      query: LOOKUP_QUERIES[lookup],
      response: res.locationPageSchema,
      errors: [400],
      probe: {
        label: `GET ${base}?${probeParam(lookup)}=`,
        input: () => ({ query: { [lookup]: PROBE_PLACE[lookup] }, params: {} }),
      },
      answer: ({ query }) => engine.carrierLocations(id, as(query)),
    },
    {
      method: 'GET',
      path: `${base}/search`,
      tag,
      summary: `Search ${carrier.name} locations by name, terminal code, city, state or ZIP`,
      query: searchTextSchema,
      response: res.locationPageSchema,
      errors: [400],
      answer: ({ query }) => engine.carrierSearch(id, as(query)),
    },
    {
      method: 'GET',
      path: `${base}/coverage`,
      tag,
      summary: `${carrier.name} coverage statistics`,
      query:
        lookup === 'zip'
          ? stateQuery(true)
          : lookup === 'country_code'
            ? z.object({ country_code: z.string().optional() })
            : stateQuery(false),
      response: res.coverageResultSchema,
      errors: [400],
      probe: {
        label: `GET ${base}/coverage`,
        // ZIP carriers require a state (spec); the others report their whole network.
        input: () => ({ query: lookup === 'zip' ? { state: PROBE_PLACE.state } : {}, params: {} }),
      },
      answer: ({ query }) => engine.coverage(id, as(query)),
    },
  ];
  if (lookup === 'zip') {
    // The spec calls carrier-a's terminals stations; every other ZIP carrier's are terminals.
    const word = id === 'carrier-a' ? 'station' : 'terminal';
    routes.push(
      {
        method: 'GET',
        path: `${base}/${word}/:num`,
        tag,
        summary: `ZIPs served by one ${carrier.name} ${word} (an unknown ${word} is an empty page)`,
        query: pagedSchema,
        errors: [400],
        response: res.locationPageSchema,
        answer: ({ params, query }) => engine.terminalPoints(id, params.num, as(query)),
      },
      {
        method: 'POST',
        path: `${base}/batch`,
        tag,
        summary: `${carrier.name} terminals serving each ZIP, up to the plan's batch limit`,
        body: z.object({ zips: zipListSchema('zips') }),
        response: res.carrierBatchResultSchema,
        errors: [400],
        answer: ({ body, key }) => engine.carrierBatch(id, as(body), { maxPerRequest: key.batchLimit }),
      },
    );
  }
  if (lookup === 'country_code') {
    routes.push(
      {
        method: 'GET',
        path: `${base}/country/:code`,
        tag,
        summary: `${carrier.name} locations in one country`,
        query: pagedSchema,
        response: res.locationPageSchema,
        errors: [400],
        answer: ({ params, query }) => engine.countryLocations(id, params.code, as(query)),
      },
      {
        method: 'POST',
        path: `${base}/batch`,
        tag,
        summary: `${carrier.name} locations for each country code, up to the plan's batch limit`,
        body: z.object({ country_codes: z.array(z.string()) }),
        response: res.carrierBatchResultSchema,
        errors: [400],
        answer: ({ body, key }) => engine.carrierBatch(id, as(body), { maxPerRequest: key.batchLimit }),
      },
    );
  }
  if (id === 'carrier-a') routes.push(...carrierARoutes(engine, base));
  return routes;
}

/** The engine answers these for carrier-a only (its points-served table carries the schedule). */
function carrierARoutes(engine: Engine, base: string): Route[] {
  const tag = 'carrier-a';
  return [
    {
      method: 'GET',
      path: `${base}/service-days`,
      tag,
      summary: 'Service-day schedule for a ZIP and the next pickup and delivery dates',
      query: serviceDaysQuerySchema,
      response: res.serviceDaysResultSchema,
      errors: [400],
      answer: ({ query }) => engine.serviceDays(as(query)),
    },
    {
      method: 'GET',
      path: `${base}/transit-info`,
      tag,
      summary: 'Transit days between two ZIPs, add-on days included',
      query: transitQuerySchema,
      response: res.transitInfoResultSchema,
      errors: [400],
      answer: ({ query }) => engine.transitInfo(as(query)),
    },
    {
      method: 'GET',
      path: `${base}/carriers`,
      tag,
      summary: 'Carrier metadata for a ZIP: SCAC, serving terminal, add-on days',
      query: carrierInfoQuerySchema,
      response: res.carrierMetadataResultSchema,
      errors: [400],
      answer: ({ query }) => engine.carrierInfo(as(query)),
    },
  ];
}

export function dropPointRoutes(engine: Engine): Route[] {
  if (!engine.carriers.some((c) => c.kind === 'postal')) return [];
  const tag = 'Drop points';
  const firstId = () =>
    engine.dropPoints({ zip: PROBE_PLACE.zip, radius: 100 }).locations[0]?.terminalCode ?? 'none-near-probe-zip';
  return [
    {
      method: 'GET',
      path: '/api/drop-points',
      tag,
      summary: 'Postal drop points nearest a ZIP within the radius',
      query: dropPointsQuerySchema,
      response: res.locationPageSchema,
      errors: [400],
      probe: { label: 'GET /api/drop-points?zip=', input: () => ({ query: { zip: PROBE_PLACE.zip }, params: {} }) },
      answer: ({ query }) => engine.dropPoints(as(query)),
    },
    {
      method: 'GET',
      path: '/api/drop-points/:id',
      tag,
      summary: 'One drop point by id',
      response: res.dropPointResultSchema,
      errors: [404],
      probe: { label: 'GET /api/drop-points/:id', input: () => ({ query: {}, params: { id: firstId() } }) },
      answer: ({ params }) => engine.dropPoint(params.id),
    },
  ];
}
