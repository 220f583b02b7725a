// GeoJSON by content negotiation on every runtime: each answer that lists locations, asked with
// `Accept: application/geo+json`, is checked against the JSON answer to the same request, read
// field by field here (RFC 7946: a Point is [longitude, latitude]), not through the converter.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpressApp } from '../../adapters/express.js';
import { createLambdaHandler } from '../../adapters/lambda.js';
import { buildRoutes } from '../../adapters/http/app.js';
import { buildOpenApiDocument } from '../../adapters/http/openapi.js';
import type { ApiRequest, Send } from './cases.js';
import { sampleValues } from './cases.js';
import { createTestApp, KEYS, loopbackServers, sampleEngine } from './fixtures.js';
import { fetchSend, httpApiEvent, lambdaSend, restApiEvent, supertestSend } from './senders.js';

type Json = Record<string, any>;
interface Expected {
  /** [lng, lat] of each feature, or null where the JSON gives no point. */
  coordinates: ([number, number] | null)[];
  properties: Json[];
  members: Json;
}

/** A NormalizedLocation (lat, lng fields) as a feature should carry it. */
const flat = ({ lat, lng, ...rest }: Json, extra: Json = {}) => ({ coordinates: [lng, lat] as [number, number], properties: { ...rest, ...extra } });
/** A LocationRecord (location.latitude, location.longitude) as a feature should carry it. */
const record = ({ location, ...rest }: Json, extra: Json = {}) => ({
  coordinates: [location.longitude, location.latitude] as [number, number],
  properties: { ...rest, ...extra },
});

function expected(features: { coordinates: [number, number] | null; properties: Json }[], members: Json): Expected {
  return { coordinates: features.map((f) => f.coordinates), properties: features.map((f) => f.properties), members };
}

/** How each answer's JSON is read into what its GeoJSON must hold. */
const readers = {
  search: ({ results, byCarrier: _, ...members }: Json) => expected(results.map((l: Json) => flat(l)), members),
  page: ({ locations, ...members }: Json) => expected(locations.map((r: Json) => record(r)), members),
  searchBatch: ({ results, ...members }: Json) => {
    const features = [];
    for (const item of results) for (const carrier of Object.keys(item.byCarrier)) for (const l of item.byCarrier[carrier]) features.push(flat(l, { requested: item.zip }));
    return expected(features, { ...members, results: results.map(({ byCarrier: _, ...item }: Json) => item) });
  },
  carrierBatch: ({ results, ...members }: Json) => {
    const features = [];
    for (const key of Object.keys(results)) for (const r of results[key]) features.push(record(r, { requested: key }));
    return expected(features, members);
  },
  canReach: ({ alternatives, ...members }: Json) => expected(alternatives.map((a: Json) => ({ coordinates: null, properties: a })), members),
  one: ({ location, ...members }: Json) => expected([record(location)], members),
};

function geoCases(): { name: string; request: ApiRequest; read: (json: Json) => Expected }[] {
  const engine = sampleEngine();
  const { station, dropPoint } = sampleValues(engine);
  const get = (path: string, query?: Record<string, string>): ApiRequest => ({ method: 'GET', path, query });
  const post = (path: string, body: unknown): ApiRequest => ({ method: 'POST', path, body: JSON.stringify(body) });
  return [
    { name: 'unified search', request: get('/api/locations', { zip: '75201', radius: '50' }), read: readers.search },
    { name: 'POST /api/search', request: post('/api/search', { city: 'st louis', state: 'mo', radius: 40, carriers: ['carrier-a', 'carrier-e'] }), read: readers.search },
    { name: 'unified batch', request: post('/api/locations/batch', { zips: ['60601', '75201', '99999'] }), read: readers.searchBatch },
    { name: 'can-reach alternatives', request: get('/api/locations/can-reach', { carrier: 'carrier-e', zip: '60601', radius: '100' }), read: readers.canReach },
    { name: 'a carrier list', request: get('/api/carrier-a-location', { zip: '60601' }), read: readers.page },
    { name: 'a carrier text search, page 2', request: get('/api/carrier-c-location/search', { q: 'office', page: '2' }), read: readers.page },
    { name: "a station's served points", request: get(`/api/carrier-a-location/station/${station}`), read: readers.page },
    { name: 'a carrier batch', request: post('/api/carrier-b-location/batch', { zips: ['60601', '10001'] }), read: readers.carrierBatch },
    { name: 'a country page', request: get('/api/carrier-c-location/country/DE'), read: readers.page },
    { name: 'drop points', request: get('/api/drop-points', { zip: '60601', radius: '5' }), read: readers.page },
    { name: 'one drop point', request: get(`/api/drop-points/${dropPoint}`), read: readers.one },
    { name: "a carrier's network", request: get('/api/networks/carrier-e'), read: readers.page },
  ];
}

const GEOJSON = 'application/geo+json';

