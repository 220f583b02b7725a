// The health report tells the truth between its runs: a store failure a request met (or the store
// answering again) makes the next report probe anew instead of serving one that it contradicts;
// the report names the data served; and a reload that failed leaves it degraded until one succeeds.
// A real Redis that the test stops and restarts, and a real server reloading real snapshot files.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { healthReportSchema } from '../../adapters/http/document-schemas.js';
import type { HealthReport } from '../../adapters/http/health.js';
import { createKvStore } from '../../adapters/kv/create.js';
import { startServer, type RunningServer } from '../../adapters/server.js';
import { buildOneCarrierSnapshot } from '../support/datasets.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { createTestApp, KEYS, loopbackServers } from './fixtures.js';

const servers = loopbackServers();
afterAll(() => servers.closeAll());

async function health(url: string): Promise<{ status: number; report: HealthReport }> {
  const reply = await fetch(`${url}/api/health`);
  return { status: reply.status, report: healthReportSchema.parse(await reply.json()) };
}
const keyed = (url: string) => fetch(`${url}/api/locations?zip=60601`, { headers: { 'X-API-Key': KEYS.pro } });

describe('a store failure seen by a request', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('makes the next report probe again, and so does the store answering again', async () => {
    const url = await servers.listen(createTestApp({ kv: await createKvStore({ REDIS_URL: redis.url }) }), 'node');
    const before = await health(url);
    expect([before.status, before.report.status]).toEqual([200, 'healthy']);
    // Served again while fresh: the same run.
    expect((await health(url)).report.timestamp).toBe(before.report.timestamp);

    await redis.stop();
    const refused = await keyed(url);
    expect(refused.status).toBe(503);
    await refused.arrayBuffer();
    const during = await health(url);
    expect([during.status, during.report.status]).toEqual([503, 'unhealthy']);
    expect(during.report.probes.filter((p) => !p.ok).map((p) => p.name)).toEqual(['KV write', 'KV read']);

    await redis.restart();
    // The client reconnects on its own schedule: ask until a keyed request is answered again.
    await vi.waitFor(
      async () => {
        const answer = await keyed(url);
        await answer.arrayBuffer();
        expect(answer.status).toBe(200);
      },
      { timeout: 15_000, interval: 100 },
    );
    const after = await health(url);
    expect([after.status, after.report.status]).toEqual([200, 'healthy']);
  });
});

describe('the data and reloads in the report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'carrier-health-'));
  const acme = buildOneCarrierSnapshot(dir, 'acme');
  const live = join(dir, 'live.snapshot');
  let running: RunningServer | undefined;
  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the snapshot, its load time and format; a failed reload is degraded with its reason until one succeeds', async () => {
    copyFileSync(acme, live);
    // The format version as the file's header holds it (bytes 8-11, little-endian), read independently of the engine.
    const formatInFile = readFileSync(live).readUInt32LE(8);
    const startedAt = Date.now();
    running = await startServer({ PORT: '0', SERVER: 'node', API_KEYS: `${KEYS.pro}:pro`, SNAPSHOT_PATH: live, LOG_LEVEL: 'silent' }, { host: '127.0.0.1' });
    const first = await health(running.url);
    expect(first.report).toMatchObject({ status: 'healthy', reload: null, data: { source: 'snapshot', name: 'live.snapshot', snapshotVersion: formatInFile } });
    expect(Date.parse(first.report.data.loadedAt)).toBeGreaterThanOrEqual(startedAt - 1000);
    // Never the path: only the file's name.
    expect(JSON.stringify(first.report)).not.toContain(dir);

    writeFileSync(live, 'not a snapshot');
    expect(await running.reload()).toBe(false);
    const failed = await health(running.url);
    expect(failed.status).toBe(200);
    expect(failed.report.status).toBe('degraded');
    expect(failed.report.probes.every((p) => p.ok)).toBe(true);
    expect(failed.report.reload).toMatchObject({ ok: false, reason: 'live.snapshot: not a carrier-location snapshot' });
    // The reason names the file as `data` does, not by its path.
    expect(JSON.stringify(failed.report)).not.toContain(dir);
    // A folder where the file was: named, in words (Node's error names no file).
    rmSync(live);
    mkdirSync(live);
    expect(await running.reload()).toBe(false);
    expect((await health(running.url)).report.reload).toMatchObject({ ok: false, reason: 'live.snapshot: is a directory, not a file' });
    rmSync(live, { recursive: true });
    // Still the data loaded at start, and still answering.
    expect(failed.report.data).toEqual(first.report.data);
    expect((await keyed(running.url)).status).toBe(200);

    copyFileSync(acme, live);
    expect(await running.reload()).toBe(true);
    const mended = await health(running.url);
    expect(mended.report.status).toBe('healthy');
    expect(mended.report.reload).toMatchObject({ ok: true });
    expect(mended.report.reload!.reason).toBeUndefined();
    expect(Date.parse(mended.report.data.loadedAt)).toBeGreaterThanOrEqual(Date.parse(first.report.data.loadedAt));
    expect(Date.parse(mended.report.reload!.at)).toBeGreaterThanOrEqual(Date.parse(failed.report.reload!.at));
  });
});
