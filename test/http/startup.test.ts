// The start-up the server and the Lambda handler share: where the engine loads from, and what a
// missing API_KEYS means on each runtime.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../adapters/http/config.js';
import { createEngine } from '../../data/index.js';
import { startService, type Service, type StartOptions } from '../../adapters/startup.js';
import { buildOneCarrierSnapshot } from '../support/datasets.js';
import { API_KEYS } from './fixtures.js';

// A one-carrier dataset and its compiled snapshot: which source was loaded shows in the carrier ids.
const dir = mkdtempSync(join(tmpdir(), 'carrier-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const snapshot = buildOneCarrierSnapshot(dir, 'acme');
const dataDir = join(dir, 'acme');

const started: Service[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.core.close()));
});

async function carriersLoaded(env: Record<string, string>, options?: StartOptions): Promise<string[]> {
  const service = await startService(readConfig({ API_KEYS, LOG_LEVEL: 'silent', ...env }), options);
  started.push(service);
  return service.engine.carriers.map((c) => c.id);
}

describe('startService: where the engine loads from', () => {
  it('SNAPSHOT_PATH first: DATA_DIR is not even read', async () => {
    expect(await carriersLoaded({ SNAPSHOT_PATH: snapshot, DATA_DIR: join(dir, 'missing') })).toEqual(['acme']);
  });

  it('then DATA_DIR, compiled at start, over the runtime default', async () => {
    expect(await carriersLoaded({ DATA_DIR: dataDir }, { defaultSnapshot: join(dir, 'missing.snapshot'), compile: createEngine })).toEqual(['acme']);
  });

  it('DATA_DIR is refused where nothing compiles it (the Lambda handler)', async () => {
    await expect(carriersLoaded({ DATA_DIR: dataDir })).rejects.toThrow(
      'DATA_DIR is not read here: compile the folder with `carrier-locations build <dir> --out <file>` and set SNAPSHOT_PATH',
    );
  });

  it('then the runtime default (Lambda: the snapshot beside the bundle)', async () => {
    expect(await carriersLoaded({}, { defaultSnapshot: snapshot })).toEqual(['acme']);
  });

  it('else the sample', async () => {
    expect(await carriersLoaded({})).toContain('carrier-a');
  });

  it('never the sample in production: its carriers are invented', async () => {
    await expect(carriersLoaded({ NODE_ENV: 'production' })).rejects.toThrow(/^NODE_ENV=production needs your own data: set SNAPSHOT_PATH/);
    expect(await carriersLoaded({ NODE_ENV: 'production', SNAPSHOT_PATH: snapshot })).toEqual(['acme']);
    expect(await carriersLoaded({ NODE_ENV: 'production', DATA_DIR: dataDir }, { compile: createEngine })).toEqual(['acme']);
  });
});

describe('startService: keys', () => {
  it('the server outside production makes a development key that the core accepts', async () => {
    const service = await startService(readConfig({ LOG_LEVEL: 'silent' }));
    started.push(service);
    expect(service.devKey).toMatch(/^dev_/);
    expect(service.keys.lookup(service.devKey)).toMatchObject({ plan: 'enterprise' });
  });

  it('Lambda without API_KEYS says what to set, not NODE_ENV', async () => {
    const attempt = startService(readConfig({ LOG_LEVEL: 'silent' }), { runtime: 'lambda' });
    await expect(attempt).rejects.toThrow(/^API_KEYS is required on Lambda: set it to key:plan\[:monthlyQuota\],\.\.\.$/);
  });
});
