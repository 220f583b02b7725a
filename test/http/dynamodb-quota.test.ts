// Quotas in DynamoDB (dynalite, a real implementation of its API, on loopback): exact across two
// servers sharing the table, a new month starting from zero, a clear 503 that spends nothing while
// the store is gone or stalled, the same servers recovering once it is back, and a table DynamoDB
// does not have refused at the start.

import { createHash, randomUUID } from 'node:crypto';
import * as dynamoDbSdk from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { App } from '../../adapters/http/app.js';
import { healthReportSchema } from '../../adapters/http/document-schemas.js';
import { PLANS, type ApiKeyRecord } from '../../adapters/http/keys.js';
import { consumeQuota } from '../../adapters/http/quota.js';
import { createKvStore } from '../../adapters/kv/create.js';
import { DynamoDbKvStore } from '../../adapters/kv/dynamodb.js';
import { createQuotaTable, LOCAL_AWS_ENV, startDynalite, useLocalAwsCredentials, type DynaliteServer } from '../support/dynalite.js';
import { spawnServer } from '../support/server-process.js';
import { createTestApp, KEYS, loopbackServers } from './fixtures.js';

useLocalAwsCredentials();
const shared = { DYNAMODB_TABLE: inject('dynamodbTable'), DYNAMODB_ENDPOINT: inject('dynamodbEndpoint') };

describe('the monthly quota across two servers on one DynamoDB table', () => {
  const QUOTA = 12;
  const key = `dynamo-burst-${randomUUID()}`;
  const cores: App[] = [];
  const servers = loopbackServers();
  afterAll(async () => {
    await servers.closeAll();
    await Promise.all(cores.map((c) => c.close()));
  });

  it(`answers exactly ${QUOTA} of ${4 * QUOTA} simultaneous requests, the rest 429 with the usual headers`, async () => {
    // dynalite applies the updates of one item one at a time, far slower than DynamoDB: a budget
    // a burst fits in on a busy machine (the 1 s default is for DynamoDB).
    const instance = async (kind: 'node' | 'express') => {
      const kv = new DynamoDbKvStore(dynamoDbSdk, shared.DYNAMODB_TABLE, { endpoint: shared.DYNAMODB_ENDPOINT, timeoutMs: 20_000 });
      const core = createTestApp({ kv, keys: `${key}:pro:${QUOTA}` });
      cores.push(core);
      return servers.listen(core, kind);
    };
    const urls = [await instance('node'), await instance('express')];
    const replies = await Promise.all(
      Array.from({ length: 4 * QUOTA }, (_, i) =>
        fetch(`${urls[i % 2]}/api/locations/geocode?zip=60601`, { headers: { 'x-api-key': key } }).then(async (r) => ({
          status: r.status,
          limit: r.headers.get('x-ratelimit-limit'),
          remaining: r.headers.get('x-ratelimit-remaining'),
          retryAfter: r.headers.get('retry-after'),
          body: await r.json(),
        })),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect(ok).toHaveLength(QUOTA);
    expect(refused).toHaveLength(3 * QUOTA);
    expect(ok.map((r) => Number(r.remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: QUOTA }, (_, i) => i));
    for (const r of refused) {
      expect(r).toMatchObject({ limit: String(QUOTA), remaining: '0', body: { error: expect.stringMatching(/quota/) } });
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    // The table holds what was answered: the counter item of this key (its SHA-256) and month.
    const kv = await createKvStore(shared);
    const keyId = createHash('sha256').update(key).digest('hex');
    try {
      expect(await kv.get(`quota:${keyId}:${new Date().toISOString().slice(0, 7)}`)).toBe(String(QUOTA));
    } finally {
      await kv.close();
    }
  });
});

function keyRecord(key: string): ApiKeyRecord {
  return { id: `month-${key}`, name: key, plan: 'basic', ...PLANS.basic, monthlyQuota: 3 };
}

describe('a new month on DynamoDB', () => {
  it('refuses at the limit on the last second of November and allows again at midnight UTC', async () => {
    const kv = await createKvStore(shared);
    const key = keyRecord(randomUUID());
    const lastSecond = Date.UTC(2031, 10, 30, 23, 59, 59);
    const midnight = Date.UTC(2031, 11, 1, 0, 0, 0);
    try {
      const november = [];
      for (let i = 0; i < 4; i++) november.push(await consumeQuota(kv, key, lastSecond));
      expect(november.map((d) => d.allowed)).toEqual([true, true, true, false]);
      expect(november[3]).toMatchObject({ used: 3, remaining: 0, resetEpochSeconds: Date.parse('2031-12-01T00:00:00Z') / 1000, retryAfterSeconds: 1 });
      const december = await consumeQuota(kv, key, midnight);
      expect(december).toMatchObject({ allowed: true, used: 1, remaining: 2, resetEpochSeconds: Date.parse('2032-01-01T00:00:00Z') / 1000 });
      expect(await kv.get(`quota:${key.id}:2031-11`)).toBe('3');
      expect(await kv.get(`quota:${key.id}:2031-12`)).toBe('1');
    } finally {
      await kv.close();
    }
  });
});

describe('a DynamoDB outage (a private dynalite)', () => {
  const table = 'carrier-quotas-outage';
  let dynalite: DynaliteServer;
  let kv: DynamoDbKvStore;
  let app: App;
  const search = { method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro }, body: undefined };
  const health = { method: 'GET', path: '/api/health', query: {}, headers: {}, body: undefined };
  const remaining = async () => {
    const reply = await app.handle(search);
    expect(reply.status).toBe(200);
    return Number(reply.headers['X-RateLimit-Remaining']);
  };

  beforeAll(async () => {
    dynalite = await startDynalite();
    await createQuotaTable(dynalite.endpoint, table);
    // A short budget: the stall below outlasts it.
    kv = new DynamoDbKvStore(dynamoDbSdk, table, { endpoint: dynalite.endpoint, timeoutMs: 500 });
    app = createTestApp({ kv });
  });
  afterAll(async () => {
    dynalite.resume();
    await app.close();
    await dynalite.stop();
  });

  it('a stalled store: 503 { error }, and the count it applies late is taken back (the 503 spent nothing)', async () => {
    const counter = `quota:${createHash('sha256').update(KEYS.pro).digest('hex')}:${new Date().toISOString().slice(0, 7)}`;
    const before = PLANS.pro.monthlyQuota - (await remaining());
    dynalite.pause();
    const stalled = await app.handle(search);
    expect(stalled.status).toBe(503);
    expect(JSON.parse(stalled.body)).toEqual({ error: expect.stringMatching(/unavailable/) });
    expect(stalled.headers['X-RateLimit-Limit']).toBeUndefined();
    // The request was on the wire: dynalite applies it when it wakes and answers late; the store
    // then takes it back, once (its take-back id recorded on the item).
    dynalite.resume();
    await vi.waitFor(async () => expect(await rawItem(dynalite.endpoint, table, counter)).toEqual({ calls: before, takenBack: 1 }), { timeout: 10_000, interval: 200 });
    expect(PLANS.pro.monthlyQuota - (await remaining())).toBe(before + 1);
  });

  it('a stopped store: keyed requests and the health report answer 503, and both recover when it is back', async () => {
    expect((await app.handle(search)).status).toBe(200);
    await dynalite.stop();
    const down = await app.handle(search);
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ error: expect.stringMatching(/unavailable/) });
    // Requests that need no quota still get their usual answers.
    expect((await app.handle({ ...search, headers: {} })).status).toBe(401);
    let sick = await app.handle(health);
    await vi.waitFor(async () => expect((sick = await app.handle(health)).status).toBe(503), { timeout: 10_000, interval: 200 });
    const report = healthReportSchema.parse(JSON.parse(sick.body));
    expect(report.status).toBe('unhealthy');
    expect(report.probes.filter((p) => !p.ok).map((p) => p.name)).toEqual(['KV write', 'KV read']);

    // A fresh DynamoDB on the same endpoint, its table made again: the same core answers.
    await dynalite.restart();
    await createQuotaTable(dynalite.endpoint, table);
    expect(await remaining()).toBe(PLANS.pro.monthlyQuota - 1);
    await vi.waitFor(async () => expect(JSON.parse((await app.handle(health)).body).status).toBe('healthy'), { timeout: 10_000, interval: 200 });
  });
});

