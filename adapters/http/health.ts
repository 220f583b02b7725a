// GET /api/health: runs the real route handlers in-process (no key, no quota) for every served
// endpoint family the spec's probe list names, then writes and reads back a key in the KV store.
// Each probe asks with values taken from the loaded data, so it passes only when its handler
// answers with a body: an error of any kind (a 400 included) means the endpoint is broken.
// Endpoints the spec names only in that list but that are not served (/api/article/:num, ...) get
// no probe: a probe of a 404 would only ever report a failure that is
// by design, and make the report permanently "degraded".
// It needs no key, so anyone can call it as often as they like: callers at the same time share one
// run, a report is served again for a few seconds, and the run yields between probes so that keyed
// requests are answered in between.

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import * as z from 'zod';
import type { KvStore } from '../kv/store.js';
import { SERVICE_KEY } from './keys.js';
import type { Route } from './route.js';

const integer = z.number().int();

export const healthReportSchema = z
  .strictObject({
    status: z.enum(['healthy', 'degraded', 'unhealthy']),
    total_ms: integer,
    timestamp: z.iso.datetime(),
    probes: z.array(z.strictObject({ name: z.string(), ok: z.boolean(), ms: integer })),
  })
  .meta({ id: 'HealthReport' });

export type HealthReport = z.output<typeof healthReportSchema>;
type ProbeResult = HealthReport['probes'][number];


/** A stalled store must not stall the health report with it. */
const KV_PROBE_TIMEOUT_MS = 2_000;

/** The labels of the store's probes (after the handlers'). */
export const KV_PROBES: readonly string[] = ['KV write', 'KV read'];

/** How long a report is served again before the probes run anew; its `timestamp` says when it was taken. */
export const HEALTH_MAX_AGE_MS = 5_000;

export function createHealthCheck(routes: readonly Route[], kv: KvStore, logger: Logger): () => Promise<HealthReport> {
  const run = probeRunner(routes, kv, logger);
  let latest: { report: HealthReport; takenAt: number } | undefined;
  let running: Promise<HealthReport> | undefined;
  return () => {
    if (latest && performance.now() - latest.takenAt < HEALTH_MAX_AGE_MS) return Promise.resolve(latest.report);
    const takenAt = performance.now();
    return (running ??= run()
      .then((report) => {
        latest = { report, takenAt };
        return report;
      })
      .finally(() => (running = undefined)));
  };
}

function probeRunner(routes: readonly Route[], kv: KvStore, logger: Logger): () => Promise<HealthReport> {
  const probed = routes.filter((r) => r.probe);
  // Per instance, so two copies sharing one Redis never read each other's value.
  const scratchKey = `health:${randomUUID()}`;

  // The report's shape has no room for reasons, so they go to the log.
  async function timed(name: string, run: () => unknown): Promise<ProbeResult> {
    const started = performance.now();
    let ok = true;
    try {
      await run();
    } catch (err) {
      ok = false;
      logger.warn({ probe: name, err }, 'health probe failed');
    }
    return { name, ok, ms: Math.round(performance.now() - started) };
  }

  return async () => {
    const started = performance.now();
    const timestamp = new Date().toISOString();
    const probes: ProbeResult[] = [];
    for (const { probe, answer } of probed) {
      // A probe the data has nothing to ask with (a carrier without locations) is left out.
      const input = probe!.input();
      if (input === undefined) continue;
      await new Promise((resolve) => setImmediate(resolve));
      probes.push(await timed(probe!.label, () => answer({ ...input, key: SERVICE_KEY })));
    }
    const value = `${Date.now()}:${randomUUID()}`;
    const [writeLabel, readLabel] = KV_PROBES;
    const write = await timed(writeLabel, () => withTimeout(kv.set(scratchKey, value, 60)));
    const read = await timed(readLabel, async () => {
      if ((await withTimeout(kv.get(scratchKey))) !== value) throw new Error('KV read returned another value');
    });
    probes.push(write, read);
    const kvOk = write.ok && read.ok;
    return {
      status: !kvOk ? 'unhealthy' : probes.every((p) => p.ok) ? 'healthy' : 'degraded',
      total_ms: Math.round(performance.now() - started),
      timestamp,
      probes,
    };
  };
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('KV probe timed out')), KV_PROBE_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
