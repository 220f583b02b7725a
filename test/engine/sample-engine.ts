// The engine under test for the sample data: compiled from the same stable copy of the raw files
// that the oracle reads, so the comparison never depends on whether data/build/sample.snapshot is
// up to date or on the sample being regenerated mid-run (the snapshot path itself is covered by
// dataset.test.ts's round trip).

import type { Engine } from '../../engine/index.js';
import { createEngine } from '../../data/index.js';
import { stableSampleDir, ZIP_FILE } from './oracle.js';

export function sampleEngine(): Engine {
  return createEngine({ dataDir: stableSampleDir(), zipFile: ZIP_FILE });
}
