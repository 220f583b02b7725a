// Read-only view of a compiled network: its carriers, the locations of each, the points-served
// table by ZIP, locations by ZIP, city and state, and the spatial indexes.

import { carrierIdOf, unansweredQuery, type Carrier, type CarrierQuery } from './carriers.js';
import { NotFoundError } from './errors.js';
import { distanceMiles, haversineTerm, milesToTerm, RAD, termToMiles } from './geo.js';
import { ZIP_CODES } from './gazetteer.js';
import { Hits } from './hits.js';
import { LocationIndex } from './location-index.js';
import { placeKey } from './names.js';
import { carrierIdSchema, parseInput } from './requests.js';
import type { PointAttributes } from './responses.js';
import { NO_LOCATION, type NetworkTable, type ZipTables } from './snapshot-format.js';

export class Network {
  readonly carriers: readonly Carrier[];
  /** One index over the locations of every unified carrier: one walk answers them all. */
  readonly unifiedIndex: LocationIndex;
  private readonly carrierIds = new Map<string, number>();
  private readonly lazy = new Map<string, Map<string, number[]>>();
  private readonly nearestHits = new Hits(4);
  /**
   * Per ZIP code 0-99999, at [2 * code]: the first row of the points-served table with that ZIP,
   * and at [2 * code + 1] the first entry of locByZipId; the next code's pair ends them. One read
   * (one cache line) instead of two searches. Made on first use (city and state searches, a
   * carrier's ZIP list, schedules): unified ZIP queries read the compiled ZIP tables instead, so a
   * process answering only those (a Lambda cold start) never pays for it.
   */
  private runs: Uint32Array | undefined;
  private carrierIndexes: LocationIndex[] | undefined;

  constructor(
    readonly t: NetworkTable,
    /** Exact matches and nearest locations of each gazetteer ZIP row. */
    readonly zips: ZipTables,
  ) {
    // Every point is listed under its serving terminal, one of its carrier's locations, which are
    // numbered by carrier: a carrier's points are those listed under its range of locations (a
    // count of the points-served table would be a loop over every point at each start).
    const { termSpStart, carrierLocStart } = t;
    const pointsServed = (c: number) => termSpStart[carrierLocStart[c + 1]] > termSpStart[carrierLocStart[c]];
    this.carriers = Object.freeze(t.carriers.map((c, i) => Object.freeze({ ...c, pointsServed: pointsServed(i) })));
    t.carriers.forEach((c, i) => this.carrierIds.set(c.id, i));
    this.unifiedIndex = new LocationIndex(t.unifiedIndexData, t.unifiedLoc);
  }

  /**
   * Each carrier's own index, made on first use: the unified queries walk the unified index, so a
   * snapshot read lazily reads these only for a per-carrier query.
   */
  get carrierIndex(): readonly LocationIndex[] {
    return (this.carrierIndexes ??= this.t.carrierIndexData.map((data, c) => new LocationIndex(data, this.t.carrierLocStart[c])));
  }

  get zipRuns(): Uint32Array {
    return (this.runs ??= zipRuns(this.t.spZip, this.t.locByZipKey));
  }

  get locationCount(): number {
    // The last carrier's end, rather than a column's length: no column is read to tell.
    return this.t.carrierLocStart[this.t.carriers.length];
  }

  /** The carrier number of an id, -1 when the dataset has no such carrier. */
  carrierNumber(id: string): number {
    return this.carrierIds.get(id) ?? -1;
  }

  /**
   * The carrier number of an id given by a caller, which must answer `query` when one is named: an
   * id that is not a string is invalid input; an unknown carrier, or one without that query, is
   * not found, as its route would be. The id is taken in any case, with spaces around it
   * (carrierIdOf), as every query that names a carrier takes it.
   */
  requireCarrier(id: string, query?: CarrierQuery): number {
    // The id as the dataset spells it, the usual case, is found without the schema.
    let c = typeof id === 'string' ? this.carrierNumber(id) : -1;
    if (c < 0) c = this.carrierNumber(carrierIdOf(parseInput(carrierIdSchema(), id)));
    if (c < 0) throw new NotFoundError(`unknown carrier "${id.slice(0, 40)}"`);
    const lacking = query === undefined ? null : unansweredQuery(this.carriers[c], query);
    if (lacking !== null) throw new NotFoundError(lacking);
    return c;
  }

  /** Carrier numbers whose entry passes `keep`, in id order. */
  carriersWhere(keep: (c: Carrier) => boolean): number[] {
    return this.carriers.flatMap((c, i) => (keep(c) ? [i] : []));
  }

  /** Locations of carrier c: [from, to). */
  carrierLocations(c: number): [number, number] {
    return [this.t.carrierLocStart[c], this.t.carrierLocStart[c + 1]];
  }

  /** Rows of the points-served table for a ZIP: [from, to). */
  servicePointRange(zipCode: number): [number, number] {
    return zipRange(this.zipRuns, zipCode, 0);
  }

