// The records a ZIP query reads by code (zip-cache.ts), on a hand-written GeoNames file and
// hand-written exact matches at hand-written points: each ZIP's record holds its own row, point,
// city, state and matches, with their miles from the ZIP (those past the ones a record holds read
// from the tables), and every other code has no row.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gazetteerOf, readGazetteer } from '../../data/geonames.js';
import { ZIP_CODES } from '../../engine/gazetteer.js';
import { ZipCache } from '../../engine/zip-cache.js';
import type { ZipTables } from '../../engine/snapshot-format.js';
import { gazetteerRow } from './geonames-rows.js';
import { haversineMiles } from './oracle.js';

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
        nearest: [],
      } satisfies ZipTables;
      // Location l at (40 + l / 100, -100 - l / 100): the miles each match is from its ZIP's point.
      const locLat = Float64Array.from({ length: 26 }, (_, l) => 40 + l / 100);
      const locLng = Float64Array.from({ length: 26 }, (_, l) => -100 - l / 100);
      const records = new ZipCache(gazetteerOf(g).table, zips, { locLat, locLng });
      // Miles to 1e-9: the engine's haversine and the oracle's are written apart and may differ in the last bits.
      const matches = (lat: number, lng: number, locs: number[]) => locs.map((l) => [l, expect.closeTo(haversineMiles(lat, lng, locLat[l], locLng[l]), 9)]);
      const expected = [
        { code: 501, row: 0, lat: 40.8122, lng: -73.0465, city: 'Holtsville', state: 'NY', matches: matches(40.8122, -73.0465, [10, 11]) },
        { code: 75201, row: 1, lat: 32.7904, lng: -96.8044, city: 'Dallas', state: 'TX', matches: [] },
        {
          code: 99950, row: 2, lat: 55.3422, lng: -131.6461, city: 'Ketchikan', state: 'AK',
          matches: matches(55.3422, -131.6461, [20, 21, 22, 23, 24, 25]),
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

  it('keeps every record as more ZIPs are asked about than its first room holds, in any order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-records-'));
    try {
      // 1,000 ZIPs, every 97th code from 00100: ZIP i at (30 + i / 100, -80 - i / 100) in town i,
      // each with one exact match, location i.
      const count = 1_000;
      const codes = Array.from({ length: count }, (_, i) => 100 + 97 * i);
      writeFileSync(join(dir, 'US.txt'), codes.map((code, i) => gazetteerRow(String(code).padStart(5, '0'), `Town ${i}`, 'TX', 30 + i / 100, -80 - i / 100)).join('\n'));
      const g = readGazetteer(join(dir, 'US.txt'));
      const zips = { exactStart: Uint32Array.from({ length: count + 1 }, (_, i) => i), exactLoc: Uint32Array.from({ length: count }, (_, i) => i), nearest: [] } satisfies ZipTables;
      const locLat = Float64Array.from({ length: count }, (_, i) => 31 + i / 100);
      const locLng = Float64Array.from({ length: count }, (_, i) => -80 - i / 100);
      const records = new ZipCache(gazetteerOf(g).table, zips, { locLat, locLng });
      const read = (i: number) => {
        const code = codes[i];
        return { row: records.row(code), lat: records.lat(code), lng: records.lng(code), town: g.placeNames[records.place(code)], match: records.exactLoc(code, 0), miles: records.exactMiles(code, 0) };
      };
      const expected = (i: number) => ({ row: i, lat: 30 + i / 100, lng: -80 - i / 100, town: `Town ${i}`, match: i, miles: expect.closeTo(haversineMiles(30 + i / 100, -80 - i / 100, 31 + i / 100, -80 - i / 100), 9) });
      // Asked in a scattered order (a stride prime to the count), with codes the gazetteer lacks between them.
      const order = Array.from({ length: count }, (_, k) => (k * 389) % count);
      const first = order.map((i) => [i, records.row(codes[i] + 1), read(i)]);
      expect(first).toEqual(order.map((i) => [i, -1, expected(i)]));
      // And all of them again, in code order, once the room has grown.
      expect(codes.map((_, i) => read(i))).toEqual(codes.map((_, i) => expected(i)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
