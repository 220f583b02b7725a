// The whole HTTP contract as one suite that any runtime can be plugged into with a `Send`:
// the documented cases, 401 and 429 on every keyed route, the order of checks, request ids and the
// endpoints that need no key.

import { beforeAll, describe, expect, it } from 'vitest';
import { healthReportSchema } from '../../adapters/http/document-schemas.js';
import { buildRoutes } from '../../adapters/http/app.js';
import { apiCases, type ApiRequest, type Send } from './cases.js';
import { KEYS, sampleEngine } from './fixtures.js';

/** Adds the key unless the request sets its own; '' sends none. */
function withKey(request: ApiRequest, key: string = KEYS.pro): ApiRequest {
  const headers: Record<string, string> = { ...(key ? { 'x-api-key': key } : {}), ...request.headers };
  if (headers['x-api-key'] === '') delete headers['x-api-key'];
  return { ...request, headers };
}

/** A request for every keyed route, path parameters filled with a placeholder. */
function everyRoute(): ApiRequest[] {
  return buildRoutes(sampleEngine()).map((route) => ({
    method: route.method,
    path: route.path.replace(/:[a-z]+/g, 'x1'),
    body: route.method === 'POST' ? '{}' : undefined,
  }));
}

/** What every keyed answer carries once the quota has been consulted. */
function expectRateLimitHeaders(headers: Record<string, string>): void {
  expect(Number(headers['x-ratelimit-limit'])).toBeGreaterThan(0);
  expect(Number(headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
  expect(Number(headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
}

export interface ContractOptions {
  /** The runtime hands over the query decoded (REST API events): requests with raw query text do not apply. */
  decodedQuery?: boolean;
  /** The runtime passes text on, not bytes (a REST API without binary media types): nothing comes gzipped. */
  textOnly?: boolean;
}

/** `setup` makes a fresh runtime (with its own quota counters) for this suite. */
export function describeApiContract(label: string, setup: () => Send | Promise<Send>, options: ContractOptions = {}): void {
  const applies = (request: ApiRequest) => !(options.decodedQuery && request.rawQuery !== undefined);
  describe(label, () => {
    let send: Send;
    beforeAll(async () => {
      send = await setup();
    });

    describe('documented cases', () => {
      it.each(apiCases(sampleEngine()).filter((c) => applies(c.request)).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
        const reply = await send(withKey(c.request));
        expect(reply.status, reply.body.slice(0, 300)).toBe(c.status);
        expect(reply.headers['content-type']).toMatch(/^application\/json/);
        const body = JSON.parse(reply.body);
        if (c.status === 200) {
          c.schema?.parse(body);
          if (c.expected) expect(body).toEqual(JSON.parse(JSON.stringify(c.expected())));
          c.check?.(body);
        } else {
          expect(body).toEqual({ error: expect.any(String) });
          if (c.error) expect(body.error).toMatch(c.error);
        }
        if (/no route/.test(body.error ?? '')) expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
        else expectRateLimitHeaders(reply.headers);
      });
    });

    it('answers 401 on every keyed route without a key, or with a wrong one, before validating', async () => {
      for (const request of everyRoute()) {
        for (const key of ['', 'not-a-key']) {
          const reply = await send(withKey(request, key));
          expect(reply.status, `${request.method} ${request.path}`).toBe(401);
          expect(JSON.parse(reply.body)).toEqual({ error: expect.stringMatching(/API key/) });
          expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
        }
      }
    });

    it('answers 429 with Retry-After on every keyed route once the quota is spent, before validating', async () => {
      const first = await send(withKey({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' } }, KEYS.spent));
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-remaining']).toBe('0');
      for (const request of everyRoute()) {
        const reply = await send(withKey(request, KEYS.spent));
        expect(reply.status, `${request.method} ${request.path}`).toBe(429);
        // The spent key's quota is one call (fixtures.ts).
        expect(JSON.parse(reply.body)).toEqual({ error: 'monthly quota of 1 call exceeded' });
        expectRateLimitHeaders(reply.headers);
        expect(reply.headers['x-ratelimit-remaining']).toBe('0');
        expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
      }
    });

    it('refuses text that is not percent-encoded UTF-8 only after route, key and quota', async () => {
      const unreadable: [ApiRequest, string][] = [
        [{ method: 'GET', path: '/api/locations', rawQuery: 'zip=60601&city=%E9' }, 'city is not valid percent-encoded UTF-8'],
        [{ method: 'GET', path: '/api/drop-points/%ZZ' }, 'id is not valid percent-encoded UTF-8'],
      ];
      // The spent key's one call, if no test before has made it.
      await send(withKey({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' } }, KEYS.spent));
      for (const [request, error] of unreadable.filter(([r]) => applies(r))) {
        const where = `${request.path}?${request.rawQuery ?? ''}`;
        expect((await send({ ...request, path: `/api/nowhere${request.path}` })).status, where).toBe(404);
        expect((await send(withKey(request, ''))).status, where).toBe(401);
        expect((await send(withKey(request, KEYS.spent))).status, where).toBe(429);
        const reply = await send(withKey(request));
        expect([reply.status, JSON.parse(reply.body)], where).toEqual([400, { error }]);
        expectRateLimitHeaders(reply.headers);
      }
    });

    it('answers a known path asked with a method it does not take with 405, Allow and JSON, before the key', async () => {
      const asked: [ApiRequest, string][] = [
        [{ method: 'DELETE', path: '/api/locations' }, 'GET, HEAD'],
        [{ method: 'GET', path: '/api/search' }, 'POST'],
        [{ method: 'PUT', path: '/api/locations/batch/' }, 'POST'],
        [{ method: 'POST', path: '/api/drop-points/anything' }, 'GET, HEAD'],
        [{ method: 'POST', path: '/openapi.json' }, 'GET, HEAD'],
        [{ method: 'PATCH', path: '/api/health' }, 'GET, HEAD'],
      ];
      for (const [request, allow] of asked) {
        const reply = await send({ ...request, headers: {} });
        const where = `${request.method} ${request.path}`;
        expect(reply.status, where).toBe(405);
        expect(reply.headers.allow, where).toBe(allow);
        expect(reply.headers['content-type'], where).toMatch(/^application\/json/);
        expect(JSON.parse(reply.body), where).toEqual({
          error: `method ${request.method} is not allowed on ${request.path.replace(/\/$/, '')}: use ${allow}`,
        });
      }
      // A path no route has stays a 404 whatever the method.
      expect((await send({ method: 'DELETE', path: '/api/nothing-here', headers: {} })).status).toBe(404);
    });

    it('checks the route before the key', async () => {
      const reply = await send({ method: 'GET', path: '/api/unknown', headers: {} });
      expect(reply.status).toBe(404);
    });

    it('counts each call once, a unified search included', async () => {
      const call = () => send(withKey({ method: 'GET', path: '/api/locations', query: { zip: '60601' } }, KEYS.basic));
      const before = Number((await call()).headers['x-ratelimit-remaining']);
      const after = Number((await call()).headers['x-ratelimit-remaining']);
      expect(before - after).toBe(1);
    });

    it('echoes a sane X-Request-Id and replaces one that is not', async () => {
      const kept = await send(withKey({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-request-id': 'trace-42.a' } }));
      expect(kept.headers['x-request-id']).toBe('trace-42.a');
      const replaced = await send(withKey({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-request-id': 'two words' } }));
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const generated = await send(withKey({ method: 'GET', path: '/api/nothing' }));
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('serves the health report without a key, with the probe labels of docs/http-api.md', async () => {
      const reply = await send({ method: 'GET', path: '/api/health', headers: {} });
      expect(reply.status).toBe(200);
      const report = healthReportSchema.parse(JSON.parse(reply.body));
      expect(report.status).toBe('healthy');
      const names = report.probes.map((p) => p.name);
      expect(names.slice(0, 5)).toEqual([
        'POST /api/search',
        'GET /api/drop-points?zip=',
        'GET /api/drop-points/:id',
        'GET /api/carrier-a-location?zip=',
        'GET /api/carrier-a-location/coverage',
      ]);
      expect(names).toContain('GET /api/carrier-c-location?country=');
      expect(names).toContain('GET /api/carrier-d-location?region=');
      expect(names).toContain('GET /api/carrier-h-location?country=');
      expect(names).toContain('GET /api/carrier-i-location/coverage');
      expect(names.slice(-2)).toEqual(['KV write', 'KV read']);
      expect(names).toHaveLength(1 + 2 + 9 * 2 + 2);
      expect(report.probes.every((p) => p.ok)).toBe(true);
    });

    it('serves the OpenAPI document and the docs page without a key', async () => {
      const doc = await send({ method: 'GET', path: '/openapi.json', headers: {} });
      expect(doc.status).toBe(200);
      const openapi = JSON.parse(doc.body);
      expect(openapi.openapi).toBe('3.1.0');
      expect(Object.keys(openapi.paths)).toContain('/api/carrier-a-location/station/{num}');
      const page = await send({ method: 'GET', path: '/docs', headers: {} });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('swagger-ui-bundle.js');
      const script = await send({ method: 'GET', path: '/docs/swagger-ui-bundle.js', headers: {} });
      expect(script.status).toBe(200);
      expect(script.body).toContain('SwaggerUIBundle');
      expect(script.headers.vary).toBe('Accept-Encoding');
      // Gzipped for a client that takes it, the same text once inflated (each sender inflates, as clients do).
      const packed = await send({ method: 'GET', path: '/docs/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(packed.status).toBe(200);
      expect(packed.body).toBe(script.body);
    });

    describe('compression', () => {
      it("sends a carrier's network gzipped to a client that takes gzip, the library's answer once inflated", async () => {
        const network = (encoding: string) => send(withKey({ method: 'GET', path: '/api/networks/carrier-f', headers: { 'accept-encoding': encoding } }));
        const plain = await network('identity');
        expect(plain.status).toBe(200);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(JSON.parse(plain.body)).toEqual(JSON.parse(JSON.stringify(sampleEngine().network('carrier-f'))));
        // Both forms say that the answer depends on Accept-Encoding (as on Accept: GeoJSON), so that a cache keeps them apart.
        expect(plain.headers.vary).toBe('Accept, Accept-Encoding');
        for (const encoding of ['gzip', 'br;q=1, gzip;q=0.5', 'gzip, deflate, br']) {
          const packed = await network(encoding);
          expect([packed.status, packed.headers['content-encoding'], packed.headers.vary]).toEqual([200, options.textOnly ? undefined : 'gzip', 'Accept, Accept-Encoding']);
          expect(packed.body).toBe(plain.body);
        }
        // gzip refused, or not offered: the text as it is.
        for (const encoding of ['gzip;q=0', 'br', '*;q=0, identity']) expect((await network(encoding)).headers['content-encoding']).toBeUndefined();
      });

      it('sends a look-up of a few kilobytes as it is, whatever the client takes', async () => {
        const reply = await send(withKey({ method: 'GET', path: '/api/locations', query: { zip: '60601' }, headers: { 'accept-encoding': 'gzip' } }));
        expect(reply.status).toBe(200);
        expect(reply.headers['content-encoding']).toBeUndefined();
        expect(reply.headers.vary).toBe('Accept');
      });
    });
  });
}
