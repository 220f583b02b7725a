// The library's toGeoJSON: the package entry exports it, and it turns the engine's answers into
// RFC 7946 collections whose points are the answers' own numbers, in the answers' order.

import { describe, expect, it } from 'vitest';
import { createEngine, toGeoJSON, GEOJSON_MEDIA_TYPE } from '../../engine/index.js';

const engine = createEngine();

describe('toGeoJSON', () => {
  it('makes a search a FeatureCollection of Points [lng, lat], in the order of results', () => {
    const answer = engine.search({ zip: '75201', radius: 50 });
    const geo = toGeoJSON(answer);
    expect(geo.type).toBe('FeatureCollection');
    expect(answer.results.length).toBeGreaterThan(1);
    expect(geo.features.map((f) => f.geometry?.coordinates)).toEqual(answer.results.map((r) => [r.lng, r.lat]));
    expect(geo.features.map((f) => f.properties.terminalCode)).toEqual(answer.results.map((r) => r.terminalCode));
    expect(geo.features[0].properties).not.toHaveProperty('lat');
    expect(geo.features[0].properties.distanceMiles).toBe(answer.results[0].distanceMiles);
    expect(geo).toMatchObject({ query: answer.query, total: answer.total, matchType: answer.matchType, resolved: answer.resolved });
    expect(geo).not.toHaveProperty('byCarrier');
    // The answer itself is left as it was.
    expect(answer.results[0]).toHaveProperty('lat');
  });

  it("makes a carrier's page a collection with the paging as members", () => {
    const page = engine.carrierLocations('carrier-d', { region: 'midwest', page: 2 });
    const geo = toGeoJSON(page);
    expect(geo).toMatchObject({ total: page.total, currentPage: 2, totalPages: page.totalPages, success: true });
    expect(geo.features.map((f) => f.geometry?.coordinates)).toEqual(page.locations.map((l) => [l.location.longitude, l.location.latitude]));
    expect(geo.features[0].properties.address).toEqual(page.locations[0].address);
  });

  it('refuses an answer that lists no locations', () => {
    expect(() => toGeoJSON(engine.geocode({ zip: '75201' }) as never)).toThrow(TypeError);
    expect(() => toGeoJSON(engine.coverage('carrier-e') as never)).toThrow(/lists no locations/);
  });

  it('names the media type', () => {
    expect(GEOJSON_MEDIA_TYPE).toBe('application/geo+json');
  });
});
