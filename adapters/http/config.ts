// Configuration from the environment, checked up front so a typo fails at start-up with the name of
// the variable instead of surfacing later as odd behaviour.

import * as z from 'zod';
import { availableParallelism } from 'node:os';
import { DYNAMODB_ENDPOINT_FORMAT, DYNAMODB_TABLE_FORMAT, isDynamoDbTable, isHttpUrl, isRedisUrl, ONE_STORE, REDIS_URL_FORMAT } from '../kv/create.js';
import { generateDevKey, KeyRing, parseApiKeys } from './keys.js';

export interface Config {
  port: number;
  server: 'express' | 'node';
  /** `key:plan[:monthlyQuota],...`; undefined when unset or blank. */
  apiKeys: string | undefined;
  redisUrl: string | undefined;
  /** The DynamoDB table quotas are counted in (credentials and region from the AWS SDK's standard chain). */
  dynamodbTable: string | undefined;
  /** A local DynamoDB instead of the region's. */
  dynamodbEndpoint: string | undefined;
  /** Server processes on the one port: 1 is a single process (no cluster primary). */
  workers: number;
  /** A compiled snapshot to load; wins over `dataDir`. */
  snapshotPath: string | undefined;
  dataDir: string | undefined;
  /** Lambda: a prefix in front of the API's routes that no route template accounts for (`/carriers`). */
  basePath: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production: boolean;
  /** /map: a tile server's URL template drawn instead of the shipped basemap, and its credit. */
  mapTilesUrl: string | undefined;
  mapTilesAttribution: string | undefined;
  limits: ServerLimits;
}

/** What a client may hold of a server, and how long a stop may take. */
export interface ServerLimits {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections beyond this are closed as they arrive. */
  maxConnections: number;
  /**
   * Connections from one address beyond this are closed as they arrive; none when undefined (a
   * proxy or load balancer in front connects for every client).
   */
  maxConnectionsPerClient?: number | undefined;
  /** SIGTERM: what is still open after this is closed, and the process exits. */
  shutdownTimeoutMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 4_096,
  shutdownTimeoutMs: 10_000,
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, z.string().trim().optional());

/** The longest timer Node sets: a longer one fires at once (after a TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A positive whole number of milliseconds (or connections), with a message naming the variable. */
const positiveIntegerText = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${name} must be a positive integer` })
    .transform(Number)
    .refine((n) => n > 0, { error: `${name} must be a positive integer` })
    .refine((n) => n <= MAX_TIMER_MS, { error: `${name} must be at most ${MAX_TIMER_MS} (about 24.8 days)` });
const positiveInteger = (name: string, fallback: number) => z.preprocess(blankToUndefined, positiveIntegerText(name).default(fallback));
const optionalPositiveInteger = (name: string) => z.preprocess(blankToUndefined, positiveIntegerText(name).optional());

/**
 * How many server processes: a whole number from 1, or `auto` for one per core the OS gives this
 * process (os.availableParallelism); `name` is what the message calls it.
 */
export const workersSchema = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^(\d+|auto)$/, { error: `${name} must be a positive integer or "auto" (one per core)` })
    .transform((text) => (text === 'auto' ? availableParallelism() : Number(text)))
    .refine((n) => n >= 1, { error: `${name} must be a positive integer or "auto" (one per core)` })
    .refine((n) => n <= MAX_WORKERS, { error: `${name} must be at most ${MAX_WORKERS}` });

/** Far more than any host's cores: a typo (WORKERS=80000) is refused rather than forking that many. */
const MAX_WORKERS = 256;

/** A port: a whole number from 0 (any free port) to 65535; `name` is what the message calls it. */
export const portSchema = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${name} must be an integer from 0 to 65535` })
    .transform(Number)
    .refine((n) => n <= 65_535, { error: `${name} must be an integer from 0 to 65535` });

