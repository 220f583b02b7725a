// The API follows the dataset: a user's own carriers get their own per-carrier endpoints, health
// probes and OpenAPI entries, and the sample's carriers (and carrier-a's extras) go away.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../data/index.js';
import { createApp } from '../../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../../adapters/http/keys.js';
import { locationPageSchema } from '../../engine/responses.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import { POINTS_HEADER, TERMINAL_HEADER } from '../support/small-dataset.js';

const dir = mkdtempSync(join(tmpdir(), 'carrier-dataset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, 'carriers.json'),
  JSON.stringify([
    { id: 'acme', name: 'Acme Freight', scac: 'ACME', kind: 'ltl', unified: true, canReach: true, lookup: 'zip' },
    { id: 'roadrunner', name: 'Roadrunner', scac: 'RRUN', kind: 'freight', unified: true, canReach: true, lookup: 'state' },
    { id: 'zoned', name: 'Zoned Freight', scac: 'ZOND', kind: 'freight', unified: false, canReach: false, lookup: 'region' },
  ]),
);
writeFileSync(
  join(dir, 'terminals.csv'),
  [
    TERMINAL_HEADER,
    'acme,A1,Acme Chicago,1 Dock St,,Chicago,IL,60601,US,312-555-0100,,a1@acme.example,41.8858,-87.6181,',
    'roadrunner,R1,Roadrunner Phoenix,2 Desert Rd,,Phoenix,AZ,85001,US,602-555-0100,,r1@rr.example,33.4484,-112.074,',
    'zoned,Z1,Zoned Denver,3 Peak Ave,,Denver,CO,80202,US,303-555-0100,,z1@zoned.example,39.7527,-104.9992,Zone-7',
  ].join('\n'),
);
writeFileSync(
  join(dir, 'service-points.csv'),
  [POINTS_HEADER, 'acme,60601,Chicago,IL,A1,true,MTWRF,0'].join('\n'),
);

describe('an API over a user dataset', () => {
  const app = createApp({ engine: createEngine({ dataDir: dir }), keys: new KeyRing(parseApiKeys('k:pro')), kv: new MemoryKvStore() });
  const get = (path: string, query: Record<string, string> = {}) =>
    app.handle({ method: 'GET', path, query, headers: { 'x-api-key': 'k' }, body: undefined });

  it('serves each carrier by its own lookup parameter', async () => {
    const acme = await get('/api/acme-location', { zip: '60601' });
    expect(acme.status).toBe(200);
    expect(locationPageSchema.parse(JSON.parse(acme.body)).locations.map((l) => l.terminalCode)).toEqual(['A1']);
    const rr = await get('/api/roadrunner-location', { state: 'AZ' });
    expect(JSON.parse(rr.body).total).toBe(1);
    // A terminal's code as written or in any case; an unknown one is an empty page.
    for (const [code, total] of [['A1', 1], ['a1', 1], ['A2', 0]] as const) {
      const page = await get(`/api/acme-location/terminal/${code}`);
      expect(page.status).toBe(200);
      expect(JSON.parse(page.body).total).toBe(total);
    }
    // A region matches in any case.
    for (const region of ['Zone-7', 'zone-7', 'ZONE-7']) {
      const zoned = JSON.parse((await get('/api/zoned-location', { region })).body);
      expect(zoned.locations.map((l: { terminalCode: string }) => l.terminalCode)).toEqual(['Z1']);
    }
    expect(JSON.parse((await get('/api/zoned-location', { region: 'zone-8' })).body)).toEqual({ error: 'region must be one of Zone-7' });
  });

  it('has no endpoints for carriers it does not hold', async () => {
    expect((await get('/api/carrier-a-location', { zip: '60601' })).status).toBe(404);
    expect((await get('/api/carrier-a-location/service-days', { zip: '60601' })).status).toBe(404);
    expect((await get('/api/drop-points', { zip: '60601' })).status).toBe(404);
  });

  it('probes and documents its own carriers', async () => {
    const report = JSON.parse((await get('/api/health')).body);
    expect(report.probes.map((p: { name: string }) => p.name)).toEqual([
      'POST /api/search',
      'GET /api/acme-location?zip=',
      'GET /api/acme-location/coverage',
      'GET /api/roadrunner-location?state=',
      'GET /api/roadrunner-location/coverage',
      'GET /api/zoned-location?region=',
      'GET /api/zoned-location/coverage',
      'KV write',
      'KV read',
    ]);
    // Every probe asks with this dataset's own values (its ZIP, state, region "Zone-7").
    expect(report.status).toBe('healthy');
    const doc = JSON.parse((await get('/openapi.json')).body);
    expect(Object.keys(doc.paths)).toContain('/api/roadrunner-location/search');
  });
});

describe('an API over a dataset whose first unified carrier has no location yet', () => {
  const emptyFirst = join(dir, 'empty-first');
  mkdirSync(emptyFirst);
  writeFileSync(
    join(emptyFirst, 'carriers.json'),
    JSON.stringify([
      { id: 'aaa-new', name: 'AAA New Lines', scac: 'AAAN', kind: 'ltl', unified: true, canReach: true, lookup: 'zip' },
      { id: 'acme', name: 'Acme Freight', scac: 'ACME', kind: 'ltl', unified: true, canReach: true, lookup: 'zip' },
    ]),
  );
  writeFileSync(join(emptyFirst, 'terminals.csv'), [TERMINAL_HEADER, 'acme,A1,Acme Chicago,1 Dock St,,Chicago,IL,60601,US,312-555-0100,,,41.8858,-87.6181,'].join('\n'));
  const app = createApp({ engine: createEngine({ dataDir: emptyFirst }), keys: new KeyRing(parseApiKeys('k:pro')), kv: new MemoryKvStore() });
  const get = (path: string) => app.handle({ method: 'GET', path, query: {}, headers: { 'x-api-key': 'k' }, body: undefined });

  it('probes the unified search, and documents it, with a ZIP of the carrier that has one', async () => {
    const report = JSON.parse((await get('/api/health')).body);
    expect(report.probes.map((p: { name: string }) => p.name)).toContain('POST /api/search');
    expect(report.status).toBe('healthy');
    const doc = JSON.parse((await get('/openapi.json')).body);
    // Acme's one terminal is in 60601: the only ZIP the data can show.
    expect(doc.paths['/api/locations'].get.parameters.find((p: { name: string }) => p.name === 'zip').example).toBe('60601');
  });
});

describe('an API over a dataset whose regions are spelled in more than one case', () => {
  const spelled = join(dir, 'regions-spelled');
  mkdirSync(spelled);
  writeFileSync(join(spelled, 'carriers.json'), JSON.stringify([{ id: 'zoned', name: 'Zoned Freight', scac: 'ZOND', kind: 'freight', unified: false, canReach: false, lookup: 'region' }]));
  writeFileSync(
    join(spelled, 'terminals.csv'),
    [
      TERMINAL_HEADER,
      'zoned,Z1,Zoned Denver,3 Peak Ave,,Denver,CO,80202,US,303-555-0100,,,39.7527,-104.9992,Zone-7',
      'zoned,Z2,Zoned Boulder,4 Peak Ave,,Boulder,CO,80302,US,303-555-0101,,,40.0150,-105.2705,zone-7',
      'zoned,Z3,Zoned Boston,5 Harbor St,,Boston,MA,02108,US,617-555-0102,,,42.3576,-71.0684,North East',
    ].join('\n'),
  );
  const app = createApp({ engine: createEngine({ dataDir: spelled }), keys: new KeyRing(parseApiKeys('k:pro')), kv: new MemoryKvStore() });
  const get = (region: string) => app.handle({ method: 'GET', path: '/api/zoned-location', query: { region }, headers: { 'x-api-key': 'k' }, body: undefined });

  it('finds a region in any case, and names each region once in the 400 for one it does not hold', async () => {
    expect(JSON.parse((await get('ZONE-7')).body).locations.map((l: { terminalCode: string }) => l.terminalCode)).toEqual(['Z1', 'Z2']);
    expect(JSON.parse((await get('zone-8')).body)).toEqual({ error: 'region must be one of North East, Zone-7' });
  });
});
