// The dataset loader and the compiled snapshot, on tiny fixture datasets written to a temp dir:
// a valid one answers queries with hand-computed values; invalid ones must list every bad row as
// `file:line: reason`; a snapshot must answer exactly like the dataset it was built from.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetError, InvalidInputError, NotFoundError, type Engine } from '../../engine/index.js';
import { buildSnapshot, checkDataset, compileDataset, createEngine, formatFinding, writeSnapshot } from '../../data/index.js';
import { encodeSnapshot } from '../../data/snapshot-writer.js';
import { readSnapshot } from '../../engine/snapshot.js';
import { haversineMiles, releaseStableSampleDir, stableSampleDir, ZIP_FILE } from './oracle.js';
import { sampleEngine } from './sample-engine.js';
import { gazetteerRow } from './geonames-rows.js';
import { POINTS_HEADER, TERMINAL_HEADER } from '../support/small-dataset.js';

const TOLERANCE = 0.05 + 1e-9;

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'engine-dataset-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  releaseStableSampleDir();
});

const TINY_ZIPS = [
  gazetteerRow('10001', 'Alpha', 'NY', 40.0, -75.0),
  gazetteerRow('10002', 'Alpha', 'NY', 40.02, -75.0),
  gazetteerRow('10003', 'Beta', 'NY', 40.5, -75.0),
  gazetteerRow('20001', 'Capital', 'DC', 38.9, -77.0),
  // the Aleutians, west of the antimeridian's US side, and one point just east of it
  gazetteerRow('99501', 'Gamma', 'AK', 52.0, -179.95),
  gazetteerRow('99502', 'Delta', 'AK', 52.1, 179.7),
  // a military row (no state): not a US place
  gazetteerRow('09001', 'APO AA', '', 38.1105, 15.6613),
].join('\n');

const CARRIERS = [
  { id: 'carrier-y', name: 'Carrier Y', scac: 'CRYY', kind: 'freight', unified: true, canReach: true, lookup: 'state' },
  { id: 'carrier-a', name: 'Carrier A', scac: 'CRAA', kind: 'ltl', unified: true, canReach: false, lookup: 'zip', schedules: true },
  { id: 'carrier-p', name: 'Carrier P', scac: 'CRPP', kind: 'postal', unified: false, canReach: true, lookup: 'zip' },
];

const terminal = (carrier: string, code: string, city: string, state: string, zip: string, lat: number | string, lng: number | string, line2 = '') =>
  [carrier, code, `${carrier} ${code}`, `${code} Main St`, line2, city, state, zip, 'US', '555-0100', '555-0101', `${code.toLowerCase()}@${carrier}.example`, lat, lng, ''].join(',');

// Written in reverse of the documented order so that tie-breaks must be computed, not inherited.
const TINY_TERMINALS = [
  TERMINAL_HEADER,
  terminal('carrier-y', 'Y2', 'Delta', 'AK', '99502', 52.0, 179.9),
  terminal('carrier-y', 'Y1', 'Alpha', 'NY', '10001', 40.0, -75.0),
  terminal('carrier-a', 'T2', 'Alpha', 'NY', '10001', 40.0, -75.0),
  terminal('carrier-a', 'T1', 'Alpha', 'NY', '10001', 40.0, -75.0, '"Dock 4, rear"'),
  terminal('carrier-p', 'P2', 'Gamma', 'AK', '', 52.0, 179.99),
  terminal('carrier-p', 'P1', 'Beta', 'NY', '10003', 40.5, -75.0),
].join('\n');

const TINY_POINTS = [
  POINTS_HEADER,
  'carrier-a,10002,Alpha,NY,T1,true,SU,2',
  'carrier-a,10003,Beta,NY,T2,false,MTWRFSU,0',
].join('\n');

function writeDataset(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

function datasetError(fn: () => unknown): DatasetError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return error as DatasetError;
  }
  throw new Error('expected a DatasetError, but loading succeeded');
}

/** The problem lines of a DatasetError, with the directory stripped: `terminals.csv:3: ...`. */
const problemLines = (error: DatasetError, dir: string) => error.message.split('\n').slice(1).map((l) => l.replace(`${dir}/`, ''));

