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

/** A UTC calendar month: what every request in it shares, worked out once. */
interface Month {
  startMs: number;
  endMs: number;
  /** `2026-11`, the last part of each counter's name. */
  label: string;
  resetEpochSeconds: number;
  /** Counter names by key id; only keys from the key ring get here, so it stays that small. */
  counters: Map<string, string>;
}

let current: Month | undefined;

/** The month holding `nowMs`. The last one worked out is kept: nearly every request falls in it. */
function monthAt(nowMs: number): Month {
  if (current && nowMs >= current.startMs && nowMs < current.endMs) return current;
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const endMs = Date.UTC(year, month + 1, 1);
  current = {
    startMs: Date.UTC(year, month, 1),
    endMs,
    label: `${year}-${String(month + 1).padStart(2, '0')}`,
    resetEpochSeconds: endMs / 1000,
    counters: new Map(),
  };
  return current;
}

function counterName(month: Month, key: ApiKeyRecord): string {
  let name = month.counters.get(key.id);
  if (name === undefined) {
    name = `quota:${key.id}:${month.label}`;
    month.counters.set(key.id, name);
  }
  return name;
}

/**
 * Counts one call against the key's monthly quota (UTC calendar month). The single atomic count
 * is the whole decision: the N callers that see 1..N are allowed and every later one is refused
 * without counting, so exactly N calls pass however many run at once, in one process or many
 * sharing one Redis or DynamoDB table (or the primary of a cluster's workers). Rejects with
 * `KvUnavailableError` when the store cannot answer in time, and then nothing is counted (the
 * store takes back what it applies late), so a 503 costs nothing, but for the store's one
 * exception (KvStore.countUpTo).
 *
 * A store that counts in-process (the memory store) answers at once, and so does this: the decision
 * itself, with no promise and no turn of the event loop in between. Otherwise a promise of it.
 */
export function consumeQuota(kv: KvStore, key: ApiKeyRecord, nowMs: number = Date.now()): QuotaDecision | Promise<QuotaDecision> {
  const month = monthAt(nowMs);
  const count = kv.countUpTo(counterName(month, key), key.monthlyQuota, month.resetEpochSeconds + COUNTER_GRACE_SECONDS);
  if (count === null || typeof count === 'number') return decide(key, month, count, nowMs);
  return decideLater(key, month, count, nowMs);
}

/** A native promise whatever kind the store returned, so that callers can tell it from a decision. */
async function decideLater(key: ApiKeyRecord, month: Month, count: PromiseLike<number | null>, nowMs: number): Promise<QuotaDecision> {
  return decide(key, month, await count, nowMs);
}

function decide(key: ApiKeyRecord, month: Month, count: number | null, nowMs: number): QuotaDecision {
  const limit = key.monthlyQuota;
  const allowed = count !== null;
  const used = count ?? limit;
  return {
    allowed,
    limit,
    used,
    remaining: limit - used,
    resetEpochSeconds: month.resetEpochSeconds,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(month.resetEpochSeconds - nowMs / 1000)),
  };
}

export function quotaHeaders(d: QuotaDecision): Record<string, string> {
  return addQuotaHeaders({}, d);
}

/** Adds the rate-limit headers to an answer's headers, always in the same order (V8 then shares one shape). */
export function addQuotaHeaders(headers: Record<string, string>, d: QuotaDecision): Record<string, string> {
  headers['X-RateLimit-Limit'] = String(d.limit);
  headers['X-RateLimit-Remaining'] = String(d.remaining);
  headers['X-RateLimit-Reset'] = String(d.resetEpochSeconds);
  if (!d.allowed) headers['Retry-After'] = String(d.retryAfterSeconds);
  return headers;
}
