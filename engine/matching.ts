// The per-carrier decision at the heart of every unified query: does the carrier serve the place
// itself (exact / direct), has it locations within the radius (nearby), or nothing. One query's
// matches over every carrier in scope land in flat buffers, ranked once: exact hits first, then
// nearby ones, each group in the documented order (ranking.ts); then grouped by carrier, keeping
// that order. A query that shows each carrier's nearest hit alone asks for that instead, found in
// one pass. The buffers are reused by the next query: read a MatchSet before matching again.

import type { Gazetteer } from './gazetteer.js';
import { Hits } from './hits.js';
import type { Network } from './network.js';
import type { Place } from './places.js';
import { compareNearest, sortNearestFirst } from './ranking.js';
import type { ZipCache } from './zip-cache.js';

type CarrierMatchKind = 'exact' | 'nearby' | 'none';

/**
 * What a match leaves ready: every hit ranked and grouped by carrier (a search shows them all), or
 * only each carrier's nearest hit (which-carriers and can-reach show no more).
 */
export type MatchOutput = 'ranked' | 'nearest';

const NONE = 0;
const EXACT = 1;
const NEARBY = 2;
const KIND_NAMES: readonly CarrierMatchKind[] = ['none', 'exact', 'nearby'];
/** `nearest` of a carrier without hits. */
const NO_HIT = 0xffffffff;

export class MatchSet {
  /** Hits: [0, exactCount) exact, [exactCount, hits.count) nearby; each part ranked when the output is. */
  readonly hits = new Hits(512);
  exactCount = 0;
  /** Ranked output only: hit positions grouped by carrier, in scope order, ranked within each carrier. */
  byCarrier = new Uint32Array(512);
  /** Per carrier number: NONE, EXACT or NEARBY, and (ranked output) its run in `byCarrier`. */
  readonly kindOf: Uint8Array;
  readonly runStart: Uint32Array;
  readonly runLength: Uint32Array;
  /**
   * Nearest output only: per carrier number whose kind is not NONE, the hit position of its nearest
   * location (the first of its run in a ranked output; a search, which reads the runs, never asks).
   */
  readonly nearest: Uint32Array;
  /** servingNearestFirst's answer: carrier numbers in serving[0 .. its count). */
  readonly serving: Uint32Array;

  constructor(carrierCount: number) {
    this.kindOf = new Uint8Array(carrierCount);
    this.runStart = new Uint32Array(carrierCount);
    this.runLength = new Uint32Array(carrierCount);
    this.nearest = new Uint32Array(carrierCount);
    this.serving = new Uint32Array(carrierCount);
  }

  kind(c: number): CarrierMatchKind {
    return KIND_NAMES[this.kindOf[c]];
  }

  isExact(hit: number): boolean {
    return hit < this.exactCount;
  }

  /**
   * The hit position of carrier c's nearest location: of a match for the nearest output, and only
   * for a carrier whose kind is not 'none'.
   */
  nearestOf(c: number): number {
    return this.nearest[c];
  }

  /**
   * The carriers of `scope` that matched, nearest first (ties: carrier id, as for locations), into
   * `serving`; returns how many. Of a match for the nearest output, as nearestOf.
   */
  servingNearestFirst(scope: readonly number[]): number {
    const { loc, miles } = this.hits;
    const serving = this.serving;
    let count = 0;
    for (const c of scope) {
      if (this.kindOf[c] === NONE) continue;
      const hit = this.nearestOf(c);
      // Insertion: a scope holds a handful of carriers.
      let i = count++;
      for (; i > 0; i--) {
        const before = this.nearestOf(serving[i - 1]);
        if (compareNearest(miles[before], loc[before], miles[hit], loc[hit]) <= 0) break;
        serving[i] = serving[i - 1];
      }
      serving[i] = c;
    }
    return count;
  }
}

export class Matcher {
  private readonly set: MatchSet;
  /** Per location: the query generation that last added it, so no location is added twice. */
  private readonly stamp: Uint32Array;
  private generation = 0;
  /** Per carrier number, 1 while a query runs for it (and, in addNearby, lacks an exact match); all 0 between queries. */
  private readonly inScope: Uint8Array;
  private readonly pending: Uint8Array;

  constructor(
    private readonly net: Network,
    private readonly gazetteer: Gazetteer,
    private readonly zipCache: ZipCache,
  ) {
    this.set = new MatchSet(net.carriers.length);
    this.stamp = new Uint32Array(net.locationCount);
    this.inScope = new Uint8Array(net.carriers.length);
    this.pending = new Uint8Array(net.carriers.length);
  }

  /**
   * Matches `place` for the carriers of `scope` (carrier numbers in id order): exact matches, then,
   * when `radiusMiles` is given and the place is not a whole state, nearby locations for the
   * carriers without an exact match: all of them within the radius for the carriers of the unified
   * index; for any other carrier (can-reach's drop points, thousands of them in a city) only the
   * nearest one, which is all that can-reach reads. `output`: what the set leaves ready (MatchOutput).
   */
  match(place: Place, scope: readonly number[], radiusMiles: number | null, output: MatchOutput = 'ranked'): MatchSet {
    const set = this.set;
    set.hits.clear();
    for (const c of scope) {
      this.inScope[c] = 1;
      set.kindOf[c] = NONE;
    }
    this.addExact(place);
    set.exactCount = set.hits.count;
    if (radiusMiles !== null && place.kind !== 'state') this.addNearby(place, scope, radiusMiles);
    if (output === 'ranked') {
      sortNearestFirst(set.hits.loc, set.hits.miles, 0, set.exactCount - 1);
      sortNearestFirst(set.hits.loc, set.hits.miles, set.exactCount, set.hits.count - 1);
      this.groupByCarrier(scope);
    } else {
      this.findNearest(scope);
    }
    for (const c of scope) this.inScope[c] = 0;
    return set;
  }

