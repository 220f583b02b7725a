// What a query about one ZIP reads first, in one record per ZIP: its gazetteer row, point, city and
// state, and its exact matches. Queries name ZIPs at random, so each table a query would read by
// row (the row of the code, then the point, the place, the run of exact matches, the matches) is a
// cache miss, and one that waits for the one before it; a record is two adjacent cache lines,
// fetched at once. Each record is made on the first query of its code, and records are kept in the
// order they were made: memory grows with the ZIPs asked about (a process that answers five
// thousand ZIPs holds 1 MB of records), and the records a process reads lie together rather than
// spread over the whole range of codes.

import { ZIP_CODES } from './gazetteer.js';
import { distanceMiles } from './geo.js';
import type { GazetteerTable, NetworkTable, ZipTables } from './snapshot-format.js';

/**
 * A record is 16 numbers (128 bytes): its gazetteer row, lat, lng, place, state id, how many exact
 * matches, where they start in the ZIP tables, one unused; then the first INLINE matches, each as
 * location and miles from the ZIP's point (worked out on first read: NOT_YET until then, so that a
 * query that reads no match, a geocode, reads no location). 99% of ZIPs have at most INLINE
 * matches; the rest read the others from the ZIP tables.
 */
const STRIDE = 16;
const INLINE = 4;
const FIRST_MATCH = 8;
/** Records made room for at first; the room doubles as ZIPs are asked about, up to the gazetteer's. */
const FIRST_RECORDS = 256;
/** A code's slot: not asked about yet (what a new array holds), no such ZIP, or its record's number + 1. */
const UNFILLED = 0;
const NO_ZIP = -1;
/** A match's miles not worked out yet (a distance is never negative). */
const NOT_YET = -1;

export class ZipCache {
  /** Per ZIP code 00000-99999, its record (see UNFILLED): 400 KB, where a record per code would take 12.8 MB. */
  private readonly slots = new Int32Array(ZIP_CODES);
  private records = new Float64Array(STRIDE * FIRST_RECORDS);
  private made = 0;

  constructor(
    private readonly gazetteer: GazetteerTable,
    private readonly zips: ZipTables,
    /** The locations' points, for the matches' miles. */
    private readonly locations: Pick<NetworkTable, 'locLat' | 'locLng'>,
  ) {}

  /** The gazetteer row of a ZIP code 0-99999, or -1 when the gazetteer has none. Read it first: it makes the record. */
  row(code: number): number {
    let slot = this.slots[code];
    if (slot === UNFILLED) slot = this.fill(code);
    return slot === NO_ZIP ? -1 : this.records[STRIDE * (slot - 1)];
  }

  /**
   * The number of the record of a code that row() has found: records are numbered 0, 1, 2... as
   * they are made, so what a caller keeps per ZIP asked about, by this number, grows as they do.
   */
  recordNumber(code: number): number {
    return this.slots[code] - 1;
  }

  /** Where the record of a code that row() has found starts. */
  private at(code: number): number {
    return STRIDE * this.recordNumber(code);
  }

  /** The point, place (city) and state id of a ZIP code the gazetteer has (row(code) >= 0). */
  lat(code: number): number {
    return this.records[this.at(code) + 1];
  }

  lng(code: number): number {
    return this.records[this.at(code) + 2];
  }

  place(code: number): number {
    return this.records[this.at(code) + 3];
  }

  state(code: number): number {
    return this.records[this.at(code) + 4];
  }

  /** How many exact matches the ZIP has: the terminals serving it and the locations in it (zip-tables.ts). */
  exactCount(code: number): number {
    return this.records[this.at(code) + 5];
  }

  /** The k-th exact match's location, and its miles from the ZIP's point. */
  exactLoc(code: number, k: number): number {
    return k < INLINE ? this.records[this.at(code) + FIRST_MATCH + 2 * k] : this.zips.exactLoc[this.records[this.at(code) + 6] + k];
  }

  exactMiles(code: number, k: number): number {
    if (k >= INLINE) return this.milesTo(code, this.exactLoc(code, k));
    const at = this.at(code) + FIRST_MATCH + 2 * k + 1;
    const miles = this.records[at];
    return miles !== NOT_YET ? miles : (this.records[at] = this.milesTo(code, this.records[at - 1]));
  }

  /** Great-circle miles from the ZIP's point to location l. */
  private milesTo(code: number, l: number): number {
    const { locLat, locLng } = this.locations;
    const at = this.at(code);
    return distanceMiles(this.records[at + 1], this.records[at + 2], locLat[l], locLng[l]);
  }

  /** Makes the record of a code asked about for the first time; returns its slot. */
  private fill(code: number): number {
    const { zipCodes, zipLat, zipLng, zipPlace, placeState } = this.gazetteer;
    const { exactStart, exactLoc } = this.zips;
    // The gazetteer's ZIPs are ascending: a binary search, once per code.
    let lo = 0;
    let hi = zipCodes.length - 1;
    while (lo <= hi) {
      const row = (lo + hi) >> 1;
      if (zipCodes[row] < code) lo = row + 1;
      else if (zipCodes[row] > code) hi = row - 1;
      else {
        if (STRIDE * this.made === this.records.length) this.grow(zipCodes.length);
        const records = this.records;
        const at = STRIDE * this.made;
        const start = exactStart[row];
        const count = exactStart[row + 1] - start;
        records[at] = row;
        records[at + 1] = zipLat[row];
        records[at + 2] = zipLng[row];
        records[at + 3] = zipPlace[row];
        records[at + 4] = placeState[zipPlace[row]];
        records[at + 5] = count;
        records[at + 6] = start;
        for (let k = 0; k < Math.min(count, INLINE); k++) {
          records[at + FIRST_MATCH + 2 * k] = exactLoc[start + k];
          records[at + FIRST_MATCH + 2 * k + 1] = NOT_YET;
        }
        return (this.slots[code] = ++this.made);
      }
    }
    return (this.slots[code] = NO_ZIP);
  }

  /** Twice the room, or room for every ZIP of the gazetteer if that is less. */
  private grow(zipCount: number): void {
    const records = new Float64Array(STRIDE * Math.max(this.made + 1, Math.min(2 * this.made, zipCount)));
    records.set(this.records);
    this.records = records;
  }
}
