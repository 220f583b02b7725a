// Per-carrier endpoints, derived from each carrier's entry in the dataset (its lookup parameter,
// whether it has points-served rows, schedules and the path word of its terminal page), and the
// postal carriers' drop points. Probe inputs come from the carrier's own data.

import { unansweredQuery, type Carrier, type CarrierQuery } from '../../engine/carriers.js';
import { parsedQueries, type Engine } from '../../engine/engine.js';
import {
  batchFieldFor, carrierBatchSchemaFor, countryCode, carrierInfoQuerySchema, coverageQuerySchemaFor, dropPointsQuerySchema, locationsQuerySchemaFor, pagedSchema,
  searchTextSchema, serviceDaysQuerySchema, transitQuerySchema,
} from '../../engine/requests.js';
import type { NetworkListResult } from '../../engine/responses.js';
import { PLANS } from './keys.js';
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

/** `acme-freight` -> `AcmeFreight`: a carrier's id as the end of its operations' ids. */
export const pascalCase = (id: string) => id.split(/[^A-Za-z0-9]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/** The batch limits of the plans, for the batch routes' descriptions. */
const PLAN_LIMITS = Object.entries(PLANS).map(([plan, { batchLimit }]) => `${plan} ${batchLimit}`).join(', ');
export const BATCH_DESCRIPTION =
  `Each key's plan has its own limit of entries a request (${PLAN_LIMITS}); the document's maxItems is the largest plan's. ` +
  `Entries must be unique; a request over its plan's limit is a 400 naming the first entry past it.`;

/** The health report's probe labels call the country-code lookup's parameter `country`. */
const probeParam = (carrier: Carrier) => (carrier.lookup === 'country_code' ? 'country' : carrier.lookup);

export function carrierRoutes(engine: Engine, carrier: Carrier): Route[] {
  const queries = parsedQueries(engine);
  // The engine's rule of which queries the carrier answers; postal carriers answer none of these.
  const answers = (query: CarrierQuery) => unansweredQuery(carrier, query) === null;
  if (!answers('locations')) return [];
  const { id, name, lookup } = carrier;
  const base = `/api/${id}-location`;
  const tag = id;
  const tagDescription = `${name}: its locations by ${lookup}, text search and coverage${answers('schedules') ? ', service days, transit and carrier metadata' : ''}`;
  const examples = once(() => queries.examples(id));
  const lookupExample = () => (lookup === 'country_code' ? examples().country : examples()[lookup]);
  const operationId = (engineMethod: string) => `${engineMethod}${pascalCase(id)}`;
  const withValue = (name: string, value: string | undefined) => (value === undefined ? undefined : { query: { [name]: value } });
  const terminalWord = carrier.terminalRoute;
  const routes: Route[] = [
    defineRoute({
      method: 'GET',
      path: base,
      operationId: operationId('carrierLocations'),
      geojson: true,
      tag,
      tagDescription,
      summary: `${name} locations by ${lookup}`,
      description:
        lookup === 'region'
          ? 'The region must be one of the carrier\'s own (listed); any case.'
          : lookup === 'state'
            ? 'The state must be a US state the gazetteer holds, or one of the carrier\'s own abroad (listed: those with locations); any case.'
            : undefined,
      known: () => (lookup === 'region' ? { region: examples().regions } : {}),
      example: () => withValue(lookup, lookupExample()),
      links: () =>
        answers('terminalPoints')
          ? {
              terminalPoints: {
                operationId: operationId('terminalPoints'),
                parameters: { num: '$response.body#/locations/0/terminalCode' },
                description: `The ZIPs served by the first location's ${terminalWord}`,
              },
            }
          : {},
      query: locationsQuerySchemaFor(carrier),
      response: 'locationPage',
      errors: [400],
      probe: probe(`GET ${base}?${probeParam(carrier)}=`, lookup, lookupExample),
      answer: ({ query }) => queries.carrierLocations(id, query),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/search`,
      operationId: operationId('carrierSearch'),
      geojson: true,
      tag,
      tagDescription,
      example: () => withValue('q', examples().terminalCode),
      summary: `Search ${name} locations by name, terminal code, city, state or ZIP`,
      query: searchTextSchema,
      response: 'locationPage',
      errors: [400],
      answer: ({ query }) => queries.carrierSearch(id, query),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/coverage`,
      operationId: operationId('coverage'),
      tag,
      tagDescription,
      example: () => (lookup === 'country_code' ? withValue('country_code', examples().country) : withValue('state', examples().state)),
      summary: `${name} coverage statistics`,
      query: coverageQuerySchemaFor(carrier),
      response: 'coverageResult',
      errors: [400],
      // One state's (or country's) statistics: a small answer, not the whole network's.
      probe: lookup === 'country_code'
        ? probe(`GET ${base}/coverage`, 'country_code', () => examples().country)
        : probe(`GET ${base}/coverage`, 'state', () => examples().state),
      answer: ({ query }) => queries.coverage(id, query),
    }),
  ];
  if (answers('terminalPoints')) {
    const word = terminalWord;
    routes.push(
      defineRoute({
        method: 'GET',
        path: `${base}/${word}/:num`,
        operationId: operationId('terminalPoints'),
        geojson: true,
        tag,
        tagDescription,
        example: () => {
          const num = examples().terminalCode;
          return num === undefined ? undefined : { params: { num } };
        },
        summary: `ZIPs served by one ${name} ${word} (an unknown ${word} is an empty page)`,
        description: `\`num\` is the ${word}'s \`terminalCode\`, as written or in any case.`,
        query: pagedSchema,
        errors: [400],
        response: 'locationPage',
        answer: ({ params, query }) => queries.terminalPoints(id, params.num, query),
      }),
    );
  }
  if (answers('batch')) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: `${base}/batch`,
        operationId: operationId('carrierBatch'),
        geojson: true,
        tag,
        tagDescription,
        description: BATCH_DESCRIPTION,
        example: () => {
          const value = lookup === 'country_code' ? examples().country : examples().zip;
          return value === undefined ? undefined : { body: { [batchFieldFor(carrier)]: [value] } };
        },
        summary: `${name} locations for each ${lookup === 'zip' ? 'ZIP' : 'country code'}, up to the plan's batch limit`,
        body: carrierBatchSchemaFor(carrier),
        response: 'carrierBatchResult',
        errors: [400],
        answer: ({ body, key }) => queries.carrierBatch(id, (body as Record<string, string[]>)[batchFieldFor(carrier)], key.batchLimit),
      }),
    );
  }
  if (answers('country')) {
    routes.push(
      defineRoute({
        method: 'GET',
        path: `${base}/country/:code`,
        operationId: operationId('countryLocations'),
        pathParams: { code: countryCode('code') },
        geojson: true,
        tag,
        tagDescription,
        example: () => {
          const code = examples().country;
          return code === undefined ? undefined : { params: { code } };
        },
        summary: `${name} locations in one country`,
        query: pagedSchema,
        response: 'locationPage',
        errors: [400],
        answer: ({ params, query }) => queries.countryLocations(id, params.code, query),
      }),
    );
  }
  if (answers('schedules')) routes.push(...scheduleRoutes(engine, carrier, base, tagDescription));
  return routes;
}

