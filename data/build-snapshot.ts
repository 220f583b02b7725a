// npm run data:build [-- --data DIR] [--zips US.txt] [--out FILE]: compiles a dataset into the
// binary snapshot the engine loads at start-up.

import { parseArgs } from 'node:util';
import { buildSnapshot, DEFAULT_SNAPSHOT, SAMPLE_DATA_DIR } from '../engine/index.js';
import { DatasetError } from '../engine/errors.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.DATA_DIR ?? SAMPLE_DATA_DIR },
    zips: { type: 'string' },
    out: { type: 'string', default: DEFAULT_SNAPSHOT },
  },
});

const started = performance.now();
try {
  const bytes = buildSnapshot(values.out!, { dataDir: values.data, zipFile: values.zips });
  const ms = Math.round(performance.now() - started);
  console.log(`snapshot ${values.out} (${(bytes / 1e6).toFixed(1)} MB) from ${values.data} in ${ms} ms`);
} catch (error) {
  if (error instanceof DatasetError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
