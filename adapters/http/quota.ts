import type { KvStore } from '../kv/store.js';
import type { ApiKeyRecord } from './keys.js';

export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  /** Calls answered this month, this one included when allowed (never above `limit`). */
  used: number;
  remaining: number;
  /** Unix seconds of the start of the next UTC month, when the counter starts again from zero. */
  resetEpochSeconds: number;
  /** Seconds until the reset when refused; 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Counters outlive their month by a day so that a process whose clock lags behind another's still
 * finds the old month's counter: recreating it with an expiry already past would delete it at once
 * and hand that process a fresh quota.
 */
const COUNTER_GRACE_SECONDS = 24 * 60 * 60;

/**
 * Counts one call against the key's monthly quota (UTC calendar month). The single atomic increment
 * is the whole decision: the N callers that see 1..N are allowed and every later one is refused, so
 * exactly N calls pass however many run at once, in one process or many sharing one Redis.
 * Refused calls also increment, which only moves the counter further past the limit; `used` and
 * `remaining` are reported from the capped value, so they describe answered calls.
 * Rejects with `KvUnavailableError` when the store cannot answer.
 */
export async function consumeQuota(kv: KvStore, key: ApiKeyRecord, now: Date = new Date()): Promise<QuotaDecision> {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const resetEpochSeconds = Date.UTC(year, month + 1, 1) / 1000;
  const counterKey = `quota:${key.id}:${year}-${String(month + 1).padStart(2, '0')}`;
  const count = await kv.increment(counterKey, resetEpochSeconds + COUNTER_GRACE_SECONDS);
  const limit = key.monthlyQuota;
  const allowed = count <= limit;
  return {
    allowed,
    limit,
    used: Math.min(count, limit),
    remaining: Math.max(0, limit - count),
    resetEpochSeconds,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(resetEpochSeconds - now.getTime() / 1000)),
  };
}

export function quotaHeaders(d: QuotaDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(d.resetEpochSeconds),
  };
  if (!d.allowed) headers['Retry-After'] = String(d.retryAfterSeconds);
  return headers;
}
