// One scale run, in a process of its own so its memory figures start clean: N synthetic points,
// a kdbush index built here, a LocationIndex made from it, then radius and nearest-k queries on
// random US ZIP points. `bench/engine.ts` spawns it and prints the JSON line it answers.
//
//   tsx bench/scale.ts <points> <uniform|clustered> [seed]

import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { engineFrom, parsedQueries } from '../engine/engine.js';
import { DEFAULT_SNAPSHOT } from '../engine/package-files.js';
import type { NetworkTable, SnapshotContent } from '../engine/snapshot-format.js';
import { compileTimeZones } from '../data/time-zones.js';
import { compileZipTables } from '../data/zip-tables.js';
import { roundMiles } from '../engine/geo.js';
import { arrayColumn } from '../engine/string-column.js';
import { Hits } from '../engine/hits.js';
import { LocationIndex } from '../engine/location-index.js';
import { readSnapshot } from '../engine/snapshot.js';
import { collectGarbage, compare, sinkValue, type Timing } from './measure.js';
import { clusteredPoints, floorSearch, hToMiles, randomZipPoints, rangeHaversine, SEED, uniformPoints } from './workload.js';

export interface ScaleResult {
  points: number;
  distribution: string;
  /** Every query point is a random contiguous-US ZIP, drawn with this seed: SEED + 1, not SEED's 4,096 of the other sections. */
  queries: number;
  querySeed: number;
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
  /** Queries checked by each of the within-radius and nearest-k checks. */
  checked: number;
  /** Queries on which the whole unified search is checked against the floor. */
  searchChecked: number;
  timings: Record<string, Timing[]>;
}

function rss(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().rss;
}

export function runScale(points: number, distribution: 'uniform' | 'clustered', seed = SEED): ScaleResult {
  const content = readSnapshot(DEFAULT_SNAPSHOT);
  const querySeed = seed + 1;
  const queries = randomZipPoints(content.gazetteer, 2000, querySeed);
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
  void index.kd; // made on first use
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
    for (let q = 0; q < checked; q++) {
      hits.clear();
      index.within(queries.lat[q], queries.lng[q], r, hits);
      const n = rangeHaversine(floorKd, itemLat, itemLng, queries.lat[q], queries.lng[q], r, floorOut);
      if (!sameSet(hits.loc.subarray(0, hits.count), floorOut.subarray(0, n))) bad++;
    }
    mismatches[`within ${r} mi vs range+haversine`] = bad;
    // Over every query the timings ask, not only the checked ones. At 25 mi these are also the
    // unified search's results: it answers exactly the points within the radius (checked below).
    let total = 0;
    for (let q = 0; q < queryCount; q++) {
      hits.clear();
      index.within(queries.lat[q], queries.lng[q], r, hits);
      total += hits.count;
    }
    hitsPerQuery[`within ${r} mi`] = total / queryCount;
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
        { name: 'LocationIndex.within', run: (q) => {
          hits.clear();
          index.within(queries.lat[q], queries.lng[q], r, hits);
          return hits.count;
        } },
        { name: 'kdbush.range + haversine', run: (q) => rangeHaversine(floorKd, itemLat, itemLng, queries.lat[q], queries.lng[q], r, floorOut) },
      ],
      queryCount,
      { budgetMs },
    );
  }
  timings['nearest k=5'] = compare(
    [
      { name: 'LocationIndex.nearest', run: (q) => {
          hits.clear();
          index.nearest(queries.lat[q], queries.lng[q], 5, hits);
          return hits.count;
        } },
      { name: 'geokdbush.around', run: (q) => around(floorKd, queries.lng[q], queries.lat[q], 5).length },
    ],
    queryCount,
    { budgetMs },
  );

  const { slots } = index as unknown as { slots: { slotLoc: Uint32Array; slotCosLat: Float64Array } };
  const locationIndexBytes = index.kd.data.byteLength + slots.slotLoc.byteLength + slots.slotCosLat.byteLength;

  // The whole unified search over the same points and queries, next to the floor.
  const unified = unifiedSearch(content.gazetteer, itemLat, itemLng, floorKd, queries, budgetMs);
  timings['unified search 25 mi'] = unified.timings;
  mismatches['unified search vs the floor'] = unified.mismatches;

  return {
    points,
    distribution,
    queries: queryCount,
    querySeed,
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
    searchChecked: unified.checked,
    timings,
    // Reading the sink keeps every timed answer observable (it is never 0.5).
    ...(sinkValue() === 0.5 ? { never: true } : {}),
  };
}

