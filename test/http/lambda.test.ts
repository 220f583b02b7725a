// The Lambda handler: the whole contract through each event shape, then each shape on an event
// written as AWS documents it (test/fixtures/lambda-events/), answered in its own result shape with
// the body the core gives to the request the event stands for.

import { readFileSync } from 'node:fs';
import type { ALBResult, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { HttpRequest } from '../../adapters/http/request.js';
import { InvalidInputError } from '../../engine/errors.js';
import { createLambdaHandler, handler } from '../../adapters/lambda.js';
import type { LambdaEvent } from '../../adapters/lambda.js';
import { describeApiContract } from './contract.js';
import { API_KEYS, createTestApp, KEYS } from './fixtures.js';
import { albEvent, httpApiEvent, lambdaSend, replyOf, restApiEvent } from './senders.js';
import type { ApiRequest } from './cases.js';

describeApiContract(
  'Lambda, API Gateway REST API (payload v1)',
  () => lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => restApiEvent(r)),
  { decodedQuery: true, textOnly: true },
);
describeApiContract('Lambda, API Gateway HTTP API (payload v2)', () =>
  lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => httpApiEvent(r)),
);
describeApiContract(
  "Lambda, REST API behind a custom domain's base path mapping (/carriers)",
  () => lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => restApiEvent(r, { basePath: '/carriers' })),
  { decodedQuery: true, textOnly: true },
);
describeApiContract("Lambda, HTTP API behind a custom domain's API mapping (/carriers/v1)", () =>
  lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => httpApiEvent(r, { basePath: '/carriers/v1' })),
);
describeApiContract("Lambda, HTTP API's $default route behind an API mapping (/carriers), BASE_PATH=/carriers", () =>
  lambdaSend(createLambdaHandler({ core: createTestApp(), basePath: '/carriers' }), (r) =>
    httpApiEvent(r, { basePath: '/carriers', defaultRoute: true }),
  ),
);
describeApiContract('Lambda, REST API resource /carriers/{proxy+} on a shared API, BASE_PATH=/carriers', () =>
  lambdaSend(createLambdaHandler({ core: createTestApp(), basePath: '/carriers' }), (r) => restApiEvent(r, { routePrefix: '/carriers' })),
  { decodedQuery: true, textOnly: true },
);
describeApiContract('Lambda, HTTP API route ANY /carriers/{proxy+} on a named stage, BASE_PATH=/carriers', () =>
  lambdaSend(createLambdaHandler({ core: createTestApp(), basePath: '/carriers' }), (r) => httpApiEvent(r, { routePrefix: '/carriers', stage: 'prod' })),
);
describeApiContract('Lambda, Function URL', () =>
  lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => httpApiEvent(r, { functionUrl: true })),
);
// Without multi-value headers the balancer keeps only the last value of a repeated parameter, which
// some documented cases repeat on purpose: that mode has its own test below.
describeApiContract('Lambda, Application Load Balancer (multi-value headers)', () =>
  lambdaSend(createLambdaHandler({ core: createTestApp() }), (r) => albEvent(r, { multiValue: true })),
);

/** An event as AWS sends it. */
function fixture(name: string): LambdaEvent {
  return JSON.parse(readFileSync(new URL(`../fixtures/lambda-events/${name}.json`, import.meta.url), 'utf8'));
}

