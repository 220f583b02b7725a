// npm run bench [-- --quick] [-- --only 1,4] [-- --load eager]: the engine's figures next to their
// baselines, in one run on the sample data, over the same seeded random queries. Figures only:
// targets are printed with the measured ratio, never asserted. --load: how the engine under test
// reads its snapshot (createEngine's `load`; default lazy, as createEngine's).
//
//   1. the query path          search, searchJson, whichCarriers, canReach, geocode vs the floor
//   2. radius fan-out          one walk of the unified index vs geokdbush per carrier vs the floor
//   3. nearest-k per carrier   LocationIndex.nearest vs geokdbush.around vs a brute-force scan
//   4. cold start              snapshot load, first query and RSS, in fresh node processes
//   5. scale                   1M and 10M synthetic points (--quick: 1M only), 2,000 queries of their own

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { parsedQueries } from '../engine/engine.js';
import { createEngine } from '../engine/index.js';
import { DEFAULT_SNAPSHOT } from '../engine/package-files.js';
import { Hits } from '../engine/hits.js';
import { Network } from '../engine/network.js';
import type * as z from '../engine/zod.js';
import { roundMiles } from '../engine/geo.js';
import {
  canReachQuerySchema, geocodeQuerySchema, parseInput, parseWithZod, placeQuerySchema, searchQuerySchema,
} from '../engine/requests.js';
import { readSnapshot } from '../engine/snapshot.js';
import { fileMb, heading, int, markdownTable, mb, ms, ratio, ratioToGoal, table, us, verdict } from './format.js';
import { bytesPerCall, compare, latencies, median, quantile, sinkValue, type Contender, type Timing } from './measure.js';
import type { ScaleResult } from './scale.js';
import { bruteNearest, floorSearch, geokdbushKm, hToMiles, randomZipPoints, rangeHaversine, SEED, type PointIndex } from './workload.js';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, load: { type: 'string', default: 'lazy' } },
});
const quick = args.quick;
/** `--only 1,4`: run those sections only. */
const only = args.only === undefined ? null : args.only.split(',').map(Number);
if (args.load !== 'lazy' && args.load !== 'eager') throw new Error(`--load must be lazy or eager (got ${args.load})`);
const load = args.load;
const wanted = (section: number) => only === null || only.includes(section);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();
const QUERIES = 4096;
/** searchJson's text: JSON.stringify leaves no control character raw, and characters beyond ASCII are escaped. */
const PRINTABLE_ASCII = /^[ -~]*$/;
const RADIUS = 25;
const summary: string[][] = [];

console.log('carrier-locations engine bench' + (quick ? ' (--quick: no 10M scale run)' : '') + `; the engine reads its snapshot ${load === 'lazy' ? 'lazily' : 'eagerly'} (--load)`);
const loadAvg = () => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`node ${process.version}, ${cpus()[0]?.model.trim() ?? 'cpu'} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${new Date().toISOString()}, load average ${loadAvg()}`);
console.log(`seed ${SEED}; ${QUERIES} random contiguous-US gazetteer ZIPs as query points; times (process.hrtime.bigint) per call: means, p50 and p99 of single calls in section 1, elsewhere the median and p99 over interleaved batches of each batch's mean per call`);

// ---------------------------------------------------------------------------------------------
// Data

if (!existsSync(DEFAULT_SNAPSHOT)) {
  console.log(`\nbuilding ${DEFAULT_SNAPSHOT} (npm run build && npm run data:build)`);
  const built = spawnSync('npm run build && npm run data:build', { cwd: root, stdio: 'inherit', shell: true });
  if (built.status !== 0) throw new Error('snapshot build failed');
}
const content = readSnapshot(DEFAULT_SNAPSHOT);
const net = new Network(content.network, content.zips);
const t = content.network;
const engine = createEngine({ load });
const queries = randomZipPoints(content.gazetteer, QUERIES, SEED);
const unified = net.carriers.flatMap((c, i) => (c.unified ? [i] : []));
const carrierSize = (c: number) => t.carrierLocStart[c + 1] - t.carrierLocStart[c];
console.log(
  `snapshot ${DEFAULT_SNAPSHOT.replace(root + '/', '')} (${fileMb(statSync(DEFAULT_SNAPSHOT).size)} MB): ` +
    `${int(net.locationCount)} locations, ${net.carriers.length} carriers, ${unified.length} unified with ${int(t.unifiedLoc.length)} locations, ` +
    `${int(content.gazetteer.zipCodes.length)} ZIPs`,
);

