// The GeoJSON (RFC 7946) form of every answer that lists locations: a FeatureCollection whose
// features are the answer's locations in the answer's order, each a Point at the location's own
// numbers, and whose foreign members are the answer's other fields. Pure: the HTTP API negotiates
// it, the library and the CLI call it, and all three give the same collection for the same answer.

import type {
  CanReachResult, CarrierBatchResult, CarrierNetworkResult, DropPointResult, LocationPage, LocationRecord, NormalizedLocation, SearchBatchResult,
  SearchResult,
} from './responses.js';

/** The media type of these collections (RFC 7946 section 12). */
export const GEOJSON_MEDIA_TYPE = 'application/geo+json';

export interface PointGeometry {
  type: 'Point';
  /** `[lng, lat]`: GeoJSON's order, the reverse of the JSON answers' `lat`, `lng` reading order. */
  coordinates: [number, number];
}

export interface LocationFeature {
  type: 'Feature';
  /** null where the answer gives no coordinates (can-reach's alternatives name carriers, not places). */
  geometry: PointGeometry | null;
  properties: Record<string, unknown>;
}

export interface LocationFeatureCollection {
  type: 'FeatureCollection';
  features: LocationFeature[];
  /** Foreign members: the answer's fields other than its location lists (paging, totals, the query echo). */
  [member: string]: unknown;
}

/** Every answer toGeoJSON takes. */
export type LocationAnswer =
  | SearchResult
  | SearchBatchResult
  | LocationPage
  | CarrierBatchResult
  | DropPointResult
  | CanReachResult
  | CarrierNetworkResult;

const point = (lng: number, lat: number): PointGeometry => ({ type: 'Point', coordinates: [lng, lat] });

function normalizedFeature({ lat, lng, ...properties }: NormalizedLocation, extra?: object): LocationFeature {
  return { type: 'Feature', geometry: point(lng, lat), properties: extra ? { ...properties, ...extra } : properties };
}

function recordFeature({ location, ...properties }: LocationRecord, extra?: object): LocationFeature {
  return { type: 'Feature', geometry: point(location.longitude, location.latitude), properties: extra ? { ...properties, ...extra } : properties };
}

const collection = (features: LocationFeature[], members: object): LocationFeatureCollection => ({ type: 'FeatureCollection', ...members, features });

/** Which answer this is, told by the fields that hold its locations. */
function isSearch(answer: LocationAnswer): answer is SearchResult {
  return 'results' in answer && Array.isArray(answer.results) && 'byCarrier' in answer;
}

/**
 * The GeoJSON form of an answer that lists locations (a search, a batch, a page of a carrier's
 * locations or drop points, one drop point, can-reach, a carrier's network). Throws a TypeError for
 * an answer without locations (geocode, coverage, schedules).
 */
export function toGeoJSON(answer: LocationAnswer): LocationFeatureCollection {
  if (answer === null || typeof answer !== 'object') throw new TypeError('toGeoJSON takes an answer of the engine');
  if (isSearch(answer)) {
    const { results, byCarrier: _byCarrier, ...members } = answer;
    return collection(results.map((l) => normalizedFeature(l)), members);
  }
  if ('results' in answer && Array.isArray(answer.results)) {
    const { results, ...members } = answer as SearchBatchResult;
    const features = results.flatMap((item) => Object.values(item.byCarrier).flatMap((list) => list.map((l) => normalizedFeature(l, { requested: item.zip }))));
    return collection(features, { ...members, results: results.map(({ byCarrier: _b, ...item }) => item) });
  }
  if ('results' in answer) {
    const { results, ...members } = answer as CarrierBatchResult;
    const features = Object.entries(results).flatMap(([requested, list]) => list.map((r) => recordFeature(r, { requested })));
    return collection(features, members);
  }
  if ('locations' in answer) {
    const { locations, ...members } = answer;
    return collection(locations.map((r) => recordFeature(r)), members);
  }
  if ('alternatives' in answer) {
    const { alternatives, ...members } = answer;
    return collection(alternatives.map((properties) => ({ type: 'Feature', geometry: null, properties })), members);
  }
  if ('location' in answer && !('found' in answer)) {
    const { location, ...members } = answer;
    return collection([recordFeature(location)], members);
  }
  throw new TypeError('toGeoJSON: this answer lists no locations');
}
