// The per-carrier decision at the heart of every unified query: does the carrier serve the place
// itself (exact / direct), has it locations within the radius (nearby), or nothing. One query's
// matches over every carrier in scope land in flat buffers, ranked once: exact hits first, then
// nearby ones, each group in the documented order (ranking.ts); then grouped by carrier, keeping
// that order. The buffers are reused by the next query: read a MatchSet before matching again.

import { Hits } from './hits.js';
import type { Network } from './network.js';
import type { Place } from './places.js';
import { compareNearest, sortNearestFirst } from './ranking.js';

export type CarrierMatchKind = 'exact' | 'nearby' | 'none';

const NONE = 0;
const EXACT = 1;
const NEARBY = 2;
const KIND_NAMES: readonly CarrierMatchKind[] = ['none', 'exact', 'nearby'];

export class MatchSet {
  /** Ranked hits: [0, exactCount) exact, [exactCount, hits.count) nearby. */
  readonly hits = new Hits(512);
  exactCount = 0;
  /** Hit positions grouped by carrier, in scope order, ranked within each carrier. */
  byCarrier = new Uint32Array(512);
  /** Per carrier number: NONE, EXACT or NEARBY, and its run in `byCarrier`. */
  readonly kindOf: Uint8Array;
  readonly runStart: Uint32Array;
  readonly runLength: Uint32Array;

  constructor(carrierCount: number) {
    this.kindOf = new Uint8Array(carrierCount);
    this.runStart = new Uint32Array(carrierCount);
    this.runLength = new Uint32Array(carrierCount);
  }

  kind(c: number): CarrierMatchKind {
    return KIND_NAMES[this.kindOf[c]];
  }

  isExact(hit: number): boolean {
    return hit < this.exactCount;
  }

  /** The hit position of carrier c's nearest location; only for a carrier whose kind is not 'none'. */
  nearestOf(c: number): number {
    return this.byCarrier[this.runStart[c]];
  }

  /** Carriers of `scope` that matched, nearest first (ties: carrier id, as for locations). */
  servingNearestFirst(scope: readonly number[]): number[] {
    const { loc, miles } = this.hits;
    return scope
      .filter((c) => this.kindOf[c] !== NONE)
      .sort((a, b) => {
        const ha = this.nearestOf(a);
        const hb = this.nearestOf(b);
        return compareNearest(miles[ha], loc[ha], miles[hb], loc[hb]);
      });
  }
}

export class Matcher {
  private readonly set: MatchSet;
  /** Per location: the query generation that last added it, so no location is added twice. */
  private readonly stamp: Uint32Array;
  private generation = 0;
  private readonly inScope: Uint8Array;
  private readonly pending: Uint8Array;

  constructor(private readonly net: Network) {
    this.set = new MatchSet(net.carriers.length);
    this.stamp = new Uint32Array(net.locationCount);
    this.inScope = new Uint8Array(net.carriers.length);
    this.pending = new Uint8Array(net.carriers.length);
  }

  /**
   * Matches `place` for the carriers of `scope` (carrier numbers in id order): exact matches, then,
   * when `radiusMiles` is given and the place is not a whole state, nearby locations for the
   * carriers without an exact match.
   */
  match(place: Place, scope: readonly number[], radiusMiles: number | null): MatchSet {
    const set = this.set;
    set.hits.clear();
    this.inScope.fill(0);
    for (const c of scope) {
      this.inScope[c] = 1;
      set.kindOf[c] = NONE;
    }
    this.addExact(place);
    set.exactCount = set.hits.count;
    if (radiusMiles !== null && place.kind !== 'state') this.addNearby(place, scope, radiusMiles);
    sortNearestFirst(set.hits.loc, set.hits.miles, 0, set.exactCount - 1);
    sortNearestFirst(set.hits.loc, set.hits.miles, set.exactCount, set.hits.count - 1);
    this.groupByCarrier(scope);
    return set;
  }

  private addExact(place: Place): void {
    const net = this.net;
    const t = net.t;
    const generation = this.nextGeneration();
    const { lat, lng } = place.resolved;
    const add = (l: number): void => {
      const c = t.locCarrier[l];
      if (this.inScope[c] === 0 || this.stamp[l] === generation) return;
      this.stamp[l] = generation;
      this.set.kindOf[c] = EXACT;
      this.set.hits.push(l, net.distanceTo(l, lat, lng));
    };
    if (place.kind === 'state') {
      for (const p of net.servicePointsInState(place.state)) add(t.spTerminal[p]);
      for (const l of net.locationsInState(place.state)) add(l);
      return;
    }
    for (const zip of place.zipCodes) {
      const [from, to] = net.servicePointRange(zip);
      for (let p = from; p < to; p++) add(t.spTerminal[p]);
      const [lFrom, lTo] = net.zipLocationRange(zip);
      for (let k = lFrom; k < lTo; k++) add(t.locByZipId[k]);
    }
    if (place.kind === 'city') for (const l of net.locationsInCity(place.resolved.city, place.state)) add(l);
  }

  private addNearby(place: Place, scope: readonly number[], radiusMiles: number): void {
    const net = this.net;
    const set = this.set;
    const pending = this.pending;
    pending.fill(0);
    let pendingCount = 0;
    let allUnified = true;
    for (const c of scope) {
      if (set.kindOf[c] !== NONE) continue;
      pending[c] = 1;
      pendingCount++;
      if (!net.carriers[c].unified) allUnified = false;
    }
    if (pendingCount === 0) return;
    const { lat, lng } = place.resolved;
    const from = set.hits.count;
    // One walk of the shared index answers every unified carrier at once.
    if (allUnified) net.unifiedIndex.within(lat, lng, radiusMiles, set.hits, pending, net.t.locCarrier);
    else for (const c of scope) if (pending[c] === 1) net.carrierIndex[c].within(lat, lng, radiusMiles, set.hits);
    for (let i = from; i < set.hits.count; i++) set.kindOf[net.t.locCarrier[set.hits.loc[i]]] = NEARBY;
  }

  /** A stable counting sort of hit positions by carrier: each carrier's run keeps the ranked order. */
  private groupByCarrier(scope: readonly number[]): void {
    const set = this.set;
    const { loc, count } = set.hits;
    const locCarrier = this.net.t.locCarrier;
    if (set.byCarrier.length < count) set.byCarrier = new Uint32Array(Math.max(count, set.byCarrier.length * 2));
    for (const c of scope) set.runLength[c] = 0;
    for (let i = 0; i < count; i++) set.runLength[locCarrier[loc[i]]]++;
    let start = 0;
    for (const c of scope) {
      set.runStart[c] = start;
      start += set.runLength[c];
    }
    for (const c of scope) set.runLength[c] = 0;
    for (let i = 0; i < count; i++) {
      const c = locCarrier[loc[i]];
      set.byCarrier[set.runStart[c] + set.runLength[c]++] = i;
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
