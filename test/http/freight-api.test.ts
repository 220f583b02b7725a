// The freight fields over HTTP. ZIP+4 wherever a ZIP is taken: `75201-1234` and `752011234` are answered exactly as `75201` (the
// echo shows the five digits), on every endpoint, in the query and in bodies; `75201-12` is a 400
// that names the parameter. The OpenAPI document states the same pattern.

import { describe, expect, it } from 'vitest';
import { createTestApp, KEYS } from './fixtures.js';

const app = createTestApp();
const headers = { 'x-api-key': KEYS.enterprise };
const get = (path: string, query: Record<string, string>) => app.handle({ method: 'GET', path, query, headers, body: undefined });
const post = (path: string, body: unknown) => app.handle({ method: 'POST', path, query: {}, headers, body: JSON.stringify(body) });

/** Each endpoint and how it takes a ZIP; `other` are its other parameters. */
const QUERIES: [path: string, param: string, other: Record<string, string>][] = [
  ['/api/locations', 'zip', {}],
  ['/api/locations/geocode', 'zip', {}],
  ['/api/locations/which-carriers', 'zip', {}],
  ['/api/locations/can-reach', 'zip', { carrier: 'carrier-e' }],
  ['/api/drop-points', 'zip', {}],
  ['/api/carrier-a-location', 'zip', {}],
  ['/api/carrier-a-location/service-days', 'zip', { date: '2026-11-25' }],
  ['/api/carrier-a-location/carriers', 'zip', {}],
  ['/api/carrier-a-location/transit-info', 'origin_zip', { dest_zip: '10001', ship_date: '2026-11-25' }],
  ['/api/carrier-a-location/transit-info', 'dest_zip', { origin_zip: '10001', ship_date: '2026-11-25' }],
];

describe('ZIP+4 in query strings', () => {
  for (const [path, param, other] of QUERIES) {
    it(`${path} ${param}`, async () => {
      const plain = await get(path, { ...other, [param]: '75201' });
      expect(plain.status).toBe(200);
      for (const zip of ['75201-1234', '752011234']) {
        const plus4 = await get(path, { ...other, [param]: zip });
        expect([plus4.status, plus4.body], zip).toEqual([200, plain.body]);
      }
      expect(plain.body).not.toContain('1234');
      for (const bad of ['75201-12', '75201-', '7520', '75201 1234', '75201-12345']) {
        const reply = await get(path, { ...other, [param]: bad });
        expect(reply.status, bad).toBe(400);
        expect(JSON.parse(reply.body), bad).toEqual({ error: `${param} must be 5 digits or ZIP+4 (12345-6789)` });
      }
    });
  }
});

describe('ZIP+4 in bodies', () => {
  it('POST /api/search', async () => {
    const plain = await post('/api/search', { zip: '75201', radius: 50 });
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.body).query.zip).toBe('75201');
    expect((await post('/api/search', { zip: '75201-1234', radius: 50 })).body).toBe(plain.body);
    expect(JSON.parse((await post('/api/search', { zip: '75201-12' })).body)).toEqual({ error: 'zip must be 5 digits or ZIP+4 (12345-6789)' });
  });

  for (const path of ['/api/locations/batch', '/api/carrier-a-location/batch']) {
    it(`${path}: entries answered under their five digits; a ZIP+4 of a ZIP already listed repeats it`, async () => {
      const plain = await post(path, { zips: ['75201', '10001'] });
      expect(plain.status).toBe(200);
      expect((await post(path, { zips: ['75201-1234', '100011234'] })).body).toBe(plain.body);
      expect(JSON.parse((await post(path, { zips: ['75201', '75201-0001'] })).body)).toEqual({ error: 'zips[1] repeats zips[0] (75201)' });
      expect(JSON.parse((await post(path, { zips: ['75201-12'] })).body)).toEqual({
        error: 'zips[0] must be a ZIP of 5 digits or ZIP+4 (12345-6789) (got "75201-12")',
      });
    });
  }
});

describe('OpenAPI', () => {
  it('states the ZIP pattern of every ZIP parameter', async () => {
    const doc = JSON.parse((await app.handle({ method: 'GET', path: '/openapi.json', query: {}, headers: {}, body: undefined })).body);
    const pattern = new RegExp(doc.paths['/api/locations'].get.parameters.find((p: { name: string }) => p.name === 'zip').schema.pattern);
    expect(['75201', '75201-1234', '752011234'].every((z) => pattern.test(z))).toBe(true);
    expect(['75201-12', '7520', '75201 1234'].some((z) => pattern.test(z))).toBe(false);
    for (const [path, param] of QUERIES) {
      const parameter = doc.paths[path].get.parameters.find((p: { name: string }) => p.name === param);
      expect(parameter.schema.pattern, `${path} ${param}`).toBe(pattern.source);
    }
  });
});

describe('OpenAPI shows the freight fields', () => {
  it('cutoffs, pickup today, holidays, delivery dates, point attributes and suggestions', async () => {
    const doc = JSON.parse((await app.handle({ method: 'GET', path: '/openapi.json', query: {}, headers: {}, body: undefined })).body);
    const properties = (name: string) => Object.keys(doc.components.schemas[name].properties);
    expect(properties('ServiceDaysResult')).toEqual(expect.arrayContaining([
      'cutoffTime', 'timeZone', 'pickupToday', 'highCost', 'highCostNote', 'interlineScac', 'holidays',
    ]));
    expect(properties('TransitInfoResult')).toEqual(expect.arrayContaining(['shipDate', 'pickupDate', 'estimatedDeliveryDate', 'holidaysSkipped']));
    expect(properties('CanReachResult')).toEqual(expect.arrayContaining(['highCost', 'highCostNote', 'interlineScac', 'suggestions']));
    for (const name of ['SearchResult', 'WhichCarriersResult', 'LocationPage']) expect(properties(name)).toContain('suggestions');
    expect(properties('Suggestion')).toEqual(['city', 'state', 'zip']);
    expect(properties('Holiday')).toEqual(['date', 'name']);
    const shipDate = doc.paths['/api/carrier-a-location/transit-info'].get.parameters.find((p: { name: string }) => p.name === 'ship_date');
    expect(shipDate.required ?? false).toBe(false);
  });
});
