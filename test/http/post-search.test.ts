// POST /api/search: the unified search with its parameters in a JSON body. For the same parameters
// it must answer exactly what GET /api/locations answers (status and body, byte for byte), cost one
// call like it, and explain body mistakes in the same words.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestApp, KEYS } from './fixtures.js';

const app = createTestApp();
const headers = { 'x-api-key': KEYS.enterprise };
const get = (query: Record<string, string | string[]>) => app.handle({ method: 'GET', path: '/api/locations', query, headers, body: undefined });
const post = (body: string) => app.handle({ method: 'POST', path: '/api/search', query: {}, headers, body });

const params = fc.record(
  {
    zip: fc.oneof(fc.constantFrom('60601', '10001', '75201', '99501', '00000', '96910', '1234', ''), fc.stringMatching(/^\d{5}$/)),
    city: fc.constantFrom('st louis', 'Springfield', 'Chicago', 'Nowhere', 'ft worth', ' '),
    state: fc.constantFrom('MO', 'il', 'TX', 'ZZ', 'Texas'),
    radius: fc.oneof(fc.integer({ min: -5, max: 120 }), fc.double({ min: 0, max: 110, noNaN: true })),
    carriers: fc.oneof(
      fc.subarray(['carrier-a', 'carrier-e', 'carrier-h', 'carrier-j', 'bogus']),
      fc.subarray(['carrier-b', 'carrier-f', 'nope']).map((ids) => ids.join(',')),
    ),
  },
  { requiredKeys: [] },
);

/** The query string a GET client would send for the same parameters. */
function asQuery(p: { zip?: string; city?: string; state?: string; radius?: number; carriers?: string | string[] }) {
  const query: Record<string, string | string[]> = {};
  if (p.zip !== undefined) query.zip = p.zip;
  if (p.city !== undefined) query.city = p.city;
  if (p.state !== undefined) query.state = p.state;
  if (p.radius !== undefined) query.radius = String(p.radius);
  // An empty list names no carrier, as `carriers=` does: both are the same 400.
  if (p.carriers !== undefined) query.carriers = Array.isArray(p.carriers) ? p.carriers.join(',') : p.carriers;
  return query;
}

describe('POST /api/search', () => {
  it('answers exactly what GET /api/locations answers for the same parameters', async () => {
    let ok = 0;
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const [byGet, byPost] = await Promise.all([get(asQuery(p)), post(JSON.stringify(p))]);
        expect(byPost.status).toBe(byGet.status);
        expect(byPost.body).toBe(byGet.body);
        if (byGet.status === 200) ok++;
      }),
      { numRuns: 300, seed: 20261122 },
    );
    // Both the answers and the 400s were compared, not only one kind.
    expect(ok).toBeGreaterThan(30);
  });

  it('counts one call, like the GET form', async () => {
    const counted = createTestApp();
    const before = await counted.handle({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers, body: undefined });
    const reply = await counted.handle({ method: 'POST', path: '/api/search', query: {}, headers, body: '{"zip":"60601","carriers":["carrier-a","carrier-b"]}' });
    expect(reply.status).toBe(200);
    expect(Number(before.headers['X-RateLimit-Remaining']) - Number(reply.headers['X-RateLimit-Remaining'])).toBe(1);
  });

  it('explains body mistakes, naming the field', async () => {
    const cases: [string, RegExp][] = [
      ['', /request body is required/],
      ['[]', /request body must be a JSON object/],
      ['"60601"', /request body must be a JSON object/],
      ['{"zip":', /not valid JSON/],
      ['{}', /one of zip, city or state is required/],
      ['{"zip":60601}', /^zip must be a string of 5 digits or ZIP\+4 \(12345-6789\)$/],
      ['{"zip":"6060"}', /^zip must be 5 digits or ZIP\+4 \(12345-6789\)$/],
      ['{"zip":"60601","radius":"far"}', /^radius must be a number from 1 to 100$/],
      ['{"zip":"60601","radius":true}', /^radius must be a number$/],
      ['{"zip":"60601","carriers":7}', /^carriers must be a list of carrier ids or a comma-separated string$/],
      ['{"zip":"60601","carriers":["carrier-a",7]}', /^carriers must be a list of carrier ids or a comma-separated string$/],
      ['{"city":["St Louis"],"state":"MO"}', /^city must be a string$/],
      ['{"zip":"10001","state":"TX"}', /^zip 10001 is in NY, not in state TX$/],
    ];
    for (const [body, error] of cases) {
      const reply = await post(body);
      expect(reply.status, body).toBe(400);
      expect(JSON.parse(reply.body).error, body).toMatch(error);
    }
  });

  it('is documented with its body in the OpenAPI document', async () => {
    const doc = JSON.parse((await app.handle({ method: 'GET', path: '/openapi.json', query: {}, headers: {}, body: undefined })).body);
    const operation = doc.paths['/api/search'].post;
    const schema = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['carriers', 'city', 'radius', 'state', 'zip']);
    expect(operation.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/SearchResult');
  });
});
