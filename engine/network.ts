// Read-only view of a compiled network: carrier lookups, the points-served table, location
// records in the API's shapes, and the spatial indexes.

import { distanceMiles, roundMiles } from './geo.js';
import { Hits, LocationIndex } from './location-index.js';
import { placeKey } from './names.js';
import type { NetworkTable } from './network-table.js';
import type { CarrierInfo, LocationRecord, NearestTerminal, NormalizedLocation, MatchKind } from './types.js';

export class Network {
  readonly carriers: readonly CarrierInfo[];
  readonly carrierIndex: LocationIndex[];
  readonly unifiedIndex: LocationIndex;
  private readonly carrierIds = new Map<string, number>();
  private readonly lazy = new Map<string, Map<string, number[]>>();
  private readonly nearestHits = new Hits(4);
  /** Packed from the start (an array filled at random indexes would fall into slow dictionary mode). */
  private readonly fixedJson: (string | null)[];

  constructor(readonly t: NetworkTable) {
    this.carriers = t.carriers;
    t.carriers.forEach((c, i) => this.carrierIds.set(c.id, i));
    this.carrierIndex = t.carrierIndexData.map((data, c) => new LocationIndex(data, t.carrierLocStart[c]));
    this.unifiedIndex = new LocationIndex(t.unifiedIndexData, t.unifiedLoc);
    this.fixedJson = new Array<string | null>(t.locLat.length).fill(null);
  }

  get locationCount(): number {
    return this.t.locLat.length;
  }

  carrierNumber(id: string): number {
    return this.carrierIds.get(id) ?? -1;
  }

  carrierLocations(c: number): [number, number] {
    return [this.t.carrierLocStart[c], this.t.carrierLocStart[c + 1]];
  }

  hasServicePoints(c: number): boolean {
    return this.servedByCarrier()[c] > 0;
  }

  private servedCounts: Uint32Array | null = null;
  private servedByCarrier(): Uint32Array {
    if (!this.servedCounts) {
      this.servedCounts = new Uint32Array(this.carriers.length);
      for (const c of this.t.spCarrier) this.servedCounts[c]++;
    }
    return this.servedCounts;
  }

  /** Rows of the points-served table for a ZIP: [from, to). */
  servicePointRange(zipCode: number): [number, number] {
    return equalRange(this.t.spZip, zipCode);
  }

  /** Locations in a ZIP: locByZipId[from .. to). */
  zipLocationRange(zipCode: number): [number, number] {
    return equalRange(this.t.locByZipKey, zipCode);
  }

  /** Locations whose city (by place key) and state match; built on first use. */
  locationsInCity(city: string, state: string): number[] {
    return this.group('city', (l) => `${placeKey(this.t.locCity[l])}|${this.t.locState[l]}`).get(`${placeKey(city)}|${state}`) ?? [];
  }

  /** US locations in a state. */
  locationsInState(state: string): number[] {
    return this.group('state', (l) => (this.t.locCountry[l] === 'US' ? this.t.locState[l] : '')).get(state) ?? [];
  }

  /** Service-point rows in a state. */
  servicePointsInState(state: string): number[] {
    return this.group('spState', (p) => this.t.spState[p], this.t.spZip.length).get(state) ?? [];
  }

  private group(name: string, keyOf: (i: number) => string, count = this.locationCount): Map<string, number[]> {
    let groups = this.lazy.get(name);
    if (!groups) {
      groups = new Map();
      for (let i = 0; i < count; i++) {
        const key = keyOf(i);
        if (!key) continue;
        const list = groups.get(key);
        if (list) list.push(i);
        else groups.set(key, [i]);
      }
      this.lazy.set(name, groups);
    }
    return groups;
  }

  distanceTo(l: number, lat: number, lng: number): number {
    return distanceMiles(lat, lng, this.t.locLat[l], this.t.locLng[l]);
  }

  streetAddress(l: number): string {
    const { locLine1, locLine2 } = this.t;
    return locLine2[l] ? `${locLine1[l]}, ${locLine2[l]}` : locLine1[l];
  }

  record(l: number): LocationRecord {
    const t = this.t;
    const carrier = t.carriers[t.locCarrier[l]];
    return {
      name: t.locName[l],
      carrier: carrier.id,
      address: {
        line1: t.locLine1[l],
        line2: t.locLine2[l],
        city: t.locCity[l],
        state: t.locState[l],
        zipCode: t.locZip[l],
        country: t.locCountry[l],
      },
      phone: t.locPhone[l],
      fax: t.locFax[l],
      email: t.locEmail[l],
      location: { latitude: t.locLat[l], longitude: t.locLng[l] },
      terminalCode: t.locCode[l],
      scac: carrier.scac,
    };
  }

  normalized(l: number, match: MatchKind, miles: number): NormalizedLocation {
    const t = this.t;
    const carrier = t.carriers[t.locCarrier[l]];
    return {
      carrier: carrier.id,
      carrierName: carrier.name,
      name: t.locName[l],
      address: this.streetAddress(l),
      city: t.locCity[l],
      state: t.locState[l],
      zip: t.locZip[l],
      lat: t.locLat[l],
      lng: t.locLng[l],
      match,
      distanceMiles: roundMiles(miles),
    };
  }

  /** JSON text of normalized(l, match, miles), from a per-location cache of the fixed fields. */
  normalizedJson(l: number, match: MatchKind, miles: number): string {
    let fixed = this.fixedJson[l];
    if (fixed === null) {
      const { match: _match, distanceMiles: _miles, ...rest } = this.normalized(l, match, miles);
      fixed = this.fixedJson[l] = JSON.stringify(rest).slice(0, -1);
    }
    return `${fixed},"match":"${match}","distanceMiles":${milesJson(miles)}}`;
  }

  nearestTerminal(l: number, miles: number): NearestTerminal {
    const t = this.t;
    return {
      name: t.locName[l],
      address: this.streetAddress(l),
      city: t.locCity[l],
      state: t.locState[l],
      zip: t.locZip[l],
      distanceMiles: roundMiles(miles),
    };
  }

  /** The nearest location of carrier c at any distance, or null when it has none. */
  nearestOf(c: number, lat: number, lng: number): { loc: number; miles: number } | null {
    const hits = this.nearestHits;
    hits.clear();
    this.carrierIndex[c].nearest(lat, lng, 1, hits);
    return hits.count > 0 ? { loc: hits.loc[0], miles: hits.miles[0] } : null;
  }
}

/**
 * JSON of roundMiles(miles), written from whole tenths: integer formatting is several times
 * cheaper than printing a double, and the text is the same ("12.1", "12", "0.4").
 */
export function milesJson(miles: number): string {
  const tenths = Math.round(miles * 10);
  const whole = Math.floor(tenths / 10);
  const tenth = tenths - whole * 10;
  return tenth === 0 ? String(whole) : `${whole}.${tenth}`;
}

/** [first, last + 1) of `key` in an ascending array. */
export function equalRange(sorted: Int32Array, key: number): [number, number] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && sorted[end] === key) end++;
  return [lo, end];
}
