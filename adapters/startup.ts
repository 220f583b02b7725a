// What every way of running the API starts from, made once from the configuration: the engine, the
// keys, the KV store, the logger and the core around them. The server, the command line and the
// Lambda handler differ only in how requests reach the core.

import { pino, type Logger } from 'pino';
import type { Engine } from '../engine/engine.js';
import { basename } from 'node:path';
import { SNAPSHOT_VERSION } from '../engine/snapshot-format.js';
import { namesOf } from './commonjs-names.js';
import { loadEngine, type Compile } from './engine-source.js';
import { createApp, type App } from './http/app.js';
import { ConfigError, loadKeys, type Config, type Runtime } from './http/config.js';
import { ReloadStatus, type DataInfo } from './http/health.js';
import type { KeyRing } from './http/keys.js';
import { createKvStore } from './kv/create.js';
import { KvConfigError, type KvStore } from './kv/store.js';

/** How each runtime serves its own data instead of the sample, as its refusal in production says. */
const OWN_DATA = {
  server: 'set SNAPSHOT_PATH (a compiled snapshot) or DATA_DIR (a dataset directory)',
  lambda: "build the function's folder with your snapshot (SNAPSHOT_PATH=my-carriers.snapshot npm run build:lambda), or set SNAPSHOT_PATH to a snapshot file the function carries",
};
/** Why production refuses to start on the sample. */
const sampleInProduction = (runtime: Runtime | undefined) =>
  `NODE_ENV=production needs your own data: ${OWN_DATA[runtime ?? 'server']}; the bundled sample is synthetic and is served only outside production`;
/** The first log line's `data` when the sample is served. */
const sampleServed = (runtime: Runtime | undefined) =>
  `the bundled sample: synthetic carrier networks on real geography (${runtime === 'lambda' ? 'a folder built with SNAPSHOT_PATH' : 'SNAPSHOT_PATH or DATA_DIR'} serves your own)`;

export interface StartOptions {
  /** What a missing API_KEYS means: a development key (server, outside production) or a refusal. Default `server`. */
  runtime?: Runtime | undefined;
  /** Loaded when neither SNAPSHOT_PATH nor DATA_DIR is set, as the operator's own data (Lambda: the folder's snapshot.bin). */
  defaultSnapshot?: string | undefined;
  /**
   * The sample's snapshot, where it is not the engine's own (the Lambda folder's sample.snapshot):
   * loaded when no data of one's own is, and served as the sample (refused in production).
   */
  sampleSnapshot?: string | undefined;
  /** Compiles DATA_DIR: given by the runtimes that serve a dataset directory (the build's code stays out of the others). */
  compile?: Compile | undefined;
  /** The store, made by the caller (a cluster worker's, which asks the primary); default the one the configuration names. */
  kv?: KvStore | undefined;
  /** A cluster worker's id: every log line of the process names it. */
  worker?: number | undefined;
}

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
  /** The last reload's outcome, which every core's health report shows. */
  reloads: ReloadStatus;
}

/** The warnings of a dataset a log line holds: the first few say what is wrong; `validate` lists every one. */
const WARNINGS_LOGGED = 5;

export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  const { keys, devKey } = loadKeys(config, options.runtime);
  // A cluster worker's log reaches standard output through the primary (log-relay.ts).
  const root = await createLogger(config, options.runtime === 'lambda' ? 'sync' : options.worker === undefined ? 'async' : 'relayed');
  const logger = options.worker === undefined ? root : root.child({ worker: options.worker });
  const source = config.snapshotPath || config.dataDir || options.defaultSnapshot;
  // The sample's carriers are invented: a production server answering from them would mislead every client.
  if (!source && config.production) throw new ConfigError(sampleInProduction(options.runtime));
  // A server reads and checks the whole snapshot before it answers (or swaps in a reload): a damaged
  // file fails the start, not a query. A Lambda instance reads each table when a query first needs it:
  // its cold start is part of its first answer's latency.
  const load = () =>
    loadEngine(config, options.compile, {
      defaultSnapshot: options.defaultSnapshot ?? options.sampleSnapshot,
      load: options.runtime === 'lambda' ? 'lazy' : 'eager',
      // A DATA_DIR that compiles with warnings serves, as `build` writes it; its operator is told at
      // each load, by each process that loads it (each worker, with WORKERS).
      onWarnings: (warnings) =>
        logger.warn({ warnings: warnings.length, first: warnings.slice(0, WARNINGS_LOGGED) }, 'the dataset has warnings: `carrier-locations validate` lists them'),
    });
  // Said first: compiling a large dataset takes a while, and an operator sees what the start is doing.
  logger.info({ data: source || sampleServed(options.runtime) }, 'loading data');
  const engine = load();
  const data = dataInfo(config, options.defaultSnapshot);
  // Opened last, so a bad key list or dataset leaves no Redis connection behind.
  let kv: KvStore;
  try {
    kv =
      options.kv ??
      (await createKvStore(
        { REDIS_URL: config.redisUrl, DYNAMODB_TABLE: config.dynamodbTable, DYNAMODB_ENDPOINT: config.dynamodbEndpoint },
        { onError: (err) => logger.warn({ err }, 'redis connection error') },
      ));
  } catch (err) {
    // Settings Redis refuses stop the start like any other bad variable: exit 1, one line.
    throw err instanceof KvConfigError ? new ConfigError(err.message) : err;
  }
  const map = { tilesUrl: config.mapTilesUrl, tilesAttribution: config.mapTilesAttribution };
  const reloads = new ReloadStatus([config.snapshotPath, config.dataDir].filter((path) => path !== undefined));
  const shared = { keys, kv, logger, map, corsOrigins: config.corsOrigins, trustProxy: config.trustProxy, reloads };
  return {
    core: createApp({ engine, data, ...shared }),
    engine,
    keys,
    kv,
    logger,
    devKey,
    loadCore: () => {
      const engine = load();
      return createApp({ engine, data: dataInfo(config, options.defaultSnapshot), ...shared });
    },
    reloads,
  };
}

