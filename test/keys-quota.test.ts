import { createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { generateDevKey, KeyRing, parseApiKeys, PLANS, type ApiKeyRecord } from '../adapters/http/keys.js';
import { consumeQuota, quotaHeaders, type QuotaDecision } from '../adapters/http/quota.js';
import { MemoryKvStore } from '../adapters/kv/memory.js';
import { RedisKvStore } from '../adapters/kv/redis.js';
import { KvUnavailableError, type KvStore } from '../adapters/kv/store.js';

const redisUrl = inject('redisUrl');

// SHA-256 test vector from FIPS 180-2, appendix B.1.
const SHA256_OF_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

describe('PLANS', () => {
  it('has the documented batch limits and default monthly quotas', () => {
    expect(PLANS).toEqual({
      basic: { batchLimit: 10, monthlyQuota: 1000 },
      pro: { batchLimit: 20, monthlyQuota: 100000 },
      enterprise: { batchLimit: 50, monthlyQuota: 2000000 },
    });
  });
});

describe('parseApiKeys', () => {
  it('reads key:plan with the plan defaults, keeping only the SHA-256 of the key', () => {
    expect(parseApiKeys('abc:basic')).toEqual([{ id: SHA256_OF_ABC, name: SHA256_OF_ABC.slice(0, 8), plan: 'basic', monthlyQuota: 1000, batchLimit: 10 }]);
  });

  it('reads name=key:plan: the name is what the log calls the key, the key alone is looked up', () => {
    const [named, padded] = parseApiKeys('mobile-app=abc:basic, abc==:pro');
    expect(named).toEqual({ id: SHA256_OF_ABC, name: 'mobile-app', plan: 'basic', monthlyQuota: 1000, batchLimit: 10 });
    // Base64 padding is part of a key, not a name.
    expect(new KeyRing([padded]).lookup('abc==')?.plan).toBe('pro');
    expect(new KeyRing([named]).lookup('mobile-app=abc')).toBeNull();
  });

  it('reads several entries, an explicit quota, spaces around parts and a trailing comma', () => {
    const records = parseApiKeys(' k-one:pro:5000 , k_two : enterprise ,');
    expect(records.map(({ plan, monthlyQuota, batchLimit }) => ({ plan, monthlyQuota, batchLimit }))).toEqual([
      { plan: 'pro', monthlyQuota: 5000, batchLimit: 20 },
      { plan: 'enterprise', monthlyQuota: 2000000, batchLimit: 50 },
    ]);
    expect(new KeyRing(records).lookup('k_two')?.plan).toBe('enterprise');
  });

  it('refuses a spec that holds no key: a mistake, not an API nobody can call', () => {
    for (const spec of ['', ' , ', ',,,']) expect(() => parseApiKeys(spec)).toThrow('API_KEYS holds no key: expected key:plan[:monthlyQuota],...');
  });

  it('refuses an unset spec (process.env.API_KEYS passed as it is) with a configuration error', () => {
    expect(() => parseApiKeys(undefined)).toThrow('API_KEYS is not set: expected key:plan[:monthlyQuota],...');
  });

  it.each([
    ['k:gold', /entry 1: unknown plan "gold"/],
    ['k:Basic', /unknown plan "Basic"/],
    ['k:basic:0', /entry 1: monthlyQuota must be a positive integer/],
    ['k:basic:-5', /monthlyQuota must be a positive integer/],
    ['k:basic:1.5', /monthlyQuota must be a positive integer/],
    ['k:basic:1e3', /monthlyQuota must be a positive integer/],
    ['k:basic:lots', /monthlyQuota must be a positive integer/],
    ['k:basic:', /monthlyQuota must be a positive integer/],
    [':basic', /entry 1: the key is empty/],
    ['ok:pro, :basic', /entry 2: the key is empty/],
    ['k', /entry 1: expected key:plan/],
    ['k:basic:10:more', /expected key:plan/],
    ['k:basic,other:pro,k:enterprise', /entry 3: the same key is listed twice/],
  ])('rejects %j', (spec, message) => {
    expect(() => parseApiKeys(spec)).toThrow(message);
  });

  it('never repeats the secret key in its error messages', () => {
    for (const spec of ['s3cr3t-value:gold', 's3cr3t-value:basic:x', 's3cr3t-value:pro,s3cr3t-value:pro']) {
      expect(() => parseApiKeys(spec)).toThrow();
      try {
        parseApiKeys(spec);
      } catch (err) {
        expect((err as Error).message).not.toContain('s3cr3t');
      }
    }
  });
});

describe('KeyRing', () => {
  const ring = new KeyRing(parseApiKeys('alpha-key:basic,beta-key:pro:42'));

  it('finds exactly the configured keys', () => {
    expect(ring.size).toBe(2);
    expect(ring.lookup('alpha-key')?.plan).toBe('basic');
    expect(ring.lookup('beta-key')).toMatchObject({ plan: 'pro', monthlyQuota: 42, batchLimit: 20 });
  });

  it.each([undefined, '', 'alpha', 'alpha-key ', 'ALPHA-KEY', 'alpha-keyX', 'beta-key:pro:42'])(
    'finds nothing for %j',
    (presented) => {
      expect(ring.lookup(presented)).toBeNull();
    },
  );

  it('shows no raw key when inspected or serialized, once its keys have been found too', () => {
    expect(ring.lookup('alpha-key')).not.toBeNull();
    expect(ring.lookup('beta-key')).not.toBeNull();
    const dump = inspect(ring, { depth: Infinity, showHidden: true }) + JSON.stringify(ring) + JSON.stringify(ring.lookup('beta-key'));
    expect(dump).not.toContain('alpha-key');
    expect(dump).not.toContain('beta-key');
    // The dump does reach the stored records, so the two checks above looked at real contents.
    expect(dump).toContain(ring.lookup('alpha-key')!.id);
  });

  it('answers every lookup as the SHA-256 of the presented text decides, whatever was looked up before', () => {
    // Keys found before are remembered by their text: a later lookup of the same text, of a text
    // one character off, or of another key must still answer as the hash alone would.
    const configured = ['k_alpha', 'k_beta', 'k_gamma=='];
    const records = parseApiKeys(configured.map((k, i) => `${k}:${['basic', 'pro', 'enterprise'][i]}`).join(','));
    const byHash = new Map(records.map((r) => [r.id, r]));
    // The oracle's index must itself hold node:crypto's digests, or a wrong hash would pass unseen.
    expect(records.map((r) => r.id)).toEqual(configured.map((k) => createHash('sha256').update(k).digest('hex')));
    const presented = fc.oneof(
      fc.constantFrom(...configured),
      fc.constantFrom(...configured).map((k) => `${k} `),
      fc.constantFrom(...configured).map((k) => k.slice(0, -1)),
      fc.constantFrom(...configured).map((k) => k.toUpperCase()),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(presented, { maxLength: 40 }), (texts) => {
        const keys = new KeyRing(records);
        for (const text of texts) {
          const expected = text === '' ? null : (byHash.get(createHash('sha256').update(text).digest('hex')) ?? null);
          expect(keys.lookup(text)).toBe(expected);
        }
      }),
    );
  });
  it('knows any key, whatever its characters, by the SHA-256 node:crypto gives its UTF-8 bytes', () => {
    // Keys are hashed in JavaScript (@noble/hashes): node:crypto is the independent oracle.
    const key = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }).filter((k) => k.trim() === k && !/[,:=]/.test(k));
    fc.assert(
      fc.property(key, (k) => {
        const [record] = parseApiKeys(`${k}:basic`);
        expect(record.id).toBe(createHash('sha256').update(k, 'utf8').digest('hex'));
      }),
    );
  });
});