function timingRows(timings: Timing[], reference?: Timing): string[][] {
  return timings.map((x) => [
    x.name,
    us(x.batchMedianUs),
    us(x.batchP99Us),
    int(x.callsPerSec),
    reference ? (x === reference ? '1.00x' : ratio(x.batchMedianUs / reference.batchMedianUs)) : '',
    `${x.batches} x ${x.batchSize}`,
  ]);
}
const TIMING_HEADER = ['contender', 'batch median us', 'batch p99 us', 'calls/s', 'vs ours', 'batches x calls'];
/** What the batch columns are, printed under their tables. */
const BATCH_NOTE = "  batch median / p99: over batches, of each batch's time per call (batch time / its calls), not of single calls";

// ---------------------------------------------------------------------------------------------
// 1. The query path

/** One kdbush over the unified carriers' locations, for the floor: item i is location t.unifiedLoc[i]. */
function unifiedFloorIndex(): PointIndex {
  const kd = new KDBush(t.unifiedLoc.length);
  const itemLat = Float64Array.from(t.unifiedLoc, (l) => t.locLat[l]);
  const itemLng = Float64Array.from(t.unifiedLoc, (l) => t.locLng[l]);
  for (let i = 0; i < itemLat.length; i++) kd.add(itemLng[i], itemLat[i]);
  kd.finish();
  return { kd, itemLat, itemLng };
}

if (wanted(1)) {
  heading(`1. The query path: each unified method next to the floor, over the same ${QUERIES} ZIPs, radius ${RADIUS} mi, in one run`);
  const floorIndex = unifiedFloorIndex();
  const floorOut = new Uint32Array(t.unifiedLoc.length);
  const floorTerms = new Float64Array(t.unifiedLoc.length);
  const floor = (q: number) => floorSearch(floorIndex, queries.lat[q], queries.lng[q], RADIUS, floorOut, floorTerms);
  const reachable = net.carriers.filter((c) => c.canReach).map((c) => c.id);
  const searchQueries = queries.zip.map((zip) => ({ zip, radius: RADIUS }));
  const reachQueries = queries.zip.map((zip, q) => ({ carrier: reachable[q % reachable.length], zip, radius: RADIUS }));
  const geocodeQueries = queries.zip.map((zip) => ({ zip }));
  const methods: (Contender & { answer: (q: number) => unknown })[] = [
    { name: 'engine.search', answer: (q) => engine.search(searchQueries[q]), run: (q) => engine.search(searchQueries[q]).total },
    { name: 'engine.searchJson', answer: (q) => parsedQueries(engine).searchJson(searchQueries[q]), run: (q) => parsedQueries(engine).searchJson(searchQueries[q]).length },
    { name: 'engine.whichCarriers', answer: (q) => engine.whichCarriers(searchQueries[q]), run: (q) => engine.whichCarriers(searchQueries[q]).carrierCount },
    { name: 'engine.canReach', answer: (q) => engine.canReach(reachQueries[q]), run: (q) => (engine.canReach(reachQueries[q]).canReach ? 1 : 0) },
    { name: 'engine.geocode', answer: (q) => engine.geocode(geocodeQueries[q]), run: (q) => (engine.geocode(geocodeQueries[q]).found ? 1 : 0) },
  ];

  // Every query timed below is first checked: the fast paths against their references.
  const check = checkQueryPath({ floor, floorOut, floorTerms, searchQueries, reachQueries, geocodeQueries });
  for (const line of check) console.log(`  ${line}`);

  const contenders: Contender[] = [{ name: 'floor: kdbush.range + haversine + sort', run: floor }, ...methods];
  // Batches of about 2 ms (a thousand calls or so): each method runs warm, as in a service answering a stream of queries.
  const timings = compare(contenders, QUERIES, { budgetMs: 6000, batchTargetUs: 2000 });
  const { perCall, clockNs } = latencies(contenders, QUERIES, 30_000);
  const bytes = contenders.map((c) => bytesPerCall(c.run, QUERIES));
  const answerBytes = [NaN, ...methods.map((m) => meanAnswerBytes(m.answer))];
  const floorMean = timings[0].meanUs;
  /** A method's mean over the floor's, with a third decimal when it is that close to the 3x goal. */
  const overFloor = (i: number) =>
    i === 0 ? '1.00x' : contenders[i].name === 'engine.geocode' ? ratio(timings[i].meanUs / floorMean) : ratioToGoal(timings[i].meanUs / floorMean, 3);
  const target = (i: number) => {
    if (i === 0) return ['', ''];
    const mean = timings[i].meanUs;
    return contenders[i].name === 'engine.geocode'
      ? ['< 0.5 us', verdict(mean < 0.5)]
      : ['<= 3x floor', verdict(mean <= 3 * floorMean)];
  };
  console.log(table(
    ['contender', 'mean us', 'p50 us', 'p99 us', 'mean / floor', 'target', '', 'bytes/call', 'answer JSON bytes'],
    contenders.map((c, i) => [
      c.name, us(timings[i].meanUs), us(quantile(perCall[i], 0.5) / 1e3), us(quantile(perCall[i], 0.99) / 1e3),
      overFloor(i), ...target(i), int(bytes[i]), i === 0 ? '' : int(answerBytes[i]),
    ]),
  ));
  console.log(
    `  mean: over ${timings[0].batches} interleaved batches of each; p50/p99: ${int(perCall[0].length)} single calls of each, in interleaved runs of 64, ` +
      `less the clock's own ${us(clockNs / 1e3)} us; bytes/call: JS heap growth per call (median of 61 batches of 64 calls, each after a full GC)`,
  );
  console.log('  answer JSON bytes: the mean size of the answer as JSON text (for searchJson, the text it returns)');
  summary.push(['**The query path**, 25 mi: mean (p50, p99) per call; bytes allocated per call / answer as JSON', '', '', '', '']);
  contenders.forEach((c, i) => {
    const [goal, met] = target(i);
    summary.push([
      `\`${c.name.replace('floor: ', '')}\``,
      `${us(timings[i].meanUs)} us (${us(quantile(perCall[i], 0.5) / 1e3)}, ${us(quantile(perCall[i], 0.99) / 1e3)}); ${int(bytes[i])} B${i === 0 ? '' : ` / ${int(answerBytes[i])} B`}`,
      i === 0 ? 'the floor' : `floor ${us(floorMean)} us`,
      overFloor(i),
      goal ? `${goal}: ${met}` : '',
    ]);
  });
}

