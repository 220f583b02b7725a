// What every way of running the API starts from, made once from the configuration: the engine, the
// keys, the KV store, the logger and the core around them. The server, the command line and the
// Lambda handler differ only in how requests reach the core.

import { pino, type DestinationStream, type Logger } from 'pino';
import { createEngine } from '../engine/index.js';
import type { Engine } from '../engine/engine.js';
import { createApp, type App } from './http/app.js';
import { ConfigError, loadKeys, type Config, type Runtime } from './http/config.js';
import type { KeyRing } from './http/keys.js';
import { createKvStore } from './kv/create.js';
import type { KvStore } from './kv/store.js';

const SAMPLE_IN_PRODUCTION =
  'NODE_ENV=production needs your own data: set SNAPSHOT_PATH (a compiled snapshot) or DATA_DIR (a dataset directory); ' +
  'the bundled sample is synthetic and is served only outside production';
const SAMPLE = 'the bundled sample: synthetic carrier networks on real geography (SNAPSHOT_PATH or DATA_DIR serves your own)';

export interface StartOptions {
  /** What a missing API_KEYS means: a development key (server, outside production) or a refusal. Default `server`. */
  runtime?: Runtime | undefined;
  /** Loaded when neither SNAPSHOT_PATH nor DATA_DIR is set (Lambda: the snapshot beside the bundle); default the engine's. */
  defaultSnapshot?: string | undefined;
  /** Compiles DATA_DIR: given by the runtimes that serve a dataset directory (the build's code stays out of the others). */
  compile?: Compile | undefined;
  /** The store, made by the caller (a cluster worker's, which asks the primary); default the one the configuration names. */
  kv?: KvStore | undefined;
  /** A cluster worker's id: every log line of the process names it. */
  worker?: number | undefined;
}

/** An engine on a dataset directory compiled now: createEngine of carrier-locations/build. */
export type Compile = (options: { dataDir: string }) => Engine;

export interface Service {
  core: App;
  engine: Engine;
  keys: KeyRing;
  kv: KvStore;
  logger: Logger;
  /** The generated key when API_KEYS was not set (development only). */
  devKey?: string | undefined;
  /** A new core on the data as it is on disk now (from the same source), sharing keys, store and logger. */
  loadCore(): App;
}

export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  const { keys, devKey } = loadKeys(config, options.runtime);
  const root = pino({ level: config.logLevel }, logDestination());
  const logger = options.worker === undefined ? root : root.child({ worker: options.worker });
  const data = config.snapshotPath || config.dataDir || options.defaultSnapshot;
  // The sample's carriers are invented: a production server answering from them would mislead every client.
  if (!data && config.production) throw new ConfigError(SAMPLE_IN_PRODUCTION);
  const load = () => loadEngine(config, options.compile, options.defaultSnapshot);
  // Said first: compiling a large dataset takes a while, and an operator sees what the start is doing.
  logger.info({ data: data || SAMPLE }, 'loading data');
  const engine = load();
  // Opened last, so a bad key list or dataset leaves no Redis connection behind.
  const kv =
    options.kv ??
    (await createKvStore(
      { REDIS_URL: config.redisUrl, DYNAMODB_TABLE: config.dynamodbTable, DYNAMODB_ENDPOINT: config.dynamodbEndpoint },
      { onError: (err) => logger.warn({ err }, 'redis connection error') },
    ));
  const map = { tilesUrl: config.mapTilesUrl, tilesAttribution: config.mapTilesAttribution };
  return {
    core: createApp({ engine, keys, kv, logger, map }),
    engine,
    keys,
    kv,
    logger,
    devKey,
    loadCore: () => createApp({ engine: load(), keys, kv, logger, map }),
  };
}

/** The configured data: SNAPSHOT_PATH, else DATA_DIR (compiled now), else the runtime's default snapshot. */
export function loadEngine(config: Pick<Config, 'snapshotPath' | 'dataDir'>, compile: Compile | undefined, defaultSnapshot?: string): Engine {
  if (config.snapshotPath) return createEngine({ snapshot: config.snapshotPath });
  if (config.dataDir) {
    if (!compile) throw new Error('DATA_DIR is not read here: compile the folder with `carrier-locations build <dir> --out <file>` and set SNAPSHOT_PATH');
    return compile({ dataDir: config.dataDir });
  }
  return createEngine(defaultSnapshot ? { snapshot: defaultSnapshot } : {});
}

/**
 * Standard output for the log, which stops at its first failed write (a full disk under `> app.log`),
 * said once on stderr: the service goes on answering. Left to pino, the error would be thrown from
 * an event with no listener, and the stream's synchronous flush retries a failed write forever, so
 * the server would stop answering and ignore SIGTERM. pino does the same for a closed pipe (EPIPE).
 */
function logDestination(): DestinationStream {
  const destination = pino.destination(1);
  let stopped = false;
  destination.on('error', (err: NodeJS.ErrnoException) => {
    if (stopped) return;
    stopped = true;
    destination.write = () => true;
    for (const method of ['flush', 'flushSync', 'end', 'destroy'] as const) destination[method] = () => {};
    if (err.code !== 'EPIPE') console.error(`error: the log could not be written (${err.code ?? err.message}): logging stopped, the service goes on`);
  });
  return destination;
}
