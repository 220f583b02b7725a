// GET /api/health: runs the real route handlers in-process (no key, no quota) for every served
// endpoint family the health report's probe list names, then writes and reads back a key in the KV store.
// Each probe asks with values taken from the loaded data, so it passes only when its handler
// answers with a body: an error of any kind (a 400 included) means the endpoint is broken.
// Endpoints named in that list but not served (/api/article/:num, ...) get
// no probe: a probe of a 404 would only ever report a failure that is
// by design, and make the report permanently "degraded".
// It needs no key, so anyone can call it as often as they like: callers at the same time share one
// run, a report is served again for a few seconds, and the run yields between probes so that keyed
// requests are answered in between. A report served again must still be true: one that a request
// has since contradicted (the store failed, or answered again after failing) or taken before a
// reload succeeded or failed is not served again.
// The report also says which data is served (its source, when it was loaded, the snapshot format),
// and the last reload: one that failed leaves the report `degraded` (the data is older than the
// operator asked for) until a reload succeeds.

import { basename } from 'node:path';
import { SNAPSHOT_VERSION } from '../../engine/snapshot-format.js';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { KvStore } from '../kv/store.js';
import { SERVICE_KEY } from './keys.js';
import type { healthReportSchema } from './document-schemas.js';
import type { Route } from './route.js';

export type HealthReport = z.output<typeof healthReportSchema>;
export type DataInfo = HealthReport['data'];
export type ReloadOutcome = NonNullable<HealthReport['reload']>;

/** What an engine handed to createApp says of itself when nobody says where its data came from. */
export const engineDataInfo = (): DataInfo => ({ source: 'engine', name: '', loadedAt: new Date().toISOString(), snapshotVersion: SNAPSHOT_VERSION });

/**
 * The last reload's outcome, shared by the cores a server switches between (the one serving
 * after a failed reload reports the failure). `changes` counts outcomes, so a report taken before
 * one is known to be out of date.
 */
export class ReloadStatus {
  last: ReloadOutcome | null = null;
  changes = 0;

  /**
   * `dataPaths`: where the data is read from (SNAPSHOT_PATH, DATA_DIR). The health report needs no
   * key and names the data by its file's or folder's name, never its path (DataInfo): a reason that
   * quotes one (`ENOENT: ..., open '/srv/data/x.snapshot'`) names it the same way.
   */
  constructor(private readonly dataPaths: readonly string[] = []) {}

  succeeded(): void {
    this.record({ ok: true, at: new Date().toISOString() });
  }

  failed(reason: string): void {
    this.record({ ok: false, at: new Date().toISOString(), reason });
  }

  /** An outcome, here or reached elsewhere: a WORKERS=N server's reload, which its primary runs (cluster.ts). */
  record(outcome: ReloadOutcome): void {
    const { reason } = outcome;
    this.last = reason === undefined ? outcome : { ...outcome, reason: this.dataPaths.reduce((text, path) => text.split(path).join(basename(path)), reason) };
    this.changes++;
  }
}

export interface HealthCheck {
  /** The report: the last one while it is fresh and still true, else a new run of the probes. */
  (): Promise<HealthReport>;
  /** What a request saw of the store: a report that says otherwise is not served again. */
  storeAnswered(ok: boolean): void;
}
type ProbeResult = HealthReport['probes'][number];


/** A stalled store must not stall the health report with it. */
const KV_PROBE_TIMEOUT_MS = 2_000;

/** The labels of the store's probes (after the handlers'). */
export const KV_PROBES: readonly string[] = ['KV write', 'KV read'];

/** How long a report is served again before the probes run anew; its `timestamp` says when it was taken. */
export const HEALTH_MAX_AGE_MS = 5_000;

export function createHealthCheck(
  routes: readonly Route[],
  kv: KvStore,
  logger: Logger,
  data: DataInfo = engineDataInfo(),
  reloads: ReloadStatus = new ReloadStatus(),
): HealthCheck {
  const run = probeRunner(routes, kv, logger, data, reloads);
  let latest: { report: HealthReport; takenAt: number; storeOk: boolean } | undefined;
  let running: { report: Promise<HealthReport>; generation: number } | undefined;
  /** Bumped when a request contradicts the report, so that neither the report nor a run begun before is served again. */
  let generation = 0;
  const fresh = (now: number) => latest !== undefined && now - latest.takenAt < HEALTH_MAX_AGE_MS;
  let seenReloads = reloads.changes;
  const check = (() => {
    const now = performance.now();
    if (reloads.changes !== seenReloads) {
      seenReloads = reloads.changes;
      generation++;
      latest = undefined;
    }
    if (fresh(now)) return Promise.resolve(latest!.report);
    if (running?.generation === generation) return running.report;
    const started = { generation, report: run() };
    running = started;
    void started.report
      .then((report) => {
        if (started.generation !== generation) return;
        latest = { report, takenAt: now, storeOk: report.probes.filter((p) => KV_PROBES.includes(p.name)).every((p) => p.ok) };
      })
      .finally(() => {
        if (running === started) running = undefined;
      })
      .catch(() => {});
    return started.report;
  }) as HealthCheck;
  check.storeAnswered = (ok) => {
    // Only a contradiction costs anything: nearly every request agrees with the report.
    if (latest !== undefined ? latest.storeOk === ok : running === undefined || ok) return;
    generation++;
    latest = undefined;
  };
  return check;
}

function probeRunner(routes: readonly Route[], kv: KvStore, logger: Logger, data: DataInfo, reloads: ReloadStatus): () => Promise<HealthReport> {
  const probed = routes.filter((r) => r.probe);
  // Per instance, so two copies sharing one Redis never read each other's value. Made when a check
  // first runs, so that a start does not load node:crypto for it (see keys.ts's hashKey).
  let scratchKey: string | undefined;

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
    const { randomUUID } = process.getBuiltinModule('node:crypto');
    const key = (scratchKey ??= `health:${randomUUID()}`);
    const value = `${Date.now()}:${randomUUID()}`;
    const [writeLabel, readLabel] = KV_PROBES;
    const write = await timed(writeLabel, () => withTimeout(kv.set(key, value, 60)));
    const read = await timed(readLabel, async () => {
      if ((await withTimeout(kv.get(key))) !== value) throw new Error('KV read returned another value');
    });
    probes.push(write, read);
    const kvOk = write.ok && read.ok;
    const reload = reloads.last;
    return {
      status: !kvOk ? 'unhealthy' : probes.every((p) => p.ok) && reload?.ok !== false ? 'healthy' : 'degraded',
      total_ms: Math.round(performance.now() - started),
      timestamp,
      probes,
      data,
      reload,
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