/** The schedule examples ask for a date: without one the answer, and the document showing it, would follow today's date. */
const EXAMPLE_DATE = '2026-03-02';

function scheduleRoutes(engine: Engine, carrier: Carrier, base: string, tagDescription: string): Route[] {
  const queries = parsedQueries(engine);
  const { id: tag, id } = carrier;
  const zip = once(() => queries.exampleZip(id));
  const suffix = pascalCase(id);
  return [
    defineRoute({
      method: 'GET',
      path: `${base}/service-days`,
      operationId: `serviceDays${suffix}`,
      tag,
      tagDescription,
      example: () => (zip() === undefined ? undefined : { query: { zip: zip()!, date: EXAMPLE_DATE } }),
      summary: 'Service-day schedule for a ZIP and the next pickup and delivery dates',
      query: serviceDaysQuerySchema,
      response: 'serviceDaysResult',
      errors: [400],
      answer: ({ query }) => queries.serviceDays(id, query, new Date()),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/transit-info`,
      operationId: `transitInfo${suffix}`,
      tag,
      tagDescription,
      example: () => (zip() === undefined ? undefined : { query: { origin_zip: zip()!, dest_zip: zip()!, ship_date: EXAMPLE_DATE } }),
      summary: 'Transit days between two ZIPs, add-on days included',
      query: transitQuerySchema,
      response: 'transitInfoResult',
      errors: [400],
      answer: ({ query }) => queries.transitInfo(id, query, new Date()),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/carriers`,
      operationId: `carrierInfo${suffix}`,
      tag,
      tagDescription,
      example: () => (zip() === undefined ? undefined : { query: { zip: zip()! } }),
      summary: 'Carrier metadata for a ZIP: SCAC, serving terminal, add-on days',
      query: carrierInfoQuerySchema,
      response: 'carrierMetadataResult',
      errors: [400],
      answer: ({ query }) => queries.carrierInfo(id, query),
    }),
  ];
}

