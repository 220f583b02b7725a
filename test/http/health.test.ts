// The health report's verdicts. The probes run the real handlers; to see a handler fail, the engine
// under one of them is replaced by one that throws, as a corrupted dataset would make it.

import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/engine.js';
import { createApp } from '../../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../../adapters/http/keys.js';
import { healthReportSchema } from '../../adapters/http/document-schemas.js';
import { HEALTH_MAX_AGE_MS } from '../../adapters/http/health.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import { createTestApp, KEYS, loopbackServers, sampleEngine, SERVER_KINDS } from './fixtures.js';

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

describe('the health report under a flood, over a socket', () => {
  const servers = loopbackServers();
  afterAll(() => servers.closeAll());

  it.each(SERVER_KINDS)('on %s: concurrent callers share one run, reports are reused, keyed calls keep being answered', async (kind) => {
    const base = await servers.listen(createTestApp(), kind);
    const health = async () => {
      const reply = await fetch(`${base}/api/health`);
      return { status: reply.status, age: Number(reply.headers.get('age')), report: healthReportSchema.parse(await reply.json()) };
    };

    const together = await Promise.all(Array.from({ length: 50 }, health));
    expect(new Set(together.map((r) => r.report.timestamp)).size).toBe(1);

    const started = Date.now();
    const flood = Array.from({ length: 32 }, async () => {
      const replies = [];
      for (let i = 0; i < 40; i++) replies.push(await health());
      return replies;
    });
    const keyed: number[] = [];
    for (let i = 0; i < 100; i++) {
      keyed.push((await fetch(`${base}/api/locations?zip=${10001 + i}`, { headers: { 'x-api-key': KEYS.pro } })).status);
    }
    const reports = (await Promise.all(flood)).flat();
    const elapsed = Date.now() - started;

    expect(keyed.filter((s) => s === 200)).toHaveLength(100);
    expect(reports.filter((r) => r.status === 200)).toHaveLength(32 * 40);
    // 1,280 calls, and the probes ran once per HEALTH_MAX_AGE_MS at most (plus the run in progress).
    const runs = new Set([...together, ...reports].map((r) => r.report.timestamp)).size;
    expect(runs).toBeLessThanOrEqual(2 + Math.floor(elapsed / HEALTH_MAX_AGE_MS));
    for (const r of reports) expect(r.age).toBeLessThanOrEqual(Math.ceil(HEALTH_MAX_AGE_MS / 1000));
  });
});
