// What a query about one ZIP reads first, in one record per ZIP code (00000-99999): its gazetteer
// row, point, city and state, and where its exact matches are in the compiled ZIP tables. Queries name
// ZIPs at random, so each table a query would read by row (the row of the code, then the point,
// the place, the run of exact matches) is a cache miss, and one that waits for the row; a record
// read straight from the code is one miss. Records are 64 bytes, one cache line each.

import { ZIP_CODES } from './gazetteer.js';
import type { GazetteerTable } from './geonames.js';
import type { ZipTables } from './zip-tables.js';

/** Numbers per record: row, lat, lng, place, exact start, exact end, state, and padding to 64 bytes. */
const STRIDE = 8;

export class ZipRecords {
  private readonly records = new Float64Array(STRIDE * ZIP_CODES);

  constructor(gazetteer: GazetteerTable, zips: ZipTables) {
    const records = this.records;
    for (let code = 0; code < ZIP_CODES; code++) records[STRIDE * code] = -1;
    gazetteer.zipCodes.forEach((code, row) => {
      const at = STRIDE * code;
      records[at] = row;
      records[at + 1] = gazetteer.zipLat[row];
      records[at + 2] = gazetteer.zipLng[row];
      records[at + 3] = gazetteer.zipPlace[row];
      records[at + 4] = zips.exactStart[row];
      records[at + 5] = zips.exactStart[row + 1];
      records[at + 6] = gazetteer.placeState[gazetteer.zipPlace[row]];
    });
  }

  /** The gazetteer row of a ZIP code 0-99999, or -1 when the gazetteer has none. */
  row(code: number): number {
    return this.records[STRIDE * code];
  }

  /** The point, place (city) and state id of a ZIP code the gazetteer has. */
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
}