describe('each event shape, from a documented event', () => {
  const lambda = createLambdaHandler({ core: createTestApp() });
  const core = createTestApp();
  const JSON_TYPE = 'application/json; charset=utf-8';

  /** The core's body for the request the event stands for, asked directly. */
  async function coreBody(request: Pick<HttpRequest, 'method' | 'path' | 'query'> & { body?: string }): Promise<string> {
    const response = await core.handle({ body: undefined, ...request, headers: { 'x-api-key': KEYS.pro } });
    expect(response.status).toBe(200);
    return response.body;
  }

  const stLouisSearch = { method: 'GET', path: '/api/locations', query: { city: 'st louis', state: 'MO', carriers: ['carrier-a', 'carrier-e'] } };

  it('REST API (payload v1): statusCode, headers, body, isBase64Encoded; repeated query values kept', async () => {
    const result = (await lambda(fixture('rest-api'))) as APIGatewayProxyResult;
    expect(Object.keys(result).sort()).toEqual(['body', 'headers', 'isBase64Encoded', 'statusCode']);
    expect(result).toMatchObject({ statusCode: 200, isBase64Encoded: false, headers: { 'Content-Type': JSON_TYPE } });
    expect(result.body).toBe(await coreBody(stLouisSearch));
  });

  it('HTTP API (payload v2): the v2 fields and no cookies; named stage stripped, base64 body decoded', async () => {
    const result = (await lambda(fixture('http-api'))) as APIGatewayProxyStructuredResultV2;
    expect(Object.keys(result).sort()).toEqual(['body', 'headers', 'isBase64Encoded', 'statusCode']);
    expect(result).not.toHaveProperty('cookies');
    expect(result).toMatchObject({ statusCode: 200, isBase64Encoded: false, headers: { 'Content-Type': JSON_TYPE } });
    expect(result.body).toBe(await coreBody({ method: 'POST', path: '/api/locations/batch', query: {}, body: '{"zips":["60601","10001"]}' }));
  });

  it('Function URL (payload v2): the v2 fields and no cookies', async () => {
    const result = (await lambda(fixture('function-url'))) as APIGatewayProxyStructuredResultV2;
    expect(Object.keys(result).sort()).toEqual(['body', 'headers', 'isBase64Encoded', 'statusCode']);
    expect(result).toMatchObject({ statusCode: 200, isBase64Encoded: false, headers: { 'Content-Type': JSON_TYPE } });
    expect(result.body).toBe(await coreBody({ method: 'GET', path: '/api/locations/which-carriers', query: { city: 'st louis', state: 'MO' } }));
  });

  it('Application Load Balancer: statusDescription and single-value headers; percent-encoded query decoded', async () => {
    const result = (await lambda(fixture('alb'))) as ALBResult;
    expect(Object.keys(result).sort()).toEqual(['body', 'headers', 'isBase64Encoded', 'statusCode', 'statusDescription']);
    expect(result).toMatchObject({ statusCode: 200, statusDescription: '200 OK', isBase64Encoded: false, headers: { 'Content-Type': JSON_TYPE } });
    expect(result.body).toBe(await coreBody({ method: 'GET', path: '/api/carrier-a-location/search', query: { q: 'galveston tx' } }));
  });

  it('Application Load Balancer with multi-value headers: answers in multiValueHeaders only', async () => {
    const result = (await lambda(fixture('alb-multi-value'))) as ALBResult;
    expect(Object.keys(result).sort()).toEqual(['body', 'isBase64Encoded', 'multiValueHeaders', 'statusCode', 'statusDescription']);
    expect(result).toMatchObject({ statusCode: 200, statusDescription: '200 OK', isBase64Encoded: false });
    expect(result.multiValueHeaders?.['Content-Type']).toEqual([JSON_TYPE]);
    expect(Object.values(result.multiValueHeaders ?? {}).every((values) => values.length === 1)).toBe(true);
    expect(result.body).toBe(await coreBody(stLouisSearch));
  });

  it('Application Load Balancer: statusDescription follows the status', async () => {
    const notFound = (await lambda({ ...fixture('alb'), path: '/api/nowhere' })) as ALBResult;
    expect(notFound).toMatchObject({ statusCode: 404, statusDescription: '404 Not Found' });
    const unauthorized = (await lambda({ ...fixture('alb'), headers: {} })) as ALBResult;
    expect(unauthorized).toMatchObject({ statusCode: 401, statusDescription: '401 Unauthorized' });
  });
});

