import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { connectionCapUnder, openFileLimit } from '../../adapters/open-files.js';
import { ConfigError, DEFAULT_LIMITS, loadKeys, readConfig } from '../../adapters/http/config.js';

/** This machine's limit as the shell reports it (the test's own way to read it), and the cap under it. */
const shellLimit = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
const SHELL_LIMIT = shellLimit === 'unlimited' ? Infinity : Number(shellLimit);
const DEFAULT_CAP = Number.isFinite(SHELL_LIMIT) ? Math.min(4096, SHELL_LIMIT - 64) : 4096;

describe('readConfig', () => {
  it('has the documented defaults', () => {
    expect(readConfig({})).toEqual({
      port: 3000,
      server: 'express',
      apiKeys: undefined,
      redisUrl: undefined,
      dynamodbTable: undefined,
      dynamodbEndpoint: undefined,
      workers: 1,
      snapshotPath: undefined,
      dataDir: undefined,
      basePath: undefined,
      logLevel: 'info',
      logFormat: 'json',
      trustProxy: 0,
      corsOrigins: [],
      production: false,
      limits: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: DEFAULT_CAP, shutdownTimeoutMs: 10_000 },
    });
  });

  it('caps connections by default below the open-file limit, by the files the process needs besides them', () => {
    expect(connectionCapUnder(1024, 4096)).toBe(960);
    expect(connectionCapUnder(65_536, 4096)).toBe(4096);
    expect(connectionCapUnder(Infinity, 4096)).toBe(4096);
    expect(connectionCapUnder(undefined, 4096)).toBe(4096);
    expect(openFileLimit()).toBe(SHELL_LIMIT);
  });

  it('reads every variable, treating blank ones as unset', () => {
    const config = readConfig({
      PORT: '8080', SERVER: 'node', API_KEYS: 'k:pro', REDIS_URL: 'redis://127.0.0.1:6379', SNAPSHOT_PATH: '/data.snapshot',
      DATA_DIR: '/data', LOG_LEVEL: 'warn', NODE_ENV: 'production', HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '1000', MAX_CONNECTIONS: '100', MAX_CONNECTIONS_PER_CLIENT: '16', SHUTDOWN_TIMEOUT_MS: '3000', WORKERS: '3',
      LOG_FORMAT: 'pretty', TRUST_PROXY: '2', CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
    });
    expect(config).toEqual({
      port: 8080, server: 'node', apiKeys: 'k:pro', redisUrl: 'redis://127.0.0.1:6379', dynamodbTable: undefined, dynamodbEndpoint: undefined, workers: 3,
      snapshotPath: '/data.snapshot',
      dataDir: '/data', basePath: undefined, logLevel: 'warn', logFormat: 'pretty', trustProxy: 2,
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'], production: true,
      limits: { headersTimeoutMs: 2000, requestTimeoutMs: 4000, keepAliveTimeoutMs: 1000, maxConnections: 100, maxConnectionsPerClient: 16, shutdownTimeoutMs: 3000 },
    });
    expect(readConfig({ SHUTDOWN_TIMEOUT_MS: '' }).limits).toEqual({ ...DEFAULT_LIMITS, maxConnections: DEFAULT_CAP });
    // A capital or a space is a typo of production, not another environment.
    for (const NODE_ENV of ['Production', 'PRODUCTION', ' production ']) expect(readConfig({ NODE_ENV }).production).toBe(true);
    for (const NODE_ENV of ['development', 'test', '']) expect(readConfig({ NODE_ENV }).production).toBe(false);
    expect(readConfig({ PORT: ' ', REDIS_URL: '' })).toMatchObject({ port: 3000, redisUrl: undefined });
    expect(readConfig({ SNAPSHOT_PATH: '', DATA_DIR: ' ' })).toMatchObject({ snapshotPath: undefined, dataDir: undefined });
  });

  it.each([
    [{ PORT: 'http' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: '-1' }, /PORT/],
    [{ SERVER: 'koa' }, /SERVER/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SHUTDOWN_TIMEOUT_MS: '10s' }, /SHUTDOWN_TIMEOUT_MS must be a positive integer/],
    [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS must be a positive integer/],
    [{ MAX_CONNECTIONS_PER_CLIENT: 'some' }, /^MAX_CONNECTIONS_PER_CLIENT must be a positive integer$/],
    [{ HEADERS_TIMEOUT_MS: '60000' }, /HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/],
    [{ REDIS_URL: 'redishost' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ REDIS_URL: 'redis://:pw@127.0.0.1:abc' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, such as redis:\/\/:password@host:6379, with a database number if any \(redis:\/\/host:6379\/2\)$/],
    // ioredis would send SELECT NaN, and its error crashes the server after it has started.
    [{ REDIS_URL: 'redis://127.0.0.1:6379/x' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    // Node would fire a longer timer at once: the stop's deadline would be 1 ms.
    [{ SHUTDOWN_TIMEOUT_MS: '3000000000' }, /^SHUTDOWN_TIMEOUT_MS must be at most 2147483647 \(about 24\.8 days\)$/],
    [{ REQUEST_TIMEOUT_MS: '2147483648' }, /^REQUEST_TIMEOUT_MS must be at most 2147483647/],
    // A count of connections is no time: its limit says no days.
    [{ MAX_CONNECTIONS: '99999999999' }, /^MAX_CONNECTIONS must be at most 2147483647$/],
    [{ MAX_CONNECTIONS_PER_CLIENT: '2147483648' }, /^MAX_CONNECTIONS_PER_CLIENT must be at most 2147483647$/],
    [{ LOG_FORMAT: 'text' }, /^LOG_FORMAT must be "json" or "pretty"$/],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be true, false or the number of proxies in front of the server$/],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, /^CORS_ORIGINS: "https:\/\/app\.example\.com\/path" is not an origin/],
    [{ CORS_ORIGINS: 'app.example.com' }, /^CORS_ORIGINS: "app\.example\.com" is not an origin/],
    [{ CORS_ORIGINS: 'https://a.example, *' }, /^CORS_ORIGINS: "\*" is not an origin/],
    [{ CORS_ORIGINS: ',' }, /^CORS_ORIGINS names no origin: list origins such as https:\/\/app\.example\.com, or \* for any$/],
    [{ CORS_ORIGINS: ' , ,' }, /^CORS_ORIGINS names no origin/],
    [{ WORKERS: '0' }, /^WORKERS must be a positive integer or "auto" \(one per core\)$/],
    [{ WORKERS: 'all' }, /^WORKERS must be a positive integer or "auto" \(one per core\)$/],
    [{ WORKERS: '2.5' }, /^WORKERS must be a positive integer or "auto"/],
    [{ WORKERS: '100000' }, /^WORKERS must be at most 256$/],
    [{ DYNAMODB_TABLE: 'ab' }, /^DYNAMODB_TABLE must be a DynamoDB table name: 3 to 255 letters, digits, _ - or \.$/],
    [{ DYNAMODB_TABLE: 'carrier quotas' }, /^DYNAMODB_TABLE must be a DynamoDB table name/],
    [{ DYNAMODB_TABLE: 'quotas', DYNAMODB_ENDPOINT: 'localhost:8000' }, /^DYNAMODB_ENDPOINT must be an http:\/\/ or https:\/\/ URL, such as http:\/\/127\.0\.0\.1:8000$/],
    [{ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }, /^DYNAMODB_ENDPOINT is set without DYNAMODB_TABLE/],
    [{ DYNAMODB_TABLE: 'quotas', REDIS_URL: 'redis://127.0.0.1:6379' }, /^set one of REDIS_URL and DYNAMODB_TABLE: quotas are counted in one store$/],
  ])('names the variable that is wrong: %o', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });

  it('reads TRUST_PROXY as a count of proxies and CORS_ORIGINS as browsers send origins', () => {
    expect([' true ', 'FALSE', '0', '1'].map((TRUST_PROXY) => readConfig({ TRUST_PROXY }).trustProxy)).toEqual([Infinity, 0, 0, 1]);
    expect(readConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    // Lower case, without the scheme's default port or a trailing slash: what a browser sends in Origin.
    expect(readConfig({ CORS_ORIGINS: 'HTTPS://App.Example.com:443/, http://127.0.0.1:8080,' }).corsOrigins).toEqual(['https://app.example.com', 'http://127.0.0.1:8080']);
  });

  it('on Lambda ignores what only a server reads, and refuses what a Lambda cannot do', () => {
    const serverOnly = { PORT: 'abc', SERVER: 'koa', MAX_CONNECTIONS: '0', MAX_CONNECTIONS_PER_CLIENT: '0', HEADERS_TIMEOUT_MS: '60000' };
    expect(readConfig({ ...serverOnly, API_KEYS: 'k:pro', SNAPSHOT_PATH: '/var/task/my.snapshot' }, 'lambda')).toMatchObject({
      apiKeys: 'k:pro',
      snapshotPath: '/var/task/my.snapshot',
      port: 3000,
      production: false,
    });
    // NODE_ENV is read on Lambda too: in production a function does not serve the bundled sample.
    expect(readConfig({ NODE_ENV: 'production' }, 'lambda').production).toBe(true);
    expect(() => readConfig({ DATA_DIR: 'my-carriers' }, 'lambda')).toThrow(
      /^DATA_DIR is not read on Lambda: compile the folder with `carrier-locations build <dir> --out <file>` and ship that file with SNAPSHOT_PATH$/,
    );
    // Given both, SNAPSHOT_PATH wins everywhere, so DATA_DIR is never needed.
    expect(readConfig({ DATA_DIR: 'my-carriers', SNAPSHOT_PATH: 'my.snapshot' }, 'lambda').snapshotPath).toBe('my.snapshot');
    expect(() => readConfig({ LOG_LEVEL: 'loud' }, 'lambda')).toThrow(/LOG_LEVEL/);
  });

  it.each([
    ['/carriers', '/carriers'],
    ['carriers/v1/', '/carriers/v1'],
    ['//carriers', '/carriers'],
    ['/', undefined],
    ['  ', undefined],
    ['/carriers.v1/..x', '/carriers.v1/..x'],
  ])('reads BASE_PATH %j on Lambda as %j', (value, basePath) => {
    expect(readConfig({ BASE_PATH: value }, 'lambda').basePath).toBe(basePath);
  });

  it.each(['/car riers', '/carriers?x=1', '/carriers#top', '/a//b', '/carriers/../x', '/./carriers', '/carriers/..'])('refuses BASE_PATH %j', (value) => {
    expect(() => readConfig({ BASE_PATH: value }, 'lambda')).toThrow(/^BASE_PATH must be a URL path such as \/carriers or \/carriers\/v1$/);
  });

  it('refuses BASE_PATH on a server, which answers at its root', () => {
    expect(() => readConfig({ BASE_PATH: '/carriers' })).toThrow(/^BASE_PATH is read on Lambda only/);
  });
});

