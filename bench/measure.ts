// Timing harness: contenders that answer the same queries are warmed up, then timed in
// interleaved batches (each round runs one batch of every contender, in a rotating order), so
// drift, GC and neighbours on the machine hit them alike. Figures are per-call times: the mean
// (all timed calls), and the median and p99, over batches, of batch time / batch size, read with
// process.hrtime.bigint; `latencies` times single calls, and `bytesPerCall` weighs what a call
// allocates.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Contender {
  name: string;
  /** Answers query q; returns something derived from the answer, so the work cannot be dropped. */
  run: (q: number) => number;
}

export interface Timing {
  name: string;
  /** Total timed time / total timed calls. */
  meanUs: number;
  /** The median and the p99, over batches, of each batch's time per call (batch time / its calls):
   *  a batch mean is not a single call, so this p99 says how slow a batch got, not one call. */
  batchMedianUs: number;
  batchP99Us: number;
  /** Total timed calls / total timed seconds. */
  callsPerSec: number;
  batches: number;
  batchSize: number;
}

export interface CompareOptions {
  /** Wall time to spend timing the whole group (after warm-up). */
  budgetMs?: number;
  /** A batch of each contender should take about this long. */
  batchTargetUs?: number;
  minBatches?: number;
  maxBatches?: number;
  warmMs?: number;
}

let sink = 0;
/** Read at the end so the optimizer must keep every answer. */
export function sinkValue(): number {
  return sink;
}

const now = () => process.hrtime.bigint();

/** Runs `run` over the queries, from 0, until it has had `minCalls` calls and `ms` milliseconds
 *  (at most 4 x `ms`); returns a per-call estimate (ns) from a second, already-warm pass. */
function warm(run: (q: number) => number, queryCount: number, ms: number, minCalls: number): number {
  const limit = BigInt(Math.round(ms * 1e6));
  const cap = BigInt(Math.round(ms * 4 * 1e6));
  const start = now();
  let calls = 0;
  let q = 0;
  let elapsed = 0n;
  while ((calls < minCalls || elapsed < limit) && elapsed < cap) {
    for (let j = 0; j < 8; j++) {
      sink += run(q);
      if (++q === queryCount) q = 0;
    }
    calls += 8;
    elapsed = now() - start;
  }
  const n = Math.min(queryCount, Math.max(16, calls >> 2));
  const t0 = now();
  for (let j = 0; j < n; j++) sink += run(j);
  return Number(now() - t0) / n;
}

/**
 * Times contenders over the same query list. Each has its own batch size (a batch takes about
 * `batchTargetUs`) and walks the list from query 0, so over the run every contender sees the
 * same queries in the same order; rounds interleave one batch of each, in rotating order.
 */
export function compare(contenders: Contender[], queryCount: number, options: CompareOptions = {}): Timing[] {
  const { budgetMs = 1500, batchTargetUs = 200, minBatches = 101, maxBatches = 3000, warmMs = 120 } = options;
  const estimates = contenders.map((c) => warm(c.run, queryCount, warmMs, 300));
  const sizes = estimates.map((e) => Math.max(1, Math.min(queryCount, Math.round((batchTargetUs * 1e3) / Math.max(1, e)))));
  const roundNs = sizes.reduce((sum, m, i) => sum + m * estimates[i], 0);
  const rounds = Math.max(minBatches, Math.min(maxBatches, Math.floor((budgetMs * 1e6) / roundNs)));

  const k = contenders.length;
  const perCall = contenders.map(() => new Float64Array(rounds));
  const total = new Float64Array(k);
  const cursor = new Array<number>(k).fill(0);
  for (let r = 0; r < rounds; r++) {
    for (let o = 0; o < k; o++) {
      const c = (r + o) % k;
      const run = contenders[c].run;
      const m = sizes[c];
      let q = cursor[c];
      const t0 = now();
      for (let j = 0; j < m; j++) {
        sink += run(q);
        if (++q === queryCount) q = 0;
      }
      const ns = Number(now() - t0);
      cursor[c] = q;
      perCall[c][r] = ns / m;
      total[c] += ns;
    }
  }
  return contenders.map((c, i) => {
    const sorted = perCall[i].sort();
    return {
      name: c.name,
      meanUs: total[i] / (rounds * sizes[i]) / 1e3,
      batchMedianUs: quantile(sorted, 0.5) / 1e3,
      batchP99Us: quantile(sorted, 0.99) / 1e3,
      callsPerSec: (rounds * sizes[i]) / (total[i] / 1e9),
      batches: rounds,
      batchSize: sizes[i],
    };
  });
}

/**
 * Latency of single calls, each timed on its own, over the same queries: contenders take turns in
 * runs of 64 calls (caches as warm as in a batch, neighbours' noise shared), and the clock's own
 * cost, timed between two reads in the same run, is subtracted. Returns sorted nanoseconds per
 * contender, and that clock cost.
 */
export function latencies(contenders: Contender[], queryCount: number, calls: number): { perCall: Float64Array[]; clockNs: number } {
  const RUN = 64;
  const rounds = Math.ceil(calls / RUN);
  const clock = new Float64Array(rounds * RUN);
  const perCall = contenders.map(() => new Float64Array(rounds * RUN));
  const cursor = new Array<number>(contenders.length).fill(0);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < RUN; i++) {
      const t0 = now();
      clock[r * RUN + i] = Number(now() - t0);
    }
    for (let c = 0; c < contenders.length; c++) {
      const run = contenders[c].run;
      let q = cursor[c];
      for (let i = 0; i < RUN; i++) {
        const t0 = now();
        sink += run(q);
        perCall[c][r * RUN + i] = Number(now() - t0);
        if (++q === queryCount) q = 0;
      }
      cursor[c] = q;
    }
  }
  const clockNs = quantile(clock.sort(), 0.5);
  for (const times of perCall) {
    for (let i = 0; i < times.length; i++) times[i] = Math.max(0, times[i] - clockNs);
    times.sort();
  }
  return { perCall, clockNs };
}

const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
})();

/** A full garbage collection (global.gc without starting node with --expose-gc). */
export const collectGarbage = (): void => gc();

/** A collection of the young generation alone: what the last run left behind, without moving the old generation. */
export const collectYoungGarbage = (): void => gc({ type: 'minor' });

/**
 * Bytes a call allocates on the JS heap: the heap's growth over a batch of calls that starts right
 * after a full collection and is small enough that no collection runs within it (a batch that saw
 * one shrinks, so the median over batches is taken).
 */
export function bytesPerCall(run: (q: number) => number, queryCount: number, batch = 64, batches = 61): number {
  // Warm first: code that is not optimized yet allocates what optimized code keeps in registers.
  for (let i = 0; i < Math.max(5 * queryCount, 20_000); i++) sink += run(i % queryCount);
  const perCall: number[] = [];
  let q = 0;
  for (let b = 0; b < batches; b++) {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < batch; i++) {
      sink += run(q);
      if (++q === queryCount) q = 0;
    }
    perCall.push((process.memoryUsage().heapUsed - before) / batch);
  }
  return median(perCall);
}

/** Nearest-rank quantile of an ascending array. */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

export function median(values: number[]): number {
  return quantile(Float64Array.from(values).sort(), 0.5);
}
