import { describe, expect, it } from 'vitest';
import { createExpressApp } from '../../adapters/express.js';
import { describeApiContract } from './contract.js';
import { createTestApp, KEYS } from './fixtures.js';
import { supertestSend } from './senders.js';

describeApiContract('Express app', () => supertestSend(createExpressApp(createTestApp())));

describe('Express app specifics', () => {
  const send = supertestSend(createExpressApp(createTestApp()));

  it('answers a malformed JSON body with JSON, never an HTML error page', async () => {
    const reply = await send({ method: 'POST', path: '/api/locations/batch', headers: { 'x-api-key': KEYS.pro }, body: '{oops' });
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toEqual({ error: 'request body is not valid JSON' });
  });

  it('answers HEAD like GET, without a body', async () => {
    const reply = await send({ method: 'HEAD', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('');
    expect(reply.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('ignores one trailing slash', async () => {
    const reply = await send({ method: 'GET', path: '/api/locations/geocode/', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } });
    expect(reply.status).toBe(200);
  });

  it("answers a failure of the adapter itself with a JSON 500 carrying every answer's headers", async () => {
    const failing = { ...createTestApp(), answer: () => Promise.reject(new Error('the socket went away')) };
    const broken = supertestSend(createExpressApp(failing));
    const traced = await broken({ method: 'GET', path: '/api/health', headers: { 'x-request-id': 'trace-42' } });
    expect([traced.status, traced.headers['content-type'], JSON.parse(traced.body)]).toEqual([500, 'application/json; charset=utf-8', { error: 'internal error' }]);
    expect([traced.headers['x-request-id'], traced.headers['x-content-type-options']]).toEqual(['trace-42', 'nosniff']);
    const untraced = await broken({ method: 'GET', path: '/api/health' });
    expect(untraced.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('does not advertise the framework', async () => {
    const reply = await send({ method: 'GET', path: '/api/health' });
    expect(reply.headers['x-powered-by']).toBeUndefined();
  });
});