describe('loadKeys', () => {
  it('uses API_KEYS when given', () => {
    const { keys, devKey } = loadKeys({ apiKeys: 'alpha:basic,beta:pro:50', production: true });
    expect(devKey).toBeUndefined();
    expect(keys.lookup('beta')).toMatchObject({ plan: 'pro', monthlyQuota: 50, batchLimit: 20 });
    expect(keys.lookup('gamma')).toBeNull();
  });

  it('refuses to run in production without keys', () => {
    expect(() => loadKeys({ apiKeys: undefined, production: true })).toThrow(/API_KEYS is required when NODE_ENV=production/);
    // Set, but to nothing: a mistake, in development too, not a reason to make a development key.
    expect(() => loadKeys({ apiKeys: ' , ', production: true })).toThrow(/^API_KEYS holds no key/);
    expect(() => loadKeys({ apiKeys: ',,,', production: false })).toThrow(/^API_KEYS holds no key/);
  });

  it('refuses to run on Lambda without keys, saying what to set rather than blaming NODE_ENV', () => {
    const attempt = () => loadKeys({ apiKeys: undefined, production: false }, 'lambda');
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow('API_KEYS is required on Lambda: set it to key:plan[:monthlyQuota],...');
    expect(loadKeys({ apiKeys: 'alpha:basic', production: false }, 'lambda').devKey).toBeUndefined();
  });

  it('makes a working development key outside production', () => {
    const { keys, devKey } = loadKeys({ apiKeys: undefined, production: false });
    expect(keys.size).toBe(1);
    expect(keys.lookup(devKey)).toMatchObject({ plan: 'enterprise' });
  });

  it('reports a malformed API_KEYS as a configuration error without echoing the secret', () => {
    const attempt = () => loadKeys({ apiKeys: 'secret-value:platinum', production: false });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/entry 1/);
    expect(attempt).not.toThrow(/secret-value/);
  });
});

