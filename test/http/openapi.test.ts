// The published OpenAPI document: generated from the route table and the response schemas, so it
// lists exactly the served routes with their parameters, bodies, 200 schemas and error answers.

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../adapters/http/openapi.js';
import { buildRoutes, PLANS } from '../../adapters/http/app.js';
import { createTestApp, KEYS, loopbackServers, sampleEngine } from './fixtures.js';

const routes = buildRoutes(sampleEngine());
const doc = buildOpenApiDocument(routes, '1.0.0') as any;

/** Every operation of the document with its method and path. */
const operations: { method: string; path: string; op: any }[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, any>).map(([method, op]) => ({ method, path, op })),
);
const param = (path: string, method: string, name: string) => doc.paths[path][method].parameters.find((p: any) => p.name === name);

describe('the OpenAPI document', () => {
  it('lists every served route, and the health report, and nothing that is not served', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = routes.map((r) => `${r.method} ${r.path.replace(/:([a-z]+)/g, '{$1}')}`);
    expect(documented.sort()).toEqual([...served, 'GET /api/health'].sort());
  });

  it('secures every route but the health report with the apikey header scheme', () => {
    expect(doc.components.securitySchemes.apikey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.security).toEqual([{ apikey: [] }]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
  });

  it('documents parameters, bodies, the 200 schema and the error answers of each operation', () => {
    const search = doc.paths['/api/locations'].get;
    expect(search.parameters.map((p: any) => p.name)).toEqual(['zip', 'city', 'state', 'radius', 'carriers']);
    expect(search.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchResult' });
    expect(Object.keys(search.responses).sort()).toEqual(['200', '400', '401', '429', '503']);
    expect(search.responses['429'].headers['Retry-After']).toBeDefined();

    const station = doc.paths['/api/carrier-a-location/station/{num}'].get;
    expect(station.parameters).toContainEqual(expect.objectContaining({ in: 'path', name: 'num', required: true }));

    const batch = doc.paths['/api/carrier-c-location/batch'].post;
    expect(batch.requestBody.content['application/json'].schema.required).toEqual(['country_codes']);

    // 404 for an unknown id; 400 for one that is not percent-encoded UTF-8.
    expect(Object.keys(doc.paths['/api/drop-points/{id}'].get.responses).sort()).toEqual(['200', '400', '401', '404', '429', '503']);
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error'] });
  });
});

describe('what the document states of each operation', () => {
  it('names every operation with a unique camelCase operationId, the Engine method where there is one', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    const engine = sampleEngine() as unknown as Record<string, unknown>;
    const byPath = (method: string, path: string) => doc.paths[path][method].operationId;
    for (const [method, path, name] of [
      ['get', '/api/locations', 'search'], ['post', '/api/locations/batch', 'searchBatch'], ['get', '/api/locations/geocode', 'geocode'],
      ['get', '/api/locations/which-carriers', 'whichCarriers'], ['get', '/api/locations/can-reach', 'canReach'],
      ['get', '/api/drop-points', 'dropPoints'], ['get', '/api/drop-points/{id}', 'dropPoint'],
    ] as const) {
      expect(byPath(method, path)).toBe(name);
      expect(typeof engine[name]).toBe('function');
    }
    expect(byPath('get', '/api/carrier-a-location')).toBe('carrierLocationsCarrierA');
    expect(byPath('get', '/api/carrier-a-location/station/{num}')).toBe('terminalPointsCarrierA');
    expect(byPath('post', '/api/carrier-c-location/batch')).toBe('carrierBatchCarrierC');
  });

  it('declares every tag it uses, with a description; license and servers', () => {
    const declared = new Map(doc.tags.map((t: any) => [t.name, t.description]));
    for (const { op } of operations) for (const tag of op.tags) expect(declared.get(tag), tag).toMatch(/\w/);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.servers).toEqual([{ url: '.', description: 'where this document is served' }]);
  });

  it('states bounds and defaults: radius 1-100 default 25, page an integer from 1', () => {
    expect(param('/api/locations', 'get', 'radius').schema).toMatchObject({ type: 'number', minimum: 1, maximum: 100, default: 25 });
    expect(param('/api/drop-points', 'get', 'page').schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(param('/api/drop-points', 'get', 'page').schema.anyOf).toBeUndefined();
  });

  it('states the patterns of ZIPs, states and batch entries, and text that must not be blank', () => {
    for (const { op } of operations) {
      for (const p of op.parameters ?? []) {
        if (!/zip$/.test(p.name)) continue;
        // A schema of several patterns holds them in allOf: a value must match each.
        const patterns = [p.schema.pattern, ...(p.schema.allOf ?? []).map((a: any) => a.pattern)].filter(Boolean).map((x) => new RegExp(x, 'u'));
        const matches = (value: string) => patterns.every((pattern) => pattern.test(value));
        expect([matches('60601'), matches('6060'), matches('6060x')], `${op.operationId} ${p.name}`).toEqual([true, false, false]);
      }
    }
    expect(param('/api/locations', 'get', 'state').schema.pattern).toBe('^[A-Za-z]{2}$');
    const zips = doc.paths['/api/locations/batch'].post.requestBody.content['application/json'].schema.properties.zips;
    const largest = Math.max(...Object.values(PLANS).map((p) => p.batchLimit));
    expect(zips).toMatchObject({ type: 'array', minItems: 1, maxItems: largest, uniqueItems: true });
    const entry = new RegExp(zips.items.pattern);
    expect(['60601', '60601-1234', '6060', 'x'].map((z) => entry.test(z))).toEqual([true, true, false, false]);
    expect(doc.paths['/api/locations/batch'].post.description).toMatch(/basic 10, pro 20, enterprise 50/);
    const codes = doc.paths['/api/carrier-c-location/batch'].post.requestBody.content['application/json'].schema.properties.country_codes;
    expect(codes.items.pattern).toBe('^[A-Za-z]{2}$');
    const q = param('/api/carrier-a-location/search', 'get', 'q');
    expect(q.required).toBe(true);
    expect(q.schema.minLength).toBe(1);
    const date = param('/api/carrier-a-location/service-days', 'get', 'date');
    expect(date.schema.format).toBe('date');
    expect(date.schema.description).toMatch(/1970-01-01 to 2999-12-24/);
  });

  it("lists the data's carrier ids, can-reach carriers, regions and states as enums", () => {
    const engine = sampleEngine();
    const unified = engine.carriers.filter((c) => c.unified).map((c) => c.id);
    expect(param('/api/locations', 'get', 'carriers').schema.items.enum).toEqual(unified);
    const body = doc.paths['/api/search'].post.requestBody.content['application/json'].schema;
    expect(body.properties.carriers.items.enum).toEqual(unified);
    expect(param('/api/locations/can-reach', 'get', 'carrier').schema.enum).toEqual(engine.carriers.filter((c) => c.canReach).map((c) => c.id));
    expect(param('/api/carrier-d-location', 'get', 'region').schema.enum).toContain('midwest');
    // The 50 states and DC: the gazetteer files territories (PR, GU, ...) as countries of their own.
    const states = param('/api/locations', 'get', 'state').schema.enum;
    expect([states.length, states]).toEqual([51, expect.arrayContaining(['IL', 'NY', 'DC'])]);
    expect(states).not.toContain('PR');
    expect(param('/api/carrier-b-location/coverage', 'get', 'state').schema.enum).toEqual(states);
  });

  it("says what a search word is as the server counts it: each q its patterns accept is searched, any other is a 400", async () => {
    const q = param('/api/carrier-c-location/search', 'get', 'q').schema;
    // JSON Schema's patterns are ECMA-262 regular expressions, read as Unicode (as Ajv reads them).
    const patterns: RegExp[] = [q.pattern, ...(q.allOf ?? []).map((a: any) => a.pattern)].filter(Boolean).map((p: string) => new RegExp(p, 'u'));
    const documented = (text: string) => patterns.every((p) => p.test(text));
    const app = createTestApp();
    const searched = async (text: string) => {
      const reply = await app.handle({ method: 'GET', path: '/api/carrier-c-location/search', query: { q: text }, headers: { 'x-api-key': KEYS.enterprise }, body: undefined });
      expect([200, 400], JSON.stringify(text)).toContain(reply.status);
      return reply.status === 200;
    };
    // Written by hand: a word is 2 characters or more, an accent's combining mark not counted.
    const cases: [string, boolean][] = [
      ['ab', true], ['a b', false], ['\u00e9', false], ['e\u0301', false], ['e\u0301e', true], ['\u0301ab', true],
      ['\u0397\u0313\u0300\u0345', false], ['x\u0301 \u0301y', false], ['\u0130z', true], ['\ud55c', false],
    ];
    for (const [text, word] of cases) {
      expect(documented(text), JSON.stringify(text)).toBe(word);
      expect(await searched(text), JSON.stringify(text)).toBe(word);
    }
    const letters = fc.constantFrom('e', 'Z', ' ', '\t', '\u0301', '\u0313', '\u0345', '\u1f9c', '\u00e9', '\u0130', '1');
    await fc.assert(
      fc.asyncProperty(fc.array(letters, { maxLength: 6 }).map((a) => a.join('')), async (text) => {
        expect(await searched(text), JSON.stringify(text)).toBe(documented(text));
      }),
      { numRuns: 500 },
    );
  });

  it('states the place rule: a body as anyOf of required sets, a query as x-requires-one-of and in words', () => {
    const body = doc.paths['/api/search'].post.requestBody.content['application/json'].schema;
    expect(body.anyOf).toEqual([{ required: ['zip'] }, { required: ['city'] }, { required: ['state'] }]);
    for (const path of ['/api/locations', '/api/locations/which-carriers', '/api/locations/can-reach']) {
      expect(doc.paths[path].get['x-requires-one-of']).toEqual(['zip', 'city', 'state']);
      expect(doc.paths[path].get.description).toMatch(/at least one of `zip`, `city` and `state`/);
    }
  });

  it('states the request body limit', () => {
    expect(doc.paths['/api/search'].post.requestBody.description).toMatch(/at most 65536 bytes/);
  });

  it('links search answers to the per-carrier list by ZIP, and pages to their terminals and drop points', () => {
    const links = doc.paths['/api/locations'].get.responses['200'].links;
    expect(links.carrierLocationsCarrierA).toMatchObject({ operationId: 'carrierLocationsCarrierA', parameters: { zip: '$request.query.zip' } });
    expect(doc.paths['/api/search'].post.responses['200'].links.carrierLocationsCarrierA.parameters).toEqual({ zip: '$request.body#/zip' });
    expect(doc.paths['/api/carrier-a-location'].get.responses['200'].links.terminalPoints.operationId).toBe('terminalPointsCarrierA');
    expect(doc.paths['/api/drop-points'].get.responses['200'].links.dropPoint.operationId).toBe('dropPoint');
    // Every link names an operation of the document, with parameters that operation has.
    for (const { op } of operations) {
      for (const link of Object.values<any>(op.responses['200']?.links ?? {})) {
        const target = operations.find((o) => o.op.operationId === link.operationId);
        expect(target, link.operationId).toBeDefined();
        for (const name of Object.keys(link.parameters)) expect(target!.op.parameters.map((p: any) => p.name)).toContain(name);
      }
    }
  });
});

