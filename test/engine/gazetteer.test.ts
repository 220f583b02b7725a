// The gazetteer's ZIP index, on a hand-written GeoNames file: five digits find their row, and
// nothing else does (a number written another way is not a ZIP).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gazetteerOf, readGazetteer } from '../../data/geonames.js';
import { gazetteerRow } from './geonames-rows.js';

describe('Gazetteer.zipIndex', () => {
  it('finds five-digit ZIPs and refuses every other spelling', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gazetteer-'));
    try {
      const file = join(dir, 'US.txt');
      writeFileSync(file, [gazetteerRow('00501', 'Holtsville', 'NY', 40.8, -73.0), gazetteerRow('75201', 'Dallas', 'TX', 32.79, -96.8)].join('\n'));
      const gazetteer = gazetteerOf(readGazetteer(file));
      expect(gazetteer.zipPlace(gazetteer.zipIndex('00501')).city).toBe('Holtsville');
      expect(gazetteer.zipPlace(gazetteer.zipIndex('75201')).city).toBe('Dallas');
      for (const zip of ['501', ' 501', '0x1F5', '501.0', '00501 ', '7520١', '99999', '']) expect([zip, gazetteer.zipIndex(zip)]).toEqual([zip, -1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('place and state points', () => {
  it('are the mean of their ZIP points, taken the short way across the antimeridian', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gazetteer-'));
    try {
      const file = join(dir, 'US.txt');
      writeFileSync(
        file,
        [
          // A state whose island ZIPs lie either side of 180°: its mean is at 179.9° W, not near 0°.
          gazetteerRow('99001', 'Eastisle', 'AK', 52, 179.8),
          gazetteerRow('99002', 'Westisle', 'AK', 52, -179.6),
          gazetteerRow('99003', 'Westisle', 'AK', 52, -179.9),
          // Hawaii with Wake Island filed under it, as GeoNames does: Wake pulls the mean a little west.
          gazetteerRow('96720', 'Hilo', 'HI', 19.7, -155.1),
          gazetteerRow('96813', 'Honolulu', 'HI', 21.3, -157.9),
          gazetteerRow('96898', 'Wake Island', 'HI', 19.3, 166.6),
          // A state on one side of it keeps the plain mean.
          gazetteerRow('75201', 'Dallas', 'TX', 32.8, -96.8),
          gazetteerRow('77002', 'Houston', 'TX', 29.8, -95.4),
        ].join('\n'),
      );
      const table = readGazetteer(file);
      const stateAt = (code: string) => {
        const s = table.stateCodes.indexOf(code);
        return [table.stateLat[s], table.stateLng[s]];
      };
      const placeAt = (name: string) => {
        const p = table.placeNames.indexOf(name);
        return [table.placeLat[p], table.placeLng[p]];
      };
      // Worked by hand: (179.8 + 180.4 + 180.1) / 3 = 180.1, that is -179.9.
      expect(stateAt('AK')[1]).toBeCloseTo(-179.9, 9);
      expect(placeAt('Westisle')[1]).toBeCloseTo(-179.75, 9);
      // (204.9 + 202.1 + 166.6) / 3 = 191.2, that is -168.8; the plain mean, -48.8, is in the Atlantic.
      expect(stateAt('HI')).toEqual([expect.closeTo(20.1, 9), expect.closeTo(-168.8, 9)]);
      expect(stateAt('TX')).toEqual([expect.closeTo(31.3, 9), expect.closeTo(-96.1, 9)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
