// What every way of running the API starts from, made once from the configuration: the engine, the
// keys, the KV store, the logger and the core around them. The server, the command line and the
// Lambda handler differ only in how requests reach the core.

import { pino, type Logger } from 'pino';
import { createEngine, type EngineOptions } from '../engine/index.js';
import type { Engine } from '../engine/engine.js';
import { createApp, type App } from './http/app.js';
import { loadKeys, type Config, type Runtime } from './http/config.js';
import type { KeyRing } from './http/keys.js';
import { createKvStore } from './kv/create.js';
import type { KvStore } from './kv/store.js';

export interface StartOptions {
  /** What a missing API_KEYS means: a development key (server, outside production) or a refusal. Default `server`. */
  runtime?: Runtime | undefined;
  /** Loaded when neither SNAPSHOT_PATH nor DATA_DIR is set (Lambda: the snapshot beside the bundle); default the engine's. */
  defaultSnapshot?: string | undefined;
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
}

export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  const { keys, devKey } = loadKeys(config, options.runtime);
  const logger = pino({ level: config.logLevel });
  const source = engineSource(config, options.defaultSnapshot);
  const engine = createEngine(source);
  // Opened last, so a bad key list or dataset leaves no Redis connection behind.
  const kv = await createKvStore({ REDIS_URL: config.redisUrl }, { onError: (err) => logger.warn({ err }, 'redis connection error') });
  return {
    core: createApp({ engine, keys, kv, logger }),
    engine,
    keys,
    kv,
    logger,
    devKey,
    loadCore: () => createApp({ engine: createEngine(source), keys, kv, logger }),
  };
}

/** The configured data: SNAPSHOT_PATH, else DATA_DIR (compiled now), else the runtime's default snapshot. */
export function loadEngine(config: Pick<Config, 'snapshotPath' | 'dataDir'>, defaultSnapshot?: string): Engine {
  return createEngine(engineSource(config, defaultSnapshot));
}

function engineSource(config: Pick<Config, 'snapshotPath' | 'dataDir'>, defaultSnapshot: string | undefined): EngineOptions {
  if (config.snapshotPath) return { snapshot: config.snapshotPath };
  if (config.dataDir) return { dataDir: config.dataDir };
  return defaultSnapshot ? { snapshot: defaultSnapshot } : {};
}