function describeGeoJson(label: string, setup: () => Send | Promise<Send>): void {
  describe(label, () => {
    let send: Send;
    beforeAll(async () => {
      send = await setup();
    });
    const ask = (request: ApiRequest, accept?: string) =>
      send({ ...request, headers: { 'x-api-key': KEYS.enterprise, ...(accept === undefined ? {} : { accept }) } });

    it.each(geoCases().map((c) => [c.name, c] as const))('%s: the features are the JSON answer\'s locations, in order', async (_name, c) => {
      const [json, geo] = await Promise.all([ask(c.request), ask(c.request, GEOJSON)]);
      expect(json.status, json.body.slice(0, 200)).toBe(200);
      expect(geo.status, geo.body.slice(0, 200)).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(geo.headers['content-type']).toBe(GEOJSON);
      expect(geo.headers.vary).toMatch(/Accept/);
      expect(geo.headers['x-ratelimit-limit']).toBe(json.headers['x-ratelimit-limit']);
      const want = c.read(JSON.parse(json.body));
      const { type, features, ...members } = JSON.parse(geo.body);
      expect(type).toBe('FeatureCollection');
      expect(want.coordinates.length).toBeGreaterThan(0);
      expect(features.map((f: Json) => f.type)).toEqual(want.coordinates.map(() => 'Feature'));
      expect(features.map((f: Json) => (f.geometry === null ? null : f.geometry.coordinates))).toEqual(want.coordinates);
      for (const f of features) if (f.geometry) expect(f.geometry.type).toBe('Point');
      expect(features.map((f: Json) => f.properties)).toEqual(want.properties);
      expect(members).toEqual(want.members);
    });

    it('answers a plain request, application/json or */* with the same JSON bytes', async () => {
      const request: ApiRequest = { method: 'GET', path: '/api/locations', query: { zip: '60601' } };
      const plain = await ask(request);
      for (const accept of ['application/json', '*/*', 'text/html, application/xhtml+xml, */*;q=0.8']) {
        const reply = await ask(request, accept);
        expect(reply.headers['content-type']).toBe(plain.headers['content-type']);
        expect(reply.body).toBe(plain.body);
      }
      expect(JSON.parse(plain.body).success).toBe(true);
      // The answer depends on Accept, and says so to caches.
      expect(plain.headers.vary).toMatch(/Accept/);
    });

    it('follows the preference the Accept header states', async () => {
      const request: ApiRequest = { method: 'GET', path: '/api/carrier-a-location', query: { zip: '60601' } };
      const prefersJson = await ask(request, 'application/json, application/geo+json;q=0.5');
      expect(prefersJson.headers['content-type']).toMatch(/^application\/json/);
      const prefersGeo = await ask(request, 'application/json;q=0.5, APPLICATION/GEO+JSON');
      expect(prefersGeo.headers['content-type']).toBe(GEOJSON);
      const specific = await ask(request, '*/*, application/geo+json');
      expect(specific.headers['content-type']).toBe(GEOJSON);
    });

    it('answers JSON where the answer lists no locations, and errors as JSON', async () => {
      const geocode = await ask({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' } }, GEOJSON);
      expect(geocode.status).toBe(200);
      expect(geocode.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(geocode.body).found).toBe(true);
      const bad = await ask({ method: 'GET', path: '/api/locations', query: { zip: '123' } }, GEOJSON);
      expect(bad.status).toBe(400);
      expect(bad.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(bad.body)).toEqual({ error: expect.stringMatching(/zip/) });
    });
  });
}

const servers = loopbackServers();
afterAll(() => servers.closeAll());

describeGeoJson('node:http', async () => fetchSend(await servers.listen(createTestApp(), 'node')));
describeGeoJson('Express', async () => fetchSend(await servers.listen(createTestApp(), 'express')));
describeGeoJson('Express app mounted (supertest)', () => supertestSend(createExpressApp(createTestApp())));
describeGeoJson('Lambda, HTTP API (payload v2)', () => lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => httpApiEvent(r)));
describeGeoJson('Lambda, REST API (payload v1)', () => lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => restApiEvent(r)));

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument(buildRoutes(sampleEngine()), '1.0.0') as any;
  const content = (path: string, method: string) => Object.keys(doc.paths[path][method].responses['200'].content).sort();

  it('offers GeoJSON beside JSON exactly where the answer lists locations', () => {
    for (const [path, method] of [
      ['/api/locations', 'get'], ['/api/search', 'post'], ['/api/locations/batch', 'post'], ['/api/locations/can-reach', 'get'],
      ['/api/carrier-a-location', 'get'], ['/api/carrier-a-location/station/{num}', 'get'], ['/api/drop-points', 'get'],
      ['/api/drop-points/{id}', 'get'], ['/api/networks/{carrier}', 'get'],
    ]) {
      expect(content(path, method), `${method} ${path}`).toEqual(['application/geo+json', 'application/json']);
    }
    for (const [path, method] of [['/api/locations/geocode', 'get'], ['/api/carrier-a-location/coverage', 'get'], ['/api/networks', 'get']]) {
      expect(content(path, method), `${method} ${path}`).toEqual(['application/json']);
    }
    const geo = doc.paths['/api/locations'].get.responses['200'].content['application/geo+json'].schema;
    expect(geo).toEqual({ $ref: '#/components/schemas/LocationFeatureCollection' });
    expect(doc.components.schemas.LocationFeatureCollection.properties.type).toMatchObject({ const: 'FeatureCollection' });
  });
});
