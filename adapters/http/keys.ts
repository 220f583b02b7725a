import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { BATCH_LIMIT } from '../../engine/requests.js';

export type Plan = 'basic' | 'pro' | 'enterprise';

export const PLANS: Record<Plan, { batchLimit: number; monthlyQuota: number }> = {
  basic: { batchLimit: 10, monthlyQuota: 1_000 },
  pro: { batchLimit: 20, monthlyQuota: 100_000 },
  enterprise: { batchLimit: BATCH_LIMIT, monthlyQuota: 2_000_000 },
};

export interface ApiKeyRecord {
  /** Hex SHA-256 of the key: the only form of the key the service keeps, and its id in quota counters. */
  id: string;
  /** What the log calls the key: its name from API_KEYS (`name=key:plan`), else the first 8 characters of `id`. */
  name: string;
  plan: Plan;
  monthlyQuota: number;
  batchLimit: number;
}

/** The key of answers made on behalf of no customer (health probes, the document's examples): the largest plan, so no limit gets in the way. */
export const SERVICE_KEY: ApiKeyRecord = { id: 'service', name: 'service', plan: 'enterprise', ...PLANS.enterprise };

/**
 * SHA-256 in JavaScript (@noble/hashes) rather than node:crypto's: loading node:crypto takes 3 ms
 * of a start, and 9 ms under the options Lambda's runtime starts node with (--expose-gc among them
 * makes Node compile its built-in modules from source), for the few keys a start hashes. It takes
 * about 2 us a key where node:crypto takes 0.2, which a valid key pays once per process (KeyRing
 * remembers it) and an invalid one on each request.
 */
function hashKey(rawKey: string): string {
  return bytesToHex(sha256(utf8ToBytes(rawKey)));
}

function isPlan(s: string): s is Plan {
  return Object.hasOwn(PLANS, s);
}

/**
 * Parses `API_KEYS`: `[name=]key:plan[:monthlyQuota],...`. Empty entries (a trailing comma) are ignored.
 * Error messages name the entry by position, never by its text, because the text is a secret and
 * startup errors end up in logs.
 */
export function parseApiKeys(spec: string | undefined): ApiKeyRecord[] {
  // An embedder passes process.env.API_KEYS as it is: unset is a configuration error, not a crash.
  if (spec === undefined) throw new Error('API_KEYS is not set: expected key:plan[:monthlyQuota],...');
  const records: ApiKeyRecord[] = [];
  const seen = new Set<string>();
  const entries = spec.split(',');
  entries.forEach((raw, i) => {
    const entry = raw.trim();
    if (entry === '') return;
    const where = `API_KEYS entry ${i + 1}`;
    const parts = entry.split(':').map((p) => p.trim());
    if (parts.length < 2 || parts.length > 3) {
      throw new Error(`${where}: expected key:plan or key:plan:monthlyQuota`);
    }
    const [named, plan, quota] = parts;
    const { name, key } = splitName(named);
    if (key === '') throw new Error(`${where}: the key is empty`);
    if (!isPlan(plan)) {
      throw new Error(`${where}: unknown plan "${plan}" (expected ${Object.keys(PLANS).join(', ')})`);
    }
    let monthlyQuota = PLANS[plan].monthlyQuota;
    if (quota !== undefined) {
      monthlyQuota = Number(quota);
      if (!/^\d+$/.test(quota) || !Number.isSafeInteger(monthlyQuota) || monthlyQuota < 1) {
        throw new Error(`${where}: monthlyQuota must be a positive integer, got "${quota}"`);
      }
    }
    const id = hashKey(key);
    if (seen.has(id)) throw new Error(`${where}: the same key is listed twice`);
    seen.add(id);
    records.push({ id, name: name ?? id.slice(0, 8), plan, monthlyQuota, batchLimit: PLANS[plan].batchLimit });
  });
  // `API_KEYS=,` is a mistake, never a wish for an API nobody can call, nor for a development key.
  if (records.length === 0) throw new Error('API_KEYS holds no key: expected key:plan[:monthlyQuota],...');
  return records;
}

const KEY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * `name=key` names a key for the log. Text before the first `=` is a name only when it looks like
 * one and a key follows: a key that merely holds `=` (base64 padding: `abc==`) stays whole.
 */
function splitName(text: string): { name: string | undefined; key: string } {
  const eq = text.indexOf('=');
  if (eq < 0) return { name: undefined, key: text };
  const name = text.slice(0, eq);
  const key = text.slice(eq + 1).trim();
  if (!KEY_NAME.test(name) || key === '' || key.startsWith('=')) return { name: undefined, key: text };
  return { name, key };
}

/** The set of valid keys, indexed by hash: the records, the quota counters and the log name a key by its SHA-256, never by its text. */
export class KeyRing {
  private readonly byId = new Map<string, ApiKeyRecord>();
  /**
   * Keys presented and found valid, by their text, so that a key is hashed on its first request
   * rather than on every one: with node:crypto's SHA-256, hashing on every request cost a busy
   * server about 2 us of CPU a request, some 7% of what an Express server spends on an answer.
   * Only a key whose hash is one of API_KEYS' enters, so this holds at most as many entries as
   * API_KEYS has keys, and no text the process's environment does not hold already. Private
   * (`#`): util.inspect and JSON.stringify do not show it.
   */
  readonly #found = new Map<string, ApiKeyRecord>();

  constructor(records: ApiKeyRecord[]) {
    for (const r of records) this.byId.set(r.id, r);
  }

  /**
   * The record for a presented key, or null. Plain Map lookups are safe against timing attacks
   * here: a key not found before is compared by its SHA-256, and V8 compares two strings' hashes
   * (seeded at random in each process) before their characters, so how long a lookup takes reveals
   * nothing an attacker can steer towards a valid key.
   */
  lookup(rawKey: string | undefined): ApiKeyRecord | null {
    if (!rawKey) return null;
    const found = this.#found.get(rawKey);
    if (found !== undefined) return found;
    const record = this.byId.get(hashKey(rawKey));
    if (record === undefined) return null;
    this.#found.set(rawKey, record);
    return record;
  }

  get size(): number {
    return this.byId.size;
  }
}

/** A fresh key for local development; base64url, so it is safe in headers, URLs and `API_KEYS`. */
export function generateDevKey(): string {
  // node:crypto only where a development start asks for it (see hashKey).
  return `dev_${process.getBuiltinModule('node:crypto').randomBytes(24).toString('base64url')}`;
}