describe("the document's examples, asked of a real server", () => {
  const servers = loopbackServers();
  afterAll(() => servers.closeAll());

  it('has an example request and response for every operation, and the server answers each request with its response', async () => {
    const base = await servers.listen(createTestApp());
    // A served document: the examples a client reads are those of the running server.
    const served = await (await fetch(`${base}/openapi.json`)).json();
    let asked = 0;
    for (const [path, item] of Object.entries<any>(served.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const expected = op.responses['200'].content['application/json'].example;
        expect(expected, op.operationId).toBeDefined();
        let url = path;
        const query = new URLSearchParams();
        for (const p of op.parameters ?? []) {
          if (p.required) expect(p.example, `${op.operationId} ${p.name}`).toBeDefined();
          if (p.example === undefined) continue;
          if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(p.example));
          else for (const v of [p.example].flat()) query.append(p.name, String(v));
        }
        const body = op.requestBody?.content['application/json'].example;
        if (op.requestBody) expect(body, op.operationId).toBeDefined();
        const reply = await fetch(`${base}${url}${query.size ? `?${query}` : ''}`, {
          method: method.toUpperCase(),
          headers: { 'x-api-key': KEYS.enterprise, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : null,
        });
        expect(reply.status, op.operationId).toBe(200);
        const answer = await reply.json();
        if (op.operationId === 'health') {
          // Timings and the time differ run by run: the status and the probes' names are the example's.
          expect([answer.status, answer.probes.map((p: any) => p.name)]).toEqual([expected.status, expected.probes.map((p: any) => p.name)]);
        } else {
          expect(answer, op.operationId).toEqual(expected);
        }
        asked++;
      }
    }
    expect(asked).toBe(operations.length);
  });
});
