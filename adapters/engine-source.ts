// Which data an engine answers from, read one way by every runtime: SNAPSHOT_PATH, else DATA_DIR
// (compiled now, by the build the caller passes in), else the runtime's default snapshot. A module
// of its own, importing the query runtime alone, so that a look-up on the command line loads the
// engine and nothing of the service around it (logger, routes, stores) or of the build.

import type { Finding } from '../data/findings.js';
import type { Engine } from '../engine/engine.js';
import { createEngine, type SnapshotLoad } from '../engine/index.js';
import type { Config } from './http/config.js';

/** An engine on a dataset directory compiled now: createEngine of carrier-locations/build. */
export type Compile = (options: { dataDir: string; onWarnings?: ((warnings: Finding[]) => void) | undefined }) => Engine;

/** How the engine is loaded: from a snapshot read whole or lazily; a dataset's warnings, where they go. */
export interface LoadOptions {
  defaultSnapshot?: string | undefined;
  load?: SnapshotLoad | undefined;
  /** Told the warnings of a DATA_DIR compiled now (a dataset with an error throws DatasetError). */
  onWarnings?: ((warnings: Finding[]) => void) | undefined;
}

/** The configured data: SNAPSHOT_PATH, else DATA_DIR (compiled now), else the runtime's default snapshot. */
export function loadEngine(config: Pick<Config, 'snapshotPath' | 'dataDir'>, compile: Compile | undefined, options: LoadOptions = {}): Engine {
  const load = options.load ?? 'eager';
  if (config.snapshotPath) return createEngine({ snapshot: config.snapshotPath, load });
  if (config.dataDir) {
    if (!compile) throw new Error('DATA_DIR is not read here: compile the folder with `carrier-locations build <dir> --out <file>` and set SNAPSHOT_PATH');
    return compile({ dataDir: config.dataDir, onWarnings: options.onWarnings });
  }
  return createEngine({ snapshot: options.defaultSnapshot, load });
}
