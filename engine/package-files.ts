// The package's own data files. An installed package ships the sample only as its compiled snapshot;
// the sample dataset it is compiled from is in a clone of the repository alone.
//
// They are found from this module's place: dist/engine/ of the installed package, engine/ of a
// clone. An application bundled with esbuild or webpack carries this module inside its own bundle,
// away from the package: then the package is looked up as the bundle would require it (through the
// application's node_modules, when it ships them), and without it the error says to pass a snapshot.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InvalidInputError } from './errors.js';

const SNAPSHOT_IN_PACKAGE = join('data', 'build', 'sample.snapshot');
const SAMPLE_IN_CLONE = join('data', 'sample');

/** This module's URL; a CommonJS bundle has no import.meta, and then it is the bundle's file. */
const moduleUrl: string =
  (import.meta.url as string | undefined) ?? pathToFileURL(typeof __filename === 'string' ? __filename : join(process.cwd(), 'index.js')).href;

/** require() as this package's code (or the bundle holding it) resolves: how its dependencies' files are found. */
export const packageRequire = createRequire(moduleUrl);

/**
 * A path beside the code that runs: in a bundle, beside the bundle's file (where `npm run
 * build:lambda` puts the snapshot and the /docs assets); in the package, beside this module.
 */
export const besideCode = (relative: string): string => fileURLToPath(new URL(relative, moduleUrl));

const here = dirname(fileURLToPath(moduleUrl));
/** The project folder: two levels up from dist/engine/, one from engine/. */
const packageRoot = existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');

/** The /map page's built assets (`npm run build` writes them; the package ships them). */
export const MAP_ASSETS_DIR = join(packageRoot, 'dist', 'map');

export const SAMPLE_DATA_DIR = join(packageRoot, SAMPLE_IN_CLONE);
export const DEFAULT_SNAPSHOT = join(packageRoot, SNAPSHOT_IN_PACKAGE);

/**
 * The sample snapshot createEngine() loads: the package's own, or, for an application bundle run
 * beside its node_modules, the installed package's (looked up only then: a failed lookup costs a
 * Lambda's cold start a millisecond). Null when neither is there.
 */
export function sampleSnapshot(): string | null {
  if (existsSync(DEFAULT_SNAPSHOT)) return DEFAULT_SNAPSHOT;
  try {
    const installed = join(dirname(packageRequire.resolve('carrier-locations/package.json')), SNAPSHOT_IN_PACKAGE);
    return existsSync(installed) ? installed : null;
  } catch {
    return null;
  }
}

/** The dataset compiled when none is named: the sample, which only a clone holds. */
export function defaultDataDir(): string {
  if (existsSync(SAMPLE_DATA_DIR)) return SAMPLE_DATA_DIR;
  throw new InvalidInputError(
    'no dataDir given, and the sample dataset it defaults to is not installed (the package ships the sample compiled, ' +
      'as its snapshot, not as a dataset): pass dataDir, the dataset to compile (with zipFile, the ZIPs to compile it against)',
  );
}

/** Why createEngine() without options finds nothing to load: the sample snapshot is not where the package keeps it. */
export function missingSampleSnapshot(): Error {
  // A clone holds the sample's dataset, and builds its snapshot with the npm scripts.
  if (existsSync(SAMPLE_DATA_DIR)) {
    return new Error(`no snapshot given, and the bundled sample is not built yet (${DEFAULT_SNAPSHOT}): in a clone, \`npm run build && npm run data:build\` builds it (\`npm install\` does both)`);
  }
  return new Error(
    `no snapshot given, and the bundled sample is not at ${DEFAULT_SNAPSHOT}: an application bundle (esbuild, webpack) ` +
      'holds this code without the package\'s files. Pass createEngine({ snapshot }): a snapshot of your own, or a copy of ' +
      'carrier-locations/data/build/sample.snapshot shipped with the bundle',
  );
}