  /**
   * Carrier c's points-served row for a ZIP code: the one whose city has the place key `cityKey`;
   * without it (or, unless `strict`, when none has it) the first. -1 when not served.
   */
  servicePointRow(c: number, zipCode: number, cityKey: string | undefined, strict: boolean): number {
    const t = this.t;
    const [from, to] = this.servicePointRange(zipCode);
    let first = -1;
    let rows = 0;
    for (let p = from; p < to; p++) {
      if (t.spCarrier[p] !== c) continue;
      if (first < 0) first = p;
      rows++;
    }
    // The carrier's only row is the answer whatever its city, unless the city must match: a
    // row's city is decoded and keyed only to choose among rows, or to check the one.
    if (first < 0 || cityKey === undefined || (rows === 1 && !strict)) return first;
    for (let p = first; p < to; p++) if (t.spCarrier[p] === c && placeKey(t.spCity.at(p)) === cityKey) return p;
    return strict ? -1 : first;
  }

  /** What a carrier's file says of a served point beyond its schedule; nulls for no row. Empty columns (no point has a value) read as undefined. */
  pointAttributes(row: number): PointAttributes {
    if (row < 0) return { highCost: null, highCostNote: null, interlineScac: null };
    const t = this.t;
    return { highCost: t.spHighCost[row] === 1, highCostNote: t.spHighCostNote.at(row) || null, interlineScac: t.spInterline.at(row) || null };
  }

  /** Locations in a ZIP: locByZipId[from .. to). */
  zipLocationRange(zipCode: number): [number, number] {
    return zipRange(this.zipRuns, zipCode, 1);
  }

  /**
   * US locations whose city (by its place key, names.ts) and state match; built on first use. A
   * worldwide office's province can spell a state's code (Milan, MI in Italy), never its place.
   */
  locationsInCity(cityKey: string, state: string): number[] {
    return this.group('city', (l) => (this.t.locCountry.at(l) === 'US' ? `${placeKey(this.t.locCity.at(l))}|${this.t.locState.at(l)}` : '')).get(`${cityKey}|${state}`) ?? [];
  }

  /** US locations in a state. */
  locationsInState(state: string): number[] {
    return this.group('state', (l) => (this.t.locCountry.at(l) === 'US' ? this.t.locState.at(l) : '')).get(state) ?? [];
  }

  /** Service-point rows in a state. */
  servicePointsInState(state: string): number[] {
    return this.group('spState', (p) => this.t.spState.at(p), this.t.spZip.length).get(state) ?? [];
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

  /** The nearest location of carrier c at any distance, or -1 when it has none. */
  nearestLocation(c: number, lat: number, lng: number): number {
    const hits = this.nearestHits;
    hits.clear();
    this.carrierIndex[c].nearest(lat, lng, 1, hits);
    return hits.count > 0 ? hits.loc[0] : -1;
  }

  /**
   * Appends carrier c's nearest location within `radiusMiles` of a place, as
   * `carrierIndex[c].nearest(lat, lng, 1, hits, radiusMiles)` does: for a place that is gazetteer
   * ZIP row z (-1 for any other) by one read of the compiled table, with the walk's own test.
   */
  nearestWithin(c: number, z: number, lat: number, lng: number, radiusMiles: number, hits: Hits): void {
    const table = this.zips.nearest[c];
    if (z < 0 || table === undefined || table.length === 0) {
      this.carrierIndex[c].nearest(lat, lng, 1, hits, radiusMiles);
      return;
    }
    const l = table[z];
    if (l === NO_LOCATION) return;
    const { locLat, locLng } = this.t;
    const h = haversineTerm(lat, lng, Math.cos(lat * RAD), locLat[l], locLng[l], Math.cos(locLat[l] * RAD));
    if (h <= milesToTerm(radiusMiles)) hits.push(l, termToMiles(h));
  }

  /** nearestLocation of the point of gazetteer ZIP row z: one read where the table was compiled for carrier c. */
  nearestLocationToZip(c: number, z: number, lat: number, lng: number): number {
    const table = this.zips.nearest[c];
    if (table === undefined || table.length === 0) return this.nearestLocation(c, lat, lng);
    const l = table[z];
    return l === NO_LOCATION ? -1 : l;
  }
}

/** Where each ZIP code's run starts in two ascending columns of ZIP codes, interleaved (see zipRuns). */
function zipRuns(first: Int32Array, second: Int32Array): Uint32Array {
  const runs = new Uint32Array(2 * (ZIP_CODES + 1));
  for (const [column, offset] of [[first, 0], [second, 1]] as const) {
    let row = 0;
    for (let code = 0; code <= ZIP_CODES; code++) {
      while (row < column.length && column[row] < code) row++;
      runs[2 * code + offset] = row;
    }
  }
  return runs;
}

function zipRange(runs: Uint32Array, zipCode: number, offset: 0 | 1): [number, number] {
  if (!Number.isInteger(zipCode) || zipCode < 0 || zipCode >= ZIP_CODES) return [0, 0];
  return [runs[2 * zipCode + offset], runs[2 * zipCode + 2 + offset]];
}
