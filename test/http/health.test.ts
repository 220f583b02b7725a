// The health report's verdicts. The probes run the real handlers; to see a handler fail, the engine
// under one of them is replaced by one that throws, as a corrupted dataset would make it.

import { describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/engine.js';
import { createApp } from '../../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../../adapters/http/keys.js';
import { healthReportSchema } from '../../adapters/http/health.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import { sampleEngine } from './fixtures.js';

const get = (path: string, key?: string) => ({ method: 'GET', path, query: {}, headers: { 'x-api-key': key }, body: undefined });

function appWith(engine: Engine, kv = new MemoryKvStore()) {
  return createApp({ engine, keys: new KeyRing(parseApiKeys('k:pro')), kv });
}

describe('the health report', () => {
  it('is healthy, 200, with every probe passing and its timings, on the sample data', async () => {
    const reply = await appWith(sampleEngine()).handle(get('/api/health'));
    expect(reply.status).toBe(200);
    const report = healthReportSchema.parse(JSON.parse(reply.body));
    expect(report.status).toBe('healthy');
    expect(report.probes.every((p) => p.ok && p.ms >= 0)).toBe(true);
    expect(report.total_ms).toBeGreaterThanOrEqual(Math.max(...report.probes.map((p) => p.ms)));
    expect(Date.parse(report.timestamp)).not.toBeNaN();
  });

  it('is degraded, still 200, naming the failing probe, when a handler breaks; that endpoint answers a bare 500', async () => {
    const real = sampleEngine();
    const broken: Engine = {
      ...real,
      carriers: real.carriers,
      coverage: (id, query) => {
        if (id === 'carrier-e') throw new TypeError('index out of range');
        return real.coverage(id, query);
      },
    };
    const app = appWith(broken);
    const reply = await app.handle(get('/api/health'));
    expect(reply.status).toBe(200);
    const report = healthReportSchema.parse(JSON.parse(reply.body));
    expect(report.status).toBe('degraded');
    expect(report.probes.filter((p) => !p.ok).map((p) => p.name)).toEqual(['GET /api/carrier-e-location/coverage']);

    const endpoint = await app.handle(get('/api/carrier-e-location/coverage', 'k'));
    expect(endpoint.status).toBe(500);
    expect(JSON.parse(endpoint.body)).toEqual({ error: 'internal error' });
  });

  it('is unhealthy, 503, when the KV store cannot answer', async () => {
    const kv = new MemoryKvStore();
    await kv.close();
    const reply = await appWith(sampleEngine(), kv).handle(get('/api/health'));
    expect(reply.status).toBe(503);
    const report = healthReportSchema.parse(JSON.parse(reply.body));
    expect(report.status).toBe('unhealthy');
    expect(report.probes.filter((p) => !p.ok).map((p) => p.name)).toEqual(['KV write', 'KV read']);
  });
});