export function dropPointRoutes(engine: Engine): Route[] {
  const queries = parsedQueries(engine);
  const postal = engine.carriers.find((c) => c.kind === 'postal');
  if (!postal) return [];
  const tag = 'Drop points';
  const tagDescription = `The drop points of ${postal.name}, the postal carrier`;
  const example = once(() => queries.examples(postal.id));
  return [
    defineRoute({
      method: 'GET',
      path: '/api/drop-points',
      operationId: 'dropPoints',
      geojson: true,
      tag,
      tagDescription,
      example: () => (example().zip === undefined ? undefined : { query: { zip: example().zip!, radius: '5' } }),
      links: () => ({
        dropPoint: {
          operationId: 'dropPoint',
          parameters: { id: '$response.body#/locations/0/terminalCode' },
          description: 'The first drop point of the page',
        },
      }),
      summary: 'Postal drop points nearest a ZIP within the radius',
      query: dropPointsQuerySchema,
      response: 'locationPage',
      errors: [400],
      probe: probe('GET /api/drop-points?zip=', 'zip', () => example().zip),
      answer: ({ query }) => queries.dropPoints(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/drop-points/:id',
      operationId: 'dropPoint',
      geojson: true,
      tag,
      tagDescription,
      example: () => (example().terminalCode === undefined ? undefined : { params: { id: example().terminalCode! } }),
      summary: 'One drop point by id',
      response: 'dropPointResult',
      // 400: an id that is not percent-encoded UTF-8, or a query the core refuses (a repeated parameter).
      errors: [400, 404],
      probe: {
        label: 'GET /api/drop-points/:id',
        input: () => {
          const id = example().terminalCode;
          return id === undefined ? undefined : { query: {}, params: { id }, body: undefined };
        },
      },
      answer: ({ params }) => queries.dropPoint(params.id),
    }),
  ];
}

/** What a map of one carrier needs: which carriers there are, and one carrier's whole network. */
export function networkRoutes(engine: Engine): Route[] {
  const tag = 'Maps';
  const mapped = engine.carriers.filter((c) => unansweredQuery(c, 'network') === null);
  const list: NetworkListResult = {
    success: true,
    carriers: mapped.map(({ id, name, scac, kind }) => ({ carrier: id, name, scac, kind })),
  };
  const tagDescription = 'What a map of a carrier draws: the carriers there are, and one carrier\'s whole network';
  // The example's network is the smallest: the document shows it whole.
  const smallest = once(() => [...mapped].sort((a, b) => engine.network(a.id).locations.length - engine.network(b.id).locations.length)[0]);
  return [
    defineRoute({
      method: 'GET',
      path: '/api/networks',
      operationId: 'networks',
      tag,
      tagDescription,
      example: () => ({}),
      summary: 'The carriers whose network can be drawn (every carrier but postal ones)',
      response: 'networkListResult',
      errors: [],
      answer: () => list,
    }),
    defineRoute({
      method: 'GET',
      path: '/api/networks/:carrier',
      operationId: 'network',
      tag,
      tagDescription,
      known: () => ({ carrier: mapped.map((c) => c.id) }),
      example: () => (smallest() === undefined ? undefined : { params: { carrier: smallest()!.id } }),
      geojson: true,
      summary: "One carrier's every location, and the states and countries it covers (a postal or unknown carrier is a 404)",
      response: 'carrierNetworkResult',
      errors: [400, 404],
      answer: ({ params }) => engine.network(params.carrier),
    }),
  ];
}