  private addExact(place: Place): void {
    // A ZIP's matches were made unique when the snapshot was compiled: no generation to stamp.
    if (place.kind === 'zip') {
      this.addExactAtZip(place.zipCode);
      return;
    }
    const net = this.net;
    const t = net.t;
    const generation = this.nextGeneration();
    if (place.kind === 'state') {
      for (const p of net.servicePointsInState(place.state)) this.addExactLocation(t.spTerminal[p], generation, place);
      for (const l of net.locationsInState(place.state)) this.addExactLocation(l, generation, place);
      return;
    }
    const g = this.gazetteer.table;
    for (let k = g.placeZipStart[place.id], end = g.placeZipStart[place.id + 1]; k < end; k++) {
      this.addExactZip(g.zipCodes[g.placeZips[k]], generation, place);
    }
    for (const l of net.locationsInCity(g.placeKeys.at(place.id), place.state)) this.addExactLocation(l, generation, place);
  }

  /** A ZIP's exact matches (zip-tables.ts), with their distances from its point (its ZIP record's). */
  private addExactAtZip(zipCode: number): void {
    const { inScope, set, zipCache } = this;
    const locCarrier = this.net.t.locCarrier;
    for (let k = 0, count = zipCache.exactCount(zipCode); k < count; k++) {
      const l = zipCache.exactLoc(zipCode, k);
      const c = locCarrier[l];
      if (inScope[c] === 0) continue;
      set.kindOf[c] = EXACT;
      set.hits.push(l, zipCache.exactMiles(zipCode, k));
    }
  }

  /** The terminals serving a ZIP (points-served) and the locations in it: each ZIP of a city. */
  private addExactZip(zipCode: number, generation: number, place: Place): void {
    const { t, zipRuns } = this.net;
    const run = 2 * zipCode;
    for (let p = zipRuns[run], end = zipRuns[run + 2]; p < end; p++) {
      // The row's own carrier column first: rows out of scope never touch the location columns.
      if (this.inScope[t.spCarrier[p]] === 1) this.addExactLocation(t.spTerminal[p], generation, place);
    }
    for (let k = zipRuns[run + 1], end = zipRuns[run + 3]; k < end; k++) {
      this.addExactLocation(t.locByZipId[k], generation, place);
    }
  }

  private addExactLocation(l: number, generation: number, place: Place): void {
    const c = this.net.t.locCarrier[l];
    if (this.inScope[c] === 0 || this.stamp[l] === generation) return;
    this.stamp[l] = generation;
    this.set.kindOf[c] = EXACT;
    this.set.hits.push(l, this.net.distanceTo(l, place.lat, place.lng));
  }

  private addNearby(place: Place, scope: readonly number[], radiusMiles: number): void {
    const net = this.net;
    const set = this.set;
    const pending = this.pending;
    let unifiedPending = 0;
    const { lat, lng } = place;
    const from = set.hits.count;
    for (const c of scope) {
      if (set.kindOf[c] !== NONE) continue;
      if (net.carriers[c].unified) {
        pending[c] = 1;
        unifiedPending++;
      } else {
        net.nearestWithin(c, place.kind === 'zip' ? place.id : -1, lat, lng, radiusMiles, set.hits);
      }
    }
    // One walk of the shared index answers every unified carrier at once.
    if (unifiedPending > 0) net.unifiedIndex.within(lat, lng, radiusMiles, set.hits, pending, net.t.locCarrier);
    for (const c of scope) pending[c] = 0;
    for (let i = from; i < set.hits.count; i++) set.kindOf[net.t.locCarrier[set.hits.loc[i]]] = NEARBY;
  }

  /** A stable counting sort of hit positions by carrier: each carrier's run keeps the ranked order. */
  private groupByCarrier(scope: readonly number[]): void {
    const set = this.set;
    const { loc, count } = set.hits;
    const locCarrier = this.net.t.locCarrier;
    if (set.byCarrier.length < count) set.byCarrier = new Uint32Array(Math.max(count, set.byCarrier.length * 2));
    const { runStart, runLength, byCarrier } = set;
    for (const c of scope) runLength[c] = 0;
    for (let i = 0; i < count; i++) runLength[locCarrier[loc[i]]]++;
    let start = 0;
    for (const c of scope) {
      runStart[c] = start;
      start += runLength[c];
      runLength[c] = 0;
    }
    for (let i = 0; i < count; i++) {
      const c = locCarrier[loc[i]];
      byCarrier[runStart[c] + runLength[c]++] = i;
    }
  }

  /**
   * Each carrier's nearest hit, by one pass over the unranked hits: the hit the ranked output puts
   * first in the carrier's run, since a carrier's hits are all exact or all nearby.
   */
  private findNearest(scope: readonly number[]): void {
    const set = this.set;
    const { loc, miles, count } = set.hits;
    const nearest = set.nearest;
    const locCarrier = this.net.t.locCarrier;
    for (const c of scope) nearest[c] = NO_HIT;
    for (let i = 0; i < count; i++) {
      const c = locCarrier[loc[i]];
      const best = nearest[c];
      if (best === NO_HIT || compareNearest(miles[i], loc[i], miles[best], loc[best]) < 0) nearest[c] = i;
    }
  }

  private nextGeneration(): number {
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }
}