/** What the health report says of data just loaded: its kind and name, never its path. */
export function dataInfo(config: Pick<Config, 'snapshotPath' | 'dataDir'>, defaultSnapshot: string | undefined): DataInfo {
  const loaded = { loadedAt: new Date().toISOString(), snapshotVersion: SNAPSHOT_VERSION };
  if (config.snapshotPath) return { source: 'snapshot', name: basename(config.snapshotPath), ...loaded };
  if (config.dataDir) return { source: 'dataset', name: basename(config.dataDir), ...loaded };
  if (defaultSnapshot) return { source: 'snapshot', name: basename(defaultSnapshot), ...loaded };
  return { source: 'sample', name: 'sample', ...loaded };
}

/**
 * How a JSON log writes:
 * - `sync`: each line before the call that logs it returns, as a Lambda function needs: Lambda
 *   freezes the process once an invocation is answered, and may end it frozen, so a line still
 *   waiting in a buffer for its write to complete would be late or lost.
 * - `async`: a server's, in batches (what came while the last write was under way), waited for
 *   before it exits (`logWritten`).
 * - `relayed`: a cluster worker's, whose lines the primary passes on: in batches of RELAYED_BATCH
 *   bytes, or what came within RELAYED_FLUSH_MS. Each write is one more read and write for the
 *   primary, and a write per line would make the primary the service's busiest process.
 */
export type LogWrites = 'sync' | 'async' | 'relayed';

const RELAYED_BATCH = 8192;
const RELAYED_FLUSH_MS = 100;

/**
 * The log: one pino JSON object per line on standard output, or with LOG_FORMAT=pretty, pino-pretty's
 * lines for a person at a terminal (an optional package, loaded only then).
 */
export async function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, writes: LogWrites = 'async'): Promise<Logger> {
  if (config.logFormat === 'json') return pino({ level: config.logLevel }, logDestination(writes));
  let pretty: typeof import('pino-pretty').build;
  try {
    pretty = namesOf(await import('pino-pretty'), 'build').build;
  } catch {
    throw new ConfigError('LOG_FORMAT=pretty needs the pino-pretty package (npm install pino-pretty)');
  }
  return pino({ level: config.logLevel }, pretty({ destination: 1, sync: true }));
}

/** pino's own destination (sonic-boom): writes a file descriptor in batches, or line by line. */
type LogStream = ReturnType<typeof pino.destination>;

/**
 * Standard output for the log, which stops at its first failed write (a full disk under `> app.log`),
 * said once on stderr: the service goes on answering. Left to pino, the error would be thrown from
 * an event with no listener, and the stream's synchronous flush retries a failed write forever, so
 * the server would stop answering and ignore SIGTERM. pino does the same for a closed pipe (EPIPE).
 */
function logDestination(writes: LogWrites): LogStream {
  const sync = writes === 'sync';
  const destination = pino.destination(writes === 'relayed' ? { dest: 1, sync, minLength: RELAYED_BATCH, periodicFlush: RELAYED_FLUSH_MS } : { dest: 1, sync });
  let stopped = false;
  destination.on('error', (err: NodeJS.ErrnoException) => {
    if (stopped) return;
    stopped = true;
    silence(destination);
    if (err.code !== 'EPIPE') console.error(`error: the log could not be written (${err.code ?? err.message}): logging stopped, the service goes on`);
  });
  if (!sync) asyncDestinations.add(destination);
  return destination;
}

/** Drops every line from now on, and what is still buffered: nothing is written, retried or waited for. */
function silence(destination: LogStream): void {
  asyncDestinations.delete(destination);
  destination.write = () => true;
  for (const method of ['flush', 'flushSync', 'end', 'destroy'] as const) destination[method] = () => {};
}

/** The stream a logger writes to; child loggers share their root's. */
export function logStream(logger: Logger): LogStream {
  return (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as LogStream;
}

/** The destinations that write in batches, which a process must wait for before it exits. */
const asyncDestinations = new WeakSet<LogStream>();

/**
 * Resolves once every line given to `logger` has been written, and its stream closed, or at
 * `deadline` (a time from Date.now()) if the log's reader has not taken them by then: a stopping
 * server's last step before it exits. pino writes what is left as the process exits, but not a
 * batch whose write is being retried because the pipe is full: behind a slow log reader, those
 * lines would be lost. A line logged after this is dropped.
 */
export function logWritten(logger: Logger, deadline: number): Promise<void> {
  const destination = logStream(logger);
  if (!asyncDestinations.has(destination)) return Promise.resolve();
  return new Promise((resolve) => {
    const written = () => {
      clearTimeout(timer);
      // A closed stream throws on a write, and at the deadline what is left is given up: pino's
      // last flush as the process exits would otherwise retry a pipe nobody reads, forever.
      silence(destination);
      resolve();
    };
    const timer = setTimeout(written, Math.max(0, deadline - Date.now()));
    destination.once('close', written);
    destination.end();
  });
}
