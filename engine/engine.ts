// The engine: every query of the API over one loaded network, each returning exactly the JSON
// body of the matching HTTP 200 response.

import { asciiJson } from './ascii-json.js';
import type { Carrier } from './carriers.js';
import { CarrierLookups, type CarrierExamples } from './carrier-lookups.js';
import { DropPoints } from './drop-points.js';
import { Gazetteer } from './gazetteer.js';
import { Matcher } from './matching.js';
import { Network } from './network.js';
import { batchOptionsSchema, checkedOptions, serviceDaysOptionsSchema } from './options.js';
import { LocationShapes } from './location-shapes.js';
import {
  BATCH_LIMIT, batchFieldFor, canReachQuerySchema, carrierInfoQuerySchema, coverageQuerySchemaFor, dropPointsQuerySchema, geocodeQuerySchema,
  locationsQuerySchemaFor, pagedSchema, parseBatchBody, parseInput, placeQuerySchema, searchQuerySchema, searchTextSchema,
  serviceDaysQuerySchema, transitQuerySchema, type CanReachQuery, type CarrierBatch, type CarrierInfoQuery, type CoverageQuery,
  type DropPointsQuery, type GeocodeQuery, type LocationsQuery, type PageQuery, type ParsedCanReachQuery, type ParsedCarrierInfoQuery,
  type ParsedCoverageQuery, type ParsedDropPointsQuery, type ParsedGeocodeQuery, type ParsedLocationsQuery, type ParsedPageQuery,
  type ParsedPlaceQuery, type ParsedSearchQuery, type ParsedServiceDaysQuery, type ParsedTextSearchQuery, type ParsedTransitQuery,
  type PlaceQuery, type SearchQuery, type ServiceDaysQuery, type TextSearchQuery, type TransitQuery, type ZipBatch,
} from './requests.js';
import type {
  CanReachResult, CarrierBatchResult, CarrierMetadataResult, CarrierNetworkResult, CoverageResult, DropPointResult, GeocodeResult, LocationPage,
  SearchBatchResult, SearchResult, ServiceDaysResult, TransitInfoResult, WhichCarriersResult,
} from './responses.js';
import { Schedules } from './schedules.js';
import type { SnapshotContent } from './snapshot-format.js';
import { UnifiedQueries } from './unified.js';
import { ZipCache } from './zip-cache.js';

/** Batch limit when the caller names none: the largest plan's. */
export const DEFAULT_BATCH_LIMIT = BATCH_LIMIT;

/**
 * The queries over input that its schema (requests.ts) has already parsed, trusted as it is: what
 * the HTTP routes call once they have parsed a request, so each request is validated once. Path
 * parameters (a terminal code, a country code, an id) are checked here: no schema parsed them.
 */
export interface ParsedQueries {
  geocode(query: ParsedGeocodeQuery): GeocodeResult;
  search(query: ParsedSearchQuery): SearchResult;
  /**
   * `search`'s answer as JSON text, built from cached per-location fragments: for servers. ASCII
   * alone (ascii-json.ts): a server sends it without counting its bytes.
   */
  searchJson(query: ParsedSearchQuery): string;
  /** The batch's list as its schema parsed it; its entries are checked here, against the caller's limit. */
  searchBatch(zips: readonly string[], maxPerRequest: number): SearchBatchResult;
  whichCarriers(query: ParsedPlaceQuery): WhichCarriersResult;
  canReach(query: ParsedCanReachQuery): CanReachResult;
  carrierLocations(carrierId: string, query: ParsedLocationsQuery): LocationPage;
  carrierSearch(carrierId: string, query: ParsedTextSearchQuery): LocationPage;
  terminalPoints(carrierId: string, terminalCode: string, query: ParsedPageQuery): LocationPage;
  countryLocations(carrierId: string, countryCode: string, query: ParsedPageQuery): LocationPage;
  carrierBatch(carrierId: string, list: readonly string[], maxPerRequest: number): CarrierBatchResult;
  coverage(carrierId: string, query: ParsedCoverageQuery): CoverageResult;
  network(carrierId: string): CarrierNetworkResult;
  serviceDays(carrierId: string, query: ParsedServiceDaysQuery, now: Date): ServiceDaysResult;
  transitInfo(carrierId: string, query: ParsedTransitQuery, now: Date): TransitInfoResult;
  carrierInfo(carrierId: string, query: ParsedCarrierInfoQuery): CarrierMetadataResult;
  dropPoints(query: ParsedDropPointsQuery): LocationPage;
  dropPoint(id: string): DropPointResult;
  /** Values from the carrier's own data for each lookup parameter (health probes, examples). */
  examples(carrierId: string): CarrierExamples;
  /** `examples(carrierId).zip` alone, without reading what the other examples come from. */
  exampleZip(carrierId: string): string | undefined;
}

