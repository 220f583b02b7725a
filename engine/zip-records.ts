// What a query about one ZIP reads first, in one record per ZIP code (00000-99999): its gazetteer
// row, point, city and state, and where its exact matches are in the compiled ZIP tables. Queries
// name ZIPs at random, so each table a query would read by row (the row of the code, then the
// point, the place, the run of exact matches) is a cache miss, and one that waits for the row; a
// record read straight from the code is one miss. Records are 64 bytes, one cache line each, and
// each is filled on the first query of its code: a cold start pays for the ZIPs it is asked about.

import { ZIP_CODES } from './gazetteer.js';
import type { GazetteerTable } from './geonames.js';
import type { ZipTables } from './zip-tables.js';

/** Numbers per record: state of the record, lat, lng, place, exact start, exact end, state id, and padding to 64 bytes. */
const STRIDE = 8;
/** The first number of a record: not filled yet (what a new buffer holds), no such ZIP, or its row + FILLED. */
const UNFILLED = 0;
const NO_ZIP = 1;
const FILLED = 2;

export class ZipRecords {
  private readonly records = new Float64Array(STRIDE * ZIP_CODES);

  constructor(
    private readonly gazetteer: GazetteerTable,
    private readonly zips: ZipTables,
  ) {}

  /** The gazetteer row of a ZIP code 0-99999, or -1 when the gazetteer has none. Read it first: it fills the record. */
  row(code: number): number {
    const at = STRIDE * code;
    if (this.records[at] === UNFILLED) this.fill(code);
    return this.records[at] - FILLED;
  }

  /** The point, place (city) and state id of a ZIP code the gazetteer has (row(code) >= 0). */
  lat(code: number): number {
    return this.records[STRIDE * code + 1];
  }

  lng(code: number): number {
    return this.records[STRIDE * code + 2];
  }

  place(code: number): number {
    return this.records[STRIDE * code + 3];
  }

  state(code: number): number {
    return this.records[STRIDE * code + 6];
  }

  /** Its exact matches: entries exactStart(code) .. exactEnd(code) of the ZIP tables. */
  exactStart(code: number): number {
    return this.records[STRIDE * code + 4];
  }

  exactEnd(code: number): number {
    return this.records[STRIDE * code + 5];
  }

  private fill(code: number): void {
    const { zipCodes, zipLat, zipLng, zipPlace, placeState } = this.gazetteer;
    const records = this.records;
    const at = STRIDE * code;
    // The gazetteer's ZIPs are ascending: a binary search, once per code.
    let lo = 0;
    let hi = zipCodes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (zipCodes[mid] < code) lo = mid + 1;
      else if (zipCodes[mid] > code) hi = mid - 1;
      else {
        records[at + 1] = zipLat[mid];
        records[at + 2] = zipLng[mid];
        records[at + 3] = zipPlace[mid];
        records[at + 4] = this.zips.exactStart[mid];
        records[at + 5] = this.zips.exactStart[mid + 1];
        records[at + 6] = placeState[zipPlace[mid]];
        records[at] = mid + FILLED;
        return;
      }
    }
    records[at] = NO_ZIP;
  }
}
