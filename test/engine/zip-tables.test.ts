// The per-ZIP tables a compiled dataset carries (zip-tables.ts): each ZIP's exact matches against
// the oracle, which reads the raw dataset files (the terminals serving it and the locations in it,
// each once, at their great-circle distance; every ZIP of the sample); each can-reach carrier's
// nearest location against a plain scan of the compiled network, or a location tied with it (a
// spread of ZIPs; the order among ties is pinned in tie-break.test.ts); each ZIP's and location's
// time zone against tz-lookup itself.

import tzlookup from '@photostructure/tz-lookup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledContent, GazetteerTable } from '../../engine/snapshot-format.js';
import { ZipCache } from '../../engine/zip-cache.js';
import { compileDataset } from '../../data/index.js';
import { ZIPS_BY_ZONE } from '../../data/zip-time-zones.js';
import { NO_LOCATION } from '../../engine/snapshot-format.js';
import { haversineMiles, releaseStableSampleDir, sampleOracle, stableSampleDir, ZIP_FILE } from './oracle.js';

let content: CompiledContent;

beforeAll(() => {
  content = compileDataset({ dataDir: stableSampleDir(), zipFile: ZIP_FILE });
});
afterAll(() => releaseStableSampleDir());

describe('the compiled per-ZIP tables', () => {
  it("hold every ZIP's exact matches, each once, which the ZIP's record gives at its distance from the ZIP's point", () => {
    const { gazetteer: g, network: t, zips } = content;
    const oracle = sampleOracle();
    // The record reads the numeric columns alone.
    const records = new ZipCache(g as unknown as GazetteerTable, zips, t);
    const keyOf = (l: number) => `${t.carriers[t.locCarrier[l]].id}|${t.locCode[l]}`;
    const wrong: string[] = [];
    let matches = 0;
    for (let z = 0; z < g.zipCodes.length; z++) {
      const zip = String(g.zipCodes[z]).padStart(5, '0');
      const place = oracle.resolve({ zip });
      // Each expected location, by carrier and terminal code, with its miles from the ZIP's point.
      const expected = new Map<string, number>();
      if (place !== null) {
        for (const carrier of oracle.carriers) for (const hit of oracle.exact(place, carrier.id)) expected.set(`${carrier.id}|${hit.loc.terminalCode}`, hit.miles);
      }
      expect(records.row(g.zipCodes[z])).toBe(z);
      const entries = Array.from(zips.exactLoc.subarray(zips.exactStart[z], zips.exactStart[z + 1]), (l, k) => ({ key: keyOf(l), miles: records.exactMiles(g.zipCodes[z], k) }));
      matches += entries.length;
      const keys = entries.map((e) => e.key);
      if (new Set(keys).size !== keys.length || keys.length !== expected.size || keys.some((k) => !expected.has(k))) {
        wrong.push(`${zip}: ${keys} vs ${[...expected.keys()]}`);
      }
      for (const { key, miles } of entries) if (expected.has(key) && Math.abs(miles - expected.get(key)!) > 1e-9) wrong.push(`${zip}: miles of ${key}`);
      if (wrong.length > 5) break;
    }
    expect(wrong).toEqual([]);
    expect(matches).toBeGreaterThan(t.spZip.length / 2);
    // Some ZIP has more matches than a record holds: the miles of those past them are checked too.
    expect(g.zipCodes.some((_, z) => zips.exactStart[z + 1] - zips.exactStart[z] > 4)).toBe(true);
  });

  it("hold each can-reach carrier's nearest location to every ZIP, and nothing for the others", () => {
    const { gazetteer: g, network: t, zips } = content;
    const wrong: string[] = [];
    t.carriers.forEach((carrier, c) => {
      if (!carrier.canReach) {
        expect(zips.nearest[c]).toHaveLength(0);
        return;
      }
      const from = t.carrierLocStart[c];
      const to = t.carrierLocStart[c + 1];
      // A spread of ZIPs, fewer for large carriers: a plain scan of 37,000 drop points per ZIP is slow.
      const stride = Math.max(7, Math.ceil((to - from) / 300));
      for (let z = 0; z < g.zipCodes.length; z += stride) {
        let best = -1;
        let bestMiles = Infinity;
        for (let l = from; l < to; l++) {
          const miles = haversineMiles(g.zipLat[z], g.zipLng[z], t.locLat[l], t.locLng[l]);
          if (miles < bestMiles) [best, bestMiles] = [l, miles];
        }
        const got = zips.nearest[c][z];
        const gotMiles = got === NO_LOCATION ? Infinity : haversineMiles(g.zipLat[z], g.zipLng[z], t.locLat[got], t.locLng[got]);
        // Equal distances may differ in the last bits between formulas: the scan's pick or a tie with it.
        if (got !== best && Math.abs(gotMiles - bestMiles) > 1e-9) wrong.push(`${carrier.id} ${g.zipCodes[z]}: ${got} vs ${best}`);
        if (wrong.length > 5) return;
      }
    });
    expect(wrong).toEqual([]);
  });

  it("hold each ZIP's time zone as data/zip-time-zones.ts lists it (else as tz-lookup gives it for the point), and each location's as tz-lookup does", () => {
    const { gazetteer: g, network: t, timeZones } = content;
    const listed = new Map<number, string>();
    for (const [zone, zips] of Object.entries(ZIPS_BY_ZONE)) for (const zip of zips.match(/\d{5}/g)!) listed.set(Number(zip), zone);
    const wrong: string[] = [];
    for (let z = 0; z < g.zipCodes.length; z++) {
      const zone = timeZones.names[timeZones.zip[z]];
      if (zone !== (listed.get(g.zipCodes[z]) ?? tzlookup(g.zipLat[z], g.zipLng[z]))) wrong.push(`ZIP ${g.zipCodes[z]}: ${zone}`);
    }
    for (let l = 0; l < t.locLat.length; l++) {
      const zone = timeZones.names[timeZones.location[l]];
      if (zone !== tzlookup(t.locLat[l], t.locLng[l])) wrong.push(`location ${l}: ${zone}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // The sample spans the US zones and the world's: a table of one zone would pass the above only by luck.
    expect(new Set(timeZones.zip).size).toBeGreaterThan(5);
  });
});