/**
 * The library API: each method takes a query as a caller writes it (numbers as text or numbers,
 * any case), parses it with the schema the HTTP API uses, so both refuse bad input with the same
 * words, and answers it.
 */
export interface Engine {
  /** Every carrier in the dataset, in id order. */
  readonly carriers: readonly Carrier[];
  geocode(query: GeocodeQuery): GeocodeResult;
  search(query: SearchQuery): SearchResult;
  /** Exact matches only, one entry per ZIP. `maxPerRequest` defaults to 50 (the largest plan). */
  searchBatch(body: ZipBatch, options?: { maxPerRequest?: number | undefined }): SearchBatchResult;
  whichCarriers(query: PlaceQuery): WhichCarriersResult;
  canReach(query: CanReachQuery): CanReachResult;
  /** The carrier's list endpoint, by the parameter its `lookup` names. */
  carrierLocations(carrierId: string, query: LocationsQuery): LocationPage;
  carrierSearch(carrierId: string, query: TextSearchQuery): LocationPage;
  /** The points one terminal serves (the `/station/:num` or `/terminal/:num` page). */
  terminalPoints(carrierId: string, terminalCode: string, query?: PageQuery): LocationPage;
  /** `/country/:code` of carriers listed by country code. */
  countryLocations(carrierId: string, countryCode: string, query?: PageQuery): LocationPage;
  /** `{ zips }`, or `{ country_codes }` for carriers listed by country code. */
  carrierBatch(carrierId: string, body: CarrierBatch, options?: { maxPerRequest?: number | undefined }): CarrierBatchResult;
  coverage(carrierId: string, query?: CoverageQuery): CoverageResult;
  /** Every location of a carrier (not a postal one) and the coverage of its whole network, for a map. */
  network(carrierId: string): CarrierNetworkResult;
  /**
   * Schedules of carriers with `schedules: true`; others throw NotFoundError. Without `date`, the
   * next service day is after today in the ZIP's own time zone, by the clock `now` (default: the real time).
   */
  serviceDays(carrierId: string, query: ServiceDaysQuery, options?: { now?: Date | undefined }): ServiceDaysResult;
  /** Without `ship_date`, the shipment is ready today at the origin, by the clock `now` (default: the real time). */
  transitInfo(carrierId: string, query: TransitQuery, options?: { now?: Date | undefined }): TransitInfoResult;
  carrierInfo(carrierId: string, query: CarrierInfoQuery): CarrierMetadataResult;
  dropPoints(query: DropPointsQuery): LocationPage;
  dropPoint(id: string): DropPointResult;
}

/** The `now` of serviceDays and transitInfo: the real time by default; anything but a valid Date in the range of `date` is invalid input. */
function clock(options: unknown): Date {
  return checkedOptions(serviceDaysOptionsSchema, options).now ?? new Date();
}

