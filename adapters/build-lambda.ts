// `npm run build:lambda`: bundles the Lambda handler into dist/lambda/index.mjs with everything it
// imports, copies the compiled snapshot and the /docs and /map assets beside it, so the folder runs (and
// zips for upload) without node_modules.

import { copyFileSync, cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { DEFAULT_SNAPSHOT, MAP_ASSETS_DIR } from '../engine/package-files.js';
import { readSnapshot } from '../engine/snapshot.js';
import { bundleForNode, codeFile, packageRoot } from './build-bundles.js';
import { describeError } from './describe-error.js';
import { DOCS_ASSETS, swaggerUiDir } from './http/docs.js';
import { FOLDER_SAMPLE, FOLDER_SNAPSHOT } from './lambda-folder.js';

/**
 * The DynamoDB store's client by name (kv/dynamodb-client.ts) where the code imports the package's
 * namespace. The code takes `@aws-sdk/client-dynamodb` with a dynamic import, so that an
 * application bundling this package without the optional client still starts; but a bundler keeps
 * every name of a namespace so taken, each of the client's commands with its schema. The folder
 * carries the client, and takes from it the client and the two commands the store sends.
 */
const dynamoDbClientByName: Plugin = {
  name: 'dynamodb-client-by-name',
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/client-dynamodb$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: codeFile('adapters/kv/dynamodb-client') } : undefined,
    );
  },
};

/** Where the bundle goes by default, and where deploy/template.yaml takes the function's code from. */
export const LAMBDA_OUT_DIR = join(packageRoot, 'dist', 'lambda');

export interface LambdaBuild {
  outDir: string;
  bundle: string;
  /** The snapshot in the folder: FOLDER_SNAPSHOT, or FOLDER_SAMPLE when the build was given none. */
  snapshot: string;
  bundleBytes: number;
  snapshotBytes: number;
}

export async function buildLambda(
  options: { outDir?: string; snapshot?: string } = {},
): Promise<LambdaBuild> {
  const finalDir = options.outDir ?? LAMBDA_OUT_DIR;
  // Blank is unset, as for every variable of the environment's table (config.ts).
  const own = options.snapshot ?? (process.env.SNAPSHOT_PATH?.trim() || undefined);
  const snapshot = own ?? DEFAULT_SNAPSHOT;
  if (own === undefined && !existsSync(snapshot)) throw new Error(`no snapshot at ${snapshot}: run \`npm run data:build\` first`);
  // Read whole and every section checked, as a server checks a snapshot before it serves it: a
  // folder shipped with a file that is no snapshot, or a damaged one, would answer 500s on Lambda.
  readSnapshot(snapshot, 'eager');
  // Made beside the folder and put in its place once whole: a build that fails leaves the last
  // folder as it was.
  const outDir = `${finalDir}.partial`;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'swagger-ui'), { recursive: true });
  // What only some containers use (the Redis client, loaded by a dynamic import when REDIS_URL is
  // set; the DynamoDB client, when DYNAMODB_TABLE is) goes to chunks of its own. The DynamoDB client
  // is bundled, not left to the copy of SDK v3 that Lambda's Node runtime carries: the folder then
  // runs the very version it was tested with, on Lambda and off it. The OpenAPI document is a
  // chunk too, loaded on its first request. A module that code in such a chunk imports moves to a
  // shared chunk in chunks/: engine/package-files.ts, which finds the snapshot and the assets beside
  // the code that runs, must stay imported by the start's code alone.
  await bundleForNode({
    entryPoints: { index: codeFile('adapters/lambda-function') },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    fileGlobals: true,
    plugins: [dynamoDbClientByName],
  });
  // Named by what it is: the function serves the sample's as the sample (lambda-folder.ts).
  const snapshotFile = join(outDir, own ? FOLDER_SNAPSHOT : FOLDER_SAMPLE);
  copyFileSync(snapshot, snapshotFile);
  const docs = swaggerUiDir();
  if (docs) for (const name of DOCS_ASSETS) copyFileSync(join(docs, name), join(outDir, 'swagger-ui', name));
  // The /map page's assets, when this package's build made them (`npm run build`).
  if (existsSync(join(MAP_ASSETS_DIR, 'map.js'))) cpSync(MAP_ASSETS_DIR, join(outDir, 'map'), { recursive: true });
  rmSync(finalDir, { recursive: true, force: true });
  renameSync(outDir, finalDir);
  const bundle = join(finalDir, 'index.mjs');
  return {
    outDir: finalDir,
    bundle,
    snapshot: join(finalDir, basename(snapshotFile)),
    bundleBytes: statSync(bundle).size,
    snapshotBytes: statSync(snapshot).size,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const result = await buildLambda();
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`; // decimal, as `carrier-locations build` reports it
    console.log(`${result.bundle} (${mb(result.bundleBytes)}), snapshot ${mb(result.snapshotBytes)}: zip ${result.outDir} and upload it`);
  } catch (err) {
    // One line, as the command line answers a failure: the file and what is wrong with it.
    console.error(`error: ${describeError(err)}`);
    process.exitCode = 1;
  }
}
