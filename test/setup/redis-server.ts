import type { TestProject } from 'vitest/node';
import { ensureRedisServer, startRedis } from '../support/redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the redis-server shared by the whole run; tests keep to their own key prefixes. */
    redisUrl: string;
  }
}

/**
 * One real Redis for the whole run, on a port the OS says is free. A missing redis-server is
 * installed where the setup can (root with apt-get); otherwise the run fails naming the command to
 * type: the Redis-backed store must be tested, never skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureRedisServer();
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  process.env.TEST_REDIS_URL = redis.url;
  return () => redis.stop();
}
