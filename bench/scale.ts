// One scale run, in a process of its own so its memory figures start clean: N synthetic points,
// a kdbush index built here, a LocationIndex made from it, then radius and nearest-k queries on
// random US ZIP points. `bench/engine.ts` spawns it and prints the JSON line it answers.
//
//   tsx bench/scale.ts <points> <uniform|clustered> [seed]

import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { DEFAULT_SNAPSHOT, type SnapshotContent } from '../engine/index.js';
import { Hits } from '../engine/hits.js';
import { LocationIndex } from '../engine/location-index.js';
import { readSnapshot } from '../engine/snapshot.js';
import { collectGarbage, compare, sinkValue, type Timing } from './measure.js';
import { clusteredPoints, hToMiles, randomZipPoints, rangeHaversine, SEED, uniformPoints } from './workload.js';

export interface ScaleResult {
  points: number;
  distribution: string;
  generateMs: number;
  /** new KDBush + add() of every point + finish(). */
  buildMs: number;
  /** new LocationIndex(kd): the kdbush index itself + per-slot location ids and cos(lat). */
  indexCtorMs: number;
  /** kdbush's ArrayBuffer. */
  kdbushBytes: number;
  /** What the LocationIndex holds: its kdbush copy, slot locations and cosines, item->slot map. */
  locationIndexBytes: number;
  /** RSS with the LocationIndex built and its lazy map made, the first kdbush freed and the input
   *  points' bytes subtracted, minus RSS before the points were generated. */
  rssDeltaBytes: number;
  /** Peak RSS increase while building (points + kdbush + its copy alive together). */
  rssPeakDeltaBytes: number;
  hitsPerQuery: Record<string, number>;
  mismatches: Record<string, number>;
  checked: number;
  timings: Record<string, Timing[]>;
}

function rss(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().rss;
}

export function runScale(points: number, distribution: 'uniform' | 'clustered', seed = SEED): ScaleResult {
  const content = readSnapshot<SnapshotContent>(DEFAULT_SNAPSHOT);
  const queries = randomZipPoints(content.gazetteer, 2000, seed + 1);
  const queryCount = queries.lat.length;

  const rssBase = rss();
  let t0 = performance.now();
  const cloud =
    distribution === 'uniform' ? uniformPoints(points, seed + points) : clusteredPoints(content.gazetteer, points, seed + points);
  const generateMs = performance.now() - t0;
  const itemLat = cloud.lat;
  const itemLng = cloud.lng;

  t0 = performance.now();
  let kd: KDBush | null = new KDBush(points);
  for (let i = 0; i < points; i++) kd.add(itemLng[i], itemLat[i]);
  kd.finish();
  const buildMs = performance.now() - t0;
  const kdbushBytes = kd.data.byteLength;

  t0 = performance.now();
  const index = new LocationIndex(kd, 0);
  const indexCtorMs = performance.now() - t0;
  const rssPeak = process.memoryUsage().rss;

  // Memory of the LocationIndex alone: drop the first kdbush (the index holds its own copy), build
  // the lazy item->slot map with one nearest query, and take the input points back out.
  kd = null;
  const hits = new Hits(1024);
  index.nearest(queries.lat[0], queries.lng[0], 1, hits);
  const rssIndex = rss() - itemLat.byteLength - itemLng.byteLength;

  // The baselines search the very same tree; they need the items' own coordinates.
  const floorKd = index.kd;
  const floorOut = new Uint32Array(points);
  const radii = [25, 5];
  const mismatches: Record<string, number> = {};
  const hitsPerQuery: Record<string, number> = {};
  const checked = Math.min(queryCount, 500);
  for (const r of radii) {
    let bad = 0;
    let total = 0;
    for (let q = 0; q < checked; q++) {
      hits.clear();
      index.within(queries.lat[q], queries.lng[q], r, hits);
      const n = rangeHaversine(floorKd, itemLat, itemLng, queries.lat[q], queries.lng[q], r, floorOut);
      total += hits.count;
      if (!sameSet(hits.loc.subarray(0, hits.count), floorOut.subarray(0, n))) bad++;
    }
    mismatches[`within ${r} mi vs range+haversine`] = bad;
    hitsPerQuery[`within ${r} mi`] = total / checked;
  }
  {
    let bad = 0;
    for (let q = 0; q < checked; q++) {
      hits.clear();
      index.nearest(queries.lat[q], queries.lng[q], 5, hits);
      const ids = around(floorKd, queries.lng[q], queries.lat[q], 5);
      if (ids.length !== hits.count) bad++;
      else {
        for (let j = 0; j < ids.length; j++) {
          const miles = hToMiles(haversineH(queries.lat[q], queries.lng[q], itemLat[ids[j]], itemLng[ids[j]]));
          if (Math.abs(miles - hits.miles[j]) > 1e-9) {
            bad++;
            break;
          }
        }
      }
    }
    mismatches['nearest k=5 vs geokdbush.around'] = bad;
  }

  const timings: Record<string, Timing[]> = {};
  const budgetMs = points >= 5_000_000 ? 1200 : 900;
  for (const r of radii) {
    timings[`within ${r} mi`] = compare(
      [
        { name: 'LocationIndex.within', run: (q) => (hits.clear(), index.within(queries.lat[q], queries.lng[q], r, hits), hits.count) },
        { name: 'kdbush.range + haversine', run: (q) => rangeHaversine(floorKd, itemLat, itemLng, queries.lat[q], queries.lng[q], r, floorOut) },
      ],
      queryCount,
      { budgetMs },
    );
  }
  timings['nearest k=5'] = compare(
    [
      { name: 'LocationIndex.nearest', run: (q) => (hits.clear(), index.nearest(queries.lat[q], queries.lng[q], 5, hits), hits.count) },
      { name: 'geokdbush.around', run: (q) => around(floorKd, queries.lng[q], queries.lat[q], 5).length },
    ],
    queryCount,
    { budgetMs },
  );

  const idx = index as unknown as { slotLoc: Uint32Array; slotCosLat: Float64Array; itemSlots: Uint32Array | null };
  const locationIndexBytes =
    index.kd.data.byteLength + idx.slotLoc.byteLength + idx.slotCosLat.byteLength + (idx.itemSlots?.byteLength ?? 0);

  return {
    points,
    distribution,
    generateMs,
    buildMs,
    indexCtorMs,
    kdbushBytes,
    locationIndexBytes,
    rssDeltaBytes: rssIndex - rssBase,
    rssPeakDeltaBytes: rssPeak - rssBase,
    hitsPerQuery,
    mismatches,
    checked,
    timings,
    // Reading the sink keeps every timed answer observable (it is never 0.5).
    ...(sinkValue() === 0.5 ? { never: true } : {}),
  };
}

function haversineH(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const RAD = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * RAD) / 2);
  const b = Math.sin(((lng2 - lng1) * RAD) / 2);
  return a * a + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * b * b;
}

function sameSet(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  const x = Uint32Array.from(a).sort();
  const y = Uint32Array.from(b).sort();
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

const [, script, pointsArg, distArg, seedArg] = process.argv;
if (script && /scale\.[jt]s$/.test(script) && pointsArg) {
  const result = runScale(Number(pointsArg), distArg === 'clustered' ? 'clustered' : 'uniform', seedArg ? Number(seedArg) : SEED);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
