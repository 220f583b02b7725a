import { nameErrorClass } from '../../engine/errors.js';

/**
 * The only state the service shares between requests and between copies of itself: quota counters
 * and the health probe's scratch key. Every runtime adapter talks to it through this interface.
 */
export interface KvStore {
  /**
   * Atomically adds 1 to the counter at `key` unless it is already at `limit`, and returns the new
   * value, or null when it was at the limit (nothing added). On creation the key expires at
   * `expireAtUnixSeconds`. When it rejects, nothing stays counted, even if the store carries the
   * command out later: what a client was refused (503) must not be billed. The one exception: a
   * count a server applied whose answer a broken connection lost (RedisKvStore, DynamoDbKvStore).
   *
   * A store that counts in-process answers with the value itself, so that a request waits for no
   * turn of the event loop on it; a store that asks a server answers with a promise. Failures
   * always come as a rejected promise, never as a throw.
   */
  countUpTo(key: string, limit: number, expireAtUnixSeconds: number): number | null | Promise<number | null>;
  get(key: string): Promise<string | null>;
  /** `ttlSeconds`, when given, must be a positive integer (Redis rejects anything else). */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Releases connections; afterwards every operation rejects with `KvUnavailableError`. */
  close(): Promise<void>;
}

/**
 * The store could not answer: Redis or DynamoDB is down, unreachable, too slow, or refuses (no
 * table, no permission), or the store was closed.
 * One type for every backend so the HTTP layer can map it to a 503 without knowing which store runs.
 */
export class KvUnavailableError extends Error {
  static {
    nameErrorClass(KvUnavailableError, 'KvUnavailableError');
  }
}

/** Shared by both stores so they accept and refuse exactly the same TTLs. */
export function assertTtl(ttlSeconds: number | undefined): void {
  if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds > 0)) {
    throw new RangeError(`ttlSeconds must be a positive integer, got ${ttlSeconds}`);
  }
}

/** Options of the Redis store; here, not beside it, so that the public declarations never reach ioredis's, which a user without Redis lacks. */
export interface RedisKvOptions {
  /**
   * Called with every client error, including each failed reconnect attempt during an outage (one per
   * backoff step, at most every 2 s). Without a listener ioredis would crash the process.
   */
  onError?: ((err: Error) => void) | undefined;
  /** Upper bound for connecting and for each command, in milliseconds (default 1000). */
  timeoutMs?: number | undefined;
}

/** Options of the DynamoDB store; here for the same reason as RedisKvOptions (the SDK's declarations stay out). */
export interface DynamoDbKvOptions {
  /** A local DynamoDB (`http://127.0.0.1:8000`); unset: the region's endpoint from the standard chain. */
  endpoint?: string | undefined;
  /** Upper bound for each decision (a count, a read, a write), in milliseconds (default 1000). */
  timeoutMs?: number | undefined;
  /** How long an answer that came after `timeoutMs` is still waited for, to take back a late count (default 10000). */
  lateAnswerMs?: number | undefined;
}

/**
 * The store's settings can never work (a wrong password, a database the server does not have, an
 * address that is not a Redis server): unlike an outage, waiting will not mend it. The message
 * names the setting and never holds a secret.
 */
export class KvConfigError extends Error {
  static {
    nameErrorClass(KvConfigError, 'KvConfigError');
  }
}
