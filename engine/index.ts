// The library entry: createEngine() loads a compiled snapshot and answers every query of the API
// in-process, returning the HTTP 200 bodies. Compiling a dataset is carrier-locations/build's.

import { engineFrom, type Engine } from './engine.js';
import { checkedOptions, DEFAULT_LOAD, engineOptionsSchema } from './options.js';
import { missingSampleSnapshot, sampleSnapshot } from './package-files.js';
import { readSnapshot, type SnapshotLoad } from './snapshot.js';

export type { Engine } from './engine.js';
export type { SnapshotLoad } from './snapshot.js';
export type { Carrier, CarrierInfo, CarrierKind, LookupParam } from './carriers.js';
export { DatasetError, InvalidInputError, NotFoundError } from './errors.js';
export type * from './requests.js';
export type * from './responses.js';
export { GEOJSON_MEDIA_TYPE, toGeoJSON, type LocationAnswer, type LocationFeature, type LocationFeatureCollection, type PointGeometry } from './geojson.js';

export interface EngineOptions {
  /** A compiled snapshot file (`carrier-locations build`, or buildSnapshot of carrier-locations/build); default the bundled sample. */
  snapshot?: string | undefined;
  /**
   * 'lazy' (the default): each of the file's tables is read and checked when a query first uses it,
   * so the engine starts at once and holds what its queries use; a damaged table fails the query
   * that first reads it. 'eager': the whole file is read and checked now, and a damaged one fails here.
   */
  load?: SnapshotLoad | undefined;
}

/** An engine on a snapshot file: the sample's when none is named. */
export function createEngine(options: EngineOptions = {}): Engine {
  const { snapshot, load = DEFAULT_LOAD } = checkedOptions(engineOptionsSchema, options);
  const file = snapshot ?? sampleSnapshot();
  if (file === null) throw missingSampleSnapshot();
  return engineFrom(readSnapshot(file, load));
}
