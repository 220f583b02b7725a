// A client as a client team builds one: types generated from the OpenAPI document by
// openapi-typescript (test/http/client/openapi.d.ts, compiled with the rest of the project by
// `tsc`), calls made with openapi-fetch against a real server. The committed types must be what
// the served document generates today.

import createClient from 'openapi-fetch';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITTED_TYPES, generateClientTypes } from '../support/openapi-client-types.js';
import type { paths } from './client/openapi.js';
import { createTestApp, KEYS, loopbackServers } from './fixtures.js';

const servers = loopbackServers();
let base: string;
// JSON answers: operations that also answer GeoJSON (`Accept: application/geo+json`) are read as JSON here.
let client: ReturnType<typeof createClient<paths, 'application/json'>>;

beforeAll(async () => {
  base = await servers.listen(createTestApp());
  client = createClient<paths, 'application/json'>({ baseUrl: base, headers: { 'X-API-Key': KEYS.enterprise } });
});
afterAll(() => servers.closeAll());

describe('the generated client types', () => {
  it('are those the served document generates (regenerate: npx tsx test/support/openapi-client-types.ts)', async () => {
    const served = await (await fetch(`${base}/openapi.json`)).text();
    expect(await generateClientTypes(served)).toBe(readFileSync(COMMITTED_TYPES, 'utf8'));
  }, 60_000);

  it('refuse at compile time what the server refuses: a radius that is not a number, a page of text, a carrier id not in the data', () => {
    // Never run: these lines are here for tsc, which fails the build if any of them compiles.
    const compileOnly = () => [
      // @ts-expect-error radius is a number
      client.GET('/api/locations', { params: { query: { zip: '60601', radius: 'far' } } }),
      // @ts-expect-error page is an integer
      client.GET('/api/drop-points', { params: { query: { zip: '60601', page: 'two' } } }),
      // @ts-expect-error can-reach's carrier is one of the data's can-reach carriers
      client.GET('/api/locations/can-reach', { params: { query: { zip: '60601', carrier: 'nobody' } } }),
      // @ts-expect-error a batch body needs zips
      client.POST('/api/locations/batch', { body: {} }),
    ];
    expect(typeof compileOnly).toBe('function');
  });
});

describe('a typed client against a real server', () => {
  it('calls the unified endpoints with typed parameters and reads typed answers', async () => {
    const search = await client.GET('/api/locations', { params: { query: { zip: '60601', radius: 10, carriers: ['carrier-a', 'carrier-b'] } } });
    expect(search.response.status).toBe(200);
    expect(search.data!.carriers).toEqual(['carrier-a', 'carrier-b']);
    expect(search.data!.query.radiusMiles).toBe(10);

    const byBody = await client.POST('/api/search', { body: { city: 'Chicago', state: 'IL', radius: 5 } });
    expect(byBody.data!.resolved?.city).toBe('Chicago');

    const batch = await client.POST('/api/locations/batch', { body: { zips: ['60601', '10001'] } });
    expect(batch.data!.results.map((r) => r.zip)).toEqual(['60601', '10001']);

    const geocode = await client.GET('/api/locations/geocode', { params: { query: { zip: '60601' } } });
    expect(geocode.data!.found).toBe(true);

    const which = await client.GET('/api/locations/which-carriers', { params: { query: { state: 'IL' } } });
    expect(which.response.status).toBe(200);

    const reach = await client.GET('/api/locations/can-reach', { params: { query: { zip: '60601', carrier: 'carrier-f' } } });
    expect(reach.response.status).toBe(200);

    const refused = await client.GET('/api/locations', { params: { query: { zip: '60601', state: 'NY' } } });
    expect([refused.response.status, refused.error]).toEqual([400, { error: 'zip 60601 is in IL, not in state NY' }]);
  });

  it("calls a carrier's own endpoints, path parameters and batch bodies included", async () => {
    const list = await client.GET('/api/carrier-a-location', { params: { query: { zip: '60601' } } });
    const station = list.data!.locations[0]!.terminalCode;
    const points = await client.GET('/api/carrier-a-location/station/{num}', { params: { path: { num: station }, query: { page: 1 } } });
    expect(points.response.status).toBe(200);
    const days = await client.GET('/api/carrier-a-location/service-days', { params: { query: { zip: '60601', date: '2026-03-02' } } });
    expect(days.response.status).toBe(200);
    const countries = await client.POST('/api/carrier-c-location/batch', { body: { country_codes: ['US', 'de'] } });
    expect(countries.response.status).toBe(200);
    const country = await client.GET('/api/carrier-c-location/country/{code}', { params: { path: { code: 'US' } } });
    expect(country.data!.total).toBeGreaterThan(0);
  });

  it('calls every operation of the document with its example and gets a 200', async () => {
    const doc = await (await fetch(`${base}/openapi.json`)).json();
    let called = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const params: Record<'query' | 'path', Record<string, unknown>> = { query: {}, path: {} };
        for (const p of op.parameters ?? []) if (p.example !== undefined) params[p.in as 'query' | 'path'][p.name] = p.example;
        const body = op.requestBody?.content['application/json'].example;
        // The loop's paths are the document's, not literals: the per-call types are the tests above.
        const reply = await (client.request as any)(method, path, { params, ...(body ? { body } : {}) });
        expect(reply.response.status, op.operationId).toBe(200);
        called++;
      }
    }
    expect(called).toBeGreaterThan(40);
  });
});