/** The mean size, as JSON text, of a method's answers over the queries. */
function meanAnswerBytes(answer: (q: number) => unknown): number {
  let total = 0;
  for (let q = 0; q < QUERIES; q++) {
    const a = answer(q);
    total += typeof a === 'string' ? a.length : JSON.stringify(a).length;
  }
  return total / QUERIES;
}

/**
 * Checks every timed query: the input fast path gives zod's output; searchJson is ASCII text that
 * parses to search's answer (JSON.stringify(search) with characters beyond ASCII escaped); the nearby results of search are exactly the floor's locations of the
 * carriers without an exact match, at the floor's distances; which-carriers and can-reach agree
 * with search on who serves the place. Returns the lines to print.
 */
function checkQueryPath(input: {
  floor: (q: number) => number;
  floorOut: Uint32Array;
  floorTerms: Float64Array;
  searchQueries: { zip: string; radius: number }[];
  reachQueries: { carrier: string; zip: string; radius: number }[];
  geocodeQueries: { zip: string }[];
}): string[] {
  const locOf = new Map<string, number>();
  for (let l = 0; l < net.locationCount; l++) locOf.set(`${net.carriers[t.locCarrier[l]].id}|${t.locCode.at(l)}`, l);
  const bad = { parse: 0, json: 0, nearby: 0, serving: 0 };
  const parses: [z.ZodMiniType, unknown[]][] = [
    [searchQuerySchema, input.searchQueries],
    [placeQuerySchema, input.searchQueries],
    [canReachQuerySchema, input.reachQueries],
    [geocodeQuerySchema, input.geocodeQueries],
  ];
  for (const [schema, list] of parses) {
    for (const value of list) if (!isDeepStrictEqual(parseInput(schema, value), parseWithZod(schema, value))) bad.parse++;
  }
  for (let q = 0; q < QUERIES; q++) {
    const result = engine.search(input.searchQueries[q]);
    const json = parsedQueries(engine).searchJson(input.searchQueries[q]);
    if (!PRINTABLE_ASCII.test(json) || !isDeepStrictEqual(JSON.parse(json), JSON.parse(JSON.stringify(result)))) bad.json++;
    const exact = new Set(result.results.filter((r) => r.match === 'exact').map((r) => r.carrier));
    const nearby = result.results.filter((r) => r.match === 'nearby').map((r) => `${locOf.get(`${r.carrier}|${r.terminalCode}`)}@${r.distanceMiles}`);
    const expected: string[] = [];
    for (let k = 0, n = input.floor(q); k < n; k++) {
      const l = t.unifiedLoc[input.floorOut[k]];
      const floorMiles = hToMiles(input.floorTerms[input.floorOut[k]]);
      if (!exact.has(net.carriers[t.locCarrier[l]].id)) expected.push(`${l}@${roundMiles(floorMiles)}`);
    }
    if (nearby.sort().join() !== expected.sort().join()) bad.nearby++;
    const serving = new Set(result.results.map((r) => r.carrier));
    const which = engine.whichCarriers(input.searchQueries[q]).carriers.map((c) => c.carrier);
    const reach = engine.canReach(input.reachQueries[q]);
    // A unified carrier reaches the place exactly when search lists it.
    const reachUnified = net.carriers[net.carrierNumber(reach.carrier)].unified;
    if (which.length !== serving.size || which.some((id) => !serving.has(id)) || (reachUnified && serving.has(reach.carrier) !== reach.canReach)) {
      bad.serving++;
    }
  }
  return [
    `checked on all ${QUERIES} queries before timing them (mismatches):`,
    `  input fast path = zod: ${bad.parse}; searchJson = JSON.stringify(search), in ASCII: ${bad.json}; ` +
      `search's nearby results = the floor's locations and distances: ${bad.nearby}; which-carriers / can-reach agree with search: ${bad.serving}`,
  ];
}