describe('Lambda event details', () => {
  const lambda = createLambdaHandler({ core: createTestApp() });
  const batch = { method: 'POST', path: '/api/locations/batch', headers: { 'x-api-key': KEYS.pro }, body: '{"zips":["60601","10001"]}' };

  it.each([
    ['REST API', restApiEvent(batch, { base64: true })],
    ['HTTP API', httpApiEvent(batch, { base64: true })],
    ['Function URL', httpApiEvent(batch, { base64: true, functionUrl: true })],
    ['load balancer', albEvent(batch, { base64: true })],
    ['load balancer, multi-value headers', albEvent(batch, { base64: true, multiValue: true })],
  ] as [string, LambdaEvent][])('decodes a base64 body (%s)', async (_shape, event) => {
    const reply = replyOf(await lambda(event));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).count).toBe(2);
  });

  it('behind a base path mapping: one trailing slash is ignored, with or without it in the proxy parameter; two are not', async () => {
    const geocode = { method: 'GET', path: '/api/locations/geocode/', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } };
    const withSlash = restApiEvent(geocode, { basePath: '/carriers' });
    const withoutSlash = { ...withSlash, pathParameters: { proxy: 'api/locations/geocode' } };
    for (const event of [withSlash, withoutSlash, httpApiEvent(geocode, { basePath: '/carriers' })]) {
      const reply = replyOf(await lambda(event));
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body).location.city).toBe('Chicago');
    }
    expect(replyOf(await lambda(restApiEvent({ ...geocode, path: '/api/locations/geocode//' }, { basePath: '/carriers' }))).status).toBe(404);
  });

  it('drops BASE_PATH from the path where no route template tells the prefix, never from a proxy parameter', async () => {
    const geocode = { method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } };
    const behind = createLambdaHandler({ core: createTestApp(), basePath: '/carriers' });
    const statusOf = async (handler: typeof lambda, event: LambdaEvent) => replyOf(await handler(event)).status;
    // A $default route: without BASE_PATH the mapping key reads as part of the API's path.
    expect(await statusOf(lambda, httpApiEvent(geocode, { basePath: '/carriers', defaultRoute: true }))).toBe(404);
    expect(await statusOf(behind, httpApiEvent(geocode, { basePath: '/carriers', defaultRoute: true }))).toBe(200);
    // The API's own URL (no mapping) still answers; a prefix that only starts the same does not match.
    expect(await statusOf(behind, httpApiEvent(geocode, { defaultRoute: true }))).toBe(200);
    expect(await statusOf(behind, httpApiEvent(geocode, { basePath: '/carriersx', defaultRoute: true }))).toBe(404);
    // A load balancer's listener rule on /carriers/* forwards the path whole.
    for (const multiValue of [false, true]) {
      expect(await statusOf(behind, albEvent({ ...geocode, path: `/carriers${geocode.path}` }, { multiValue }))).toBe(200);
      expect(await statusOf(behind, albEvent({ ...geocode, path: '/carriers/' }, { multiValue }))).toBe(404);
      expect(await statusOf(behind, albEvent({ ...geocode, path: '/carriers/api/health' }, { multiValue }))).toBe(200);
    }
    // Where the route template tells the prefix, it decides: a mapping key of `api` in front of
    // routes that start with /api is dropped once, not twice (`/{proxy+}` has no literal to drop).
    const api = createLambdaHandler({ core: createTestApp(), basePath: '/api' });
    expect(await statusOf(api, httpApiEvent(geocode, { basePath: '/api' }))).toBe(200);
    expect(await statusOf(api, restApiEvent(geocode, { basePath: '/api' }))).toBe(200);
    expect(await statusOf(api, restApiEvent(geocode))).toBe(200);
  });

  it("drops BASE_PATH from the front of a route's literal segments: the service mounted under /carriers/{proxy+}", async () => {
    const behind = createLambdaHandler({ core: createTestApp(), basePath: '/carriers' });
    const headers = { 'x-api-key': KEYS.pro };
    // As API Gateway sends them for GET /carriers/api/locations/geocode?zip=60601 on a shared API whose
    // route (HTTP API) or resource (REST API) is /carriers/{proxy+}.
    const httpApi = {
      version: '2.0',
      routeKey: 'ANY /carriers/{proxy+}',
      rawPath: '/carriers/api/locations/geocode',
      rawQueryString: 'zip=60601',
      headers,
      queryStringParameters: { zip: '60601' },
      requestContext: {
        accountId: '123456789012', apiId: 'abc123', domainName: 'abc123.execute-api.us-east-1.amazonaws.com', domainPrefix: 'abc123',
        http: { method: 'GET', path: '/carriers/api/locations/geocode', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' },
        requestId: 'JKJaXmPLvHcESHA=', routeKey: 'ANY /carriers/{proxy+}', stage: '$default', time: '01/Jan/2026:00:00:00 +0000', timeEpoch: 1767225600000,
      },
      pathParameters: { proxy: 'api/locations/geocode' },
      isBase64Encoded: false,
    } as unknown as LambdaEvent;
    const restApi = {
      resource: '/carriers/{proxy+}',
      path: '/carriers/api/locations/geocode',
      httpMethod: 'GET',
      headers,
      multiValueHeaders: { 'x-api-key': [KEYS.pro] },
      queryStringParameters: { zip: '60601' },
      multiValueQueryStringParameters: { zip: ['60601'] },
      pathParameters: { proxy: 'api/locations/geocode' },
      stageVariables: null,
      requestContext: {
        accountId: '123456789012', apiId: 'abc123', httpMethod: 'GET', path: '/prod/carriers/api/locations/geocode', protocol: 'HTTP/1.1',
        identity: { sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' }, requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
        requestTimeEpoch: 1767225600000, resourceId: 'abcdef', resourcePath: '/carriers/{proxy+}', stage: 'prod',
      },
      body: null,
      isBase64Encoded: false,
    } as unknown as LambdaEvent;
    for (const event of [httpApi, restApi]) {
      const reply = replyOf(await behind(event));
      expect([reply.status, JSON.parse(reply.body).location?.city]).toEqual([200, 'Chicago']);
      // Without BASE_PATH the prefix is read as the API's own path: nothing tells it apart from a route.
      expect(replyOf(await lambda(event)).status).toBe(404);
    }
    // Behind a custom domain's mapping (/v1) too, and on the public paths.
    const geocode = { method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers };
    expect(replyOf(await behind(restApiEvent(geocode, { basePath: '/v1', routePrefix: '/carriers' }))).status).toBe(200);
    expect(replyOf(await behind(httpApiEvent(geocode, { basePath: '/v1', routePrefix: '/carriers' }))).status).toBe(200);
    expect(replyOf(await behind(httpApiEvent({ method: 'GET', path: '/api/health' }, { routePrefix: '/carriers' }))).status).toBe(200);
    // The proxy parameter's value is the API's path as it is: a route of its own that starts with
    // the prefix is not cut.
    expect(replyOf(await behind(httpApiEvent({ ...geocode, path: '/carriers/api/locations/geocode' }, { routePrefix: '/carriers' }))).status).toBe(404);
  });

  it('keeps the literal segments of a route that are the API\'s own (/api/{proxy+})', async () => {
    const geocode = { method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } };
    const apiRoute = (event: LambdaEvent & { pathParameters?: unknown }) => ({ ...event, pathParameters: { proxy: 'locations/geocode' } }) as LambdaEvent;
    const rest = { ...restApiEvent(geocode), resource: '/api/{proxy+}' };
    const http = { ...httpApiEvent(geocode, { stage: 'prod' }), routeKey: 'ANY /api/{proxy+}' };
    for (const handler of [lambda, createLambdaHandler({ core: createTestApp(), basePath: '/carriers' })]) {
      expect(replyOf(await handler(apiRoute(rest))).status).toBe(200);
      expect(replyOf(await handler(apiRoute(http))).status).toBe(200);
    }
  });

  it('routes an HTTP API whose stage is named as the API\'s first segment (api), with and without the stage in the path', async () => {
    const geocode = { method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } };
    // The execute-api URL: the stage leads the raw path (/api/api/locations/geocode).
    const staged = httpApiEvent(geocode, { stage: 'api' });
    expect(staged.rawPath).toBe('/api/api/locations/geocode');
    // A custom domain's mapping to the stage: the raw path holds no stage.
    const mapped = { ...staged, rawPath: '/api/locations/geocode' };
    // The $default route: nothing but the stage to take off.
    const { pathParameters: _, ...unrouted } = staged;
    const byDefault = { ...unrouted, routeKey: '$default' };
    for (const event of [staged, mapped, byDefault]) {
      const reply = replyOf(await lambda(event));
      expect([event.rawPath, event.routeKey, reply.status, JSON.parse(reply.body).location?.city]).toEqual([event.rawPath, event.routeKey, 200, 'Chicago']);
    }
  });

  it("sends the docs script gzipped where the service passes bytes on, under a load balancer's 1 MB limit", async () => {
    const script = { method: 'GET', path: '/docs/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip, deflate, br' } };
    const plain = replyOf(await lambda(albEvent({ ...script, headers: {} })));
    for (const event of [albEvent(script), albEvent(script, { multiValue: true }), httpApiEvent(script), httpApiEvent(script, { functionUrl: true })]) {
      const result = (await lambda(event)) as ALBResult;
      // AWS: "The maximum size of the response JSON that the Lambda function can send is 1 MB" (ALB).
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(1024 * 1024);
      expect(result.isBase64Encoded).toBe(true);
      const reply = replyOf(result);
      expect(reply.headers['content-encoding']).toBe('gzip');
      expect(reply.body).toBe(plain.body);
    }
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(1024 * 1024);
    // A REST API passes base64 on as text unless binary media types are set: it gets the text.
    const rest = (await lambda(restApiEvent(script))) as APIGatewayProxyResult;
    expect(rest.isBase64Encoded).toBe(false);
    expect(rest.headers?.['Content-Encoding']).toBeUndefined();
    expect(rest.body).toBe(plain.body);
  });

  it("answers with the caller's request id, else the invocation's", async () => {
    const health = { method: 'GET', path: '/api/health' };
    const context = { awsRequestId: '8476a536-e9f4-11e8-9739-2dfe598c3fcd' };
    const idOf = async (event: LambdaEvent, ctx?: typeof context) => replyOf(await lambda(event, ctx)).headers['x-request-id'];
    expect(await idOf(httpApiEvent(health), context)).toBe(context.awsRequestId);
    expect(await idOf(restApiEvent({ ...health, headers: { 'X-Request-Id': 'trace-42' } }), context)).toBe('trace-42');
    expect(await idOf(albEvent(health))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // A caller's id the logs cannot take (a space, too long) gives way to the invocation's, not to a new one.
    for (const id of ['a b', 'x'.repeat(129)]) {
      expect(await idOf(httpApiEvent({ ...health, headers: { 'X-Request-Id': id } }), context)).toBe(context.awsRequestId);
    }
  });

  it("answers a HEAD with GET's status and headers and no body", async () => {
    const geocode = { path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.enterprise } };
    for (const send of [httpApiEvent, restApiEvent, albEvent] as ((r: ApiRequest) => LambdaEvent)[]) {
      const get = replyOf(await lambda(send({ method: 'GET', ...geocode })));
      const head = replyOf(await lambda(send({ method: 'HEAD', ...geocode })));
      expect(JSON.parse(get.body).location.city).toBe('Chicago');
      expect([head.status, head.body, head.headers['content-type']]).toEqual([200, '', get.headers['content-type']]);
    }
  });

  it('refuses an event of another kind with a JSON 400', async () => {
    for (const event of [{ Records: [] }, { version: '2.0', rawPath: '/api/health', requestContext: {} }]) {
      const reply = replyOf(await lambda(event as unknown as LambdaEvent));
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toEqual({ error: expect.stringMatching(/unsupported event/) });
    }
  });

  // As on the servers (docs/http-api.md: route, key and quota before a body byte is read): a body that is not
  // UTF-8 matters only to a route that reads one, once the key and the quota allow it.
  it('decides route, key and quota before it decodes a body', async () => {
    const notUtf8 = (r: { method: string; path: string; headers?: Record<string, string> }) => {
      const event = httpApiEvent({ ...r, body: 'xx' }, { base64: true });
      event.body = Buffer.from([0xff, 0xfe]).toString('base64');
      return event;
    };
    const search = { method: 'GET', path: '/api/locations', query: { zip: '75201' } };
    const cases: [Record<string, unknown>, number, string | undefined][] = [
      [{ method: 'GET', path: '/nope' }, 404, 'no route for GET /nope'],
      [search, 401, 'missing or invalid API key: send it in the X-API-Key header'],
      [{ ...search, headers: { 'x-api-key': KEYS.pro } }, 200, undefined],
      [{ method: 'POST', path: '/api/search', headers: { 'x-api-key': KEYS.pro } }, 400, 'request body is not valid UTF-8'],
    ];
    for (const [request, status, error] of cases) {
      const reply = replyOf(await lambda(notUtf8(request as never)));
      expect([request.path, reply.status]).toEqual([request.path, status]);
      if (error) expect(JSON.parse(reply.body)).toEqual({ error });
      expect(reply.headers['x-request-id']).toBeTruthy();
    }
  });
});

