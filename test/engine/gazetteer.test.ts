// The gazetteer's ZIP index, on a hand-written GeoNames file: five digits find their row, and
// nothing else does (a number written another way is not a ZIP).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gazetteer } from '../../engine/gazetteer.js';
import { readGazetteer } from '../../engine/geonames.js';
import { gazetteerRow } from './geonames-rows.js';

describe('Gazetteer.zipIndex', () => {
  it('finds five-digit ZIPs and refuses every other spelling', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gazetteer-'));
    try {
      const file = join(dir, 'US.txt');
      writeFileSync(file, [gazetteerRow('00501', 'Holtsville', 'NY', 40.8, -73.0), gazetteerRow('75201', 'Dallas', 'TX', 32.79, -96.8)].join('\n'));
      const gazetteer = new Gazetteer(readGazetteer(file));
      expect(gazetteer.zipPlace(gazetteer.zipIndex('00501')).city).toBe('Holtsville');
      expect(gazetteer.zipPlace(gazetteer.zipIndex('75201')).city).toBe('Dallas');
      for (const zip of ['501', ' 501', '0x1F5', '501.0', '00501 ', '7520١', '99999', '']) expect([zip, gazetteer.zipIndex(zip)]).toEqual([zip, -1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
