import { MemoryKvStore } from './memory.js';
import type { KvStore, RedisKvOptions } from './store.js';

export const REDIS_URL_FORMAT =
  'REDIS_URL must be a redis:// or rediss:// URL, such as redis://:password@host:6379, with a database number if any (redis://host:6379/2)';

/**
 * A URL ioredis connects to; anything else (`http://...`, a bare host name) would never connect, and
 * answer 503 forever. Its path is the database's number: ioredis sends any other path as SELECT NaN,
 * which Redis answers with an error that crashes the process after it has started.
 */
export function isRedisUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && /^(\/\d*)?$/.test(url.pathname);
  } catch {
    return false;
  }
}

/**
 * Redis when `REDIS_URL` is set (shared across processes), otherwise a per-process memory store.
 * A Redis that refuses the URL's password, user or database rejects with KvConfigError.
 * ioredis is imported only then, by a dynamic import an application's bundler keeps lazy too, so
 * an embedder without Redis never loads it, and need not install it (with a bundler: mark it external).
 */
export async function createKvStore(env: { REDIS_URL?: string | undefined }, options: RedisKvOptions = {}): Promise<KvStore> {
  const url = env.REDIS_URL?.trim();
  if (!url) return new MemoryKvStore();
  // The message never repeats the value: it may hold the password.
  if (!isRedisUrl(url)) throw new Error(REDIS_URL_FORMAT);
  const [{ RedisKvStore }, { Redis }] = await Promise.all([import('./redis.js'), import('ioredis')]);
  const store = new RedisKvStore(Redis, url, options);
  // Rejects with KvConfigError when the server refuses the URL's settings; an outage starts anyway.
  await store.verify();
  return store;
}
