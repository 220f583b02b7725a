import { Redis } from 'ioredis';
import { assertTtl, KvUnavailableError, type KvStore } from './store.js';

export interface RedisKvOptions {
  /**
   * Called with every client error, including each failed reconnect attempt during an outage (one per
   * backoff step, at most every 2 s). Without a listener ioredis would crash the process.
   */
  onError?: (err: Error) => void;
  /** Upper bound for connecting and for each command, in milliseconds (default 1000). */
  timeoutMs?: number;
}

// INCR and the expiry in one script: atomic on the server, one round trip, and the expiry is set only
// by the call that created the key, so a counter never outlives its month nor loses its deadline.
const INCREMENT_WITH_EXPIRY = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIREAT', KEYS[1], ARGV[1]) end
return n
`;

type ScriptedRedis = Redis & { incrementWithExpiry(key: string, expireAt: number): Promise<number> };

/**
 * Redis-backed store shared by every copy of the service. When Redis goes away, operations fail
 * within about `timeoutMs` with `KvUnavailableError` instead of queueing, and the client reconnects
 * in the background so the same store works again once Redis is back.
 */
export class RedisKvStore implements KvStore {
  private readonly client: ScriptedRedis;
  private readonly timeoutMs: number;
  private pendingReady: Promise<void> | undefined;

  constructor(url: string, options: RedisKvOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.client = new Redis(url, {
      connectTimeout: this.timeoutMs,
      commandTimeout: this.timeoutMs,
      // No offline queue: a command issued while disconnected fails now rather than waiting for a
      // reconnect that may never come, and is never replayed later (a replayed INCR would count twice).
      enableOfflineQueue: false,
      // Commands in flight when the connection drops are failed at once, not resent on reconnect:
      // the server may already have applied them.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    }) as ScriptedRedis;
    this.client.defineCommand('incrementWithExpiry', { lua: INCREMENT_WITH_EXPIRY, numberOfKeys: 1 });
    const onError = options.onError ?? (() => {});
    this.client.on('error', (err: Error) => onError(err));
  }

  async increment(key: string, expireAtUnixSeconds: number): Promise<number> {
    await this.whenReady();
    return this.run(() => this.client.incrementWithExpiry(key, Math.floor(expireAtUnixSeconds)));
  }

  async get(key: string): Promise<string | null> {
    await this.whenReady();
    return this.run(() => this.client.get(key));
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    assertTtl(ttlSeconds);
    await this.whenReady();
    await this.run(() =>
      ttlSeconds === undefined ? this.client.set(key, value) : this.client.set(key, value, 'EX', ttlSeconds),
    );
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      // QUIT lets Redis finish what this client already sent; bounded by commandTimeout.
      if (this.client.status === 'ready') await this.client.quit();
    } catch {
      // The connection is going away either way.
    } finally {
      this.client.disconnect();
    }
  }

  private async run<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new KvUnavailableError(`redis: ${(err as Error).message}`, { cause: err });
    }
  }

  /**
   * Resolves when a command can be written now. While a connection attempt is under way (startup, or
   * a reconnect in progress) it waits for that attempt, at most `timeoutMs`; while the client sits in
   * its reconnect backoff it fails at once, so an outage costs requests no waiting at all.
   */
  private whenReady(): Promise<void> {
    const status = this.client.status;
    if (status === 'ready') return Promise.resolve();
    if (status !== 'connecting' && status !== 'connect') {
      return Promise.reject(new KvUnavailableError(`redis is not connected (${status})`));
    }
    // One shared waiter per attempt: a burst of requests adds three listeners in all, not three each.
    this.pendingReady ??= new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('close', onClose);
        this.client.off('end', onClose);
        this.pendingReady = undefined;
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => settle();
      const onClose = () => settle(new KvUnavailableError('redis connection attempt failed'));
      const timer = setTimeout(
        () => settle(new KvUnavailableError(`redis did not become ready within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      this.client.on('ready', onReady);
      this.client.on('close', onClose);
      this.client.on('end', onClose);
    });
    return this.pendingReady;
  }
}