// ---------------------------------------------------------------------------------------------
// 2. Radius fan-out

interface FanOut {
  all: Timing[];
  ours: Timing;
  naive: Timing;
  floor: Timing;
  /** Ours with its hits sorted nearest first, as the Matcher runs it and as (a) returns them. */
  oursSorted: Timing;
  mismatches: number;
  meanHits: number;
}

function fanOut(radius: number, budgetMs: number): FanOut {
  const hits = new Hits(512);
  const accept = new Uint8Array(net.carriers.length);
  for (const c of unified) accept[c] = 1;

  // (a) the naive use of the library: a kdbush per carrier, geokdbush.around on each.
  const perCarrier = unified.map((c) => {
    const [from, to] = net.carrierLocations(c);
    const kd = new KDBush(to - from);
    for (let l = from; l < to; l++) kd.add(t.locLng[l], t.locLat[l]);
    return { c, from, kd: kd.finish() };
  });
  const km = geokdbushKm(radius);
  // (b) the floor: one kdbush of all unified locations, one range query, a haversine filter.
  const floorKd = new KDBush(t.unifiedLoc.length);
  const itemLat = Float64Array.from(t.unifiedLoc, (l) => t.locLat[l]);
  const itemLng = Float64Array.from(t.unifiedLoc, (l) => t.locLng[l]);
  for (let i = 0; i < itemLat.length; i++) floorKd.add(itemLng[i], itemLat[i]);
  floorKd.finish();
  const floorOut = new Uint32Array(t.unifiedLoc.length);

  const ours = (q: number) => {
    hits.clear();
    net.unifiedIndex.within(queries.lat[q], queries.lng[q], radius, hits, accept, t.locCarrier);
    return hits.count;
  };
  const naive = (q: number) => {
    let n = 0;
    for (const { kd } of perCarrier) n += around(kd, queries.lng[q], queries.lat[q], Infinity, km).length;
    return n;
  };
  const floor = (q: number) => rangeHaversine(floorKd, itemLat, itemLng, queries.lat[q], queries.lng[q], radius, floorOut);

  // Same set of locations from all three, for every query.
  let mismatches = 0;
  let totalHits = 0;
  const examples: string[] = [];
  for (let q = 0; q < QUERIES; q++) {
    ours(q);
    totalHits += hits.count;
    const a = Array.from(hits.loc.subarray(0, hits.count)).sort((x, y) => x - y);
    const b: number[] = [];
    for (const { from, kd } of perCarrier) for (const id of around(kd, queries.lng[q], queries.lat[q], Infinity, km)) b.push(from + id);
    b.sort((x, y) => x - y);
    const n = floor(q);
    const f = Array.from(floorOut.subarray(0, n), (i) => t.unifiedLoc[i]).sort((x, y) => x - y);
    if (a.join() !== b.join() || a.join() !== f.join()) {
      mismatches++;
      if (examples.length < 5) examples.push(`    ZIP ${queries.zip[q]}: ours ${a.length}, (a) ${b.length}, (b) ${f.length}`);
    }
  }

  const timings = compare(
    [
      { name: `ours: unifiedIndex.within (accept mask)`, run: ours },
      { name: `(a) geokdbush.around per carrier (x${perCarrier.length})`, run: naive },
      { name: `(b) floor: kdbush.range + haversine`, run: floor },
      {
        name: `ours + hits.sort() (as the Matcher runs it)`,
        run: (q) => {
          ours(q);
          hits.sort();
          return hits.count;
        },
      },
    ],
    QUERIES,
    { budgetMs },
  );
  console.log(`  same locations from all three: ${QUERIES - mismatches} of ${QUERIES} queries agree; mismatches: ${mismatches}`);
  for (const e of examples) console.log(e);
  return { all: timings, ours: timings[0], naive: timings[1], floor: timings[2], oursSorted: timings[3], mismatches, meanHits: totalHits / QUERIES };
}

