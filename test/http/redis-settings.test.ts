// REDIS_URL settings a real Redis refuses (a password it requires, a wrong one, a database it does
// not have, a user whose ACL leaves out what a count runs, an address that is no Redis at all) stop
// the start with one line naming the setting and never the password; a Redis that is merely down
// lets the server start and report unhealthy.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../adapters/http/config.js';
import { startServer, type RunningServer } from '../../adapters/server.js';
import { freePort, startRedis, type RedisServer } from '../support/redis.js';
import { spawnServer } from '../support/server-process.js';

const PASSWORD = 'Quota-Secret-73';
let redis: RedisServer;
let notRedis: Server;
let hostPort: string;
let notRedisUrl: string;

beforeAll(async () => {
  redis = await startRedis(undefined, { password: PASSWORD });
  hostPort = `127.0.0.1:${redis.port}`;
  // Users the server admits but whose ACL leaves out commands a count runs: one that may only
  // connect (no INFO for the client's ready check), one that may do everything but INCR.
  const admin = new Redis(`redis://:${PASSWORD}@${hostPort}`);
  await admin.call('ACL', 'SETUSER', 'pingonly', 'on', `>${PASSWORD}`, '~*', '-@all', '+ping', '+select', '+hello', '+auth', '+client');
  await admin.call('ACL', 'SETUSER', 'noincr', 'on', `>${PASSWORD}`, '~*', '+@all', '-incr');
  await admin.quit();
  notRedis = createServer((_, res) => res.end('hello'));
  await new Promise<void>((resolve) => notRedis.listen(0, '127.0.0.1', resolve));
  notRedisUrl = `redis://127.0.0.1:${(notRedis.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await redis?.stop();
  await new Promise((resolve) => notRedis?.close(resolve));
});

const base = { PORT: '0', LOG_LEVEL: 'silent', API_KEYS: 'k1:pro' };

describe('settings a Redis refuses stop the start', () => {
  const cases: [string, () => string, RegExp][] = [
    ['no password where one is required', () => `redis://${hostPort}`, /^REDIS_URL: Redis requires a password .*NOAUTH/],
    ['a wrong password', () => `redis://:not-${PASSWORD}@${hostPort}`, /^REDIS_URL: Redis refused the user name or password .*WRONGPASS/],
    ['a user that does not exist', () => `redis://nobody:${PASSWORD}@${hostPort}`, /^REDIS_URL: Redis refused the user name or password .*WRONGPASS/],
    // redis-server has 16 databases (0 to 15) unless configured otherwise.
    ['a database index the server does not have', () => `redis://:${PASSWORD}@${hostPort}/99`, /^REDIS_URL: database 99 does not exist on that Redis server$/],
    ['an address that is an HTTP server', () => notRedisUrl, /^REDIS_URL: the server at 127\.0\.0\.1:\d+ does not speak the Redis protocol$/],
    ['a user that may only connect', () => `redis://pingonly:${PASSWORD}@${hostPort}`, /^REDIS_URL: the URL's Redis user may not run the commands the quota store needs \(NOPERM\)$/],
    ['a user that may not INCR', () => `redis://noincr:${PASSWORD}@${hostPort}`, /^REDIS_URL: the URL's Redis user may not run the commands the quota store needs \(NOPERM\)$/],
  ];
  it.each(cases)('%s', async (_, url, message) => {
    const started = startServer({ ...base, REDIS_URL: url() });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    const err = await started.catch((e: Error) => e);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain(PASSWORD);
  });

  it('as a process: exit 1 and one line on stderr, naming the setting, without the password', async () => {
    const proc = spawnServer({ ...base, LOG_LEVEL: 'info', REDIS_URL: `redis://:wrong-${PASSWORD}@${hostPort}` });
    expect(await proc.exited).toBe(1);
    const stderr = proc.output().split('\n').filter((line) => line.startsWith('error:'));
    expect(stderr).toEqual(['error: REDIS_URL: Redis refused the user name or password in the URL (WRONGPASS)']);
    expect(proc.output()).not.toContain(PASSWORD);
  });
});

describe('settings a Redis accepts', () => {
  let running: RunningServer | undefined;
  afterAll(() => running?.close());

  it('counts quotas in the database the URL names', async () => {
    running = await startServer({ ...base, REDIS_URL: `redis://:${PASSWORD}@${hostPort}/7` });
    const answer = await fetch(`${running.url}/api/locations/geocode?zip=60601`, { headers: { 'X-API-Key': 'k1' } });
    expect(answer.status).toBe(200);
    const direct = new Redis(`redis://:${PASSWORD}@${hostPort}/7`);
    const zero = new Redis(`redis://:${PASSWORD}@${hostPort}/0`);
    try {
      expect(await direct.keys('quota:*')).toHaveLength(1);
      expect(await zero.keys('quota:*')).toHaveLength(0);
    } finally {
      direct.disconnect();
      zero.disconnect();
    }
  });

  it('a Redis that is down at start is an outage, not a setting: the server starts and reports unhealthy', async () => {
    const down = await startServer({ ...base, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const health = await fetch(`${down.url}/api/health`);
      expect(health.status).toBe(503);
      expect((await health.json()).status).toBe('unhealthy');
    } finally {
      await down.close();
    }
  });
});
