// The per-carrier decision at the heart of every unified query: does the carrier serve the place
// itself (exact / direct), or has it locations within the radius (nearby), or nothing.

import { Hits } from './location-index.js';
import type { Network } from './network.js';
import type { Place } from './places.js';

export interface CarrierMatch {
  carrier: number;
  kind: 'exact' | 'nearby' | 'none';
  /** Locations, nearest first (ties: terminal code). */
  locs: number[];
  miles: number[];
}

export interface MatchOptions {
  radiusMiles: number;
  /** false for batch lookups: exact matches only. */
  nearby: boolean;
}

export class Matcher {
  private readonly stamp: Uint32Array;
  private generation = 0;
  private readonly hits = new Hits(512);
  private readonly accept: Uint8Array;
  /** Position of each carrier in the current query's list, -1 when not in it. */
  private readonly slot: Int16Array;

  constructor(private readonly net: Network) {
    this.stamp = new Uint32Array(net.locationCount);
    this.accept = new Uint8Array(net.carriers.length);
    this.slot = new Int16Array(net.carriers.length).fill(-1);
  }

  /** One match per carrier of `carriers` (carrier numbers, any order), in the same order. */
  match(place: Place, carriers: readonly number[], options: MatchOptions): CarrierMatch[] {
    const { lat, lng } = place.resolved;
    const exact = this.exactLocations(place, carriers);
    const matches = carriers.map((c, i): CarrierMatch => {
      const locs = exact[i];
      if (locs.length === 0) return { carrier: c, kind: 'none', locs: [], miles: [] };
      const miles = locs.map((l) => this.net.distanceTo(l, lat, lng));
      const order = locs.map((_, k) => k).sort((a, b) => miles[a] - miles[b] || locs[a] - locs[b]);
      return { carrier: c, kind: 'exact', locs: order.map((k) => locs[k]), miles: order.map((k) => miles[k]) };
    });
    const pending = matches.filter((m) => m.kind === 'none');
    if (options.nearby && place.kind !== 'state' && pending.length > 0) this.nearby(place, pending, options.radiusMiles);
    return matches;
  }

  private exactLocations(place: Place, carriers: readonly number[]): number[][] {
    const net = this.net;
    const t = net.t;
    const slot = this.slot;
    slot.fill(-1);
    carriers.forEach((c, i) => (slot[c] = i));
    const found: number[][] = carriers.map(() => []);
    const generation = this.nextGeneration();
    const add = (l: number) => {
      const i = slot[t.locCarrier[l]];
      if (i >= 0 && this.stamp[l] !== generation) {
        this.stamp[l] = generation;
        found[i].push(l);
      }
    };
    if (place.kind === 'state') {
      for (const p of net.servicePointsInState(place.state)) add(t.spTerminal[p]);
      for (const l of net.locationsInState(place.state)) add(l);
      return found;
    }
    for (const zip of place.zipCodes) {
      const [from, to] = net.servicePointRange(zip);
      for (let p = from; p < to; p++) add(t.spTerminal[p]);
      const [lFrom, lTo] = net.zipLocationRange(zip);
      for (let k = lFrom; k < lTo; k++) add(t.locByZipId[k]);
    }
    if (place.kind === 'city') for (const l of net.locationsInCity(place.resolved.city, place.state)) add(l);
    return found;
  }

  private nearby(place: Place, pending: CarrierMatch[], radiusMiles: number): void {
    const net = this.net;
    const { lat, lng } = place.resolved;
    const hits = this.hits;
    hits.clear();
    const accept = this.accept;
    accept.fill(0);
    let allUnified = true;
    for (const m of pending) {
      accept[m.carrier] = 1;
      if (!net.carriers[m.carrier].unified) allUnified = false;
    }
    // One walk of the shared index answers every unified carrier at once.
    if (allUnified) net.unifiedIndex.within(lat, lng, radiusMiles, hits, accept, net.t.locCarrier);
    else for (const m of pending) net.carrierIndex[m.carrier].within(lat, lng, radiusMiles, hits);
    hits.sort();
    const slot = this.slot;
    slot.fill(-1);
    pending.forEach((m, i) => (slot[m.carrier] = i));
    for (let k = 0; k < hits.count; k++) {
      const m = pending[slot[net.t.locCarrier[hits.loc[k]]]];
      m.kind = 'nearby';
      m.locs.push(hits.loc[k]);
      m.miles.push(hits.miles[k]);
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
