import { execFile } from 'node:child_process';
import type { Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { ClusterKvStore, serveKv } from '../adapters/kv/cluster.js';
import { MemoryKvStore } from '../adapters/kv/memory.js';
import { RedisKvStore } from '../adapters/kv/redis.js';
import * as dynamoDbSdk from '@aws-sdk/client-dynamodb';
import { DynamoDbKvStore } from '../adapters/kv/dynamodb.js';
import { createKvStore } from '../adapters/kv/create.js';
import { KvConfigError, KvUnavailableError, type KvStore } from '../adapters/kv/store.js';
import { freePort, startRedis, type RedisServer } from './support/redis.js';
import { useLocalAwsCredentials } from './support/dynalite.js';

const redisUrl = inject('redisUrl');
const dynamodb = { endpoint: inject('dynamodbEndpoint'), table: inject('dynamodbTable') };
useLocalAwsCredentials();
/** A limit no test reaches, where only the counting is under test. */
const NO_LIMIT = 1_000_000;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Bound for "fails fast instead of hanging": the stores give up after 1 s, ioredis's defaults would
 * wait for ~20 reconnect attempts (tens of seconds), so 5 s tells the two apart with room to spare
 * on a busy machine.
 */
const HANG_GUARD_MS = 5_000;

async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<{ value?: T; error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** A store must fail by rejecting, never by throwing or by answering at once. */
async function expectUnavailable(answer: unknown): Promise<void> {
  expect(answer).toBeInstanceOf(Promise);
  const outcome = await settlesWithin(answer as Promise<unknown>, HANG_GUARD_MS);
  expect(outcome.error).toBeInstanceOf(KvUnavailableError);
}

const opened: KvStore[] = [];
function track<T extends KvStore>(store: T): T {
  opened.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

describe.each([
  ['memory', () => track(new MemoryKvStore())],
  ['redis', () => track(new RedisKvStore(Redis, redisUrl))],
  // dynalite applies one update of an item at a time, far slower than DynamoDB: a budget that a
  // burst of hundreds on one key fits in, on a busy machine.
  ['dynamodb', () => track(new DynamoDbKvStore(dynamoDbSdk, dynamodb.table, { endpoint: dynamodb.endpoint, timeoutMs: 20_000 }))],
] as const)('%s store contract', (_name, makeStore) => {
  const key = (label: string) => `test:kv:${label}:${randomUUID()}`;

  it('get of a missing key is null', async () => {
    expect(await makeStore().get(key('missing'))).toBeNull();
  });

  it('set then get returns the value; a second set replaces it', async () => {
    const store = makeStore();
    const k = key('set');
    await store.set(k, 'first');
    expect(await store.get(k)).toBe('first');
    await store.set(k, 'ünïcødé ✓');
    expect(await store.get(k)).toBe('ünïcødé ✓');
  });

  it('a value set with a TTL is readable, then disappears', async () => {
    const store = makeStore();
    const k = key('ttl');
    await store.set(k, 'v', 1);
    expect(await store.get(k)).toBe('v');
    await vi.waitFor(async () => expect(await store.get(k)).toBeNull(), { timeout: 5_000, interval: 100 });
  });

  it('a TTL is in seconds: a value set for 3 s is still there a second later, and gone within 7 s', async () => {
    const store = makeStore();
    const k = key('ttl-seconds');
    await store.set(k, 'v', 3);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await store.get(k)).toBe('v');
    await vi.waitFor(async () => expect(await store.get(k)).toBeNull(), { timeout: 6_000, interval: 100 });
  }, 15_000);

  it('refuses TTLs that are not positive integers', async () => {
    const store = makeStore();
    for (const ttl of [0, -1, 1.5, Number.NaN]) {
      await expect(store.set(key('bad-ttl'), 'v', ttl)).rejects.toThrow(RangeError);
    }
  });

  it('counts 1, 2, 3 and the counter reads back as a string', async () => {
    const store = makeStore();
    const k = key('count');
    const expireAt = nowSeconds() + 3600;
    expect(await store.countUpTo(k, NO_LIMIT, expireAt)).toBe(1);
    expect(await store.countUpTo(k, NO_LIMIT, expireAt)).toBe(2);
    expect(await store.countUpTo(k, NO_LIMIT, expireAt)).toBe(3);
    expect(await store.get(k)).toBe('3');
  });

  it('stops at the limit: a call there adds nothing and says so (null)', async () => {
    const store = makeStore();
    const k = key('limit');
    const expireAt = nowSeconds() + 3600;
    expect(await store.countUpTo(k, 2, expireAt)).toBe(1);
    expect(await store.countUpTo(k, 2, expireAt)).toBe(2);
    expect(await store.countUpTo(k, 2, expireAt)).toBeNull();
    expect(await store.countUpTo(k, 2, expireAt)).toBeNull();
    expect(await store.get(k)).toBe('2');
    expect(await store.countUpTo(k, 3, expireAt)).toBe(3);
  });

  it('counts in-process at once, or over the network with a promise', async () => {
    const store = makeStore();
    const counted = store.countUpTo(key('sync'), NO_LIMIT, nowSeconds() + 60);
    if (store instanceof MemoryKvStore) expect(counted).toBe(1);
    else expect(await counted).toBe(1);
  });

  it('concurrent counts each get a distinct value: 1..N exactly once, and none past the limit', async () => {
    const store = makeStore();
    const k = key('concurrent');
    const n = 200;
    const values = await Promise.all(Array.from({ length: 2 * n }, () => store.countUpTo(k, n, nowSeconds() + 3600)));
    expect(values.filter((v) => v === null)).toHaveLength(n);
    expect(values.filter((v) => v !== null).sort((a, b) => a! - b!)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it('the expiry given on creation applies: a counter created already expired is gone at once', async () => {
    const store = makeStore();
    const k = key('expired');
    expect(await store.countUpTo(k, NO_LIMIT, nowSeconds() - 10)).toBe(1);
    expect(await store.get(k)).toBeNull();
    expect(await store.countUpTo(k, NO_LIMIT, nowSeconds() + 3600)).toBe(1);
  });

  it('only the creating count sets the expiry; later ones leave it alone', async () => {
    const store = makeStore();
    const k = key('keep-expiry');
    expect(await store.countUpTo(k, NO_LIMIT, nowSeconds() + 3600)).toBe(1);
    // Had this call applied its (past) expiry, the key would be gone and the next count would be 1.
    expect(await store.countUpTo(k, NO_LIMIT, nowSeconds() - 10)).toBe(2);
    expect(await store.countUpTo(k, NO_LIMIT, nowSeconds() - 10)).toBe(3);
    expect(await store.get(k)).toBe('3');
  });

  it('a counter expires at the time given on creation', async () => {
    const store = makeStore();
    const k = key('expires-soon');
    await store.countUpTo(k, NO_LIMIT, nowSeconds() + 1);
    await vi.waitFor(async () => expect(await store.get(k)).toBeNull(), { timeout: 5_000, interval: 100 });
    expect(await store.countUpTo(k, NO_LIMIT, nowSeconds() + 3600)).toBe(1);
  });

  it('after close every operation rejects with KvUnavailableError', async () => {
    const store = makeStore();
    await store.set(key('closing'), 'v');
    await store.close();
    await expectUnavailable(store.get(key('closed')));
    await expectUnavailable(store.set(key('closed'), 'v'));
    await expectUnavailable(store.countUpTo(key('closed'), NO_LIMIT, nowSeconds() + 60));
    await store.close(); // closing twice is harmless
  });
});

describe('createKvStore', () => {
  it('is a memory store without REDIS_URL (unset or blank)', async () => {
    expect(track(await createKvStore({}))).toBeInstanceOf(MemoryKvStore);
    expect(track(await createKvStore({ REDIS_URL: '  ' }))).toBeInstanceOf(MemoryKvStore);
  });

  it('is a Redis store with REDIS_URL, and two of them share data like two processes would', async () => {
    const a = track(await createKvStore({ REDIS_URL: redisUrl }));
    const b = track(await createKvStore({ REDIS_URL: redisUrl }));
    expect(a).toBeInstanceOf(RedisKvStore);
    const k = `test:kv:shared:${randomUUID()}`;
    await a.set(k, 'from a');
    expect(await b.get(k)).toBe('from a');
    expect(await a.countUpTo(`${k}:n`, NO_LIMIT, nowSeconds() + 60)).toBe(1);
    expect(await b.countUpTo(`${k}:n`, NO_LIMIT, nowSeconds() + 60)).toBe(2);
  });

  it('is a DynamoDB store with DYNAMODB_TABLE, and two of them share counters like two processes would', async () => {
    const a = track(await createKvStore({ DYNAMODB_TABLE: dynamodb.table, DYNAMODB_ENDPOINT: dynamodb.endpoint }));
    const b = track(await createKvStore({ DYNAMODB_TABLE: ` ${dynamodb.table} `, DYNAMODB_ENDPOINT: dynamodb.endpoint }));
    expect(a).toBeInstanceOf(DynamoDbKvStore);
    const k = `test:kv:shared:${randomUUID()}`;
    await a.set(k, 'from a');
    expect(await b.get(k)).toBe('from a');
    expect(await a.countUpTo(`${k}:n`, NO_LIMIT, nowSeconds() + 60)).toBe(1);
    expect(await b.countUpTo(`${k}:n`, NO_LIMIT, nowSeconds() + 60)).toBe(2);
  });

  it('refuses, as a start error naming the setting, a table DynamoDB does not have; a DynamoDB that is down is an outage: the store is made', async () => {
    const missing = createKvStore({ DYNAMODB_TABLE: `no-such-table-${randomUUID()}`, DYNAMODB_ENDPOINT: dynamodb.endpoint });
    await expect(missing).rejects.toBeInstanceOf(KvConfigError);
    await expect(missing).rejects.toThrow(/^DYNAMODB_TABLE: DynamoDB has no table "no-such-table-[\w-]+" in us-east-1 \(create it/);
    // Nothing listens on this port: the first request fails at once, and the store is still made.
    const down = track(await createKvStore({ DYNAMODB_TABLE: dynamodb.table, DYNAMODB_ENDPOINT: `http://127.0.0.1:${await freePort()}` }));
    await expectUnavailable(down.get('test:kv:down'));
  });

  it('refuses, as settings that can never work, a table name or endpoint DynamoDB would not take, an endpoint without a table, and two stores at once', async () => {
    const refused = async (env: Parameters<typeof createKvStore>[0], message: string) => {
      const made = createKvStore(env);
      await expect(made).rejects.toBeInstanceOf(KvConfigError);
      await expect(made).rejects.toThrow(message);
    };
    await refused({ DYNAMODB_TABLE: 'a b' }, 'DYNAMODB_TABLE must be a DynamoDB table name: 3 to 255 letters, digits, _ - or .');
    await refused({ DYNAMODB_TABLE: 'quotas', DYNAMODB_ENDPOINT: '127.0.0.1:8000' }, 'DYNAMODB_ENDPOINT must be an http:// or https:// URL');
    await refused({ DYNAMODB_TABLE: 'quotas', REDIS_URL: redisUrl }, 'set one of REDIS_URL and DYNAMODB_TABLE');
    // Not the memory store instead: a server given these settings refuses to start.
    await refused({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }, 'DYNAMODB_ENDPOINT is set without DYNAMODB_TABLE: set the table that holds the quotas too');
  });

  it('refuses a URL that is not Redis before loading the client, without repeating it (it may hold the password)', async () => {
    for (const url of ['http://:secret@host:6379', 'localhost:6379', 'redis://', 'redis://:secret@host:6379/x']) {
      const made = createKvStore({ REDIS_URL: url });
      await expect(made).rejects.toBeInstanceOf(KvConfigError);
      await expect(made).rejects.toThrow(new KvConfigError('REDIS_URL must be a redis:// or rediss:// URL, such as redis://:password@host:6379, with a database number if any (redis://host:6379/2)'));
    }
  });

  it('memory stores are private to each instance', async () => {
    const a = track(await createKvStore({}));
    const b = track(await createKvStore({}));
    await a.set('k', 'v');
    expect(await b.get('k')).toBeNull();
  });
});

/**
 * In a fresh process: imports the package's `./http` entry, makes a store from PROBE_REDIS_URL (unset:
 * memory) and prints the CommonJS files that were loaded. ioredis is CommonJS, so whatever path
 * loads it leaves it in require.cache.
 */
const IOREDIS_PROBE = `
import { createRequire } from 'node:module';
const { createKvStore } = await import(process.env.HTTP_ENTRY);
const kv = await createKvStore({ REDIS_URL: process.env.PROBE_REDIS_URL });
await kv.close();
process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
`;

async function ioredisFilesLoaded(env: { PROBE_REDIS_URL?: string }): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', IOREDIS_PROBE], {
    env: { PATH: process.env.PATH, HTTP_ENTRY: new URL('../adapters/http/app.ts', import.meta.url).href, ...env },
  });
  return (JSON.parse(stdout) as string[]).filter((file) => /[\\/]node_modules[\\/]ioredis[\\/]/.test(file));
}

describe('the ./http entry', () => {
  it('with a memory store never loads ioredis', async () => {
    expect(await ioredisFilesLoaded({})).toEqual([]);
  });

  it('loads ioredis once a Redis URL is given (the probe sees it)', async () => {
    expect((await ioredisFilesLoaded({ PROBE_REDIS_URL: redisUrl })).length).toBeGreaterThan(0);
  });
});

describe('redis store when Redis goes away (private redis-server)', () => {
  const servers: RedisServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('rejects fast while Redis is stopped and works again, same object, once it is back', async () => {
    const server = await startRedis();
    servers.push(server);
    const errors: Error[] = [];
    const store = track(new RedisKvStore(Redis, server.url, { onError: (e) => errors.push(e) }));
    await store.set('k', 'before');
    expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(1);

    await server.stop();
    await expectUnavailable(store.get('k'));
    await expectUnavailable(store.set('k', 'during'));
    await expectUnavailable(store.countUpTo('n', NO_LIMIT, nowSeconds() + 60));
    // The reconnect attempts were reported to the listener instead of crashing the process.
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 5_000 });

    await server.restart();
    // The restarted server is empty (no persistence); the store reconnects in the background.
    await vi.waitFor(async () => expect(await store.get('k')).toBeNull(), { timeout: 10_000, interval: 100 });
    await store.set('k', 'after');
    expect(await store.get('k')).toBe('after');
    // The count script is loaded afresh on the new connection.
    expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(1);
  });

  /** A store on a redis-server of its own (to pause), with one call counted at `n`. */
  async function countedOnce(): Promise<{ server: RedisServer; store: RedisKvStore }> {
    const server = await startRedis();
    servers.push(server);
    const store = track(new RedisKvStore(Redis, server.url));
    expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(1);
    return { server, store };
  }

  it('rejects fast while Redis hangs without answering, and recovers when it answers again', async () => {
    const { server, store } = await countedOnce();

    server.pause();
    try {
      await expectUnavailable(store.get('n'));
      await expectUnavailable(store.countUpTo('n', NO_LIMIT, nowSeconds() + 60));
    } finally {
      server.resume();
    }
    await vi.waitFor(async () => expect(await store.get('n')).not.toBeNull(), { timeout: 10_000, interval: 100 });
    // The count that timed out reached Redis after its deadline: it did nothing.
    expect(await store.get('n')).toBe('1');
    expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(2);
  });

  it('takes back a count that Redis applied but answered too late (a client clock running ahead)', async () => {
    const { server, store } = await countedOnce();

    // With this process's clock a minute ahead of Redis's, its deadline has not passed when Redis
    // wakes up, so Redis applies the count; the answer comes after the store gave up waiting.
    const realNow = Date.now;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 60_000);
    server.pause();
    try {
      await expectUnavailable(store.countUpTo('n', NO_LIMIT, nowSeconds() + 60));
    } finally {
      server.resume();
      vi.restoreAllMocks();
    }
    const raw = new Redis(server.url);
    try {
      // Applied late (2), then taken back (1).
      await vi.waitFor(async () => expect(await raw.get('n')).toBe('1'), { timeout: 10_000, interval: 50 });
      expect((await raw.keys('quota-take-back:*')).length).toBe(1);
    } finally {
      raw.disconnect();
    }
    expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(2);
  });

  it("counts when this host's clock is behind Redis's by more than the timeout", async () => {
    const server = await startRedis();
    servers.push(server);
    const realNow = Date.now;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 5_000);
    try {
      const store = track(new RedisKvStore(Redis, server.url));
      expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(1);
      expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(2);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('reads an answer that came while this process was busy past the timeout, instead of refusing the call', async () => {
    const { server, store } = await countedOnce();
    const busyStore = track(new RedisKvStore(Redis, server.url, { timeoutMs: 200 }));
    expect(await busyStore.countUpTo('busy', NO_LIMIT, nowSeconds() + 60)).toBe(1);
    const pending = busyStore.countUpTo('busy', NO_LIMIT, nowSeconds() + 60);
    // Let the store send the command (it awaits its readiness first), then hold the process, as a
    // dataset compiled on reload does, three times the timeout: Redis answers meanwhile.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    const until = Date.now() + 600;
    while (Date.now() < until) {
      // busy
    }
    await expect(pending).resolves.toBe(2);
    expect(await store.get('busy')).toBe('2');
  });

  it('never hands the password of a failed AUTH to the error listener (the log)', async () => {
    const server = await startRedis();
    servers.push(server);
    const admin = new Redis(server.url);
    await admin.config('SET', 'requirepass', 'right-password');
    admin.disconnect();
    const errors: unknown[] = [];
    const url = new URL(server.url);
    url.password = 'wrong-s3cret';
    track(new RedisKvStore(Redis, url.toString(), { onError: (e) => errors.push(e) }));
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 5_000 });
    // What a logger serializes: the error's own fields, and its message.
    const logged = errors.map((e) => JSON.stringify({ ...(e as object), message: (e as Error).message }));
    expect(logged.join('\n')).toMatch(/WRONGPASS|invalid/i);
    expect(logged.join('\n')).not.toContain('wrong-s3cret');
  });

  it('a connection that Redis closes while up (an idle timeout, a frozen Lambda container) costs no request', async () => {
    const { server, store } = await countedOnce();
    const admin = new Redis(server.url);
    try {
      for (let round = 0; round < 5; round++) {
        await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
        // The store learns of the close on its next read; the request after it waits for the
        // reconnect rather than failing while the client would sit out a backoff.
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(await store.countUpTo('n', NO_LIMIT, nowSeconds() + 60)).toBe(round + 2);
        expect(await store.get('n')).toBe(String(round + 2));
      }
    } finally {
      admin.disconnect();
    }
  });

  it('a store created before Redis is up rejects fast, then works once Redis starts', async () => {
    const port = await freePort();
    const store = track(new RedisKvStore(Redis, `redis://127.0.0.1:${port}`));
    await expectUnavailable(store.get('k'));

    const server = await startRedis(port);
    servers.push(server);
    await vi.waitFor(async () => expect(await store.get('k')).toBeNull(), { timeout: 10_000, interval: 100 });
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
  });
});

