// The snapshot files `npm run build:lambda` puts beside the bundle, named by what they are: the build
// (build-lambda.ts) writes one of them, the handler (lambda.ts) reads it.

/** The snapshot the build was given (SNAPSHOT_PATH): served as the operator's own data. */
export const FOLDER_SNAPSHOT = 'snapshot.bin';

/**
 * The sample's snapshot, carried when the build was given none: served as the sample (said in the
 * log and the health report), and refused with NODE_ENV=production. A FOLDER_SNAPSHOT put in the
 * folder later wins.
 */
export const FOLDER_SAMPLE = 'sample.snapshot';
