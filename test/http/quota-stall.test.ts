// A Redis that stalls mid-burst (SIGSTOP), under two copies of the service sharing it, over real
// sockets: requests answered 503 during the stall spend nothing, even though Redis carries out
// their commands when it wakes up, so a quota of N still answers exactly N calls.

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../adapters/http/app.js';
import { createKvStore } from '../../adapters/kv/create.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { createTestApp, loopbackServers } from './fixtures.js';

const QUOTA = 100;
const BEFORE_STALL = 10;
const CLIENTS = 8;

describe(`a quota of ${QUOTA} across two instances when Redis stalls mid-burst`, () => {
  const key = `stall-${randomUUID()}`;
  const servers = loopbackServers();
  const cores: App[] = [];
  let redis: RedisServer;
  let urls: string[];
  beforeAll(async () => {
    redis = await startRedis();
    for (let i = 0; i < 2; i++) cores.push(createTestApp({ kv: await createKvStore({ REDIS_URL: redis.url }), keys: `${key}:pro:${QUOTA}` }));
    urls = await Promise.all(cores.map((core) => servers.listen(core)));
  });
  afterAll(async () => {
    await servers.closeAll();
    await Promise.all(cores.map((c) => c.close()));
    await redis.stop();
  });

  it('answers exactly the quota: 503s during the stall cost nothing', async () => {
    const phases = { before: new Map<number, number>(), during: new Map<number, number>(), after: new Map<number, number>() };
    let phase: keyof typeof phases = 'before';
    let answered = 0;
    let sent = 0;
    const call = async () => {
      const reply = await fetch(`${urls[sent++ % 2]}/api/locations/geocode?zip=60601`, { headers: { 'x-api-key': key } });
      await reply.arrayBuffer();
      const counts = phases[phase];
      counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1);
      if (reply.status === 200) answered++;
      return reply.status;
    };

    for (let i = 0; i < BEFORE_STALL; i++) expect(await call()).toBe(200);

    // Several clients keep calling while Redis stops answering mid-burst, then wakes up.
    let stop = false;
    const burst = Array.from({ length: CLIENTS }, async () => {
      while (!stop) await call();
    });
    await vi.waitFor(() => expect(answered).toBeGreaterThanOrEqual(2 * BEFORE_STALL), { timeout: 10_000, interval: 2 });
    redis.pause();
    phase = 'during';
    await vi.waitFor(() => expect(phases.during.get(503) ?? 0).toBeGreaterThanOrEqual(2 * CLIENTS), { timeout: 15_000, interval: 50 });
    stop = true;
    redis.resume();
    await Promise.all(burst);

    // Once Redis has caught up, its counter holds exactly the calls answered: nothing for the 503s.
    const raw = new Redis(redis.url);
    try {
      const [counter] = await raw.keys('quota:*');
      await vi.waitFor(async () => expect(Number(await raw.get(counter))).toBe(answered), { timeout: 10_000, interval: 50 });
    } finally {
      raw.disconnect();
    }

    phase = 'after';
    while ((await call()) !== 429);
    expect(answered).toBe(QUOTA);
    expect(phases.during.get(503)).toBeGreaterThan(0);
    expect([...phases.after.keys()].sort()).toEqual([200, 429]);
    // Answers before the stall (and those just as it began) and after it add up to the quota.
    const ok = (m: Map<number, number>) => m.get(200) ?? 0;
    expect(ok(phases.before) + ok(phases.during) + ok(phases.after)).toBe(QUOTA);
  });
});