/** The counter item as DynamoDB holds it, read with the SDK: its count and how many take-backs it records. */
async function rawItem(endpoint: string, table: string, pk: string): Promise<{ calls: number; takenBack: number }> {
  const client = new dynamoDbSdk.DynamoDBClient({ endpoint });
  try {
    const { Item } = await client.send(new dynamoDbSdk.GetItemCommand({ TableName: table, Key: { pk: { S: pk } }, ConsistentRead: true }));
    return { calls: Number(Item?.calls?.N), takenBack: Item?.takenBack?.SS?.length ?? 0 };
  } finally {
    client.destroy();
  }
}

describe('settings DynamoDB refuses stop the start', () => {
  it('a table it does not have: exit 1 and one line on stderr, naming the setting, the table and its region', async () => {
    const table = `no-such-table-${randomUUID()}`;
    const proc = spawnServer({ PORT: '0', LOG_LEVEL: 'info', API_KEYS: 'k1:pro', ...LOCAL_AWS_ENV, DYNAMODB_TABLE: table, DYNAMODB_ENDPOINT: shared.DYNAMODB_ENDPOINT });
    expect(await proc.exited).toBe(1);
    const stderr = proc.output().split('\n').filter((line) => line.startsWith('error:'));
    expect(stderr).toEqual([
      `error: DYNAMODB_TABLE: DynamoDB has no table "${table}" in us-east-1 (create it, as deploy/template.yaml does, or correct the name or the region)`,
    ]);
  });
});