/** A batch's limit: the caller's, or the largest plan's. */
function batchLimit(options: unknown): number {
  return checkedOptions(batchOptionsSchema, options).maxPerRequest ?? DEFAULT_BATCH_LIMIT;
}

/**
 * Where an engine keeps its queries over parsed input: a symbol-keyed property, so that a copy of
 * an engine with some methods replaced (`{ ...engine, search }`: a cache, a metric) still has them.
 */
const PARSED = Symbol('parsed queries');
type WithParsed = Engine & { [PARSED]?: ParsedQueries };
/** The engines as engineFrom made them: their own methods unchanged. */
const made = new WeakSet<Engine>();

/**
 * The engine's queries over parsed input, for a server that parses each request itself
 * (adapters/http). A copy of an engine with methods of its own is asked through its methods, which
 * take parsed input as they take any; what the library API lacks (examples) comes from the engine
 * it copies.
 */
export function parsedQueries(engine: Engine): ParsedQueries {
  const parsed = (engine as WithParsed)[PARSED];
  if (parsed === undefined) throw new TypeError('not an engine of createEngine, nor a copy of one');
  return made.has(engine) ? parsed : throughMethods(engine, parsed);
}

function throughMethods(engine: Engine, parsed: ParsedQueries): ParsedQueries {
  const batchField = (id: string) => {
    const carrier = engine.carriers.find((c) => c.id === id);
    return carrier === undefined ? 'zips' : batchFieldFor(carrier);
  };
  return {
    geocode: (query) => engine.geocode(query),
    search: (query) => engine.search(query),
    searchJson: (query) => asciiJson(JSON.stringify(engine.search(query))),
    searchBatch: (zips, max) => engine.searchBatch({ zips: [...zips] }, { maxPerRequest: max }),
    whichCarriers: (query) => engine.whichCarriers(query),
    canReach: (query) => engine.canReach(query),
    carrierLocations: (id, query) => engine.carrierLocations(id, query),
    carrierSearch: (id, query) => engine.carrierSearch(id, query),
    terminalPoints: (id, code, query) => engine.terminalPoints(id, code, query),
    countryLocations: (id, code, query) => engine.countryLocations(id, code, query),
    carrierBatch: (id, list, max) => engine.carrierBatch(id, { [batchField(id)]: [...list] } as CarrierBatch, { maxPerRequest: max }),
    coverage: (id, query) => engine.coverage(id, query),
    network: (id) => engine.network(id),
    serviceDays: (id, query, now) => engine.serviceDays(id, query, { now }),
    transitInfo: (id, query, now) => engine.transitInfo(id, query, { now }),
    carrierInfo: (id, query) => engine.carrierInfo(id, query),
    dropPoints: (query) => engine.dropPoints(query),
    dropPoint: (id) => engine.dropPoint(id),
    examples: (id) => parsed.examples(id),
    exampleZip: (id) => parsed.exampleZip(id),
  };
}

