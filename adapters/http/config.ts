// Configuration from the environment, checked up front so a typo fails at start-up with the name of
// the variable instead of surfacing later as odd behaviour.

import { nameErrorClass } from '../../engine/errors.js';
import * as z from '../../engine/zod.js';
import { availableParallelism } from 'node:os';
import { DYNAMODB_ENDPOINT_FORMAT, DYNAMODB_TABLE_FORMAT, ENDPOINT_WITHOUT_TABLE, isDynamoDbTable, isHttpUrl, isRedisUrl, ONE_STORE, REDIS_URL_FORMAT } from '../kv/create.js';
import { generateDevKey, KeyRing, parseApiKeys } from './keys.js';
import { connectionCapUnder, openFileLimit } from '../open-files.js';

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
  /** `json`: one pino JSON object per line (the default); `pretty`: pino-pretty's lines, for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  /**
   * How many proxies in front of the server are trusted to add the client's address to
   * X-Forwarded-For: 0 (the default) reads the socket's address only; Infinity takes the first entry.
   */
  trustProxy: number;
  /** Origins a browser page may call the API from; `*` for any; empty for none (the default). */
  corsOrigins: '*' | readonly string[];
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
  /**
   * Connections beyond this are closed as they arrive. Default 4096, or less: below the process's
   * open-file limit (read at start), so that the OS never resets a connection the server took.
   */
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
  static {
    nameErrorClass(ConfigError, 'ConfigError');
  }
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** `z.preprocess` of classic zod: blank text is read as unset before the schema reads it. */
const blankIsUnset = <S extends z.ZodMiniType>(schema: S) => z.pipe(z.transform(blankToUndefined), schema);
const optionalText = blankIsUnset(z.optional(z.string().check(z.trim())));

/** The longest timer Node sets: a longer one fires at once (after a TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A positive whole number of milliseconds or of connections, with a message naming the variable;
 * at most the longest timer, which a count has no use to pass either.
 */
const positiveIntegerText = (name: string, of: 'milliseconds' | 'connections') =>
  z
    .pipe(z.string().check(z.regex(/^\d+$/, { error: `${name} must be a positive integer` })), z.transform(Number))
    .check(
      z.refine((n: number) => n > 0, { error: `${name} must be a positive integer` }),
      z.refine((n: number) => n <= MAX_TIMER_MS, { error: `${name} must be at most ${MAX_TIMER_MS}${of === 'milliseconds' ? ' (about 24.8 days)' : ''}` }),
    );
const timeout = (name: VariableName) => blankIsUnset(z._default(positiveIntegerText(name, 'milliseconds'), Number(defaultOf(name))));
const connectionLimit = (name: VariableName) => blankIsUnset(z.optional(positiveIntegerText(name, 'connections')));

/**
 * How many server processes: a whole number from 1, or `auto` for one per core the OS gives this
 * process (os.availableParallelism); `name` is what the message calls it.
 */
export const workersSchema = (name: string) =>
  z
    .pipe(
      z.string().check(z.trim(), z.regex(/^(\d+|auto)$/, { error: `${name} must be a positive integer or "auto" (one per core)` })),
      z.transform((text: string) => (text === 'auto' ? availableParallelism() : Number(text))),
    )
    .check(
      z.refine((n: number) => n >= 1, { error: `${name} must be a positive integer or "auto" (one per core)` }),
      z.refine((n: number) => n <= MAX_WORKERS, { error: `${name} must be at most ${MAX_WORKERS}` }),
    );

/** Far more than any host's cores: a typo (WORKERS=80000) is refused rather than forking that many. */
const MAX_WORKERS = 256;

/** A port: a whole number from 0 (any free port) to 65535; `name` is what the message calls it. */
export const portSchema = (name: string) =>
  z
    .pipe(z.string().check(z.regex(/^\d+$/, { error: `${name} must be an integer from 0 to 65535` })), z.transform(Number))
    .check(z.refine((n: number) => n <= 65_535, { error: `${name} must be an integer from 0 to 65535` }));

/** Who reads a variable: every runtime, or only a server (a Lambda ignores it rather than fail on a value it never uses). */
export type VariableScope = 'all' | 'server' | 'lambda';