describe("createLambdaHandler's target", () => {
  /** The message of the InvalidInputError that making a handler around `target` throws. */
  const refused = (target: unknown): string => {
    try {
      createLambdaHandler(target as never);
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidInputError);
      return (err as Error).message;
    }
    throw new Error('expected an InvalidInputError, but the handler was made');
  };

  it('is checked as the handler is made: a core given alone, or a wrong option, is an InvalidInputError naming it', () => {
    const core = createTestApp();
    const TAKES = 'createLambdaHandler takes { core, basePath }, or a function that resolves to them';
    expect(refused(core)).toBe(`${TAKES}: give the core as { core }, not the core itself`);
    expect(refused(undefined)).toBe(`${TAKES} (got undefined)`);
    expect(refused({ core: {} })).toBe('core must be the API core createApp returns (an object with serve)');
    expect(refused({ core, basePath: 5 })).toBe('basePath must be a string');
    expect(refused({ core, basePath: 'carriers' })).toBe('basePath must be a URL path such as /carriers or /carriers/v1');
    expect(refused({ core, basePath: '/carriers/../v1' })).toBe('basePath must be a URL path such as /carriers or /carriers/v1');
    expect(refused({ core, base: '/carriers' })).toBe('unknown option base: the options are core, basePath');
  });
});

