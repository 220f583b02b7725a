import { describe, expect, it } from 'vitest';
import { createLambdaHandler, handler } from '../../adapters/lambda.js';
import type { LambdaEvent } from '../../adapters/lambda.js';
import { describeApiContract } from './contract.js';
import { API_KEYS, createTestApp, KEYS } from './fixtures.js';
import { httpApiEvent, lambdaSend, replyOf, restApiEvent } from './senders.js';

describeApiContract('Lambda, API Gateway REST API (payload v1)', () =>
  lambdaSend(createLambdaHandler(createTestApp()), (r) => restApiEvent(r)),
);
describeApiContract('Lambda, API Gateway HTTP API (payload v2)', () =>
  lambdaSend(createLambdaHandler(createTestApp()), (r) => httpApiEvent(r)),
);
describeApiContract('Lambda, Function URL', () =>
  lambdaSend(createLambdaHandler(createTestApp()), (r) => httpApiEvent(r, { functionUrl: true })),
);

describe('Lambda event details', () => {
  const lambda = createLambdaHandler(createTestApp());
  const batch = { method: 'POST', path: '/api/locations/batch', headers: { 'x-api-key': KEYS.pro }, body: '{"zips":["60601","10001"]}' };

  it.each([
    ['REST API', restApiEvent(batch, { base64: true })],
    ['HTTP API', httpApiEvent(batch, { base64: true })],
    ['Function URL', httpApiEvent(batch, { base64: true, functionUrl: true })],
  ] as [string, LambdaEvent][])('decodes a base64 body (%s)', async (_shape, event) => {
    const reply = replyOf(await lambda(event));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).count).toBe(2);
  });

  it('strips a named HTTP API stage from the path', async () => {
    const event = httpApiEvent({ method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } }, { stage: 'prod' });
    expect(event.rawPath).toBe('/prod/api/locations/geocode');
    const reply = replyOf(await lambda(event));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).zip).toBe('60601');
  });

  it('answers the REST API result shape for v1 and the v2 shape for v2', async () => {
    const request = { method: 'GET', path: '/api/health' };
    const v1 = await lambda(restApiEvent(request));
    const v2 = await lambda(httpApiEvent(request));
    expect(v1).toMatchObject({ statusCode: 200, isBase64Encoded: false, body: expect.any(String) });
    expect(v2).toMatchObject({ statusCode: 200, isBase64Encoded: false, body: expect.any(String) });
    expect(Object.keys(v1).sort()).toEqual(['body', 'headers', 'isBase64Encoded', 'statusCode']);
  });

  it('keeps every value of a repeated v1 query parameter', async () => {
    const reply = replyOf(await lambda(restApiEvent({
      method: 'GET', path: '/api/locations', query: { zip: '60601', carriers: ['carrier-a', 'carrier-b'] }, headers: { 'x-api-key': KEYS.pro },
    })));
    expect(JSON.parse(reply.body).carriers).toEqual(['carrier-a', 'carrier-b']);
  });

  it('refuses an event of another kind with a JSON 400', async () => {
    const reply = replyOf(await lambda({ Records: [] } as unknown as LambdaEvent));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({ error: expect.stringMatching(/unsupported event/) });
  });
});

describe('the exported handler', () => {
  it('fails without API_KEYS saying what to set, and starts on the next invocation once it is set', async () => {
    delete process.env.API_KEYS;
    process.env.LOG_LEVEL = 'silent';
    const health = httpApiEvent({ method: 'GET', path: '/api/health' });
    await expect(handler(health)).rejects.toThrow(/API_KEYS is required on Lambda: set it to key:plan/);
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
