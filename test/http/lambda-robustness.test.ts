// The Lambda handler answers whatever it is invoked with: events it cannot read are a JSON 400,
// never a throw; bodies already parsed by a test harness are JSON; headers are found in every map
// the documented event shapes (test/fixtures/lambda-events/) carry them in.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createLambdaHandler, type LambdaEvent } from '../../adapters/lambda.js';
import { processorFor, smallestEvents, unreadableField } from '../../adapters/lambda-events.js';
import { createTestApp, KEYS } from './fixtures.js';
import { replyOf } from './senders.js';

type Json = Record<string, unknown>;
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`../fixtures/lambda-events/${name}.json`, import.meta.url), 'utf8'));
const lambda = createLambdaHandler({ core: createTestApp() });
const invoke = async (event: unknown) => replyOf(await lambda(event as LambdaEvent));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('events the handler cannot read', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', '{"httpMethod":"GET"}'],
    ['an array', [fixture('rest-api')]],
    ['an empty object', {}],
  ])('%s is a JSON 400, with the headers every answer carries', async (_, event) => {
    const reply = await invoke(event);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({ error: expect.stringMatching(/^unsupported event/) });
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['x-request-id']).toMatch(UUID);
  });

  it("answers with the invocation's request id, as the core does for an event without one", async () => {
    const context = { awsRequestId: '8476a536-e9f4-11e8-9739-2dfe598c3fcd' };
    const unsupported = replyOf(await lambda(null as unknown as LambdaEvent, context));
    const unreadable = replyOf(await lambda({ ...fixture('http-api'), cookies: 'session=abc' } as unknown as LambdaEvent, context));
    for (const reply of [unsupported, unreadable]) {
      expect([reply.status, reply.headers['x-request-id'], reply.headers['x-content-type-options']]).toEqual([400, context.awsRequestId, 'nosniff']);
    }
  });

});

describe("the init phase's events, which build and compile the field checks", () => {
  it('are one well-formed event of each shape, readable by its checks', () => {
    const events = smallestEvents();
    const processors = events.map((event) => processorFor(event));
    expect(new Set(processors).size).toBe(3);
    for (const [i, event] of events.entries()) {
      expect(processors[i], JSON.stringify(event)).toBeDefined();
      expect(unreadableField(processors[i]!, event), JSON.stringify(event)).toBeUndefined();
    }
  });
});

describe('events of a known shape whose fields have other types', () => {
  // Each is an event as AWS documents it (the fixtures) with one field the handler reads of a type
  // AWS never sends there; the answer names that field.
  const cases: [string, string, string, Json][] = [
    ['REST (v1)', 'queryStringParameters.zip', 'rest-api', { queryStringParameters: { zip: 75201 }, multiValueQueryStringParameters: null }],
    ['REST (v1)', 'multiValueQueryStringParameters.city', 'rest-api', { multiValueQueryStringParameters: { city: 5 } }],
    ['REST (v1)', 'multiValueQueryStringParameters.city[1]', 'rest-api', { multiValueQueryStringParameters: { city: ['st louis', 5] } }],
    ['REST (v1)', 'headers.X-Api-Key', 'rest-api', { headers: { 'X-Api-Key': 42 }, multiValueHeaders: null }],
    ['REST (v1)', 'multiValueHeaders.Accept', 'rest-api', { multiValueHeaders: { Accept: 'application/json' } }],
    ['REST (v1)', 'headers', 'rest-api', { headers: 'X-Api-Key: test-key-pro' }],
    ['REST (v1)', 'pathParameters.proxy', 'rest-api', { pathParameters: { proxy: ['api', 'locations'] } }],
    ['REST (v1)', 'body', 'rest-api', { body: 12 }],
    ['REST (v1)', 'body', 'rest-api', { body: true }],
    ['REST (v1)', 'isBase64Encoded', 'rest-api', { isBase64Encoded: 'false' }],
    ['HTTP API (v2)', 'rawQueryString', 'http-api', { rawQueryString: 5 }],
    ['HTTP API (v2)', 'headers.x-api-key', 'http-api', { headers: { 'x-api-key': ['test-key-pro'] } }],
    ['HTTP API (v2)', 'cookies', 'http-api', { cookies: 'session=abc' }],
    ['HTTP API (v2)', 'cookies[1]', 'http-api', { cookies: ['session=abc', 7] }],
    ['HTTP API (v2)', 'body', 'http-api', { body: 12 }],
    ['HTTP API (v2)', 'isBase64Encoded', 'http-api', { isBase64Encoded: 'true' }],
    ['HTTP API (v2)', 'pathParameters.proxy', 'http-api', { pathParameters: { proxy: 3 } }],
    ['Function URL', 'rawQueryString', 'function-url', { rawQueryString: { city: 'st louis' } }],
    ['Function URL', 'headers.accept', 'function-url', { headers: { accept: null } }],
    ['Function URL', 'cookies[0]', 'function-url', { cookies: [{ session: 'abc' }] }],
    ['Function URL', 'body', 'function-url', { body: false }],
    ['Function URL', 'isBase64Encoded', 'function-url', { isBase64Encoded: 0 }],
    ['load balancer', 'queryStringParameters.q', 'alb', { queryStringParameters: { q: 77550 } }],
    ['load balancer', 'headers.x-api-key', 'alb', { headers: { 'x-api-key': 1 } }],
    ['load balancer, multi-value', 'multiValueHeaders.accept', 'alb-multi-value', { multiValueHeaders: { accept: 'application/json' } }],
  ];

  it.each(cases)('%s: %s of another type is a JSON 400 naming it', async (_shape, field, name, fields) => {
    const reply = await invoke({ ...fixture(name), ...fields });
    expect(reply.status).toBe(400);
    const { error } = JSON.parse(reply.body);
    expect(error.startsWith(`unreadable event: ${field}: `)).toBe(true);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['x-request-id']).toMatch(UUID);
  });

  it('says what it expected and got', async () => {
    const reply = await invoke({ ...fixture('rest-api'), queryStringParameters: { zip: 75201 }, multiValueQueryStringParameters: null });
    expect(JSON.parse(reply.body)).toEqual({ error: 'unreadable event: queryStringParameters.zip: expected string, received number' });
    const body = await invoke({ ...fixture('http-api'), body: 12 });
    expect(JSON.parse(body.body)).toEqual({ error: 'unreadable event: body: expected text, or JSON already parsed into an object or array' });
  });

  it('is refused before the key and the quota: it costs the key no call', async () => {
    // The spent key's quota is one call a month.
    const handler = createLambdaHandler({ core: createTestApp() });
    const geocode = (zip: unknown) => {
      const event = fixture('rest-api');
      event.path = '/api/locations/geocode';
      event.pathParameters = { proxy: 'api/locations/geocode' };
      event.headers = { 'X-Api-Key': KEYS.spent };
      event.multiValueHeaders = null;
      event.queryStringParameters = { zip };
      event.multiValueQueryStringParameters = null;
      return event as unknown as LambdaEvent;
    };
    for (let i = 0; i < 3; i++) {
      const refused = replyOf(await handler(geocode(75201)));
      expect([refused.status, refused.headers['x-ratelimit-remaining']]).toEqual([400, undefined]);
    }
    const first = replyOf(await handler(geocode('75201')));
    expect([first.status, first.headers['x-ratelimit-remaining']]).toEqual([200, '0']);
    expect(replyOf(await handler(geocode('75201'))).status).toBe(429);
  });
});

