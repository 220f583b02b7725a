// The package's own data files. An installed package ships the sample only as its compiled snapshot;
// the sample dataset it is compiled from is in a clone of the repository alone.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder: two levels up from dist/engine/, one from engine/. */
const packageRoot = (() => {
  const here = dirname(fileURLToPath(import.meta.url));
  return existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');
})();

export const SAMPLE_DATA_DIR = join(packageRoot, 'data', 'sample');
export const DEFAULT_SNAPSHOT = join(packageRoot, 'data', 'build', 'sample.snapshot');

/** The dataset compiled when none is named: the sample, which only a clone holds. */
export function defaultDataDir(): string {
  if (existsSync(SAMPLE_DATA_DIR)) return SAMPLE_DATA_DIR;
  throw new Error(
    'no dataDir given, and the sample dataset it defaults to is not installed (the package ships the sample compiled, ' +
      'as its snapshot, not as a dataset): pass dataDir, the dataset to compile (with zipFile, the ZIPs to compile it against)',
  );
}