describe('generateDevKey', () => {
  it('is url-safe, long enough to be unguessable, different every time, and usable in API_KEYS', () => {
    const a = generateDevKey();
    const b = generateDevKey();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(a).not.toBe(b);
    expect(new KeyRing(parseApiKeys(`${a}:basic`)).lookup(a)?.plan).toBe('basic');
  });
});

function keyWithQuota(monthlyQuota: number): ApiKeyRecord {
  // A fresh id per test keeps counters apart in the Redis shared by the whole run.
  const id = randomBytes(32).toString('hex');
  return { id, name: id.slice(0, 8), plan: 'basic', monthlyQuota, batchLimit: 10 };
}

const stores: KvStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});
function memory(): KvStore {
  const s = new MemoryKvStore();
  stores.push(s);
  return s;
}
function redis(): KvStore {
  const s = new RedisKvStore(Redis, redisUrl);
  stores.push(s);
  return s;
}

describe('consumeQuota and quotaHeaders', () => {
  const mid = Date.parse('2026-11-15T12:00:00Z');
  const decemberFirst = Date.parse('2026-12-01T00:00:00Z') / 1000;

  it('allows calls up to the limit with counting headers, then refuses with Retry-After', async () => {
    const kv = memory();
    const key = keyWithQuota(3);
    const decisions: QuotaDecision[] = [];
    for (let i = 0; i < 5; i++) decisions.push(await consumeQuota(kv, key, mid));

    expect(decisions.map((d) => [d.allowed, d.used, d.remaining])).toEqual([
      [true, 1, 2],
      [true, 2, 1],
      [true, 3, 0],
      [false, 3, 0],
      [false, 3, 0],
    ]);
    expect(quotaHeaders(decisions[0])).toEqual({
      'X-RateLimit-Limit': '3',
      'X-RateLimit-Remaining': '2',
      'X-RateLimit-Reset': String(decemberFirst),
    });
    // 15.5 days from mid-November noon to December 1st, 00:00 UTC.
    expect(quotaHeaders(decisions[3])).toEqual({
      'X-RateLimit-Limit': '3',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(decemberFirst),
      'Retry-After': String(15.5 * 24 * 3600),
    });
  });

  it('Retry-After rounds up: a client told to wait never comes back before the reset', async () => {
    const kv = memory();
    const key = keyWithQuota(1);
    // 1.75 s before December 1st, 00:00 UTC: 2 s, not 1.
    const now = Date.parse('2026-11-30T23:59:58.250Z');
    await consumeQuota(kv, key, now);
    expect(quotaHeaders(await consumeQuota(kv, key, now))['Retry-After']).toBe('2');
  });

  it("names a key's counter quota:<SHA-256 of the key, hex>:<YYYY-MM> (scaling.md), the month zero-padded", async () => {
    const kv = memory();
    const [key] = parseApiKeys('k:basic');
    // January of next year: a month whose counter has not expired.
    const year = new Date().getUTCFullYear() + 1;
    await consumeQuota(kv, key!, Date.UTC(year, 0, 15));
    expect(await kv.get(`quota:${createHash('sha256').update('k').digest('hex')}:${year}-01`)).toBe('1');
  });

  it('keeps separate counters per key', async () => {
    const kv = memory();
    const a = keyWithQuota(1);
    const b = keyWithQuota(1);
    expect((await consumeQuota(kv, a, mid)).allowed).toBe(true);
    expect((await consumeQuota(kv, a, mid)).allowed).toBe(false);
    expect((await consumeQuota(kv, b, mid)).allowed).toBe(true);
  });

  it('starts a new count at the UTC month boundary, and December rolls into January', async () => {
    const kv = memory();
    const key = keyWithQuota(2);
    const lastMsOfNovember = Date.parse('2026-11-30T23:59:59.999Z');
    await consumeQuota(kv, key, lastMsOfNovember);
    await consumeQuota(kv, key, lastMsOfNovember);
    expect((await consumeQuota(kv, key, lastMsOfNovember)).allowed).toBe(false);

    const december = await consumeQuota(kv, key, Date.parse('2026-12-01T00:00:00.000Z'));
    expect(december).toMatchObject({ allowed: true, used: 1, remaining: 1 });
    expect(december.resetEpochSeconds).toBe(Date.parse('2027-01-01T00:00:00Z') / 1000);
    // A process whose clock still reads November keeps using November's exhausted counter.
    expect((await consumeQuota(kv, key, lastMsOfNovember)).allowed).toBe(false);
    // A time zone east of UTC is already in December locally, but the quota month is UTC's.
    expect((await consumeQuota(kv, key, Date.parse('2026-12-01T05:00:00+09:00'))).allowed).toBe(false);
  });

  it('for any instant, the reset is the first instant of the next UTC month', async () => {
    const kv = memory();
    const key = keyWithQuota(1_000_000);
    await fc.assert(
      fc.asyncProperty(fc.date({ min: new Date('1971-01-01Z'), max: new Date('2200-01-01Z'), noInvalidDate: true }), async (now) => {
        const { resetEpochSeconds } = await consumeQuota(kv, key, now.getTime());
        const reset = new Date(resetEpochSeconds * 1000);
        const justBefore = new Date(resetEpochSeconds * 1000 - 1);
        expect(reset.getTime()).toBeGreaterThan(now.getTime());
        expect([reset.getUTCDate(), reset.getUTCHours(), reset.getUTCMinutes(), reset.getUTCSeconds()]).toEqual([1, 0, 0, 0]);
        expect([justBefore.getUTCFullYear(), justBefore.getUTCMonth()]).toEqual([now.getUTCFullYear(), now.getUTCMonth()]);
      }),
    );
  });

  it('with quota N, any number of calls M answers exactly min(N, M)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 60 }), async (n, m) => {
        const kv = new MemoryKvStore();
        const key = keyWithQuota(n);
        const decisions = await Promise.all(Array.from({ length: m }, () => consumeQuota(kv, key, mid)));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(Math.min(n, m));
      }),
    );
  });

  it('5N concurrent calls through two Redis clients (two processes) allow exactly N', async () => {
    const n = 40;
    const key = keyWithQuota(n);
    const [a, b] = [redis(), redis()];
    const decisions = await Promise.all(
      Array.from({ length: 5 * n }, (_, i) => consumeQuota(i % 2 === 0 ? a : b, key, mid)),
    );
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(n);
    // Each allowed call saw its own position in the count: 1..N, each once.
    expect(allowed.map((d) => d.used).sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.retryAfterSeconds > 0)).toBe(true);
  });

  it('in Redis, the month counter expires shortly after the month ends, not before', async () => {
    const key = keyWithQuota(10);
    const decision = await consumeQuota(redis(), key);
    const raw = new Redis(redisUrl);
    try {
      const counters = await raw.keys(`*${key.id}*`);
      expect(counters).toHaveLength(1);
      expect(await raw.get(counters[0])).toBe('1');
      const expiresAt = await raw.expiretime(counters[0]);
      expect(expiresAt).toBeGreaterThanOrEqual(decision.resetEpochSeconds);
      expect(expiresAt).toBeLessThanOrEqual(decision.resetEpochSeconds + 7 * 24 * 3600);
    } finally {
      raw.disconnect();
    }
  });

  it('passes KvUnavailableError through when the store cannot answer', async () => {
    const kv = memory();
    await kv.close();
    await expect(consumeQuota(kv, keyWithQuota(5), mid)).rejects.toBeInstanceOf(KvUnavailableError);
  });
});
