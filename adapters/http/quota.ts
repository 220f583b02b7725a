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
 * Counts one call against the key's monthly quota (UTC calendar month). The single atomic count
 * is the whole decision: the N callers that see 1..N are allowed and every later one is refused
 * without counting, so exactly N calls pass however many run at once, in one process or many
 * sharing one Redis. Rejects with `KvUnavailableError` when the store cannot answer in time, and
 * then nothing is counted (the store takes back what it applies late), so a 503 costs nothing.
 */
export async function consumeQuota(kv: KvStore, key: ApiKeyRecord, now: Date = new Date()): Promise<QuotaDecision> {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const resetEpochSeconds = Date.UTC(year, month + 1, 1) / 1000;
  const counterKey = `quota:${key.id}:${year}-${String(month + 1).padStart(2, '0')}`;
  const limit = key.monthlyQuota;
  const count = await kv.countUpTo(counterKey, limit, resetEpochSeconds + COUNTER_GRACE_SECONDS);
  const allowed = count !== null;
  const used = count ?? limit;
  return {
    allowed,
    limit,
    used,
    remaining: limit - used,
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