describe('a valid tiny dataset', () => {
  let zipFile: string;
  let dir: string;
  let engine: Engine;

  beforeAll(() => {
    zipFile = join(root, 'tiny-US.txt');
    writeFileSync(zipFile, TINY_ZIPS);
    dir = writeDataset('tiny', { 'carriers.json': JSON.stringify(CARRIERS), 'terminals.csv': TINY_TERMINALS, 'service-points.csv': TINY_POINTS });
    engine = createEngine({ dataDir: dir, zipFile });
  });

  it('lists its carriers in id order', () => {
    expect(engine.carriers.map((c) => c.id)).toEqual(['carrier-a', 'carrier-p', 'carrier-y']);
  });

  it('the gazetteer leaves out military rows and resolves places from the fixture file', () => {
    expect(engine.geocode({ zip: '09001' }).found).toBe(false);
    expect(engine.geocode({ zip: '10002' }).location).toEqual({ city: 'Alpha', state: 'NY', lat: 40.02, lng: -75.0 });
    const alpha = engine.search({ city: 'alpha', state: 'ny' }).resolved!;
    expect(alpha.lat).toBeCloseTo(40.01, 12);
    // Either side of 180°: the mean the short way round, (180.05 + 179.7) / 2, not -0.125.
    expect(engine.search({ state: 'AK' }).resolved).toEqual({ city: '', state: 'AK', lat: 52.05, lng: expect.closeTo(179.875, 9) });
  });

  it('ties at equal distance break by carrier id, then terminal code', () => {
    const result = engine.search({ zip: '10001' });
    expect(result.matchType).toBe('exact');
    expect(result.results.map((r) => `${r.carrier}/${r.name}`)).toEqual(['carrier-a/carrier-a T1', 'carrier-a/carrier-a T2', 'carrier-y/carrier-y Y1']);
    expect(result.results.every((r) => r.distanceMiles === 0 && r.match === 'exact')).toBe(true);
    expect(result.results[0].address).toContain('Dock 4, rear');
    expect(result.byCarrier['carrier-a'].map((r) => r.name)).toEqual(['carrier-a T1', 'carrier-a T2']);
    const which = engine.whichCarriers({ zip: '10001' });
    expect(which.carriers.map((c) => [c.carrier, c.nearestTerminal.name])).toEqual([['carrier-a', 'carrier-a T1'], ['carrier-y', 'carrier-y Y1']]);
    expect(engine.searchBatch({ zips: ['10001'] }).results[0].byCarrier['carrier-a'].map((r) => r.name)).toEqual(['carrier-a T1', 'carrier-a T2']);
  });

  it('exact (points-served) before nearby, each carrier in its own list', () => {
    const result = engine.search({ zip: '10003', radius: 100 });
    const beta = { lat: 40.5, lng: -75.0 };
    expect(result.byCarrier['carrier-a'].map((r) => [r.name, r.match])).toEqual([['carrier-a T2', 'exact']]);
    expect(result.byCarrier['carrier-y'].map((r) => [r.name, r.match])).toEqual([['carrier-y Y1', 'nearby']]);
    expect(result.results.map((r) => r.match)).toEqual(['exact', 'nearby']);
    expect(result.byCarrier['carrier-y'][0].distanceMiles).toBeCloseTo(haversineMiles(beta.lat, beta.lng, 40.0, -75.0), 1);
    expect(Object.keys(result.byCarrier).sort()).toEqual(['carrier-a', 'carrier-y']);
    // 34.5 miles away: outside a 30-mile radius
    expect(engine.search({ zip: '10003', radius: 30 }).byCarrier['carrier-y']).toEqual([]);
    const which = engine.whichCarriers({ zip: '10003', radius: 100 });
    expect(which.carriers.map((c) => [c.carrier, c.serviceType])).toEqual([['carrier-a', 'direct'], ['carrier-y', 'nearby']]);
  });

  it('the radius search crosses the antimeridian', () => {
    const miles = haversineMiles(52.0, -179.95, 52.0, 179.9);
    expect(miles).toBeLessThan(10);
    const result = engine.search({ zip: '99501', radius: 10 });
    expect(result.matchType).toBe('nearby');
    expect(result.byCarrier['carrier-y'].map((r) => r.name)).toEqual(['carrier-y Y2']);
    expect(Math.abs(result.byCarrier['carrier-y'][0].distanceMiles - miles)).toBeLessThanOrEqual(TOLERANCE);
    const reach = engine.canReach({ carrier: 'carrier-p', zip: '99501', radius: 10 });
    expect(reach.canReach).toBe(true);
    expect(reach.serviceType).toBe('nearby');
    expect(Math.abs(reach.nearestTerminal!.distanceMiles - haversineMiles(52.0, -179.95, 52.0, 179.99))).toBeLessThanOrEqual(TOLERANCE);
    expect(reach.alternatives.map((a) => a.carrier)).toEqual(['carrier-y']);
    const drops = engine.dropPoints({ zip: '99501', radius: 5 });
    expect(drops.locations.map((l) => l.terminalCode)).toEqual(['P2']);
    // and from the other side: Delta (179.7 E) reaches Gamma's drop point (179.99 E) and, across 180, nothing else
    expect(engine.dropPoints({ zip: '99502', radius: 20 }).locations.map((l) => l.terminalCode)).toEqual(['P2']);
  });

  it('can-reach: a carrier that cannot reach names its nearest location at any distance', () => {
    const reach = engine.canReach({ carrier: 'carrier-y', zip: '20001', radius: 10 });
    expect(reach.canReach).toBe(false);
    expect(reach.serviceType).toBe('none');
    expect(reach.nearestTerminal?.name).toBe('carrier-y Y1');
    expect(Math.abs(reach.nearestTerminal!.distanceMiles - haversineMiles(38.9, -77.0, 40.0, -75.0))).toBeLessThanOrEqual(TOLERANCE);
  });

  it('a state query has no nearby step', () => {
    const result = engine.search({ state: 'DC', radius: 100 });
    expect(result.matchType).toBe('none');
    expect(result.total).toBe(0);
    const ak = engine.search({ state: 'AK' });
    expect(ak.results.map((r) => [r.carrier, r.name, r.match])).toEqual([['carrier-y', 'carrier-y Y2', 'exact']]);
  });

  it('service days map M..U to monday..sunday (S = saturday, U = sunday)', () => {
    const su = engine.serviceDays('carrier-a', { zip: '10002', date: '2025-01-03' }); // a Friday
    expect(su.serviceDays).toEqual({ monday: false, tuesday: false, wednesday: false, thursday: false, friday: false, saturday: true, sunday: true });
    expect(su.nextPickupDate).toBe('2025-01-04');
    expect(engine.serviceDays('carrier-a', { zip: '10002', date: '2025-01-04' }).nextPickupDate).toBe('2025-01-05');
    expect(engine.serviceDays('carrier-a', { zip: '10002', date: '2025-01-05' }).nextPickupDate).toBe('2025-01-11');
    expect(engine.serviceDays('carrier-a', { zip: '10003', date: '2025-01-05' }).nextPickupDate).toBe('2025-01-06');
  });

  it('carrier-a metadata and transit use the points-served rows', () => {
    const info = engine.carrierInfo('carrier-a', { zip: '10003' });
    expect(info).toMatchObject({ carrier: 'carrier-a', scac: 'CRAA', city: 'Beta', state: 'NY', terminalCode: 'T2', direct: false, addOnDays: 0, served: true });
    const transit = engine.transitInfo('carrier-a', { origin_zip: '10002', dest_zip: '10003' });
    // T1 and T2 share a point: 0 miles, 1 base day, add-on days 2 + 0
    expect(transit).toMatchObject({ served: true, distanceMiles: 0, baseTransitDays: 1, addOnDays: 2, transitDays: 3 });
    expect(transit.origin).toEqual({ terminalCode: 'T1', name: 'carrier-a T1', city: 'Alpha', state: 'NY', addOnDays: 2 });
  });

  it('schedules of a carrier without `schedules: true` are not found (404), as of an unknown carrier', () => {
    const noSchedules = writeDataset('no-schedules', {
      'carriers.json': JSON.stringify(CARRIERS.map(({ schedules: _schedules, ...c }) => c)),
      'terminals.csv': TINY_TERMINALS,
      'service-points.csv': TINY_POINTS,
    });
    const other = createEngine({ dataDir: noSchedules, zipFile });
    expect(() => other.serviceDays('carrier-a', { zip: '10002' })).toThrow(NotFoundError);
    expect(() => other.transitInfo('carrier-a', { origin_zip: '10002', dest_zip: '10003' })).toThrow(NotFoundError);
    expect(() => other.carrierInfo('carrier-a', { zip: '10002' })).toThrow(NotFoundError);
    expect(() => other.serviceDays('carrier-x', { zip: '10002' })).toThrow(NotFoundError);
  });

  it('a carrier listed by region with no region in its data says so, not "one of" nothing', () => {
    const regionless = writeDataset('regionless', {
      'carriers.json': JSON.stringify([...CARRIERS, { id: 'carrier-r', name: 'Carrier R', scac: 'CRRR', kind: 'freight', unified: false, canReach: false, lookup: 'region' }]),
      'terminals.csv': [TINY_TERMINALS, terminal('carrier-r', 'R1', 'Alpha', 'NY', '10001', 40.0, -75.0)].join('\n'),
      'service-points.csv': TINY_POINTS,
    });
    const other = createEngine({ dataDir: regionless, zipFile });
    expect(() => other.carrierLocations('carrier-r', { region: 'west' })).toThrow(new InvalidInputError('region: carrier-r has no location with a region'));
    // The check says it first: one warning for the carrier, on its first location's line (8). The
    // tiny dataset's drop point without a ZIP (line 6) has its own.
    expect(checkDataset(regionless, { zipFile }).findings.map(formatFinding).filter((f) => !f.startsWith('terminals.csv:6:'))).toEqual([
      'terminals.csv:8: warning: carrier-r is listed by region in carriers.json, but none of its locations has a region: its look-ups by region list nothing',
    ]);
  });

  it('a location without a region, of a carrier listed by region, is a warning on its line', () => {
    const withRegion = (row: string, region: string) => row.replace(/,$/, `,${region}`);
    const partly = writeDataset('partly-regioned', {
      'carriers.json': JSON.stringify([...CARRIERS, { id: 'carrier-r', name: 'Carrier R', scac: 'CRRR', kind: 'freight', unified: false, canReach: false, lookup: 'region' }]),
      'terminals.csv': [
        TINY_TERMINALS,
        withRegion(terminal('carrier-r', 'R1', 'Alpha', 'NY', '10001', 40.0, -75.0), 'northeast'),
        terminal('carrier-r', 'R2', 'Beta', 'NY', '10003', 40.5, -75.0),
        withRegion(terminal('carrier-r', 'R3', 'Capital', 'DC', '20001', 38.9, -77.0), 'south'),
      ].join('\n'),
      'service-points.csv': TINY_POINTS,
    });
    expect(checkDataset(partly, { zipFile }).findings.map(formatFinding).filter((f) => !f.startsWith('terminals.csv:6:'))).toEqual([
      'terminals.csv:9: warning: region is empty: carrier-r is listed by region, and its look-ups by region never list this location',
    ]);
    // As the warning says: R2 is listed by no region, the others by their own.
    const other = createEngine({ dataDir: partly, zipFile });
    expect(other.carrierLocations('carrier-r', { region: 'northeast' }).locations.map((l) => l.terminalCode)).toEqual(['R1']);
    expect(other.carrierLocations('carrier-r', { region: 'south' }).locations.map((l) => l.terminalCode)).toEqual(['R3']);
  });

  it("an office abroad whose province code spells a US state's is not in that state's city, nor in its coverage", () => {
    const abroad = writeDataset('abroad', {
      'carriers.json': JSON.stringify([...CARRIERS, { id: 'carrier-w', name: 'Carrier W', scac: 'CRWW', kind: 'worldwide', unified: true, canReach: true, lookup: 'country_code' }]),
      // An office in Italy, in a town called Alpha of a province coded NY; and one in Alpha, New York.
      'terminals.csv': [
        TINY_TERMINALS,
        'carrier-w,W1,Alpha Office,1 Via Roma,,Alpha,NY,20100,IT,+39 02 555 0100,,w1@w.example,45.46,9.19,',
        'carrier-w,W2,Alpha NY Office,2 Main St,,Alpha,NY,10001,US,555-0102,,w2@w.example,40.0,-75.0,',
      ].join('\n'),
      'service-points.csv': TINY_POINTS,
    });
    const other = createEngine({ dataDir: abroad, zipFile });
    const alpha = other.search({ city: 'Alpha', state: 'NY', carriers: 'carrier-w' });
    expect(alpha.results.map((r) => [r.terminalCode, r.match])).toEqual([['W2', 'exact']]);
    expect(other.canReach({ carrier: 'carrier-w', city: 'Alpha', state: 'NY' })).toMatchObject({ serviceType: 'direct', nearestTerminal: { name: 'Alpha NY Office' } });
    expect(other.coverage('carrier-w', { state: 'NY' })).toMatchObject({ totalLocations: 1, countries: [{ country: 'US', locations: 1 }] });
    expect(other.carrierLocations('carrier-w', { country_code: 'IT' }).locations.map((l) => l.terminalCode)).toEqual(['W1']);
  });

  it('coverage and per-carrier lookups', () => {
    expect(engine.coverage('carrier-a', { state: 'NY' })).toEqual({
      success: true,
      totalLocations: 2,
      states: [{ state: 'NY', country: 'US', locations: 2, zipsServed: 2 }],
      countries: [{ country: 'US', locations: 2 }],
    });
    expect(engine.carrierLocations('carrier-y', { state: 'ny' }).locations.map((l) => l.terminalCode)).toEqual(['Y1']);
    expect(engine.carrierLocations('carrier-a', { zip: '10002' }).locations.map((l) => l.terminalCode)).toEqual(['T1']);
    expect(engine.terminalPoints('carrier-a', 'T2').locations.map((l) => l.address.zipCode)).toEqual(['10003']);
    expect(engine.carrierSearch('carrier-a', { q: 't1' }).locations.map((l) => l.terminalCode)).toEqual(['T1']);
    expect(engine.dropPoint('P1').location.address.zipCode).toBe('10003');
  });
});

