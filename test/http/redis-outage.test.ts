// A Redis that goes away and comes back: keyed requests and the health report say 503 while it is
// gone (never a 500, never a hang), and the same core recovers once it is back.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../adapters/http/app.js';
import { healthReportSchema } from '../../adapters/http/document-schemas.js';
import { createKvStore } from '../../adapters/kv/create.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { createTestApp, KEYS } from './fixtures.js';

const search = { method: 'GET', path: '/api/locations', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro }, body: undefined };
const health = { method: 'GET', path: '/api/health', query: {}, headers: {}, body: undefined };

describe('a Redis outage', () => {
  let redis: RedisServer;
  let app: App;
  beforeAll(async () => {
    redis = await startRedis();
    app = createTestApp({ kv: await createKvStore({ REDIS_URL: redis.url }) });
  });
  afterAll(async () => {
    await app.close();
    await redis.stop();
  });

  it('answers 503 { error } to keyed requests and an unhealthy report while Redis is down, then recovers', async () => {
    expect((await app.handle(search)).status).toBe(200);
    expect(JSON.parse((await app.handle(health)).body).status).toBe('healthy');

    await redis.stop();
    const down = await app.handle(search);
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ error: expect.stringMatching(/unavailable/) });
    expect(down.headers['X-RateLimit-Limit']).toBeUndefined();

    // The report taken before the outage is served for a few seconds more.
    let sick = await app.handle(health);
    await vi.waitFor(async () => expect((sick = await app.handle(health)).status).toBe(503), { timeout: 10_000, interval: 200 });
    const report = healthReportSchema.parse(JSON.parse(sick.body));
    expect(report.status).toBe('unhealthy');
    expect(report.probes.filter((p) => !p.ok).map((p) => p.name)).toEqual(['KV write', 'KV read']);

    // Requests that need no quota still get their usual answers.
    expect((await app.handle({ ...search, path: '/api/nothing' })).status).toBe(404);
    expect((await app.handle({ ...search, headers: {} })).status).toBe(401);

    await redis.restart();
    // The client reconnects in the background; wait for it by asking again (bounded, no timing asserted).
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
      status = (await app.handle(search)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    await vi.waitFor(async () => expect(JSON.parse((await app.handle(health)).body).status).toBe('healthy'), { timeout: 10_000, interval: 200 });
  });
});
