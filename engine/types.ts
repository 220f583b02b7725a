// The shapes the engine returns: exactly the JSON bodies of the HTTP API's 200 responses.

export type CarrierKind = 'ltl' | 'freight' | 'worldwide' | 'postal';
export type LookupParam = 'zip' | 'country_code' | 'region' | 'state' | 'country';

export interface CarrierInfo {
  id: string;
  name: string;
  scac: string;
  kind: CarrierKind;
  unified: boolean;
  canReach: boolean;
  lookup: LookupParam;
}

export interface ResolvedPlace {
  city: string;
  state: string;
  lat: number;
  lng: number;
}

export type MatchKind = 'exact' | 'nearby';
export type ServiceType = 'direct' | 'nearby';

export interface NormalizedLocation {
  carrier: string;
  carrierName: string;
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  lat: number;
  lng: number;
  match: MatchKind;
  distanceMiles: number;
}

export interface LocationRecord {
  name: string;
  carrier: string;
  address: { line1: string; line2: string; city: string; state: string; zipCode: string; country: string };
  phone: string;
  fax: string;
  email: string;
  location: { latitude: number; longitude: number };
  terminalCode: string;
  scac: string;
  /** Only on drop-point lookups around a ZIP: great-circle miles from the ZIP. */
  distanceMiles?: number;
}

export interface NearestTerminal {
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  distanceMiles: number;
}

/** Where to look: at least one of zip, city, state. */
export interface PlaceQuery {
  zip?: string;
  city?: string;
  state?: string;
  /** Miles, 1-100; default 25. Query-string text ("25") is accepted too. */
  radius?: number | string;
}

export interface SearchQuery extends PlaceQuery {
  /** Comma-separated carrier ids, or a list; unknown ids are ignored. */
  carriers?: string | string[];
}

export interface CanReachQuery extends PlaceQuery {
  carrier: string;
}

export interface QueryEcho {
  zip: string;
  city: string;
  state: string;
  radiusMiles: number;
}

export interface SearchResult {
  success: true;
  query: QueryEcho;
  resolved: ResolvedPlace | null;
  matchType: 'exact' | 'nearby' | 'none';
  total: number;
  carriers: string[];
  byCarrier: Record<string, NormalizedLocation[]>;
  results: NormalizedLocation[];
}

export interface SearchBatchEntry {
  zip: string;
  resolved: ResolvedPlace | null;
  matchType: 'exact' | 'none';
  total: number;
  byCarrier: Record<string, NormalizedLocation[]>;
}

export interface SearchBatchResult {
  success: true;
  count: number;
  maxPerRequest: number;
  results: SearchBatchEntry[];
}

export interface WhichCarriersResult {
  success: true;
  query: QueryEcho;
  resolved: ResolvedPlace | null;
  served: boolean;
  carrierCount: number;
  carriers: { carrier: string; name: string; serviceType: ServiceType; nearestTerminal: NearestTerminal }[];
  notServedBy: string[];
}

export interface CanReachResult {
  success: true;
  carrier: string;
  carrierName: string;
  query: { zip: string; city: string; state: string; radius: number };
  resolved: ResolvedPlace | null;
  canReach: boolean;
  serviceType: ServiceType | 'none';
  nearestTerminal: NearestTerminal | null;
  alternatives: { carrier: string; name: string; serviceType: ServiceType; distanceMiles: number }[];
}

export interface GeocodeResult {
  success: true;
  zip: string;
  found: boolean;
  location: ResolvedPlace | null;
}

export interface LocationPage {
  success: true;
  locations: LocationRecord[];
  total: number;
  currentPage: number;
  totalPages: number;
}

export interface CarrierBatchResult {
  success: true;
  results: Record<string, LocationRecord[]>;
  total: number;
}

export interface CoverageResult {
  success: true;
  totalLocations: number;
  states: { state: string; locations: number; zipsServed: number }[];
  countries: { country: string; locations: number }[];
}

export interface WeekDays {
  monday: boolean;
  tuesday: boolean;
  wednesday: boolean;
  thursday: boolean;
  friday: boolean;
  saturday: boolean;
  sunday: boolean;
}

export interface ServiceDaysResult {
  success: true;
  zip: string;
  city: string;
  state: string;
  /** false when carrier-a does not serve the ZIP; the terminal fields and dates are then null. */
  served: boolean;
  terminalCode: string | null;
  serviceDays: WeekDays;
  nextPickupDate: string | null;
  nextDeliveryDate: string | null;
}

export interface TransitEnd {
  terminalCode: string;
  name: string;
  city: string;
  state: string;
  addOnDays: number;
}

export interface TransitInfoResult {
  success: true;
  originZip: string;
  destZip: string;
  /** false when carrier-a does not serve one of the ZIPs; the figures are then null. */
  served: boolean;
  origin: TransitEnd | null;
  destination: TransitEnd | null;
  distanceMiles: number | null;
  baseTransitDays: number | null;
  addOnDays: number | null;
  transitDays: number | null;
}

export interface CarrierMetadataResult {
  success: true;
  carrier: string;
  name: string;
  scac: string;
  zip: string;
  city: string;
  state: string;
  served: boolean;
  terminalCode: string | null;
  direct: boolean;
  addOnDays: number | null;
}

export interface DropPointResult {
  success: true;
  location: LocationRecord;
}

/** Per-carrier list lookups: the query parameter named by the carrier's `lookup`, and the page. */
export interface CarrierLocationsQuery {
  zip?: string;
  city?: string;
  country_code?: string;
  region?: string;
  state?: string;
  country?: string;
  page?: number | string;
}

export interface Engine {
  /** Every carrier in the dataset, in id order. */
  readonly carriers: readonly CarrierInfo[];
  geocode(query: { zip: string }): GeocodeResult;
  search(query: SearchQuery): SearchResult;
  /** `search`'s answer as JSON text, built from cached per-location fragments: for servers. */
  searchJson(query: SearchQuery): string;
  /** Exact matches only, one entry per ZIP. `maxPerRequest` defaults to 50 (the largest plan). */
  searchBatch(body: { zips: string[] }, options?: { maxPerRequest?: number }): SearchBatchResult;
  whichCarriers(query: PlaceQuery): WhichCarriersResult;
  canReach(query: CanReachQuery): CanReachResult;
  carrierLocations(carrierId: string, query: CarrierLocationsQuery): LocationPage;
  carrierSearch(carrierId: string, query: { q: string; page?: number | string }): LocationPage;
  /** carrier-a station / carrier-b terminal: the points that terminal serves. */
  terminalPoints(carrierId: string, terminalCode: string, query?: { page?: number | string }): LocationPage;
  /** carrier-c /country/:code. */
  countryLocations(carrierId: string, countryCode: string, query?: { page?: number | string }): LocationPage;
  /** `{ zips }` for ZIP carriers, `{ country_codes }` for carrier-c. */
  carrierBatch(
    carrierId: string,
    body: { zips?: string[]; country_codes?: string[] },
    options?: { maxPerRequest?: number },
  ): CarrierBatchResult;
  coverage(carrierId: string, query: { state?: string; country_code?: string }): CoverageResult;
  serviceDays(query: { zip: string; city?: string; date?: string }): ServiceDaysResult;
  transitInfo(query: { origin_zip: string; dest_zip: string }): TransitInfoResult;
  carrierInfo(query: { zip: string; city?: string }): CarrierMetadataResult;
  dropPoints(query: { zip: string; radius?: number | string; page?: number | string }): LocationPage;
  dropPoint(id: string): DropPointResult;
}