describe('invalid datasets list every bad row', () => {
  const tinyZipFile = () => {
    const file = join(root, 'tiny-US-2.txt');
    writeFileSync(file, TINY_ZIPS);
    return file;
  };

  it('bad zip, unknown carrier, bad coordinates, duplicate code, unknown terminal: all reported with their lines', () => {
    const terminals = [
      TERMINAL_HEADER, // 1
      terminal('carrier-a', 'T1', 'Alpha', 'NY', '10001', 40.0, -75.0), // 2 ok
      terminal('carrier-zz', 'Z1', 'Alpha', 'NY', '10001', 40.0, -75.0), // 3 unknown carrier
      terminal('carrier-a', 'T3', 'Alpha', 'NY', '10001', 95, -75.0), // 4 latitude out of range
      terminal('carrier-a', 'T1', 'Alpha', 'NY', '10001', 40.1, -75.0), // 5 duplicate terminal code
      terminal('carrier-y', 'Y1', 'Alpha', 'NY', '10001', 'abc', -75.0), // 6 latitude not a number
      terminal('carrier-y', 'Y2', 'Alpha', 'NY', '10001', 40.0, -75.0, '"Suite 1\nBack door"'), // 7-8 ok, two lines
      terminal('carrier-y', 'Y3', 'Alpha', 'NY', '10001', 40.0, -200), // 9 longitude out of range
      '', // 10 blank
      terminal('carrier-y', 'Y4', 'Alpha', 'NY', '10001', '', -75.0), // 11 latitude missing
    ].join('\n');
    const points = [
      POINTS_HEADER, // 1
      'carrier-a,1234,Alpha,NY,T1,true,MTWRF,0', // 2 bad zip
      'carrier-a,10002,Alpha,NY,T9,true,MTWRF,0', // 3 unknown terminal
      'carrier-a,10003,Beta,NY,T1,true,MTWRF,0', // 4 ok
      'carrier-zz,10003,Beta,NY,T1,true,MTWRF,0', // 5 unknown carrier
      'carrier-a,10001,Alpha,NY,T1,maybe,MTWRF,0', // 6 direct not a boolean
      'carrier-a,20001,Capital,DC,T1,true,FM,0', // 7 service days out of order / not MTWRFSU
      'carrier-a,99501,Gamma,AK,T1,true,MTWRF,-1', // 8 negative add-on days
    ].join('\n');
    const dir = writeDataset('bad-rows', { 'carriers.json': JSON.stringify(CARRIERS), 'terminals.csv': terminals, 'service-points.csv': points });
    const error = datasetError(() => createEngine({ dataDir: dir, zipFile: tinyZipFile() }));
    const lines = problemLines(error, dir);
    const expected: [string, RegExp][] = [
      ['terminals.csv:3: ', /carrier-zz/],
      ['terminals.csv:4: ', /latitude/],
      ['terminals.csv:5: ', /duplicate|T1/],
      ['terminals.csv:6: ', /latitude/],
      ['terminals.csv:9: ', /longitude/],
      ['terminals.csv:11: ', /latitude/],
      ['service-points.csv:2: ', /zip/],
      ['service-points.csv:3: ', /T9/],
      ['service-points.csv:5: ', /carrier-zz/],
      ['service-points.csv:6: ', /direct/],
      ['service-points.csv:7: ', /serviceDays/],
      ['service-points.csv:8: ', /addOnDays/],
    ];
    for (const [prefix, reason] of expected) {
      const line = lines.find((l) => l.startsWith(prefix));
      expect(line, `${prefix} missing from:\n${lines.join('\n')}`).toBeDefined();
      expect(line).toMatch(reason);
    }
    // nothing reported for the good rows (terminals 2, 7-8; service point 4)
    expect(lines.filter((l) => /^terminals\.csv:(2|7|8): /.test(l) || /^service-points\.csv:4: /.test(l))).toEqual([]);
    expect(error.problems.length).toBe(lines.length);
  });

  it('a missing column is reported on the header line, with the other file still checked', () => {
    const points = ['carrier,zip,city,state,terminalCode,direct,serviceDays', 'carrier-a,10002,Alpha,NY,T1,true,MTWRF'].join('\n');
    const terminals = [TERMINAL_HEADER, terminal('carrier-a', 'T1', 'Alpha', 'NY', '10001', 40.0, -75.0), terminal('carrier-a', 'T2', 'Alpha', 'NY', '10001', 40.0, 'east')].join('\n');
    const dir = writeDataset('missing-column', { 'carriers.json': JSON.stringify(CARRIERS), 'terminals.csv': terminals, 'service-points.csv': points });
    const lines = problemLines(datasetError(() => createEngine({ dataDir: dir, zipFile: tinyZipFile() })), dir);
    expect(lines.find((l) => l.startsWith('service-points.csv:1: '))).toMatch(/addOnDays/);
    expect(lines.find((l) => l.startsWith('terminals.csv:3: '))).toMatch(/longitude/);
  });

  it('a row with a missing field is reported on its line, and the file\'s other bad rows still are', () => {
    const terminals = [
      TERMINAL_HEADER, // 1
      terminal('carrier-a', 'T1', 'Alpha', 'NY', '10001', 40.0, -75.0), // 2 ok
      terminal('carrier-a', 'T2', 'Alpha', 'NY', '10001', 40.0, -75.0).split(',').slice(0, 14).join(','), // 3 one field short
      terminal('carrier-a', 'T3', 'Alpha', 'NY', '10001', 91, -75.0), // 4 latitude out of range
    ].join('\n');
    const dir = writeDataset('short-row', { 'carriers.json': JSON.stringify(CARRIERS), 'terminals.csv': terminals, 'service-points.csv': POINTS_HEADER });
    const lines = problemLines(datasetError(() => createEngine({ dataDir: dir, zipFile: tinyZipFile() })), dir);
    expect(lines.some((l) => l.startsWith('terminals.csv:3: ')), lines.join('\n')).toBe(true);
    expect(lines.some((l) => l.startsWith('terminals.csv:4: ') && /latitude/.test(l)), lines.join('\n')).toBe(true);
  });

  it('line numbers stay right after a quoted field holding a CRLF line break (Windows CSV)', () => {
    const terminals = [
      TERMINAL_HEADER, // 1
      terminal('carrier-y', 'Y1', 'Alpha', 'NY', '10001', 40.0, -75.0, '"Suite 1\r\nBack door"'), // 2-3 ok
      terminal('carrier-y', 'Y2', 'Alpha', 'NY', '10001', 95, -75.0), // 4 latitude out of range
    ].join('\r\n');
    const dir = writeDataset('crlf', { 'carriers.json': JSON.stringify(CARRIERS), 'terminals.csv': `${terminals}\r\n`, 'service-points.csv': `${POINTS_HEADER}\r\n` });
    const lines = problemLines(datasetError(() => createEngine({ dataDir: dir, zipFile: tinyZipFile() })), dir);
    expect(lines).toEqual([expect.stringMatching(/^terminals\.csv:4: .*latitude/)]);
  });

  it('carriers.json problems are reported too', () => {
    const carriers = [...CARRIERS, { ...CARRIERS[0] }, { id: 'Bad Id', name: '', scac: 'x', kind: 'boat', unified: 'yes', canReach: true, lookup: 'zip' }];
    const dir = writeDataset('bad-carriers', { 'carriers.json': JSON.stringify(carriers), 'terminals.csv': TERMINAL_HEADER, 'service-points.csv': POINTS_HEADER });
    const message = datasetError(() => createEngine({ dataDir: dir, zipFile: tinyZipFile() })).message;
    expect(message).toMatch(/carrier id "carrier-y" is already used on line/);
    for (const field of ['id', 'name', 'scac', 'kind', 'unified']) expect(message).toMatch(new RegExp(`carriers\\.json:1: error: ${field} `));
  });
});

