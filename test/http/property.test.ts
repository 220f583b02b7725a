// Random paths, query strings, headers and bodies thrown at the core: whatever arrives, the answer
// is one of the documented statuses, and every error is JSON `{ "error": "<text>" }` without a
// stack trace. A 500 here means some input reaches code that does not expect it.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../adapters/http/app.js';
import { buildRoutes } from '../../adapters/http/app.js';
import { createTestApp, KEYS, sampleEngine } from './fixtures.js';

const routes = buildRoutes(sampleEngine());
const routePaths = routes.map((r) => r.path);
const segmentWords = [...new Set(routePaths.flatMap((p) => p.split('/')).filter((s) => s && !s.startsWith(':')))];

const segment = fc.oneof(
  fc.constantFrom(...segmentWords, 'search', 'article', 'docs', 'health', 'constructor', '__proto__', 'toString', '..', '.', '%', '%2F', '%E0%A4%A', ''),
  fc.string({ maxLength: 12 }),
);

const path = fc.oneof(
  // A real route with random path parameters.
  fc.tuple(fc.constantFrom(...routePaths), fc.string({ maxLength: 20 })).map(([p, value]) =>
    p.replace(/:[a-z]+/g, encodeURIComponent(value) || 'x'),
  ),
  fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  fc.webPath(),
);

const paramName = fc.oneof(
  fc.constantFrom(
    'zip', 'city', 'state', 'radius', 'carriers', 'carrier', 'q', 'page', 'origin_zip', 'dest_zip',
    'date', 'country_code', 'region', 'country', '__proto__', 'constructor', 'toString',
  ),
  fc.string({ maxLength: 8 }),
);

const paramValue = fc.oneof(
  fc.constantFrom('60601', '10001', '00000', 'IL', 'il', 'Chicago', 'st louis', 'carrier-a', 'carrier-e,carrier-j', 'US', 'midwest',
    '0', '1', '25', '100', '101', '-1', '1e2', '0x10', 'NaN', 'Infinity', '', ' ', '2026-02-29', '2024-02-29'),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

/** Raw query strings, sometimes encoded properly and sometimes not at all. */
const query = fc.oneof(
  fc.array(fc.tuple(paramName, paramValue), { maxLength: 6 }).map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'),
  ),
  fc.string({ maxLength: 60 }),
);

const zipList = fc.array(fc.oneof(fc.constantFrom('60601', '10001', '90210', '00000', 'x'), fc.string({ maxLength: 6 })), { maxLength: 60 });
const body = fc.option(
  fc.oneof(
    zipList.map((zips) => JSON.stringify({ zips })),
    fc.array(fc.constantFrom('US', 'de', 'XX', 'USA', ''), { maxLength: 12 }).map((country_codes) => JSON.stringify({ country_codes })),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.json(),
    fc.string({ maxLength: 80 }),
  ),
  { nil: undefined },
);

const request = fc.record({
  method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'),
  path,
  query,
  key: fc.constantFrom<string | undefined>(KEYS.pro, KEYS.pro, KEYS.basic, KEYS.spent, '', 'wrong', undefined),
  requestId: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
  body,
});

/**
 * Most random paths miss every route; these hit one, with its own method, mostly a valid key, and
 * query strings built from the route's own parameter names, sometimes repeated.
 */
const routedRequest = fc.constantFrom(...routes).chain((route) => {
  const names = Object.keys(route.query?._zod.innerType.shape ?? {});
  const name = names.length ? fc.oneof(fc.constantFrom(...names), paramName) : paramName;
  return fc.record({
    method: fc.constant(route.method),
    path: fc
      .oneof(fc.constantFrom('100', '101', 'DE', 'us', 'NOPE'), fc.string({ maxLength: 12 }))
      .map((param) => route.path.replace(/:[a-z]+/g, encodeURIComponent(param) || 'x')),
    query: fc
      .array(fc.tuple(name, paramValue), { maxLength: 6 })
      .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')),
    key: fc.constantFrom<string | undefined>(KEYS.pro, KEYS.pro, KEYS.enterprise, KEYS.spent, 'wrong'),
    body,
  });
});

interface RandomRequest {
  method: string;
  path: string;
  query: string;
  key?: string | undefined;
  requestId?: string | undefined;
  body?: string | undefined;
}

describe('the core under random requests', () => {
  const app = createTestApp();

  async function answersAsDocumented(r: RandomRequest): Promise<void> {
    const reply = await app.handle({
      method: r.method,
      path: r.path,
      query: parseQueryString(r.query),
      headers: { 'x-api-key': r.key, 'x-request-id': r.requestId },
      body: r.body,
    });
    expect([200, 400, 401, 404, 405, 429]).toContain(reply.status);
    if (reply.status === 405) expect(reply.headers.Allow).toMatch(/^(GET, HEAD|POST)$/);
    expect(reply.headers['X-Request-Id']).toMatch(/^\S{1,128}$/);
    if (reply.status === 200 && !reply.headers['Content-Type'].startsWith('application/json')) return; // /docs
    const parsed = JSON.parse(reply.body);
    if (reply.status !== 200) {
      expect(Object.keys(parsed)).toEqual(['error']);
      expect(typeof parsed.error).toBe('string');
      expect(parsed.error.length).toBeGreaterThan(0);
      expect(parsed.error).not.toMatch(/\n\s+at /);
    }
    if (reply.status === 401) expect([KEYS.pro, KEYS.basic, KEYS.spent]).not.toContain(r.key);
  }

  it('answers any request with a documented status, and every error as JSON { error }', async () => {
    await fc.assert(fc.asyncProperty(request, answersAsDocumented), { numRuns: 1000 });
  });

  it('does the same for random input to the real routes', async () => {
    await fc.assert(fc.asyncProperty(routedRequest, answersAsDocumented), { numRuns: 2000 });
  });
});