describe('the exported handler', () => {
  it('without API_KEYS answers a JSON 500 and logs what to set; starts on the next invocation once it is set', async () => {
    delete process.env.API_KEYS;
    process.env.LOG_LEVEL = 'silent';
    const health = httpApiEvent({ method: 'GET', path: '/api/health' });
    const logged: string[] = [];
    const log = vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    try {
      const context = { awsRequestId: '8476a536-e9f4-11e8-9739-2dfe598c3fcd' };
      const refused = replyOf(await handler(health, context));
      expect([refused.status, JSON.parse(refused.body)]).toEqual([500, { error: 'internal error: the service could not start' }]);
      // The headers every answer carries, the request id taken as the core takes it.
      expect([refused.headers['x-request-id'], refused.headers['x-content-type-options']]).toEqual([context.awsRequestId, 'nosniff']);
      const traced = replyOf(await handler(restApiEvent({ method: 'GET', path: '/api/health', headers: { 'X-Request-Id': 'trace-42' } }), context));
      expect([traced.status, traced.headers['x-request-id']]).toEqual([500, 'trace-42']);
      // In the event's own result shape: a balancer with multi-value headers reads only those.
      const fromBalancer = (await handler(albEvent({ method: 'GET', path: '/api/health' }, { multiValue: true }))) as ALBResult;
      expect([fromBalancer.statusCode, fromBalancer.statusDescription, fromBalancer.headers]).toEqual([500, '500 Internal Server Error', undefined]);
      expect(fromBalancer.multiValueHeaders?.['Content-Type']).toEqual(['application/json; charset=utf-8']);
      expect(fromBalancer.multiValueHeaders?.['X-Content-Type-Options']).toEqual(['nosniff']);
      expect(fromBalancer.multiValueHeaders?.['X-Request-Id']?.[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(logged).toEqual([
        expect.stringMatching(/API_KEYS is required on Lambda: set it to key:plan/),
        expect.stringMatching(/API_KEYS is required/),
        expect.stringMatching(/API_KEYS is required/),
      ]);
    } finally {
      log.mockRestore();
    }
    process.env.API_KEYS = API_KEYS;
    expect(replyOf(await handler(health)).status).toBe(200);
  });

  it('builds one core per container from the environment and reuses it', async () => {
    process.env.API_KEYS = API_KEYS;
    process.env.LOG_LEVEL = 'silent';
    const call = async () =>
      replyOf(await handler(httpApiEvent({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.basic } })));
    const first = await call();
    const second = await call();
    expect(first.status).toBe(200);
    // The same in-memory quota counter answered both: the core was not rebuilt.
    expect(Number(first.headers['x-ratelimit-remaining']) - Number(second.headers['x-ratelimit-remaining'])).toBe(1);
  });
});