describe("a worker's store through the cluster's primary (WORKERS=N, kv/cluster.ts)", () => {
  it('a count the primary made in time, whose answer came too late, is taken back: the 503 bills nothing', async () => {
    const primaryStore = new MemoryKvStore();
    // The two ends of the IPC channel node:cluster opens, both sides' real code at either end; the
    // primary's replies take as long in transit as `replyDelayMs` says.
    let replyDelayMs = 600;
    const workerEnd = Object.assign(new EventEmitter(), {
      connected: true,
      send: (message: unknown) => primaryEnd.emit('message', message),
    });
    const primaryEnd = Object.assign(new EventEmitter(), {
      isConnected: () => true,
      send: (message: unknown) => setTimeout(() => workerEnd.emit('message', message), replyDelayMs),
    });
    serveKv(primaryEnd as unknown as Worker, primaryStore);
    const store = new ClusterKvStore(workerEnd as unknown as NodeJS.Process, 100);
    const key = `quota:late:${randomUUID()}`;
    await expect(store.countUpTo(key, 10, Math.floor(Date.now() / 1000) + 3600)).rejects.toThrow(KvUnavailableError);
    // The primary counted it; once the replies come in time again, the worker takes it back.
    expect(await primaryStore.get(key)).toBe('1');
    replyDelayMs = 0;
    await vi.waitFor(async () => expect(await primaryStore.get(key)).toBe('0'), { timeout: 3_000, interval: 50 });
    await store.close();
  });
});
