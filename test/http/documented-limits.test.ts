// Each limit and value the docs name, at its exact boundary or to the letter: the largest request
// id kept and the first replaced, a body of exactly the limit and one byte more, the CORS headers
// docs/reliability.md lists, the health report's five seconds, a connection refused and closed.

import { afterAll, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { buildRoutes } from '../../adapters/http/app.js';
import { createHealthCheck } from '../../adapters/http/health.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import { KvUnavailableError } from '../../adapters/kv/store.js';
import { createLambdaHandler, type LambdaEvent } from '../../adapters/lambda.js';
import { openRaw, parseReply } from '../support/raw-http.js';
import { createTestApp, KEYS, loopbackServers, sampleEngine } from './fixtures.js';

const APP = 'https://app.example.com';
const request = (method: string, path: string, headers: Record<string, string> = {}, query: Record<string, string> = {}, body?: string) => ({
  method,
  path,
  query,
  headers,
  body,
});

describe('requests at the limits of http-api.md and reliability.md', () => {
  const app = createTestApp();

  it('a request id of 128 safe characters is kept; one of 129 is replaced by a new one', async () => {
    const kept = 'a'.repeat(128);
    expect((await app.handle(request('GET', '/api/health', { 'x-request-id': kept }))).headers['X-Request-Id']).toBe(kept);
    const replaced = (await app.handle(request('GET', '/api/health', { 'x-request-id': 'a'.repeat(129) }))).headers['X-Request-Id'];
    expect(replaced).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('an empty path parameter matches no route: a 404 before the key is asked for', async () => {
    expect((await app.handle(request('GET', '/api/drop-points//'))).status).toBe(404);
  });

  it('a body of exactly 65,536 bytes is read; one byte more is a 400', async () => {
    const json = JSON.stringify({ zips: ['60601'] });
    const atTheLimit = json + ' '.repeat(65_536 - json.length);
    const headers = { 'x-api-key': KEYS.pro, 'content-type': 'application/json' };
    expect((await app.handle(request('POST', '/api/locations/batch', headers, {}, atTheLimit))).status).toBe(200);
    const over = await app.handle(request('POST', '/api/locations/batch', headers, {}, `${atTheLimit} `));
    expect([over.status, JSON.parse(over.body)]).toEqual([400, { error: 'request body must be at most 65536 bytes' }]);
  });

  it('Content-Encoding names are case-insensitive (RFC 9110): IDENTITY is no encoding, and bad JSON is blamed on the JSON', async () => {
    const reply = await app.handle(request('POST', '/api/locations/batch', { 'x-api-key': KEYS.pro, 'content-encoding': 'IDENTITY' }, {}, '{"zips": ['));
    expect([reply.status, JSON.parse(reply.body)]).toEqual([400, { error: 'request body is not valid JSON' }]);
  });
});

describe('CORS, as reliability.md lists it', () => {
  const app = createTestApp({ corsOrigins: [APP] });
  const preflight = () => app.handle(request('OPTIONS', '/api/locations', { origin: APP, 'access-control-request-method': 'GET' }));

  it('an answer that can be GeoJSON, to a listed origin, varies on Accept and Origin', async () => {
    const reply = await app.handle(request('GET', '/api/locations', { origin: APP, 'x-api-key': KEYS.pro }, { zip: '60601' }));
    expect([reply.status, reply.headers.Vary]).toEqual([200, 'Accept, Origin']);
  });

  it('a preflight allows X-API-Key, Content-Type and X-Request-Id, for 600 seconds', async () => {
    const reply = await preflight();
    expect(reply.headers['Access-Control-Allow-Headers']).toBe('X-API-Key, Content-Type, X-Request-Id');
    expect(reply.headers['Access-Control-Max-Age']).toBe('600');
  });

  it('an OPTIONS without Access-Control-Request-Method is no preflight (Fetch): 405 naming the methods', async () => {
    const reply = await app.handle(request('OPTIONS', '/api/locations', { origin: APP }));
    expect([reply.status, reply.headers.Allow]).toEqual([405, 'GET, HEAD']);
  });
});

describe('the health report', () => {
  it('is unhealthy, 503, when the store reads no more though it still writes', async () => {
    class ReadsNothing extends MemoryKvStore {
      override async get(): Promise<string | null> {
        throw new KvUnavailableError('read refused');
      }
    }
    const reply = await createTestApp({ kv: new ReadsNothing() }).handle(request('GET', '/api/health'));
    expect([reply.status, JSON.parse(reply.body).status]).toEqual([503, 'unhealthy']);
  });

  it('is served again for 5 seconds, and run anew after them', async () => {
    const check = createHealthCheck(buildRoutes(sampleEngine()), new MemoryKvStore(), pino({ level: 'silent' }));
    let now = 1_000_000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const first = await check();
      now += 4_900;
      expect(await check()).toBe(first);
      now += 200;
      expect(await check()).not.toBe(first);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('a request the server refuses before the app', () => {
  const servers = loopbackServers();
  afterAll(() => servers.closeAll());

  it('two Host headers: a 400 that says Connection: close, and the connection closed', async () => {
    const url = await servers.listen(createTestApp(), 'node');
    const connection = await openRaw(url, 'GET /api/health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n');
    const closedSoon = await Promise.race([connection.closed.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 2_000))]);
    const reply = parseReply(connection.received());
    connection.socket.destroy();
    expect([reply.status, reply.headers.connection, closedSoon]).toEqual([400, 'close', true]);
  });
});

describe('a Lambda REST (v1) event with a repeated header', () => {
  it('reads its every value from multiValueHeaders, as node:http joins them, not only the last (headers)', async () => {
    const lambda = createLambdaHandler({ core: createTestApp() });
    // API Gateway's v1 proxy event for `Accept: application/geo+json` then `Accept: application/json;q=0.1`:
    // headers holds the last value, multiValueHeaders every value (AWS's documented event).
    const event = {
      resource: '/{proxy+}', path: '/api/locations', httpMethod: 'GET',
      headers: { 'X-API-Key': KEYS.pro, Accept: 'application/json;q=0.1' },
      multiValueHeaders: { 'X-API-Key': [KEYS.pro], Accept: ['application/geo+json', 'application/json;q=0.1'] },
      queryStringParameters: { zip: '60601' }, multiValueQueryStringParameters: { zip: ['60601'] },
      pathParameters: { proxy: 'api/locations' }, requestContext: { identity: { sourceIp: '203.0.113.7' } },
      body: null, isBase64Encoded: false,
    } as unknown as LambdaEvent;
    const result = (await lambda(event)) as { statusCode: number; headers: Record<string, string> };
    expect([result.statusCode, result.headers['Content-Type']]).toEqual([200, 'application/geo+json']);
  });
});
