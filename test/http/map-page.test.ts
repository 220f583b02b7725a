// /map over HTTP: public (no key), its assets from the server, a policy that lets the page load
// from its own origin only (and the operator's tile server when MAP_TILES_URL names one).

import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../adapters/http/config.js';
import { createMapPage, tilesOrigin } from '../../adapters/http/map.js';
import { createTestApp } from './fixtures.js';

const core = createTestApp();
const get = (path: string) => core.handle({ method: 'GET', path, query: {}, headers: {}, body: undefined });

describe('/map', () => {
  it('is served without a key, beside and inside /map/, with its assets', async () => {
    for (const [path, script] of [['/map', 'src="map/map.js"'], ['/map/', 'src="./map.js"']]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain(script);
      expect(page.headers['Content-Security-Policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(page.headers['Referrer-Policy']).toBe('no-referrer');
    }
    for (const [asset, type] of [['map.js', /^text\/javascript/], ['map.css', /^text\/css/], ['states.json', /^application\/json/], ['countries.json', /^application\/json/]] as const) {
      const reply = await get(`/map/${asset}`);
      expect(reply.status, asset).toBe(200);
      expect(reply.headers['Content-Type']).toMatch(type);
      expect(reply.body.length).toBeGreaterThan(1000);
    }
    const states = JSON.parse((await get('/map/states.json')).body);
    const codes = states.objects.states.geometries.map((g: any) => g.properties.code);
    expect(codes).toEqual(expect.arrayContaining(['TX', 'DC', 'PR', 'VI', 'MP', 'AK']));
    expect(codes).not.toContain('');
    const countries = JSON.parse((await get('/map/countries.json')).body).objects.countries.geometries.map((g: any) => g.properties.code);
    expect(countries).toEqual(expect.arrayContaining(['US', 'CA', 'MX', 'DE', 'JP', 'BR']));
  });

  it('answers nothing else under /map: an unknown asset is the usual JSON 404', async () => {
    for (const path of ['/map/leaflet.js', '/map/constructor', '/map/../package.json']) {
      const reply = await get(path);
      expect(reply.status, path).toBe(404);
      expect(JSON.parse(reply.body)).toEqual({ error: expect.any(String) });
    }
  });

  it('says what to do where the assets were not built', () => {
    const reply = createMapPage({ assetsDir: '/nonexistent' })('/map')!;
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body).error).toMatch(/map page is not installed.*npm run build/);
  });

  it("draws a tile server's tiles when MAP_TILES_URL names one, and lets the policy load them", () => {
    const tilesUrl = 'https://{s}.tiles.example.com/{z}/{x}/{y}.png?a=1&b=2';
    const config = readConfig({ MAP_TILES_URL: tilesUrl, MAP_TILES_ATTRIBUTION: '© Example & co' });
    expect(config.mapTilesUrl).toBe(tilesUrl);
    const reply = createMapPage({ tilesUrl: config.mapTilesUrl, tilesAttribution: config.mapTilesAttribution })('/map')!;
    expect(reply.headers['Content-Security-Policy']).toContain("img-src 'self' data: https://*.tiles.example.com;");
    expect(reply.body).toContain('data-tiles="https://{s}.tiles.example.com/{z}/{x}/{y}.png?a=1&#38;b=2"');
    expect(reply.body).toContain('data-tiles-attribution="© Example &#38; co"');
    expect(tilesOrigin('http://localhost:8080/tiles/{z}/{x}/{y}.png')).toBe('http://localhost:8080');
  });

  it('refuses a MAP_TILES_URL that is not a tile template', () => {
    for (const bad of ['tiles.example.com/{z}/{x}/{y}.png', 'https://tiles.example.com/tiles.png', 'https://x.example/{z}/{x}/{y}"><script>', 'ftp://x/{z}/{x}/{y}']) {
      expect(() => readConfig({ MAP_TILES_URL: bad }), bad).toThrow(ConfigError);
    }
    expect(() => readConfig({ MAP_TILES_URL: 'https://x.example/{z}/{x}/{y}"><script>' })).toThrow(/MAP_TILES_URL must be an http\(s\) URL template/);
  });
});
