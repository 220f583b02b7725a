import { MemoryKvStore } from './memory.js';
import type { RedisKvOptions } from './redis.js';
import type { KvStore } from './store.js';

/**
 * Redis when `REDIS_URL` is set (shared across processes), otherwise a per-process memory store.
 * The Redis store is imported only then, so an embedder without Redis never loads ioredis.
 */
export async function createKvStore(env: { REDIS_URL?: string | undefined }, options: RedisKvOptions = {}): Promise<KvStore> {
  const url = env.REDIS_URL?.trim();
  if (!url) return new MemoryKvStore();
  const { RedisKvStore } = await import('./redis.js');
  return new RedisKvStore(url, options);
}