describe('compiled snapshot', () => {
  let zipFile: string;
  let dir: string;

  beforeAll(() => {
    zipFile = join(root, 'tiny-US-3.txt');
    writeFileSync(zipFile, TINY_ZIPS);
    dir = writeDataset('tiny-snap', { 'carriers.json': JSON.stringify(CARRIERS), 'terminals.csv': TINY_TERMINALS, 'service-points.csv': TINY_POINTS });
  });

  /** Every query family on a fixed set of inputs: the answers, or the error text. */
  function answers(engine: Engine, zips: string[], extra: (e: Engine) => unknown[] = () => []): unknown[] {
    const safe = (fn: () => unknown) => {
      try {
        return fn();
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    };
    const out: unknown[] = [engine.carriers];
    for (const zip of zips) {
      out.push(
        safe(() => engine.geocode({ zip })),
        safe(() => engine.search({ zip, radius: 100 })),
        safe(() => engine.whichCarriers({ zip, radius: 60 })),
        safe(() => engine.dropPoints({ zip, radius: 30 })),
        safe(() => engine.serviceDays('carrier-a', { zip, date: '2025-03-14' })),
        safe(() => engine.carrierInfo('carrier-a', { zip })),
      );
      for (const c of engine.carriers) if (c.canReach) out.push(safe(() => engine.canReach({ carrier: c.id, zip })));
      for (const c of engine.carriers) if (c.lookup === 'zip') out.push(safe(() => engine.carrierLocations(c.id, { zip })));
    }
    out.push(safe(() => engine.searchBatch({ zips: zips.slice(0, 50) })));
    out.push(...extra(engine));
    return out;
  }

  it('buildSnapshot then createEngine({ snapshot }) answers exactly like createEngine({ dataDir })', () => {
    const file = join(root, 'tiny.snapshot');
    const bytes = buildSnapshot(file, { dataDir: dir, zipFile });
    expect(bytes).toBe(readFileSync(file).length);
    const fromDir = createEngine({ dataDir: dir, zipFile });
    const fromSnap = createEngine({ snapshot: file });
    const zips = ['10001', '10002', '10003', '20001', '99501', '99502', '09001', '55555'];
    const extra = (e: Engine) => [
      e.search({ state: 'AK' }),
      e.search({ city: 'alpha', state: 'NY', radius: 50 }),
      e.coverage('carrier-a', { state: 'NY' }),
      e.coverage('carrier-y', {}),
      e.carrierSearch('carrier-y', { q: 'main' }),
      e.terminalPoints('carrier-a', 'T1'),
      e.dropPoint('P2'),
    ];
    expect(answers(fromSnap, zips, extra)).toEqual(answers(fromDir, zips, extra));
  });

  it('the sample dataset round-trips too (random queries)', () => {
    const gazetteerZips = readFileSync(ZIP_FILE, 'utf8').split('\n').map((l) => l.split('\t')).filter((c) => c[4]).map((c) => c[1]);
    const file = join(root, 'sample.snapshot');
    buildSnapshot(file, { dataDir: stableSampleDir(), zipFile: ZIP_FILE });
    const fromSnap = createEngine({ snapshot: file });
    const fromDir = sampleEngine();
    const zips = fc.sample(fc.constantFrom(...gazetteerZips), { numRuns: 60, seed: 99 });
    zips.push('99546', '96898', '00000', '09001');
    const extra = (e: Engine) => [
      e.search({ city: 'st louis', state: 'MO', radius: 60 }),
      e.whichCarriers({ state: 'TX' }),
      e.coverage('carrier-a', { state: 'TX' }),
      e.coverage('carrier-c', {}),
      e.carrierSearch('carrier-c', { q: 'office de', page: 2 }),
      e.carrierLocations('carrier-d', { region: 'west' }),
      e.carrierBatch('carrier-c', { country_codes: ['de', 'jp'] }),
      e.terminalPoints('carrier-b', e.carrierLocations('carrier-b', { zip: '10001' }).locations[0]?.terminalCode ?? ''),
      e.transitInfo('carrier-a', { origin_zip: '10001', dest_zip: '94103' }),
      e.dropPoint('DP10001'),
    ];
    expect(answers(fromSnap, zips, extra)).toEqual(answers(fromDir, zips, extra));
    // It compiles the whole sample twice: on a busy machine that alone can pass the default 30 s.
  }, 120_000);

  it('a foreign file (wrong magic) fails with a DatasetError naming the file', () => {
    const valid = join(root, 'magic-src.snapshot');
    buildSnapshot(valid, { dataDir: dir, zipFile });
    const foreign = join(root, 'foreign.snapshot');
    writeFileSync(foreign, Buffer.from('PK\u0003\u0004 this is a zip file, not a snapshot '.repeat(20)));
    expect(datasetError(() => createEngine({ snapshot: foreign })).message).toContain('foreign.snapshot');
    const bytes = readFileSync(valid);
    bytes.write('XXSNAP01', 0, 'latin1');
    const badMagic = join(root, 'bad-magic.snapshot');
    writeFileSync(badMagic, bytes);
    datasetError(() => createEngine({ snapshot: badMagic }));
    const empty = join(root, 'empty.snapshot');
    writeFileSync(empty, '');
    datasetError(() => createEngine({ snapshot: empty }));
  });

  it('a snapshot of another format version fails with a DatasetError', () => {
    const file = join(root, 'version.snapshot');
    buildSnapshot(file, { dataDir: dir, zipFile });
    const bytes = readFileSync(file);
    const version = bytes.readUInt32LE(8);
    bytes.writeUInt32LE(version + 1, 8);
    writeFileSync(file, bytes);
    const error = datasetError(() => createEngine({ snapshot: file }));
    expect(error.message).toMatch(/format|version/);
    expect(error.message).toContain(String(version + 1));
  });

  it('a truncated snapshot fails at load with a DatasetError', () => {
    const file = join(root, 'whole.snapshot');
    buildSnapshot(file, { dataDir: dir, zipFile });
    const bytes = readFileSync(file);
    for (const keep of [20, Math.floor(bytes.length / 2), bytes.length - 64]) {
      const cut = join(root, `cut-${keep}.snapshot`);
      writeFileSync(cut, bytes.subarray(0, keep));
      datasetError(() => createEngine({ snapshot: cut }));
    }
  });

  it('a snapshot changed in place, at any offset, fails with a DatasetError: at load when eager, when the damaged table is read when lazy', () => {
    const file = join(root, 'intact.snapshot');
    buildSnapshot(file, { dataDir: dir, zipFile });
    const bytes = readFileSync(file);
    const sectionsStart = 32 + Math.ceil(bytes.readUInt32LE(12) / 8) * 8;
    // Past the header: in the manifest, among the sections, the last byte (a section's padding).
    for (const at of [40, Math.floor(bytes.length / 3), Math.floor(bytes.length / 2), bytes.length - 1]) {
      const damaged = Buffer.from(bytes);
      damaged[at] ^= 0x01;
      const path = join(root, `flipped-${at}.snapshot`);
      writeFileSync(path, damaged);
      expect(datasetError(() => createEngine({ snapshot: path, load: 'eager' })).message).toMatch(/corrupt snapshot/);
      if (at < sectionsStart) {
        expect(datasetError(() => createEngine({ snapshot: path, load: 'lazy' })).message).toMatch(/corrupt snapshot \(its manifest/);
        continue;
      }
      // Lazy: the load reads the manifest alone; reading every table's fields, and every row of its
      // string columns, reaches the damage.
      const content = readSnapshot(path, 'lazy') as unknown as Record<string, Record<string, unknown>>;
      const error = datasetError(() => {
        for (const table of Object.values(content)) {
          for (const field in table) {
            const value = table[field] as { at?: (row: number) => string; length: number };
            if (typeof value.at === 'function' && !ArrayBuffer.isView(value)) for (let row = 0; row < value.length; row++) value.at(row);
          }
        }
      });
      expect(error.message).toMatch(/corrupt snapshot \((gazetteer|network|zips|timeZones)\.\w+/);
    }
  });

  it('a byte changed in each kind of section fails the lazy read of that very field', () => {
    const file = join(root, 'kinds.snapshot');
    buildSnapshot(file, { dataDir: dir, zipFile });
    const bytes = readFileSync(file);
    const manifestLength = bytes.readUInt32LE(12);
    const sectionsStart = 32 + Math.ceil(manifestLength / 8) * 8;
    // The manifest (data-format.md): each table's fields, a typed array's or a string column's place in the file.
    const manifest = JSON.parse(bytes.subarray(32, 32 + manifestLength).toString('utf8')) as Record<string, Record<string, { $section?: string; offset?: number }>>;
    const firstOfKind = new Map<string, [string, string, number]>();
    for (const [table, fields] of Object.entries(manifest)) {
      for (const [field, section] of Object.entries(fields ?? {})) {
        const kind = section?.$section;
        if (kind && typeof section.offset === 'number' && !firstOfKind.has(kind)) firstOfKind.set(kind, [table, field, section.offset]);
      }
    }
    // A typed array, a list of strings, a column of strings read a block of rows at a time.
    expect([...firstOfKind.keys()].sort()).toEqual(['column', 'strings', 'typed']);
    for (const [kind, [table, field, offset]] of firstOfKind) {
      const damaged = Buffer.from(bytes);
      damaged[sectionsStart + offset + 1] ^= 0x01;
      const path = join(root, `kind-${kind}.snapshot`);
      writeFileSync(path, damaged);
      // A load reads the few sections every query needs (the list of names); the rest, when first read.
      const error = datasetError(() => {
        const content = readSnapshot(path, 'lazy') as unknown as Record<string, Record<string, { at?: (row: number) => unknown; length: number }>>;
        const value = content[table]![field]!;
        if (typeof value.at === 'function' && !ArrayBuffer.isView(value)) for (let row = 0; row < value.length; row++) value.at(row);
      });
      expect(error.message, kind).toMatch(new RegExp(`corrupt snapshot \\((${table}\\.)?${field}\\b`));
    }
  });

  it('writeSnapshot refuses content that is not a compiled dataset, and writes nothing', () => {
    const path = join(root, 'not-content.snapshot');
    const refused = (content: unknown) => {
      try {
        writeSnapshot(path, content as never);
      } catch (err) {
        expect(err).toBeInstanceOf(InvalidInputError);
        return (err as Error).message;
      }
      throw new Error('expected an InvalidInputError, but writeSnapshot wrote');
    };
    expect(refused({})).toBe('content must be what compileDataset returns: it has no gazetteer');
    expect(refused(undefined)).toBe('content must be what compileDataset returns (got undefined)');
    const content = compileDataset({ dataDir: dir, zipFile });
    const { locName, ...network } = content.network;
    expect(refused({ ...content, network })).toBe('content must be what compileDataset returns: it has no network.locName');
    expect(existsSync(path)).toBe(false);
  });

  it('a snapshot whose manifest lacks a table or a string column fails at load with a DatasetError, read lazily or eagerly', () => {
    const content = compileDataset({ dataDir: dir, zipFile });
    const { stateCodes, ...gazetteer } = content.gazetteer;
    for (const [name, written, missing] of [
      ['empty', {}, 'gazetteer'],
      ['no-column', { ...content, gazetteer }, 'gazetteer.stateCodes'],
    ] as const) {
      // Written as writeSnapshot wrote any content it was given.
      const path = join(root, `${name}.snapshot`);
      writeFileSync(path, encodeSnapshot(written as never));
      for (const load of ['lazy', 'eager'] as const) {
        expect(datasetError(() => createEngine({ snapshot: path, load })).problems, load).toEqual([
          `${path}: not a snapshot of a compiled dataset (its manifest has no ${missing}): rebuild it with carrier-locations build <dataDir> --out <file>`,
        ]);
      }
    }
  });

  it('a missing snapshot file fails loudly', () => {
    expect(() => createEngine({ snapshot: join(root, 'does-not-exist.snapshot') })).toThrow();
  });

  it('a folder named as the snapshot fails with an error that names it, read lazily or eagerly', () => {
    for (const load of ['lazy', 'eager'] as const) {
      expect(() => createEngine({ snapshot: root, load }), load).toThrow(expect.objectContaining({ code: 'EISDIR', path: root }));
    }
  });

  it('a folder named as the ZIP file fails with an error that names it, compiling or checking', () => {
    expect(() => createEngine({ dataDir: dir, zipFile: root })).toThrow(expect.objectContaining({ code: 'EISDIR', path: root }));
    expect(() => checkDataset(dir, { zipFile: root })).toThrow(expect.objectContaining({ code: 'EISDIR', path: root }));
  });
});
