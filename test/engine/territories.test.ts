// The US territories, which GeoNames files as countries of their own (PR.txt, VI.txt, GU.txt, ...):
// a ZIP file holding their rows (allCountries.txt, or US.txt with theirs appended) makes them places
// like any state. The expectations are read from the fixture file here, independently of the engine.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/index.js';
import { checkDataset, createEngine } from '../../data/index.js';
import { TERMINAL_HEADER } from '../support/small-dataset.js';

/**
 * GeoNames postal-code rows: country, zip, place, admin1 name, admin1 code, admin2 name, admin2
 * code, admin3 name, admin3 code, lat, lng, accuracy. A territory's admin1 code is its own district
 * code or empty, never the USPS code: the country column says which territory it is.
 */
const ZIP_ROWS = [
  'US\t10001\tNew York\tNew York\tNY\tNew York\t061\t\t\t40.7484\t-73.9967\t4',
  'PR\t00601\tAdjuntas\tPuerto Rico\t\tAdjuntas\t001\t\t\t18.1788\t-66.7516\t4',
  'PR\t00901\tSan Juan\tPuerto Rico\t\tSan Juan\t127\t\t\t18.4655\t-66.1057\t4',
  'PR\t00907\tSan Juan\tPuerto Rico\t\tSan Juan\t127\t\t\t18.4520\t-66.0790\t4',
  'VI\t00802\tSt Thomas\tVirgin Islands\t\tSt. Thomas\t030\t\t\t18.3419\t-64.9307\t4',
  'GU\t96910\tHagatna\tGuam\t\tHagatna\t010\t\t\t13.4745\t144.7504\t4',
  'AS\t96799\tPago Pago\tAmerican Samoa\t\tEastern District\t010\t\t\t-14.2781\t-170.7025\t4',
  'MP\t96950\tSaipan\tNorthern Mariana Islands\t\tSaipan\t110\t\t\t15.1833\t145.75\t4',
  // a country that is not a US territory: its postal codes are not US places
  'DE\t10115\tBerlin\tBerlin\tBE\tBerlin, Stadt\t00\t\t\t52.5323\t13.3846\t6',
];

interface SourceRow {
  country: string;
  zip: string;
  place: string;
  lat: number;
  lng: number;
}

let root: string;
let zipFile: string;
let engine: Engine;
/** The fixture file, read back here as plain tab-separated text. */
let source: Map<string, SourceRow>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'territories-'));
  zipFile = join(root, 'US-and-territories.txt');
  writeFileSync(zipFile, `${ZIP_ROWS.join('\n')}\n`);
  source = new Map(
    readFileSync(zipFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'))
      .map((c) => [c[1], { country: c[0], zip: c[1], place: c[2], lat: Number(c[9]), lng: Number(c[10]) }]),
  );
  writeFileSync(join(root, 'carriers.json'), JSON.stringify([
    { id: 'island-freight', name: 'Island Freight', scac: 'ISFR', kind: 'ltl', unified: true, canReach: true, lookup: 'state' },
  ]));
  writeFileSync(join(root, 'terminals.csv'), [
    TERMINAL_HEADER,
    'island-freight,SJU,Island San Juan,1 Calle Luna,,San Juan,PR,00901,US,787-555-0100,,,18.4655,-66.1057,',
    'island-freight,STT,Island St Thomas,2 Waterfront,,St Thomas,VI,00802,US,340-555-0101,,,18.3419,-64.9307,',
    'island-freight,GUM,Island Hagatna,3 Marine Dr,,Hagatna,GU,96910,US,671-555-0102,,,13.4745,144.7504,',
  ].join('\n'));
  engine = createEngine({ dataDir: root, zipFile });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('US territories from GeoNames rows filed under their own country code', () => {
  const cases: [zip: string, state: string][] = [['00601', 'PR'], ['00901', 'PR'], ['00802', 'VI'], ['96910', 'GU'], ['96799', 'AS'], ['96950', 'MP']];

  it('geocode each ZIP to the place and point of its row, the country code as its state', () => {
    for (const [zip, state] of cases) {
      const row = source.get(zip)!;
      expect(row.country).toBe(state);
      expect(engine.geocode({ zip }).location, zip).toEqual({ city: row.place, state, lat: row.lat, lng: row.lng });
    }
  });

  it('a city inside its territory: the mean of its ZIP points', () => {
    const [a, b] = [source.get('00901')!, source.get('00907')!];
    const resolved = engine.search({ city: 'san juan', state: 'PR' }).resolved!;
    expect(resolved.city).toBe('San Juan');
    expect(resolved.lat).toBeCloseTo((a.lat + b.lat) / 2, 10);
    expect(resolved.lng).toBeCloseTo((a.lng + b.lng) / 2, 10);
  });

  it('searches find the terminals there, and a territory works as a state', () => {
    expect(engine.search({ zip: '00901' }).results.map((r) => [r.name, r.match])).toEqual([['Island San Juan', 'exact']]);
    expect(engine.search({ zip: '00601', radius: 50 }).results.map((r) => [r.name, r.match])).toEqual([['Island San Juan', 'nearby']]);
    expect(engine.search({ state: 'GU' }).results.map((r) => r.name)).toEqual(['Island Hagatna']);
    expect(engine.carrierLocations('island-freight', { state: 'vi' }).locations.map((l) => l.terminalCode)).toEqual(['STT']);
    expect(engine.canReach({ carrier: 'island-freight', zip: '00802' }).canReach).toBe(true);
  });

  it('postal codes of other countries are not US places', () => {
    expect(engine.geocode({ zip: '10115' }).found).toBe(false);
  });

  it('the dataset checks know the territories: no warning for their terminals', () => {
    expect(checkDataset(root, { zipFile }).findings).toEqual([]);
  });
});
