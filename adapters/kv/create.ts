import { namesOf } from '../commonjs-names.js';
import { missingPeer, notInstalled } from '../optional-peers.js';
import { MemoryKvStore } from './memory.js';
import { KvConfigError, type KvStore, type RedisKvOptions } from './store.js';

export const REDIS_URL_FORMAT =
  'REDIS_URL must be a redis:// or rediss:// URL, such as redis://:password@host:6379, with a database number if any (redis://host:6379/2)';

export const DYNAMODB_TABLE_FORMAT = 'DYNAMODB_TABLE must be a DynamoDB table name: 3 to 255 letters, digits, _ - or .';
export const DYNAMODB_ENDPOINT_FORMAT = 'DYNAMODB_ENDPOINT must be an http:// or https:// URL, such as http://127.0.0.1:8000';
export const ONE_STORE = 'set one of REDIS_URL and DYNAMODB_TABLE: quotas are counted in one store';
export const ENDPOINT_WITHOUT_TABLE = 'DYNAMODB_ENDPOINT is set without DYNAMODB_TABLE: set the table that holds the quotas too';

/** DynamoDB's own rule for table names. */
export function isDynamoDbTable(text: string): boolean {
  return /^[A-Za-z0-9_.-]{3,255}$/.test(text);
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * A URL ioredis connects to; anything else (`http://...`, a bare host name) would never connect, and
 * answer 503 forever. Its path is the database's number: ioredis sends any other path as SELECT NaN,
 * which Redis answers with an error that crashes the process after it has started.
 */
export function isRedisUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && /^(\/\d*)?$/.test(url.pathname);
  } catch {
    return false;
  }
}

/** Where quotas are counted: the variables that choose the store. */
export interface KvStoreEnv {
  REDIS_URL?: string | undefined;
  DYNAMODB_TABLE?: string | undefined;
  DYNAMODB_ENDPOINT?: string | undefined;
}

/**
 * Redis when `REDIS_URL` is set, DynamoDB when `DYNAMODB_TABLE` is (both shared across processes),
 * otherwise a per-process memory store. The client (ioredis, `@aws-sdk/client-dynamodb`) is
 * imported only then, by a dynamic import an application's bundler keeps lazy too, so an embedder
 * without it never loads it, and need not install it (with a bundler: mark it external).
 * Settings that can never work reject with KvConfigError: malformed ones (checked here, before any
 * client is loaded), a client that is not installed, a Redis that refuses the URL's password, user
 * or database, and a DynamoDB that has no such table or refuses the credentials.
 */
export async function createKvStore(env: KvStoreEnv, options: RedisKvOptions = {}): Promise<KvStore> {
  const url = env.REDIS_URL?.trim();
  const table = env.DYNAMODB_TABLE?.trim();
  const endpoint = env.DYNAMODB_ENDPOINT?.trim() || undefined;
  if (url && table) throw new KvConfigError(ONE_STORE);
  if (endpoint !== undefined && !table) throw new KvConfigError(ENDPOINT_WITHOUT_TABLE);
  if (table) {
    if (!isDynamoDbTable(table)) throw new KvConfigError(DYNAMODB_TABLE_FORMAT);
    if (endpoint !== undefined && !isHttpUrl(endpoint)) throw new KvConfigError(DYNAMODB_ENDPOINT_FORMAT);
    const [{ DynamoDbKvStore }, sdk] = await Promise.all([import('./dynamodb.js'), peer(import('@aws-sdk/client-dynamodb'))]);
    const store = new DynamoDbKvStore(namesOf(sdk, 'DynamoDBClient'), table, { endpoint, timeoutMs: options.timeoutMs });
    // Rejects with KvConfigError when DynamoDB's answer says a setting is wrong; an outage starts anyway.
    await store.verify();
    return store;
  }
  if (!url) return new MemoryKvStore();
  // The message never repeats the value: it may hold the password.
  if (!isRedisUrl(url)) throw new KvConfigError(REDIS_URL_FORMAT);
  const [{ RedisKvStore }, ioredis] = await Promise.all([import('./redis.js'), peer(import('ioredis'))]);
  const store = new RedisKvStore(namesOf(ioredis, 'Redis').Redis, url, options);
  // Rejects with KvConfigError when the server refuses the URL's settings; an outage starts anyway.
  await store.verify();
  return store;
}

/** A store client's module, or, where it is not installed, a KvConfigError saying what to install. */
async function peer<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (err) {
    const missing = missingPeer(err);
    throw missing === undefined ? err : new KvConfigError(notInstalled(missing));
  }
}
