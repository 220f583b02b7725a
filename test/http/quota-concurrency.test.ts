// Two copies of the service sharing one Redis, hit at once: the quota holds exactly.

import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../../adapters/http/app.js';
import { createKvStore } from '../../adapters/kv/create.js';
import { createTestApp, loopbackServers } from './fixtures.js';

const QUOTA = 25;

describe('the monthly quota across two instances on one Redis', () => {
  // A fresh key per run: its counter is new, whatever earlier runs left in the shared Redis.
  const key = `concurrency-${randomUUID()}`;
  const cores: App[] = [];
  const servers = loopbackServers();

  async function instance(): Promise<string> {
    const core = createTestApp({ kv: await createKvStore({ REDIS_URL: inject('redisUrl') }), keys: `${key}:pro:${QUOTA}` });
    cores.push(core);
    return servers.listen(core);
  }

  afterAll(async () => {
    await servers.closeAll();
    await Promise.all(cores.map((c) => c.close()));
  });

  it(`answers exactly ${QUOTA} of ${5 * QUOTA} simultaneous requests and refuses the rest with 429`, async () => {
    const urls = [await instance(), await instance()];
    const replies = await Promise.all(
      Array.from({ length: 5 * QUOTA }, (_, i) =>
        fetch(`${urls[i % 2]}/api/locations?zip=${String(10001 + i).padStart(5, '0')}`, { headers: { 'x-api-key': key } }).then(
          async (r) => ({ status: r.status, remaining: r.headers.get('x-ratelimit-remaining'), body: await r.json() }),
        ),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect(ok).toHaveLength(QUOTA);
    expect(refused).toHaveLength(4 * QUOTA);
    // Each allowed call saw a different count: remaining values QUOTA-1 .. 0, once each.
    expect(ok.map((r) => Number(r.remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: QUOTA }, (_, i) => i));
    for (const r of refused) expect(r.body).toEqual({ error: expect.stringMatching(/quota/) });
  });
});
