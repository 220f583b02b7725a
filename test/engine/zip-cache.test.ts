// The records a ZIP query reads by code (zip-records.ts), on a hand-written GeoNames file and
// hand-written exact matches: each ZIP's record holds its own row, point, city, state and
// matches (those past the ones a record holds read from the tables), and every other code has no
// row.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gazetteerOf, readGazetteer } from '../../data/geonames.js';
import { ZIP_CODES } from '../../engine/gazetteer.js';
import { ZipCache } from '../../engine/zip-cache.js';
import type { ZipTables } from '../../engine/snapshot-format.js';
import { gazetteerRow } from './geonames-rows.js';

describe('ZipCache', () => {
  it("hold each ZIP's row, point, city, state and exact matches, and no row for any other code", () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-records-'));
    try {
      const file = join(dir, 'US.txt');
      writeFileSync(file, [
        gazetteerRow('00501', 'Holtsville', 'NY', 40.8122, -73.0465),
        gazetteerRow('75201', 'Dallas', 'TX', 32.7904, -96.8044),
        gazetteerRow('99950', 'Ketchikan', 'AK', 55.3422, -131.6461),
      ].join('\n'));
      const g = readGazetteer(file);
      // Rows are ascending by ZIP: 00501, 75201, 99950, with 2, 0 and 6 matches.
      const zips = {
        exactStart: Uint32Array.from([0, 2, 2, 8]),
        exactLoc: Uint32Array.from([10, 11, 20, 21, 22, 23, 24, 25]),
        exactMiles: Float64Array.from([0.5, 1.5, 2, 3, 4, 5, 6, 7.25]),
      } as ZipTables;
      const records = new ZipCache(gazetteerOf(g).table, zips);
      const expected = [
        { code: 501, row: 0, lat: 40.8122, lng: -73.0465, city: 'Holtsville', state: 'NY', matches: [[10, 0.5], [11, 1.5]] },
        { code: 75201, row: 1, lat: 32.7904, lng: -96.8044, city: 'Dallas', state: 'TX', matches: [] },
        {
          code: 99950, row: 2, lat: 55.3422, lng: -131.6461, city: 'Ketchikan', state: 'AK',
          matches: [[20, 2], [21, 3], [22, 4], [23, 5], [24, 6], [25, 7.25]],
        },
      ];
      expect(expected.map(({ code }) => ({
        code,
        row: records.row(code),
        lat: records.lat(code),
        lng: records.lng(code),
        city: g.placeNames[records.place(code)],
        state: g.stateCodes[records.state(code)],
        matches: Array.from({ length: records.exactCount(code) }, (_, k) => [records.exactLoc(code, k), records.exactMiles(code, k)]),
      }))).toEqual(expected);
      const others: number[] = [];
      for (let code = 0; code < ZIP_CODES; code++) if (records.row(code) !== -1 && !expected.some((e) => e.code === code)) others.push(code);
      expect(others).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
