// `--geojson` of the look-ups that list locations prints the HTTP API's GeoJSON answer to the same
// parameters, byte for byte (the API's GeoJSON is checked against its JSON in test/http/geojson.test.ts).

import { describe, expect, it } from 'vitest';
import { createTestApp, KEYS } from '../http/fixtures.js';
import { runCli } from '../support/cli.js';

const core = createTestApp();
const geoJsonOf = (path: string, query: Record<string, string>) =>
  core.handle({ method: 'GET', path, query, headers: { 'x-api-key': KEYS.enterprise, accept: 'application/geo+json' }, body: undefined });

describe('--geojson', () => {
  it.each([
    ['search', '/api/locations', { zip: '75201', radius: '50', carriers: 'carrier-a,carrier-e' }],
    ['reach', '/api/locations/can-reach', { carrier: 'carrier-e', zip: '75201' }],
  ] as const)('%s prints the body of %s asked for GeoJSON', async (command, path, query) => {
    const reply = await geoJsonOf(path, query);
    expect(reply.headers['Content-Type']).toBe('application/geo+json');
    const run = await runCli([command, ...Object.entries(query).flatMap(([k, v]) => [`--${k}`, v]), '--geojson']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(`${reply.body}\n`);
    expect(JSON.parse(run.stdout).features.length).toBeGreaterThan(0);
  });

  it('is refused beside --json, and not offered where the answer lists no locations', async () => {
    const both = await runCli(['search', '--zip', '75201', '--json', '--geojson']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/--geojson.*cannot be used with.*--json|--json.*cannot be used with.*--geojson/);
    const geocode = await runCli(['geocode', '--zip', '75201', '--geojson']);
    expect(geocode.code).toBe(2);
    expect(geocode.stderr).toMatch(/unknown option '--geojson'/);
  });
});
