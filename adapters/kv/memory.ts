import { assertTtl, KvUnavailableError, type KvStore } from './store.js';

interface Entry {
  value: string;
  /** Epoch milliseconds; Infinity for keys without expiry. */
  expiresAt: number;
}

/**
 * Per-process store: the default, and right for a single server. Counters are exact within one
 * process because JavaScript runs each count to completion, and it never fails half-way; copies of
 * the service do not share it, which is what `REDIS_URL` is for.
 */
export class MemoryKvStore implements KvStore {
  private readonly entries = new Map<string, Entry>();
  private closed = false;
  /** Expired keys are dropped lazily on read; a sweep past this size keeps unread ones from piling up. */
  private sweepAtSize = 1024;

  /** Synchronous: see KvStore.countUpTo. */
  countUpTo(key: string, limit: number, expireAtUnixSeconds: number): number | null | Promise<number | null> {
    if (this.closed) return Promise.reject(closedError());
    const entry = this.live(key);
    if (entry) {
      const n = Number(entry.value);
      // Same refusal as Redis's INCR on a non-counter, rather than silently producing NaN.
      if (!Number.isSafeInteger(n)) return Promise.reject(new TypeError(`value at ${key} is not an integer`));
      if (n >= limit) return null;
      entry.value = String(n + 1);
      return n + 1;
    }
    if (limit < 1) return null;
    this.write(key, { value: '1', expiresAt: expireAtUnixSeconds * 1000 });
    return 1;
  }

  /**
   * Takes back one call counted at `key`, for a cluster worker that heard of the count too late
   * and answered 503 (kv/cluster.ts). Returns whether there was one to take.
   */
  takeBack(key: string): boolean {
    const entry = this.live(key);
    const n = entry ? Number(entry.value) : 0;
    if (!entry || !(n > 0)) return false;
    entry.value = String(n - 1);
    return true;
  }

  async get(key: string): Promise<string | null> {
    this.assertOpen();
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    this.assertOpen();
    assertTtl(ttlSeconds);
    this.write(key, { value, expiresAt: ttlSeconds === undefined ? Infinity : Date.now() + ttlSeconds * 1000 });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.entries.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    if (this.entries.size >= this.sweepAtSize) {
      const now = Date.now();
      for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
      this.sweepAtSize = Math.max(1024, this.entries.size * 2);
    }
  }
}

function closedError(): KvUnavailableError {
  return new KvUnavailableError('memory store is closed');
}
