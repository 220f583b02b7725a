// The per-ZIP tables a compiled dataset carries (zip-tables.ts) against brute force over the same
// compiled network: each ZIP's exact matches are the terminals serving it and the locations in it,
// each once, at their great-circle distance (every ZIP of the sample); each can-reach carrier's
// nearest location is the minimum of a plain scan, or a location tied with it (a spread of ZIPs;
// the order among ties is pinned in tie-break.test.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDataset, type SnapshotContent } from '../../engine/index.js';
import { NO_LOCATION } from '../../engine/zip-tables.js';
import { haversineMiles, releaseStableSampleDir, stableSampleDir, ZIP_FILE } from './oracle.js';

let content: SnapshotContent;

beforeAll(() => {
  content = compileDataset({ dataDir: stableSampleDir(), zipFile: ZIP_FILE });
});
afterAll(() => releaseStableSampleDir());

describe('the compiled per-ZIP tables', () => {
  it("hold every ZIP's exact matches, each once, at its distance from the ZIP's point", () => {
    const { gazetteer: g, network: t, zips } = content;
    const byZip = new Map<number, Set<number>>();
    const add = (code: number, l: number) => (byZip.get(code) ?? byZip.set(code, new Set()).get(code)!).add(l);
    for (let p = 0; p < t.spZip.length; p++) add(t.spZip[p], t.spTerminal[p]);
    for (let k = 0; k < t.locByZipKey.length; k++) add(t.locByZipKey[k], t.locByZipId[k]);
    const wrong: string[] = [];
    for (let z = 0; z < g.zipCodes.length; z++) {
      const code = g.zipCodes[z];
      const expected = byZip.get(code) ?? new Set<number>();
      const entries = Array.from(zips.exactLoc.subarray(zips.exactStart[z], zips.exactStart[z + 1]));
      if (entries.length !== expected.size || entries.some((l) => !expected.has(l))) wrong.push(`${code}: ${entries} vs ${[...expected]}`);
      for (let e = zips.exactStart[z]; e < zips.exactStart[z + 1]; e++) {
        const l = zips.exactLoc[e];
        if (Math.abs(zips.exactMiles[e] - haversineMiles(g.zipLat[z], g.zipLng[z], t.locLat[l], t.locLng[l])) > 1e-9) wrong.push(`${code}: miles of ${l}`);
      }
      if (wrong.length > 5) break;
    }
    expect(wrong).toEqual([]);
    expect(zips.exactLoc.length).toBeGreaterThan(t.spZip.length / 2);
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
});