describe('bodies already parsed', () => {
  // The fixture's base64 body is {"zips":["60601","10001"]}.
  const batch = () => {
    const event = fixture('http-api');
    const text = Buffer.from(event.body as string, 'base64').toString('utf8');
    return { event, parsed: JSON.parse(text) as Json };
  };

  it('an object body is that JSON: the same answer as the documented base64 text', async () => {
    const { event, parsed } = batch();
    const asText = await invoke(event);
    expect(asText.status).toBe(200);
    const asObject = await invoke({ ...event, body: parsed, isBase64Encoded: false });
    expect(asObject.status).toBe(200);
    expect(JSON.parse(asObject.body)).toEqual(JSON.parse(asText.body));
    // Even when the invoker left isBase64Encoded set: an object is not base64 text.
    expect((await invoke({ ...event, body: parsed })).status).toBe(200);
  });

  it('an array body is JSON that is not an object: the usual 400', async () => {
    const { event } = batch();
    const reply = await invoke({ ...event, body: ['60601'], isBase64Encoded: false });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([400, { error: 'request body must be a JSON object' }]);
  });
});

describe('headers wherever the event shape carries them', () => {
  it('REST (v1): headers null, the key only in multiValueHeaders', async () => {
    const event = fixture('rest-api');
    event.headers = null;
    const reply = await invoke(event);
    expect(reply.status).toBe(200);
  });

  it('REST (v1): multiValueHeaders null, the key in headers', async () => {
    const event = fixture('rest-api');
    event.multiValueHeaders = null;
    expect((await invoke(event)).status).toBe(200);
  });

  it('REST (v1): a key in neither map is a 401', async () => {
    const event = fixture('rest-api');
    event.headers = { Accept: 'application/json' };
    event.multiValueHeaders = { Accept: ['application/json'] };
    expect((await invoke(event)).status).toBe(401);
  });

  it('HTTP API (v2) and Function URL: cookies become the Cookie header; headers null is no header at all', async () => {
    for (const name of ['http-api', 'function-url']) {
      const event = { ...fixture(name), cookies: ['session=abc', 'theme=dark'] };
      const request = processorFor(event)!.toRequest(event as never);
      expect(request.headers.cookie).toBe('session=abc; theme=dark');
      expect(request.headers['x-api-key']).toBe(KEYS.pro);
      expect(request.client).toBe('203.0.113.7');
      const reply = await invoke({ ...event, headers: null });
      expect(reply.status).toBe(401);
    }
  });

  it('ALB single-value and multi-value: the key from either map; the client is the last X-Forwarded-For entry', async () => {
    const single = fixture('alb');
    const multi = fixture('alb-multi-value');
    expect((await invoke(single)).status).toBe(200);
    expect((await invoke(multi)).status).toBe(200);
    // A balancer in multi-value mode that still sent a single-value map (a hand-made event): both read.
    const headers = multi.multiValueHeaders as Record<string, string[]>;
    const keyName = Object.keys(headers).find((n) => n.toLowerCase() === 'x-api-key')!;
    const { [keyName]: key, ...rest } = headers;
    const mixed = { ...multi, multiValueHeaders: rest, headers: { [keyName]: key[0] } };
    expect((await invoke(mixed)).status).toBe(200);
    // A balancer appends the address it was called from to what the client sent (AWS's ALB
    // documentation): the first entries are the client's word, the last the balancer's.
    const claimed = { ...single, headers: { ...(single.headers as Record<string, string>), 'x-forwarded-for': '198.51.100.1, 203.0.113.7' } };
    expect(processorFor(claimed)!.toRequest(claimed as never).client).toBe('203.0.113.7');
    const claimedMulti = { ...multi, multiValueHeaders: { ...headers, 'x-forwarded-for': ['198.51.100.1, 203.0.113.7'] } };
    expect(processorFor(claimedMulti)!.toRequest(claimedMulti as never).client).toBe('203.0.113.7');
  });
});