if (wanted(2)) {
  heading(`2. Radius fan-out: every unified carrier's locations within ${RADIUS} mi of a random ZIP point`);
  console.log(`  ${unified.length} unified carriers, ${int(t.unifiedLoc.length)} locations (per carrier ${unified.map((c) => carrierSize(c)).join(', ')})`);
  const result = fanOut(RADIUS, 3000);
  console.log(`  ${result.meanHits.toFixed(2)} locations per fan-out on average`);
  console.log(table(TIMING_HEADER, timingRows(result.all, result.ours)));
  console.log(BATCH_NOTE);
  // geokdbush.around returns its hits nearest first: (a) is set against ours sorted the same way.
  const speedup = result.naive.batchMedianUs / result.oursSorted.batchMedianUs;
  const overFloor = result.ours.batchMedianUs / result.floor.batchMedianUs;
  console.log(`  target: ours, sorted, at least 4x faster than (a):  (a)/(ours + sort) = ${ratio(speedup)}  -> ${verdict(speedup >= 4)}`);
  console.log(`  target: ours within 3x of the floor (b):   ours/(b) = ${ratio(overFloor)}  -> ${verdict(overFloor <= 3)}`);
  summary.push([
    `Radius fan-out, ${RADIUS} mi, ${unified.length} carriers (${int(t.unifiedLoc.length)} locs), median of batch means`,
    `${us(result.oursSorted.batchMedianUs)} us sorted nearest first (p99 of batch means ${us(result.oursSorted.batchP99Us)}); unsorted ${us(result.ours.batchMedianUs)} us`,
    `(a) geokdbush per carrier ${us(result.naive.batchMedianUs)} us`,
    `${ratio(speedup)} faster`,
    `>= 4x: ${verdict(speedup >= 4)}`,
  ]);
  summary.push([
    'the same, unsorted, against the floor (b), which is unsorted too, over the same points',
    '',
    `(b) one kdbush.range + haversine ${us(result.floor.batchMedianUs)} us`,
    `ours/(b) ${ratio(overFloor)}`,
    `<= 3x: ${verdict(overFloor <= 3)}`,
  ]);
  summary.push(['', `set mismatches: ${result.mismatches}`, '', '', '']);

  console.log(`\n  the same at the API's largest radius, 100 mi (more hits; Hits.sort's path for > 48 hits):`);
  const wide = fanOut(100, 1500);
  console.log(`  ${wide.meanHits.toFixed(1)} locations per fan-out on average`);
  console.log(table(TIMING_HEADER, timingRows(wide.all, wide.ours)));
  console.log(BATCH_NOTE);
}

// ---------------------------------------------------------------------------------------------
// 3. Nearest-k per carrier

