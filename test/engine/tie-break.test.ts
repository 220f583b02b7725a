// The documented tie-break (equal distances: carrier id, then terminal code), pinned on a fixture of
// co-located terminals. Every path that orders results is asked: the nearby walk, the unified
// ranking, which-carriers, can-reach alternatives, the nearest location at any distance, drop
// points and a ZIP carrier's serving terminals. Rows are written in reverse of the documented order,
// and terminal codes compare differently as text and as numbers ("B10" < "B2"), so the order must
// be computed, not inherited from the file or from the kd-tree.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KDBush from 'kdbush';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hits } from '../../engine/hits.js';
import type { Engine } from '../../engine/index.js';
import { createEngine } from '../../data/index.js';
import { LocationIndex } from '../../engine/location-index.js';
import { gazetteerRow } from './geonames-rows.js';
import { POINTS_HEADER, TERMINAL_HEADER } from '../support/small-dataset.js';

const ZIPS = [
  gazetteerRow('10001', 'Origin', 'NY', 40.0, -75.0),
  gazetteerRow('10002', 'Served', 'NY', 40.2, -75.3),
  gazetteerRow('20001', 'Faraway', 'DC', 38.9, -77.0),
].join('\n');

const CARRIERS = [
  { id: 'filler', name: 'Filler', scac: 'FILL', kind: 'freight', unified: true, canReach: false, lookup: 'state' },
  { id: 'zipco', name: 'Zipco', scac: 'ZPCO', kind: 'ltl', unified: true, canReach: false, lookup: 'zip' },
  { id: 'post', name: 'Post', scac: 'POST', kind: 'postal', unified: false, canReach: true, lookup: 'zip' },
  { id: 'beta', name: 'Beta', scac: 'BETA', kind: 'freight', unified: true, canReach: true, lookup: 'state' },
  { id: 'alpha', name: 'Alpha', scac: 'ALFA', kind: 'freight', unified: true, canReach: true, lookup: 'state' },
];

const row = (carrier: string, code: string, lat: number, lng: number) =>
  [carrier, code, `${carrier} ${code}`, '1 Main St', '', 'Somewhere', 'NY', '', 'US', '555-0100', '', '', lat, lng, ''].join(',');

// Far from every query, enough of them that the kd-trees split into many nodes and reorder points.
const FILLERS = Array.from({ length: 400 }, (_, i) => row('filler', `F${i}`, 44 + (i % 20) * 0.05, -100 + Math.floor(i / 20) * 0.05));

// 0.1 degree of latitude north of 10001 is 6.9 mi; 0.2 is 13.8 mi; 0.3 is 20.7 mi.
const TERMINALS = [
  TERMINAL_HEADER,
  ...FILLERS,
  row('zipco', 'Z2', 40.2, -75.0),
  row('zipco', 'Z1', 40.2, -75.0),
  row('post', 'P9', 40.05, -75.0),
  row('post', 'P10', 40.05, -75.0),
  row('beta', 'B2', 40.1, -75.0),
  row('beta', 'B10', 40.1, -75.0),
  row('alpha', 'A3', 40.3, -75.0),
  row('alpha', 'A2', 40.1, -75.0),
  row('alpha', 'A1', 40.1, -75.0),
].join('\n');

const SERVICE_POINTS = [
  POINTS_HEADER,
  'zipco,10002,Served,NY,Z2,true,MTWRF,0',
  'zipco,10002,Served Heights,NY,Z1,true,MTWRF,0',
].join('\n');

let dir: string;
let engine: Engine;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tie-break-'));
  writeFileSync(join(dir, 'US.txt'), ZIPS);
  writeFileSync(join(dir, 'carriers.json'), JSON.stringify(CARRIERS));
  writeFileSync(join(dir, 'terminals.csv'), TERMINALS);
  writeFileSync(join(dir, 'service-points.csv'), SERVICE_POINTS);
  engine = createEngine({ dataDir: dir, zipFile: join(dir, 'US.txt') });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('at equal distances, carrier id then terminal code', () => {
  it('orders the unified results and each carrier list', () => {
    const result = engine.search({ zip: '10001', radius: 25 });
    expect(result.matchType).toBe('nearby');
    expect(result.results.map((r) => [r.name, r.distanceMiles])).toEqual([
      ['alpha A1', 6.9], ['alpha A2', 6.9], ['beta B10', 6.9], ['beta B2', 6.9],
      ['zipco Z1', 13.8], ['zipco Z2', 13.8],
      ['alpha A3', 20.7],
    ]);
    expect(result.byCarrier.alpha.map((r) => r.name)).toEqual(['alpha A1', 'alpha A2', 'alpha A3']);
    expect(result.byCarrier.beta.map((r) => r.name)).toEqual(['beta B10', 'beta B2']);
    expect(result.byCarrier.zipco.map((r) => r.name)).toEqual(['zipco Z1', 'zipco Z2']);
    expect(JSON.parse(JSON.stringify(engine.search({ zip: '10001', radius: 25 })))).toEqual(result);
  });

  it('orders which-carriers by nearest terminal, ties by carrier id, each with its first terminal', () => {
    const which = engine.whichCarriers({ zip: '10001' });
    expect(which.notServedBy).toEqual(['filler']);
    expect(which.carriers.map((c) => [c.carrier, c.nearestTerminal.name])).toEqual([
      ['alpha', 'alpha A1'], ['beta', 'beta B10'], ['zipco', 'zipco Z1'],
    ]);
  });

  it('orders can-reach alternatives, and picks the first of co-located nearest locations', () => {
    const reach = engine.canReach({ carrier: 'post', zip: '10001' });
    expect(reach.nearestTerminal?.name).toBe('post P10');
    expect(reach.alternatives.map((a) => a.carrier)).toEqual(['alpha', 'beta']);
    // Out of reach: the nearest location at any distance, from the k-nearest walk.
    const far = engine.canReach({ carrier: 'beta', zip: '20001' });
    expect(far.canReach).toBe(false);
    expect(far.nearestTerminal?.name).toBe('beta B10');
  });

  it('orders drop points and the terminals serving a ZIP', () => {
    expect(engine.dropPoints({ zip: '10001', radius: 5 }).locations.map((l) => l.terminalCode)).toEqual(['P10', 'P9']);
    expect(engine.carrierLocations('zipco', { zip: '10002' }).locations.map((l) => l.terminalCode)).toEqual(['Z1', 'Z2']);
    expect(engine.carrierBatch('zipco', { zips: ['10002'] }).results['10002'].map((l) => l.terminalCode)).toEqual(['Z1', 'Z2']);
  });
});

describe('the index walks, on co-located points indexed in reverse id order', () => {
  // Ten points at one spot, item i standing for location 9 - i, then a far one (location 10).
  const kd = new KDBush(11, 4);
  for (let i = 0; i < 10; i++) kd.add(-75, 40.1);
  kd.add(-80, 45);
  kd.finish();
  const index = new LocationIndex(kd, Uint32Array.from([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 10]));

  it('within + sort lists them by location id', () => {
    const hits = new Hits(4);
    index.within(40, -75, 25, hits);
    hits.sort();
    expect(Array.from(hits.loc.subarray(0, hits.count))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('nearest keeps the lowest ids among equals', () => {
    for (const k of [1, 3, 10]) {
      const hits = new Hits(4);
      index.nearest(40, -75, k, hits);
      expect(Array.from(hits.loc.subarray(0, hits.count))).toEqual(Array.from({ length: k }, (_, i) => i));
    }
  });
});