const SCALE_CARRIERS = 8;

/**
 * engine.search over the cloud, as a network of eight unified carriers (the cloud cut in eight, in
 * item order; their shared unified index is the floor's own tree): whole answers, built as objects,
 * next to the floor (kdbush.range + haversine + sort). The locations' text fields share one string
 * each, so ten million of them fit in memory. Checks, on the first queries, that search answers
 * exactly the floor's locations at the floor's distances.
 */
function unifiedSearch(
  gazetteer: SnapshotContent['gazetteer'],
  itemLat: Float64Array,
  itemLng: Float64Array,
  floorKd: KDBush,
  queries: { zip: string[]; lat: Float64Array; lng: Float64Array },
  budgetMs: number,
): { timings: Timing[]; mismatches: number; checked: number } {
  const n = itemLat.length;
  const carrierLocStart = Uint32Array.from({ length: SCALE_CARRIERS + 1 }, (_, c) => Math.round((c * n) / SCALE_CARRIERS));
  const locCarrier = new Uint8Array(n);
  const carrierIndexData: Uint8Array[] = [];
  for (let c = 0; c < SCALE_CARRIERS; c++) {
    locCarrier.fill(c, carrierLocStart[c], carrierLocStart[c + 1]);
    const kd = new KDBush(carrierLocStart[c + 1] - carrierLocStart[c]);
    for (let l = carrierLocStart[c]; l < carrierLocStart[c + 1]; l++) kd.add(itemLng[l], itemLat[l]);
    carrierIndexData.push(new Uint8Array(kd.finish().data));
  }
  const text = arrayColumn(new Array<string>(n).fill('Terminal'));
  const none = arrayColumn([]);
  const network: NetworkTable = {
    carriers: Array.from({ length: SCALE_CARRIERS }, (_, c) => ({
      id: `scale-${String.fromCharCode(97 + c)}`, name: `Scale ${c}`, scac: 'SCAL', kind: 'freight' as const, unified: true, canReach: true,
      lookup: 'state' as const, schedules: false, terminalRoute: 'terminal' as const,
    })),
    carrierLocStart, locCarrier,
    locCode: text, locName: text, locLine1: text, locLine2: text, locCity: text, locState: text, locZip: text, locCountry: text,
    locPhone: text, locFax: text, locEmail: text, locRegion: text,
    locLat: itemLat, locLng: itemLng,
    locByZipKey: new Int32Array(0), locByZipId: new Uint32Array(0),
    spZip: new Int32Array(0), spCarrier: new Uint8Array(0), spCity: none, spState: none, spTerminal: new Uint32Array(0),
    spDirect: new Uint8Array(0), spDays: new Uint8Array(0), spAddOn: new Uint8Array(0),
    spCutoff: new Int16Array(0), spHighCost: new Uint8Array(0), spHighCostNote: none, spInterline: none,
    termSpStart: new Uint32Array(n + 1), termSp: new Uint32Array(0),
    carrierIndexData,
    unifiedIndexData: new Uint8Array(floorKd.data),
    unifiedLoc: Uint32Array.from({ length: n }, (_, i) => i),
  };
  const engine = engineFrom({ gazetteer, network, zips: compileZipTables(network, gazetteer), timeZones: compileTimeZones(network, gazetteer) });
  const out = new Uint32Array(n);
  const terms = new Float64Array(n);
  const points = { kd: floorKd, itemLat, itemLng };
  const floor = (q: number) => floorSearch(points, queries.lat[q], queries.lng[q], 25, out, terms);
  const search = queries.zip.map((zip) => ({ zip, radius: 25 }));
  let mismatches = 0;
  const checked = Math.min(queries.zip.length, 200);
  for (let q = 0; q < checked; q++) {
    const answer = engine.search(search[q]);
    const expected = Array.from(out.subarray(0, floor(q)), (i) => roundMiles(hToMiles(terms[i])));
    if (answer.results.map((r) => r.distanceMiles).join() !== expected.join()) mismatches++;
  }
  const timings = compare(
    [
      { name: 'engine.search', run: (q) => engine.search(search[q]).total },
      { name: 'kdbush.range + haversine + sort', run: floor },
      { name: 'engine.searchJson', run: (q) => parsedQueries(engine).searchJson(search[q]).length },
    ],
    queries.zip.length,
    { budgetMs },
  );
  return { timings, mismatches, checked };
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