if (wanted(3)) {
  heading('3. Nearest-k per carrier (k = 1, 5), at any distance, from random ZIP points');
  const hits = new Hits(16);
  const outId = new Uint32Array(8);
  const outH = new Float64Array(8);
  const rows: string[][] = [];
  let mismatches = 0;
  for (let c = 0; c < net.carriers.length; c++) {
    const index = net.carrierIndex[c];
    const [from, to] = net.carrierLocations(c);
    for (const k of [1, 5]) {
      // Same answers (distances; equal distances may come in any order) from all three.
      for (let q = 0; q < QUERIES; q++) {
        const lat = queries.lat[q];
        const lng = queries.lng[q];
        hits.clear();
        index.nearest(lat, lng, k, hits);
        const ids = around(index.kd, lng, lat, k);
        const n = bruteNearest(lat, lng, k, t.locLat, t.locLng, from, to, outId, outH);
        let ok = hits.count === n && ids.length === n;
        for (let j = 0; ok && j < n; j++) {
          const brute = hToMiles(outH[j]);
          const lib = net.distanceTo(from + ids[j], lat, lng);
          ok = Math.abs(hits.miles[j] - brute) < 1e-9 && Math.abs(lib - brute) < 1e-9;
        }
        if (!ok) mismatches++;
      }
      const [ours, lib, brute] = compare(
        [
          { name: 'ours', run: (q) => {
          hits.clear();
          index.nearest(queries.lat[q], queries.lng[q], k, hits);
          return hits.count;
        } },
          { name: 'geokdbush', run: (q) => around(index.kd, queries.lng[q], queries.lat[q], k).length },
          { name: 'brute', run: (q) => bruteNearest(queries.lat[q], queries.lng[q], k, t.locLat, t.locLng, from, to, outId, outH) },
        ],
        QUERIES,
        { budgetMs: 400, warmMs: 60 },
      );
      const r = ours.batchMedianUs / lib.batchMedianUs;
      rows.push([
        `${net.carriers[c].id} (${int(to - from)})`, String(k), us(ours.batchMedianUs), us(ours.batchP99Us), us(lib.batchMedianUs), us(lib.batchP99Us),
        us(brute.batchMedianUs), ratio(r), verdict(r <= 1), ratio(brute.batchMedianUs / ours.batchMedianUs),
      ]);
    }
  }
  console.log(table(
    ['carrier (locations)', 'k', 'ours med', 'ours p99', 'geokdbush med', 'geokdbush p99', 'brute med', 'ours/geokdbush', 'no slower?', 'brute/ours'],
    rows,
  ));
  console.log("  (times in us per query: med and p99 over batches of each batch's time per call; target: ours no slower than geokdbush.around, i.e. ours/geokdbush <= 1.00x)");
  console.log(`  same answers from all three: mismatches ${mismatches} of ${net.carriers.length * 2 * QUERIES} queries`);
  const sizes = net.carriers.map((_, c) => carrierSize(c));
  const sizeSpan = `${int(Math.min(...sizes))}-${int(Math.max(...sizes))}`;
  for (const k of [1, 5]) {
    const ks = rows.filter((r) => r[1] === String(k));
    const span = (col: number, format = us) => {
      const v = ks.map((r) => Number(r[col].replace(/[,x]/g, '')));
      return `${format(Math.min(...v))}-${format(Math.max(...v))}`;
    };
    summary.push([
      `Nearest k=${k}, per carrier (${ks.length} carriers, ${sizeSpan} locs), median of batch means`,
      `${span(2)} us`,
      `geokdbush.around ${span(4)} us; brute force ${span(6)} us`,
      `ours/geokdbush ${span(7, (x) => x.toFixed(2))}x`,
      `no slower: ${verdict(ks.every((r) => r[8] === 'met'))}`,
    ]);
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Cold start, in fresh processes

if (wanted(4)) {
  heading('4. Cold start: createEngine() + first search in a fresh node process (compiled dist/, median of 5)');
  const dist = join(root, 'dist', 'engine', 'index.js');
  const stale = !existsSync(dist) || readdirSync(join(root, 'engine')).some((f) => {
    if (!f.endsWith('.ts')) return false;
    const js = join(root, 'dist', 'engine', f.replace(/\.ts$/, '.js'));
    return !existsSync(js) || statSync(js).mtimeMs < statSync(join(root, 'engine', f)).mtimeMs;
  });
  if (stale) {
    console.log('  compiling: npx tsc -p tsconfig.build.json (dist/ missing or older than engine/)');
    const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
    if (tsc.status !== 0) console.log(`  (tsc exited ${tsc.status}; it still emits: ${tsc.stdout.split('\n').filter(Boolean).length} diagnostics lines)`);
  }
  // Both scripts given to node as module text (`--input-type=module -e`), the engine's URL written
  // in: no temp files, so an interrupt leaves nothing behind, and both processes start the same way.
  const probe = `const t0 = performance.now();
const { createEngine } = await import(${JSON.stringify(pathToFileURL(dist).href)});
const t1 = performance.now();
const engine = createEngine();
const t2 = performance.now();
const answer = engine.search({ zip: '60601', radius: 25 });
const t3 = performance.now();
const m = process.memoryUsage();
console.log(JSON.stringify({ importMs: t1 - t0, loadMs: t2 - t1, firstQueryMs: t3 - t2, rssMB: m.rss / 2 ** 20,
  heapUsedMB: m.heapUsed / 2 ** 20, arrayBuffersMB: m.arrayBuffers / 2 ** 20, results: answer.total,
  uptimeMs: performance.now() }));
`;
  const base = `const m = process.memoryUsage();
console.log(JSON.stringify({ rssMB: m.rss / 2 ** 20, heapUsedMB: m.heapUsed / 2 ** 20, uptimeMs: performance.now() }));
`;
  /** The last line the script printed, as JSON, and the process's wall time from spawn to exit. */
  const run = (script: string, what: string): Record<string, number> => {
    const w0 = performance.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const wallMs = performance.now() - w0;
    if (child.status !== 0) throw new Error(`${what} failed: ${child.stderr}`);
    return { ...JSON.parse(child.stdout.trim().split('\n').pop()!), wallMs };
  };
  const runs: Record<string, number>[] = [];
  const baselines: Record<string, number>[] = [];
  for (let i = 0; i < 5; i++) {
    runs.push(run(probe, 'cold-start probe'));
    baselines.push(run(base, 'node baseline'));
  }
  const med = (rows: Record<string, number>[], key: string) => median(rows.map((r) => r[key]));
  const load = med(runs, 'loadMs');
  const first = med(runs, 'firstQueryMs');
  const rss = med(runs, 'rssMB');
  const baseRss = med(baselines, 'rssMB');
  console.log(table(
    ['process', 'import ms', 'createEngine ms', 'first search ms', 'ready (from start) ms', 'process wall ms', 'RSS MiB', 'heapUsed MiB', 'arrayBuffers MiB'],
    [
      ['engine (dist/engine/index.js)', ms(med(runs, 'importMs')), ms(load), ms(first), ms(med(runs, 'uptimeMs')), ms(med(runs, 'wallMs')), rss.toFixed(1), med(runs, 'heapUsedMB').toFixed(1), med(runs, 'arrayBuffersMB').toFixed(1)],
      ['node baseline (imports nothing)', '', '', '', ms(med(baselines, 'uptimeMs')), ms(med(baselines, 'wallMs')), baseRss.toFixed(1), med(baselines, 'heapUsedMB').toFixed(1), ''],
    ],
  ));
  console.log(`  runs (createEngine ms): ${runs.map((r) => ms(r.loadMs)).join(', ')}; RSS MiB: ${runs.map((r) => r.rssMB.toFixed(1)).join(', ')}`);
  // createEngine() reads the header and manifest alone; the tables a search needs are read and
  // checked by the first search, so the load is judged with it.
  console.log(`  target: snapshot load <= 100 ms:  createEngine + first search ${ms(load + first)} ms = ${ratio((load + first) / 100)} of target -> ` +
    `${verdict(load + first <= 100)}  (createEngine alone: ${ms(load)} ms)`);
  console.log(`  target: RSS after load <= 150 MiB: ${rss.toFixed(1)} MiB = ${ratio(rss / 150)} of target -> ${verdict(rss <= 150)}` +
    `  (node alone: ${baseRss.toFixed(1)} MiB; the engine adds ${(rss - baseRss).toFixed(1)} MiB)`);
  summary.push([
    'Cold start: `createEngine()` and a first search (dist/engine/index.js, medians of 5 processes)',
    // The module's import comes before it and is no baseline: it is part of the engine's own start.
    `${ms(load + first)} ms: createEngine ${ms(load)} ms + first search ${ms(first)} ms (after the import, ${ms(med(runs, 'importMs'))} ms)`,
    '',
    `${ratio((load + first) / 100)} of target`,
    `<= 100 ms: ${verdict(load + first <= 100)}`,
  ]);
  summary.push([
    'RSS after createEngine() and a first search (the same processes)',
    `${rss.toFixed(1)} MiB`,
    `node alone ${baseRss.toFixed(1)} MiB`,
    `${ratio(rss / 150)} of target`,
    `<= 150 MiB: ${verdict(rss <= 150)}`,
  ]);
}

// ---------------------------------------------------------------------------------------------
// 5. Scale, each run in a process of its own

if (wanted(5)) {
  heading('5. Scale: synthetic points over the contiguous US: the index, and the whole unified search over them');
  const runs: [number, 'uniform' | 'clustered'][] = [
    [1_000_000, 'uniform'],
    [1_000_000, 'clustered'],
  ];
  if (!quick) runs.push([10_000_000, 'uniform'], [10_000_000, 'clustered']);
  const results: ScaleResult[] = [];
  for (const [points, distribution] of runs) {
    const w0 = performance.now();
    const child = spawnSync(process.execPath, [...process.execArgv, join(root, 'bench', 'scale.ts'), String(points), distribution], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (child.status !== 0) throw new Error(`scale run ${points} ${distribution} failed: ${child.stderr}`);
    const result = JSON.parse(child.stdout.trim().split('\n').pop()!) as ScaleResult;
    results.push(result);
    console.log(`  ${int(points)} ${distribution}: child process done in ${((performance.now() - w0) / 1e3).toFixed(1)} s`);
  }
  console.log('  uniform: uniform in the lon/lat box; clustered: Gaussian (sigma 5 mi) around random ZIP points.');
  console.log(`  queries: ${int(results[0].queries)} random contiguous-US ZIP points of their own (seed ${results[0].querySeed}), not the ${int(QUERIES)} of the sections above`);
  console.log(table(
    ['points', 'kdbush build ms', 'LocationIndex() ms', 'kdbush MiB', 'LocationIndex MiB', 'RSS delta MiB', 'peak RSS delta MiB', 'hits/query 25 mi', 'hits/query 5 mi', 'mismatches'],
    results.map((r) => [
      `${int(r.points)} ${r.distribution}`, ms(r.buildMs), ms(r.indexCtorMs), mb(r.kdbushBytes), mb(r.locationIndexBytes), mb(r.rssDeltaBytes), mb(r.rssPeakDeltaBytes),
      int(r.hitsPerQuery['within 25 mi']), r.hitsPerQuery['within 5 mi'].toFixed(1),
      // Three checks of `checked` queries (within 25 and 5 mi, nearest k=5), and the whole search's own.
      `${Object.values(r.mismatches).reduce((a, b) => a + b, 0)} of ${r.checked * 3 + r.searchChecked}`,
    ]),
  ));
  console.log(`  (hits/query: the mean number of points within the radius, over all ${int(results[0].queries)} queries; at 25 mi, also the unified search's results per query;`);
  console.log('   LocationIndex MiB = its kdbush copy + slot location ids + slot cos(lat);');
  console.log('   RSS delta = RSS with only the LocationIndex alive (input points subtracted) - RSS before generating the points)');
  const rows: string[][] = [];
  for (const r of results) {
    for (const [key, [ours, base, ...more]] of Object.entries(r.timings)) {
      for (const x of [ours, ...more]) {
        rows.push([`${int(r.points)} ${r.distribution}`, key, x.name, us(x.meanUs), us(x.batchMedianUs), us(x.batchP99Us), base.name, us(base.meanUs), us(base.batchMedianUs), ratio(x.meanUs / base.meanUs)]);
      }
    }
  }
  console.log(table(['points', 'query', 'ours', 'mean us', 'batch median us', 'batch p99 us', 'baseline', 'mean us', 'batch median us', 'ours/baseline (mean)'], rows));
  console.log(BATCH_NOTE);
  console.log('  unified search: eight unified carriers over the cloud, whole answers (objects, or JSON text) vs the floor kdbush.range + haversine + sort');
  for (const r of results) {
    const tm = r.timings;
    const [search, floor, json] = tm['unified search 25 mi'];
    summary.push([
      `Scale ${r.points >= 1e7 ? '10M' : '1M'} ${r.distribution}: whole unified search, 25 mi (${int(r.hitsPerQuery['within 25 mi'])} results per query)`,
      `search ${us(search.meanUs)} us, searchJson ${us(json.meanUs)} us (mean)`,
      `floor ${us(floor.meanUs)} us`,
      `${ratio(search.meanUs / floor.meanUs)} / ${ratio(json.meanUs / floor.meanUs)} of floor`,
      `mismatches ${r.mismatches['unified search vs the floor']}`,
    ]);
    summary.push([
      `Scale ${r.points >= 1e7 ? '10M' : '1M'} ${r.distribution}: within 25 / 5 mi, nearest k=5 (medians of batch means)`,
      `${us(tm['within 25 mi'][0].batchMedianUs)} / ${us(tm['within 5 mi'][0].batchMedianUs)} / ${us(tm['nearest k=5'][0].batchMedianUs)} us`,
      `range+haversine ${us(tm['within 25 mi'][1].batchMedianUs)} / ${us(tm['within 5 mi'][1].batchMedianUs)} us; geokdbush k=5 ${us(tm['nearest k=5'][1].batchMedianUs)} us`,
      `build ${ms(r.buildMs)} ms`,
      `index ${mb(r.locationIndexBytes)} MiB, RSS +${mb(r.rssDeltaBytes)} MiB`,
    ]);
  }
}

// ---------------------------------------------------------------------------------------------

heading('Summary (paste into docs/performance.md)');
console.log(`Measured with \`npm run bench\` on ${cpus()[0]?.model.trim() ?? 'cpu'} x${cpus().length}, node ${process.version}, sample data; µs: the query path's and the scale runs' whole searches are means, the rest medians over batches of each batch's mean per call.\n`);
console.log(markdownTable(['Measure', 'Engine', 'Baseline', 'Ratio', 'Target'], summary, ['l', 'l', 'l', 'l', 'l']));
console.log(`\nbench runtime ${((performance.now() - started) / 1e3).toFixed(1)} s; load average at the end ${loadAvg()}${sinkValue() === 0.5 ? ' ' : ''}`);
