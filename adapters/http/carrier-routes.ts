// Per-carrier endpoints, derived from each carrier's entry in the dataset (its lookup parameter,
// whether it has points-served rows, schedules and the path word of its terminal page), and the
// postal carriers' drop points. Probe inputs come from the carrier's own data.

import { unansweredQuery, type Carrier, type CarrierQuery } from '../../engine/carriers.js';
import type { Engine } from '../../engine/engine.js';
import {
  carrierBatchSchemaFor, carrierInfoQuerySchema, coverageQuerySchemaFor, dropPointsQuerySchema, locationsQuerySchemaFor, pagedSchema,
  searchTextSchema, serviceDaysQuerySchema, transitQuerySchema,
} from '../../engine/requests.js';
import * as res from '../../engine/responses.js';
import { defineRoute, once, type Probe, type Route } from './route.js';

/** A probe asking with one parameter, when the data has a value for it (a carrier without locations has none). */
function probe(label: string, name: string, value: () => string | undefined): Probe {
  return {
    label,
    input: () => {
      const v = value();
      return v === undefined ? undefined : { query: { [name]: v }, params: {}, body: undefined };
    },
  };
}

/** The spec's probe labels call the country-code lookup's parameter `country`. */
const probeParam = (carrier: Carrier) => (carrier.lookup === 'country_code' ? 'country' : carrier.lookup);

export function carrierRoutes(engine: Engine, carrier: Carrier): Route[] {
  // The engine's rule of which queries the carrier answers; postal carriers answer none of these.
  const answers = (query: CarrierQuery) => unansweredQuery(carrier, query) === null;
  if (!answers('locations')) return [];
  const { id, name, lookup } = carrier;
  const base = `/api/${id}-location`;
  const tag = id;
  const examples = once(() => engine.examples(id));
  const lookupExample = () => (lookup === 'country_code' ? examples().country : examples()[lookup]);
  const routes: Route[] = [
    defineRoute({
      method: 'GET',
      path: base,
      geojson: true,
      tag,
      summary: `${name} locations by ${lookup}`,
      query: locationsQuerySchemaFor(carrier),
      response: res.locationPageSchema,
      errors: [400],
      probe: probe(`GET ${base}?${probeParam(carrier)}=`, lookup, lookupExample),
      answer: ({ query }) => engine.carrierLocations(id, query),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/search`,
      geojson: true,
      tag,
      summary: `Search ${name} locations by name, terminal code, city, state or ZIP`,
      query: searchTextSchema,
      response: res.locationPageSchema,
      errors: [400],
      answer: ({ query }) => engine.carrierSearch(id, query),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/coverage`,
      tag,
      summary: `${name} coverage statistics`,
      query: coverageQuerySchemaFor(carrier),
      response: res.coverageResultSchema,
      errors: [400],
      // One state's (or country's) statistics: a small answer, not the whole network's.
      probe: lookup === 'country_code'
        ? probe(`GET ${base}/coverage`, 'country_code', () => examples().country)
        : probe(`GET ${base}/coverage`, 'state', () => examples().state),
      answer: ({ query }) => engine.coverage(id, query),
    }),
  ];
  if (answers('terminalPoints')) {
    const word = carrier.terminalRoute;
    routes.push(
      defineRoute({
        method: 'GET',
        path: `${base}/${word}/:num`,
        geojson: true,
        tag,
        summary: `ZIPs served by one ${name} ${word} (an unknown ${word} is an empty page)`,
        query: pagedSchema,
        errors: [400],
        response: res.locationPageSchema,
        answer: ({ params, query }) => engine.terminalPoints(id, params.num, query),
      }),
    );
  }
  if (answers('batch')) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: `${base}/batch`,
        geojson: true,
        tag,
        summary: `${name} locations for each ${lookup === 'zip' ? 'ZIP' : 'country code'}, up to the plan's batch limit`,
        body: carrierBatchSchemaFor(carrier),
        response: res.carrierBatchResultSchema,
        errors: [400],
        answer: ({ body, key }) => engine.carrierBatch(id, body, { maxPerRequest: key.batchLimit }),
      }),
    );
  }
  if (answers('country')) {
    routes.push(
      defineRoute({
        method: 'GET',
        path: `${base}/country/:code`,
        geojson: true,
        tag,
        summary: `${name} locations in one country`,
        query: pagedSchema,
        response: res.locationPageSchema,
        errors: [400],
        answer: ({ params, query }) => engine.countryLocations(id, params.code, query),
      }),
    );
  }
  if (answers('schedules')) routes.push(...scheduleRoutes(engine, carrier, base));
  return routes;
}

