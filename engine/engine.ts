// The engine: every query of the API over one loaded network, each returning exactly the JSON
// body of the matching HTTP 200 response.

import type { Carrier } from './carriers.js';
import { CarrierLookups, type CarrierExamples } from './carrier-lookups.js';
import { DropPoints } from './drop-points.js';
import { Gazetteer } from './gazetteer.js';
import { Matcher } from './matching.js';
import { Network } from './network.js';
import { batchOptionsSchema, checkedOptions, serviceDaysOptionsSchema } from './options.js';
import { Records } from './records.js';
import { MAX_BATCH_ENTRIES } from './requests.js';
import type {
  CanReachQuery, CarrierBatch, CarrierInfoQuery, CoverageQuery, DropPointsQuery, GeocodeQuery, LocationsQuery, PageQuery, PlaceQuery,
  SearchQuery, ServiceDaysQuery, TextSearchQuery, TransitQuery, ZipBatch,
} from './requests.js';
import type {
  CanReachResult, CarrierBatchResult, CarrierMetadataResult, CarrierNetworkResult, CoverageResult, DropPointResult, GeocodeResult, LocationPage,
  SearchBatchResult, SearchResult, ServiceDaysResult, TransitInfoResult, WhichCarriersResult,
} from './responses.js';
import { Schedules } from './schedules.js';
import type { SnapshotContent } from './snapshot-format.js';
import { UnifiedQueries } from './unified.js';
import { ZipRecords } from './zip-records.js';

/** Batch limit when the caller names none: the largest plan's. */
export const DEFAULT_BATCH_LIMIT = MAX_BATCH_ENTRIES;


export interface Engine {
  /** Every carrier in the dataset, in id order. */
  readonly carriers: readonly Carrier[];
  geocode(query: GeocodeQuery): GeocodeResult;
  search(query: SearchQuery): SearchResult;
  /** `search`'s answer as JSON text, built from cached per-location fragments: for servers. */
  searchJson(query: SearchQuery): string;
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
  /** Values from the carrier's own data for each lookup parameter (health probes, examples). */
  examples(carrierId: string): CarrierExamples;
}

/** The `now` of serviceDays and transitInfo: the real time by default; anything but a valid Date in the range of `date` is invalid input. */
function clock(options: unknown): Date {
  return checkedOptions(serviceDaysOptionsSchema, options).now ?? new Date();
}

/** A batch's limit: the caller's, or the largest plan's. */
function batchLimit(options: unknown): number {
  return checkedOptions(batchOptionsSchema, options).maxPerRequest ?? DEFAULT_BATCH_LIMIT;
}

export function engineFrom(content: SnapshotContent): Engine {
  const gazetteer = new Gazetteer(content.gazetteer);
  const net = new Network(content.network, content.zips);
  const records = new Records(net, gazetteer);
  const zipRecords = new ZipRecords(content.gazetteer, content.zips);
  const unified = new UnifiedQueries(gazetteer, net, zipRecords, new Matcher(net, gazetteer, zipRecords), records);
  const lookups = new CarrierLookups(gazetteer, net, records);
  const schedules = new Schedules(gazetteer, net);
  const dropPoints = new DropPoints(gazetteer, net, records);
  return {
    carriers: net.carriers,
    geocode: (query) => unified.geocode(query),
    search: (query) => unified.search(query),
    searchJson: (query) => unified.searchJson(query),
    searchBatch: (body, options) => unified.searchBatch(body, batchLimit(options)),
    whichCarriers: (query) => unified.whichCarriers(query),
    canReach: (query) => unified.canReach(query),
    carrierLocations: (id, query) => lookups.locations(id, query),
    carrierSearch: (id, query) => lookups.search(id, query),
    terminalPoints: (id, code, query) => lookups.terminalPoints(id, code, query),
    countryLocations: (id, code, query) => lookups.countryLocations(id, code, query),
    carrierBatch: (id, body, options) => lookups.batch(id, body, batchLimit(options)),
    coverage: (id, query = {}) => lookups.coverage(id, query),
    network: (id) => lookups.network(id),
    serviceDays: (id, query, options) => schedules.serviceDays(id, query, clock(options)),
    transitInfo: (id, query, options) => schedules.transitInfo(id, query, clock(options)),
    carrierInfo: (id, query) => schedules.carrierInfo(id, query),
    dropPoints: (query) => dropPoints.around(query),
    dropPoint: (id) => dropPoints.byId(id),
    examples: (id) => lookups.examples(id),
  };
}
