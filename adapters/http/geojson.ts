// GeoJSON by content negotiation: an answer that lists locations goes as a FeatureCollection to a
// client whose Accept prefers `application/geo+json`, and as the usual JSON to everyone else.

import Negotiator from 'negotiator';
import { GEOJSON_MEDIA_TYPE, toGeoJSON, type LocationAnswer } from '../../engine/geojson.js';
import { JsonText } from './route.js';
import type { HttpResponse } from './request.js';

const OFFERED = ['application/json', GEOJSON_MEDIA_TYPE];
const MENTIONS_GEOJSON = /geo\+json/i;

/**
 * Whether the Accept header prefers GeoJSON to JSON. A plain request (no Accept, `*\/*`,
 * `application/json`) is told apart by one substring test: only a header that names geo+json is parsed.
 */
export function wantsGeoJson(accept: string | undefined): boolean {
  if (accept === undefined || !MENTIONS_GEOJSON.test(accept)) return false;
  return new Negotiator({ headers: { accept } }).mediaType(OFFERED) === GEOJSON_MEDIA_TYPE;
}

/** The route's answer as GeoJSON, with the headers of its JSON answer but the media type. */
export function geoJsonAnswer(result: unknown, json: HttpResponse): HttpResponse {
  // The unified search arrives as JSON text (its fast path): read back, its numbers are the JSON's.
  const answer = (result instanceof JsonText ? JSON.parse(result.text) : result) as LocationAnswer;
  // RFC 7946 registers the type without parameters: its text is always UTF-8.
  json.headers['Content-Type'] = GEOJSON_MEDIA_TYPE;
  json.headers.Vary = 'Accept';
  return { ...json, body: JSON.stringify(toGeoJSON(answer)) };
}