function scheduleRoutes(engine: Engine, carrier: Carrier, base: string): Route[] {
  const { id: tag, id } = carrier;
  return [
    defineRoute({
      method: 'GET',
      path: `${base}/service-days`,
      tag,
      summary: 'Service-day schedule for a ZIP and the next pickup and delivery dates',
      query: serviceDaysQuerySchema,
      response: res.serviceDaysResultSchema,
      errors: [400],
      answer: ({ query }) => engine.serviceDays(id, query),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/transit-info`,
      tag,
      summary: 'Transit days between two ZIPs, add-on days included',
      query: transitQuerySchema,
      response: res.transitInfoResultSchema,
      errors: [400],
      answer: ({ query }) => engine.transitInfo(id, query),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/carriers`,
      tag,
      summary: 'Carrier metadata for a ZIP: SCAC, serving terminal, add-on days',
      query: carrierInfoQuerySchema,
      response: res.carrierMetadataResultSchema,
      errors: [400],
      answer: ({ query }) => engine.carrierInfo(id, query),
    }),
  ];
}

export function dropPointRoutes(engine: Engine): Route[] {
  const postal = engine.carriers.find((c) => c.kind === 'postal');
  if (!postal) return [];
  const tag = 'Drop points';
  const example = once(() => engine.examples(postal.id));
  return [
    defineRoute({
      method: 'GET',
      path: '/api/drop-points',
      geojson: true,
      tag,
      summary: 'Postal drop points nearest a ZIP within the radius',
      query: dropPointsQuerySchema,
      response: res.locationPageSchema,
      errors: [400],
      probe: probe('GET /api/drop-points?zip=', 'zip', () => example().zip),
      answer: ({ query }) => engine.dropPoints(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/drop-points/:id',
      geojson: true,
      tag,
      summary: 'One drop point by id',
      response: res.dropPointResultSchema,
      // 400: an id that is not percent-encoded UTF-8, or a query the core refuses (a repeated parameter).
      errors: [400, 404],
      probe: {
        label: 'GET /api/drop-points/:id',
        input: () => {
          const id = example().terminalCode;
          return id === undefined ? undefined : { query: {}, params: { id }, body: undefined };
        },
      },
      answer: ({ params }) => engine.dropPoint(params.id),
    }),
  ];
}

/** What a map of one carrier needs: which carriers there are, and one carrier's whole network. */
export function networkRoutes(engine: Engine): Route[] {
  const tag = 'Maps';
  const mapped = engine.carriers.filter((c) => unansweredQuery(c, 'network') === null);
  const list: res.NetworkListResult = {
    success: true,
    carriers: mapped.map(({ id, name, scac, kind }) => ({ carrier: id, name, scac, kind })),
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/api/networks',
      tag,
      summary: 'The carriers whose network can be drawn (every carrier but postal ones)',
      response: res.networkListResultSchema,
      errors: [],
      answer: () => list,
    }),
    defineRoute({
      method: 'GET',
      path: '/api/networks/:carrier',
      tag,
      geojson: true,
      summary: "One carrier's every location, and the states and countries it covers (a postal or unknown carrier is a 404)",
      response: res.carrierNetworkResultSchema,
      errors: [400, 404],
      answer: ({ params }) => engine.network(params.carrier),
    }),
  ];
}