const envSchema = z.object({
  PORT: z.preprocess(blankToUndefined, portSchema('PORT').default(3000)),
  SERVER: z.preprocess(
    blankToUndefined,
    z.enum(['express', 'node'], { error: 'SERVER must be "express" or "node"' }).default('express'),
  ),
  API_KEYS: optionalText,
  // Checked here, or a typo (`http://...`, a bare host name) would start and answer 503 forever.
  // The message never repeats the value: it may hold the password.
  REDIS_URL: optionalText.refine((url) => url === undefined || isRedisUrl(url), { error: REDIS_URL_FORMAT }),
  DYNAMODB_TABLE: optionalText.refine((table) => table === undefined || isDynamoDbTable(table), { error: DYNAMODB_TABLE_FORMAT }),
  DYNAMODB_ENDPOINT: optionalText.refine((url) => url === undefined || isHttpUrl(url), { error: DYNAMODB_ENDPOINT_FORMAT }),
  WORKERS: z.preprocess(blankToUndefined, workersSchema('WORKERS').default(1)),
  SNAPSHOT_PATH: optionalText,
  DATA_DIR: optionalText,
  BASE_PATH: optionalText.transform((path) => {
    const trimmed = path?.replace(/^\/*/, '/').replace(/\/+$/, '');
    return trimmed === '' ? undefined : trimmed;
  }).refine((path) => path === undefined || BASE_PATH.test(path), {
    error: 'BASE_PATH must be a URL path such as /carriers or /carriers/v1',
  }),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  NODE_ENV: optionalText,
  MAP_TILES_URL: optionalText.refine((url) => url === undefined || TILE_TEMPLATE.test(url), {
    error: 'MAP_TILES_URL must be an http(s) URL template with {z}, {x} and {y}, such as https://tiles.example.com/{z}/{x}/{y}.png',
  }),
  MAP_TILES_ATTRIBUTION: optionalText,
  HEADERS_TIMEOUT_MS: positiveInteger('HEADERS_TIMEOUT_MS', DEFAULT_LIMITS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: positiveInteger('REQUEST_TIMEOUT_MS', DEFAULT_LIMITS.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: positiveInteger('KEEP_ALIVE_TIMEOUT_MS', DEFAULT_LIMITS.keepAliveTimeoutMs),
  MAX_CONNECTIONS: positiveInteger('MAX_CONNECTIONS', DEFAULT_LIMITS.maxConnections),
  MAX_CONNECTIONS_PER_CLIENT: optionalPositiveInteger('MAX_CONNECTIONS_PER_CLIENT'),
  SHUTDOWN_TIMEOUT_MS: positiveInteger('SHUTDOWN_TIMEOUT_MS', DEFAULT_LIMITS.shutdownTimeoutMs),
}).refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, {
  error: 'HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
}).refine((e) => e.REDIS_URL === undefined || e.DYNAMODB_TABLE === undefined, {
  error: ONE_STORE,
}).refine((e) => e.DYNAMODB_ENDPOINT === undefined || e.DYNAMODB_TABLE !== undefined, {
  error: 'DYNAMODB_ENDPOINT is set without DYNAMODB_TABLE: set the table that holds the quotas too',
});

/** A tile URL template: scheme, host, and a path holding {z}, {x} and {y} (in any order), nothing that breaks out of an HTML attribute. */
const TILE_TEMPLATE = /^https?:\/\/[\w.{}*-]+(:\d+)?\/(?=[^\s"'<>]*\{z\})(?=[^\s"'<>]*\{x\})(?=[^\s"'<>]*\{y\})[^\s"'<>]*$/;

/** Path segments as a URL writes them: unreserved and sub-delimiter characters, ':', '@' and escapes. */
const BASE_PATH = /^(\/[\w.~!$&'()*+,;=:@%-]+)+$/;

/** Variables that only a server reads: a Lambda ignores them rather than fail on a value it never uses. */
const SERVER_ONLY = ['PORT', 'SERVER', 'WORKERS', 'NODE_ENV', 'HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS', 'MAX_CONNECTIONS', 'MAX_CONNECTIONS_PER_CLIENT', 'SHUTDOWN_TIMEOUT_MS'];

/** The configuration for a runtime: a server, or a Lambda (which has no port, socket limits or dataset compiler). */
export function readConfig(env: Record<string, string | undefined>, runtime: Runtime = 'server'): Config {
  const read = runtime === 'lambda' ? Object.fromEntries(Object.entries(env).filter(([name]) => !SERVER_ONLY.includes(name))) : env;
  const parsed = envSchema.safeParse(read);
  if (!parsed.success) throw new ConfigError(parsed.error.issues[0].message);
  const e = parsed.data;
  if (runtime === 'server' && e.BASE_PATH !== undefined) {
    throw new ConfigError('BASE_PATH is read on Lambda only: a server answers at its root (mount the Express router under a prefix, or strip it in the proxy)');
  }
  // A dataset is compiled with the ZIP gazetteer, which a Lambda bundle leaves out, and every cold
  // start would compile it again: a Lambda loads a snapshot compiled beforehand.
  if (runtime === 'lambda' && e.DATA_DIR !== undefined && e.SNAPSHOT_PATH === undefined) {
    throw new ConfigError(
      'DATA_DIR is not read on Lambda: compile the folder with `carrier-locations build <dir> --out <file>` and ship that file with SNAPSHOT_PATH',
    );
  }
  return {
    port: e.PORT,
    server: e.SERVER,
    apiKeys: e.API_KEYS,
    redisUrl: e.REDIS_URL,
    dynamodbTable: e.DYNAMODB_TABLE,
    dynamodbEndpoint: e.DYNAMODB_ENDPOINT,
    workers: e.WORKERS,
    snapshotPath: e.SNAPSHOT_PATH,
    dataDir: e.DATA_DIR,
    basePath: e.BASE_PATH,
    logLevel: e.LOG_LEVEL,
    // `Production` is a typo of production, not another environment: it keeps the production rules.
    production: e.NODE_ENV?.trim().toLowerCase() === 'production',
    mapTilesUrl: e.MAP_TILES_URL,
    mapTilesAttribution: e.MAP_TILES_ATTRIBUTION,
    limits: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
      maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    },
  };
}

/** Where the service runs: a Lambda has no console to print a generated key to. */
export type Runtime = 'server' | 'lambda';

/**
 * The key ring from API_KEYS. Without keys, production and Lambda refuse to start (an API nobody
 * can call is a misconfiguration); anywhere else a random enterprise-plan key is made so
 * `npm start` just works, and returned so the caller can print it.
 */
export function loadKeys(
  config: Pick<Config, 'apiKeys' | 'production'>,
  runtime: Runtime = 'server',
): { keys: KeyRing; devKey?: string | undefined } {
  if (config.apiKeys) {
    let records;
    try {
      records = parseApiKeys(config.apiKeys);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
    if (records.length > 0) return { keys: new KeyRing(records) };
  }
  if (runtime === 'lambda') {
    throw new ConfigError('API_KEYS is required on Lambda: set it to key:plan[:monthlyQuota],...');
  }
  if (config.production) {
    throw new ConfigError('API_KEYS is required when NODE_ENV=production (format: key:plan[:monthlyQuota],...)');
  }
  const devKey = generateDevKey();
  return { keys: new KeyRing(parseApiKeys(`${devKey}:enterprise`)), devKey };
}