export interface EnvironmentVariable {
  scope: VariableScope;
  /** The value used when it is unset or blank, as it would be written; none when unset means something else. */
  default?: string | undefined;
  /** What unset means, where there is no default value. */
  unset?: string | undefined;
  description: string;
}

/**
 * Every variable the service reads, with its default and meaning: the parser below takes its
 * defaults and scopes from here, and docs/deploy.md's table is made from it (`npm run docs`).
 */
export const ENVIRONMENT = {
  PORT: { scope: 'server', default: '3000', description: 'port to listen on (0: any free port)' },
  SERVER: { scope: 'server', default: 'express', description: '`express`, or `node` for plain `node:http` (the fastest; needs no `express` installed)' },
  API_KEYS: {
    scope: 'all',
    unset: 'a development key, printed at start',
    description:
      '`key:plan[:monthlyQuota],...`, plans `basic`, `pro`, `enterprise`; stored and logged only by their SHA-256. Required when `NODE_ENV=production` and on Lambda',
  },
  REDIS_URL: {
    scope: 'all',
    unset: 'quota counters in memory',
    description: 'share quota counters between processes through Redis: `redis://[:password@]host:port[/db]` or `rediss://` (TLS)',
  },
  SNAPSHOT_PATH: { scope: 'all', unset: 'the bundled sample', description: 'a compiled snapshot to load; wins over `DATA_DIR`' },
  DATA_DIR: { scope: 'all', unset: 'the bundled sample', description: 'a dataset directory to compile at start-up (servers and the command line; a Lambda refuses it)' },
  BASE_PATH: { scope: 'lambda', unset: 'none', description: "a prefix in front of the API's routes (`/carriers`), dropped where present: from the front of the route's fixed segments (`/carriers/{proxy+}`), or of the path where the event has no route (`$default`, a load balancer)" },
  LOG_LEVEL: { scope: 'all', default: 'info', description: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; at `info`, one JSON line per request' },
  LOG_FORMAT: { scope: 'all', default: 'json', description: '`json` (one pino object per line) or `pretty` (pino-pretty, for a person at a terminal; needs `pino-pretty` installed)' },
  TRUST_PROXY: {
    scope: 'all',
    default: 'false',
    description: "`true`, `false` or the number of proxies in front: how far `X-Forwarded-For` is trusted for the client's address in the log",
  },
  CORS_ORIGINS: {
    scope: 'all',
    unset: 'no CORS headers',
    description: 'origins a browser page may call the API from, comma-separated (`https://app.example.com`), or `*`; preflights need no key',
  },
  NODE_ENV: {
    scope: 'all',
    unset: 'not production',
    description:
      '`production` (in any case) refuses to start without `API_KEYS`, or on the bundled sample: without `SNAPSHOT_PATH` or `DATA_DIR` ' +
      '(on Lambda, with a folder `npm run build:lambda` made without a snapshot of your own)',
  },
  WORKERS: {
    scope: 'server',
    default: '1',
    description: `server processes on one port (node:cluster): a whole number from 1 to ${MAX_WORKERS}, or \`auto\` for one per core (see docs/scaling.md)`,
  },
  DYNAMODB_TABLE: {
    scope: 'all',
    unset: 'no DynamoDB',
    description: 'count quotas in this DynamoDB table instead (needs `@aws-sdk/client-dynamodb`; not with `REDIS_URL`; see docs/scaling.md)',
  },
  DYNAMODB_ENDPOINT: { scope: 'all', unset: "the region's", description: 'a local DynamoDB (`http://127.0.0.1:8000`) instead of the region\'s; only with `DYNAMODB_TABLE`' },
  MAP_TILES_URL: {
    scope: 'all',
    unset: 'the shipped basemap',
    description: "a tile URL template, `http(s)://host/.../{z}/{x}/{y}...`, drawn under the `/map` page's outlines (see docs/maps.md)",
  },
  MAP_TILES_ATTRIBUTION: { scope: 'all', unset: 'none', description: 'the credit the tile server asks for, shown in the corner of `/map`' },
  HEADERS_TIMEOUT_MS: { scope: 'server', default: String(DEFAULT_LIMITS.headersTimeoutMs), description: 'the request line and headers must arrive within this, else 408' },
  REQUEST_TIMEOUT_MS: {
    scope: 'server',
    default: String(DEFAULT_LIMITS.requestTimeoutMs),
    description: 'the whole request, body included, must arrive within this, else 408 (at least `HEADERS_TIMEOUT_MS`)',
  },
  KEEP_ALIVE_TIMEOUT_MS: {
    scope: 'server',
    default: String(DEFAULT_LIMITS.keepAliveTimeoutMs),
    description: "an idle keep-alive connection is closed after this, which clients are told (`Keep-Alive: timeout=5`); Node keeps it open up to a second longer, so that a client reusing it just then is not cut off",
  },
  MAX_CONNECTIONS: {
    scope: 'server',
    default: String(DEFAULT_LIMITS.maxConnections),
    description: "connections beyond this are closed as they arrive (and logged); the default is lowered below the process's open-file limit; with `WORKERS`, each worker's",
  },
  MAX_CONNECTIONS_PER_CLIENT: {
    scope: 'server',
    unset: 'no limit',
    description: "connections from one address beyond this are closed as they arrive; set it where clients reach the server directly, not behind a proxy; with `WORKERS`, each worker's",
  },
  SHUTDOWN_TIMEOUT_MS: {
    scope: 'server',
    default: String(DEFAULT_LIMITS.shutdownTimeoutMs),
    description: 'on SIGTERM or SIGINT, what is still open after this is closed and the process exits',
  },
} as const satisfies Record<string, EnvironmentVariable>;

type VariableName = keyof typeof ENVIRONMENT;
const defaultOf = (name: VariableName): string => (ENVIRONMENT[name] as EnvironmentVariable).default!;

const envSchema = z.object({
  PORT: blankIsUnset(z._default(portSchema('PORT'), Number(defaultOf('PORT')))),
  SERVER: blankIsUnset(z._default(z.enum(['express', 'node'], { error: 'SERVER must be "express" or "node"' }), defaultOf('SERVER') as 'express')),
  API_KEYS: optionalText,
  // Checked here, or a typo (`http://...`, a bare host name) would start and answer 503 forever.
  // The message never repeats the value: it may hold the password.
  REDIS_URL: optionalText.check(z.refine((url) => url === undefined || isRedisUrl(url), { error: REDIS_URL_FORMAT })),
  DYNAMODB_TABLE: optionalText.check(z.refine((table) => table === undefined || isDynamoDbTable(table), { error: DYNAMODB_TABLE_FORMAT })),
  DYNAMODB_ENDPOINT: optionalText.check(z.refine((url) => url === undefined || isHttpUrl(url), { error: DYNAMODB_ENDPOINT_FORMAT })),
  WORKERS: blankIsUnset(z._default(workersSchema('WORKERS'), Number(defaultOf('WORKERS')))),
  SNAPSHOT_PATH: optionalText,
  DATA_DIR: optionalText,
  BASE_PATH: z
    .pipe(
      optionalText,
      z.transform((path: string | undefined) => {
        const trimmed = path?.replace(/^\/*/, '/').replace(/\/+$/, '');
        return trimmed === '' ? undefined : trimmed;
      }),
    )
    .check(z.refine((path) => path === undefined || BASE_PATH.test(path), { error: 'BASE_PATH must be a URL path such as /carriers or /carriers/v1' })),
  LOG_LEVEL: blankIsUnset(
    z._default(
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      }),
      defaultOf('LOG_LEVEL') as 'info',
    ),
  ),
  LOG_FORMAT: blankIsUnset(z._default(z.enum(['json', 'pretty'], { error: 'LOG_FORMAT must be "json" or "pretty"' }), defaultOf('LOG_FORMAT') as 'json')),
  TRUST_PROXY: blankIsUnset(
    z._default(
      z.pipe(
        z
          .string()
          .check(z.trim(), z.toLowerCase(), z.regex(/^(true|false|\d{1,3})$/, { error: 'TRUST_PROXY must be true, false or the number of proxies in front of the server' })),
        z.transform((v: string) => (v === 'true' ? Infinity : v === 'false' ? 0 : Number(v))),
      ),
      0,
    ),
  ),
  CORS_ORIGINS: z.pipe(optionalText, z.transform((text: string | undefined, ctx) => {
    if (text === undefined) return [];
    if (text === '*') return '*';
    const origins: string[] = [];
    for (const entry of text.split(',').map((o) => o.trim()).filter(Boolean)) {
      const origin = originOf(entry);
      if (origin === undefined) {
        ctx.issues.push({ code: 'custom', input: text, message: `CORS_ORIGINS: ${JSON.stringify(entry.slice(0, 100))} is not an origin such as https://app.example.com (scheme, host and port only), nor *` });
        return z.NEVER;
      }
      origins.push(origin);
    }
    // Commas alone (`,`) name no origin: unset is how to allow none, and this reads as a typo.
    if (origins.length === 0) {
      ctx.issues.push({ code: 'custom', input: text, message: 'CORS_ORIGINS names no origin: list origins such as https://app.example.com, or * for any' });
      return z.NEVER;
    }
    return origins;
  })),
  NODE_ENV: optionalText,
  MAP_TILES_URL: optionalText.check(
    z.refine((url) => url === undefined || TILE_TEMPLATE.test(url), {
      error: 'MAP_TILES_URL must be an http(s) URL template with {z}, {x} and {y}, such as https://tiles.example.com/{z}/{x}/{y}.png',
    }),
  ),
  MAP_TILES_ATTRIBUTION: optionalText,
  HEADERS_TIMEOUT_MS: timeout('HEADERS_TIMEOUT_MS'),
  REQUEST_TIMEOUT_MS: timeout('REQUEST_TIMEOUT_MS'),
  KEEP_ALIVE_TIMEOUT_MS: timeout('KEEP_ALIVE_TIMEOUT_MS'),
  // No default here: a server's default depends on its open-file limit, read at start (below).
  MAX_CONNECTIONS: connectionLimit('MAX_CONNECTIONS'),
  MAX_CONNECTIONS_PER_CLIENT: connectionLimit('MAX_CONNECTIONS_PER_CLIENT'),
  SHUTDOWN_TIMEOUT_MS: timeout('SHUTDOWN_TIMEOUT_MS'),
} satisfies Record<VariableName, z.ZodMiniType>).check(
  z.refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, {
    error: 'HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
  }),
  z.refine((e) => e.REDIS_URL === undefined || e.DYNAMODB_TABLE === undefined, { error: ONE_STORE }),
  z.refine((e) => e.DYNAMODB_ENDPOINT === undefined || e.DYNAMODB_TABLE !== undefined, { error: ENDPOINT_WITHOUT_TABLE }),
);

/** An origin as a browser sends it in `Origin` (`https://app.example.com:8443`), or undefined. */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    const web = url.protocol === 'https:' || url.protocol === 'http:';
    const bare = url.pathname === '/' && !text.endsWith('//') && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    // As browsers send it: lower case, the scheme's default port left out.
    return web && bare ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** A tile URL template: scheme, host, and a path holding {z}, {x} and {y} (in any order), nothing that breaks out of an HTML attribute. */
const TILE_TEMPLATE = /^https?:\/\/[\w.{}*-]+(:\d+)?\/(?=[^\s"'<>]*\{z\})(?=[^\s"'<>]*\{x\})(?=[^\s"'<>]*\{y\})[^\s"'<>]*$/;

/**
 * Path segments as a URL writes them: unreserved and sub-delimiter characters, ':', '@' and escapes;
 * not `.` or `..`, which a client resolves before it sends, so that no request's path holds them.
 */
export const BASE_PATH = /^(\/(?!\.\.?(?:\/|$))[\w.~!$&'()*+,;=:@%-]+)+$/;

/** Variables that only a server reads: a Lambda ignores them rather than fail on a value it never uses. */
const SERVER_ONLY: readonly string[] = Object.entries(ENVIRONMENT).filter(([, v]) => v.scope === 'server').map(([name]) => name);

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
    logFormat: e.LOG_FORMAT,
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    // `Production` is a typo of production, not another environment: it keeps the production rules.
    production: e.NODE_ENV?.trim().toLowerCase() === 'production',
    mapTilesUrl: e.MAP_TILES_URL,
    mapTilesAttribution: e.MAP_TILES_ATTRIBUTION,
    limits: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS ?? (runtime === 'server' ? connectionCapUnder(openFileLimit(), DEFAULT_LIMITS.maxConnections) : DEFAULT_LIMITS.maxConnections),
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