export function engineFrom(content: SnapshotContent): Engine {
  const gazetteer = new Gazetteer(content.gazetteer);
  const net = new Network(content.network, content.zips);
  const shapes = new LocationShapes(net, gazetteer);
  const zipCache = new ZipCache(content.gazetteer, content.zips, content.network);
  const unified = new UnifiedQueries(gazetteer, net, zipCache, new Matcher(net, gazetteer, zipCache), shapes);
  const lookups = new CarrierLookups(gazetteer, net, shapes);
  const schedules = new Schedules(gazetteer, net, content.timeZones);
  const dropPoints = new DropPoints(gazetteer, net, shapes);
  const parsed: ParsedQueries = {
    geocode: (query) => unified.geocode(query),
    search: (query) => unified.search(query),
    searchJson: (query) => unified.searchJson(query),
    searchBatch: (zips, max) => unified.searchBatch(zips, max),
    whichCarriers: (query) => unified.whichCarriers(query),
    canReach: (query) => unified.canReach(query),
    carrierLocations: (id, query) => lookups.locations(id, query),
    carrierSearch: (id, query) => lookups.search(id, query),
    terminalPoints: (id, code, query) => lookups.terminalPoints(id, code, query),
    countryLocations: (id, code, query) => lookups.countryLocations(id, code, query),
    carrierBatch: (id, list, max) => lookups.batch(id, list, max),
    coverage: (id, query) => lookups.coverage(id, query),
    network: (id) => lookups.network(id),
    serviceDays: (id, query, now) => schedules.serviceDays(id, query, now),
    transitInfo: (id, query, now) => schedules.transitInfo(id, query, now),
    carrierInfo: (id, query) => schedules.carrierInfo(id, query),
    dropPoints: (query) => dropPoints.around(query),
    dropPoint: (id) => dropPoints.byId(id),
    examples: (id) => lookups.examples(id),
    exampleZip: (id) => lookups.exampleZip(id),
  };
  // A per-carrier query's schema is the carrier's: known (or not found) before its query is parsed.
  const carrierOf = (id: string, query: Parameters<Network['requireCarrier']>[1]) => net.carriers[net.requireCarrier(id, query)];
  /** The carrier's id, once it is known to answer that query (the check comes before its query is parsed). */
  const known = (id: string, query: Parameters<Network['requireCarrier']>[1]) => {
    carrierOf(id, query);
    return id;
  };
  const page = (query: unknown): ParsedPageQuery => parseInput(pagedSchema, { page: (query as PageQuery | undefined)?.page });
  const engine: Engine = {
    carriers: net.carriers,
    geocode: (query) => parsed.geocode(parseInput(geocodeQuerySchema, query)),
    search: (query) => parsed.search(parseInput(searchQuerySchema, query)),
    // Options first, as a function's arguments are read: a bad option is named before a bad body.
    searchBatch: (body, options) => {
      const max = batchLimit(options);
      return parsed.searchBatch(parseBatchBody(body, 'zips'), max);
    },
    whichCarriers: (query) => parsed.whichCarriers(parseInput(placeQuerySchema, query)),
    canReach: (query) => parsed.canReach(parseInput(canReachQuerySchema, query)),
    carrierLocations: (id, query) => parsed.carrierLocations(id, parseInput(locationsQuerySchemaFor(carrierOf(id, 'locations')), query)),
    carrierSearch: (id, query) => parsed.carrierSearch(known(id, 'search'), parseInput(searchTextSchema, query)),
    terminalPoints: (id, code, query) => parsed.terminalPoints(known(id, 'terminalPoints'), code, page(query)),
    countryLocations: (id, code, query) => parsed.countryLocations(known(id, 'country'), code, page(query)),
    carrierBatch: (id, body, options) => {
      const max = batchLimit(options);
      return parsed.carrierBatch(id, parseBatchBody(body, batchFieldFor(carrierOf(id, 'batch'))), max);
    },
    coverage: (id, query = {}) => parsed.coverage(id, parseInput(coverageQuerySchemaFor(carrierOf(id, 'coverage')), query)),
    network: (id) => parsed.network(id),
    serviceDays: (id, query, options) => {
      const now = clock(options);
      return parsed.serviceDays(known(id, 'schedules'), parseInput(serviceDaysQuerySchema, query), now);
    },
    transitInfo: (id, query, options) => {
      const now = clock(options);
      return parsed.transitInfo(known(id, 'schedules'), parseInput(transitQuerySchema, query), now);
    },
    carrierInfo: (id, query) => parsed.carrierInfo(known(id, 'schedules'), parseInput(carrierInfoQuerySchema, query)),
    dropPoints: (query) => parsed.dropPoints(parseInput(dropPointsQuerySchema, query)),
    dropPoint: (id) => parsed.dropPoint(id),
  };
  Object.defineProperty(engine, PARSED, { value: parsed, enumerable: true });
  made.add(engine);
  return engine;
}