describe('the store and worker variables', () => {
  it('reads DYNAMODB_TABLE and DYNAMODB_ENDPOINT, trimmed', () => {
    expect(readConfig({ DYNAMODB_TABLE: ' carrier-quotas ', DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' })).toMatchObject({
      dynamodbTable: 'carrier-quotas',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      redisUrl: undefined,
    });
    // Lambda reads the table (its natural store) but no worker count.
    expect(readConfig({ DYNAMODB_TABLE: 'carrier-quotas', WORKERS: 'many', API_KEYS: 'k:pro' }, 'lambda')).toMatchObject({ dynamodbTable: 'carrier-quotas', workers: 1 });
  });

  it('WORKERS=auto is one per core the OS gives the process', async () => {
    const { availableParallelism } = await import('node:os');
    expect(readConfig({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(readConfig({ WORKERS: ' 4 ' }).workers).toBe(4);
  });
});

describe('each limit accepts its largest value, as the docs state it', () => {
  it('PORT 65535 (TCP ports are 16 bits); equal header and request timeouts; the longest timer Node arms; 256 workers', () => {
    expect(readConfig({ PORT: '65535' }).port).toBe(65535);
    // REQUEST_TIMEOUT_MS is "at least HEADERS_TIMEOUT_MS" (deploy.md): equal is allowed.
    expect(readConfig({ HEADERS_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '30000' }).limits.headersTimeoutMs).toBe(30000);
    expect(readConfig({ SHUTDOWN_TIMEOUT_MS: '2147483647' }).limits.shutdownTimeoutMs).toBe(2147483647);
    expect(readConfig({ WORKERS: '256' }).workers).toBe(256);
    expect(() => readConfig({ WORKERS: '257' })).toThrow('WORKERS must be at most 256');
  });
});
