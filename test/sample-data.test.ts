// The generated sample dataset: deterministic, committed as generated, and shaped as docs/data-format.md
// ("The sample networks are synthetic") says. Expectations are written out here rather than imported from the generator, so a change
// to the generator's tables cannot quietly change what is being checked.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSample } from '../data/generate-sample.js';
import type { Gazetteer } from '../engine/gazetteer.js';
import { gazetteerOf, readGazetteer } from '../data/geonames.js';

type Row = Record<string, string>;

const FILES = ['carriers.json', 'terminals.csv', 'service-points.csv'];
const COMMITTED_DIR = fileURLToPath(new URL('../data/sample/', import.meta.url));
const TERMINAL_HEADER =
  'carrier,terminalCode,name,line1,line2,city,state,zipCode,country,phone,fax,email,latitude,longitude,region';
const SERVICE_POINT_HEADER = 'carrier,zip,city,state,terminalCode,direct,serviceDays,addOnDays';

const EXPECTED_CARRIERS = [
  { id: 'carrier-a', kind: 'ltl', unified: true, canReach: false, lookup: 'zip', schedules: true, terminalRoute: 'station', holidays: { calendar: 'us-ltl' } },
  { id: 'carrier-b', kind: 'ltl', unified: true, canReach: false, lookup: 'zip', terminalRoute: 'terminal' },
  { id: 'carrier-c', kind: 'worldwide', unified: false, canReach: false, lookup: 'country_code' },
  { id: 'carrier-d', kind: 'freight', unified: true, canReach: false, lookup: 'region' },
  { id: 'carrier-e', kind: 'ltl', unified: true, canReach: true, lookup: 'state' },
  { id: 'carrier-f', kind: 'freight', unified: true, canReach: true, lookup: 'state' },
  { id: 'carrier-g', kind: 'ltl', unified: true, canReach: true, lookup: 'state' },
  { id: 'carrier-h', kind: 'freight', unified: true, canReach: true, lookup: 'country' },
  { id: 'carrier-i', kind: 'ltl', unified: true, canReach: true, lookup: 'state' },
  { id: 'carrier-j', kind: 'postal', unified: false, canReach: true, lookup: 'zip' },
];

const TERMINAL_COUNT_RANGES: Record<string, [number, number]> = {
  'carrier-a': [200, 300],
  'carrier-b': [200, 300],
  'carrier-d': [100, 200],
  'carrier-e': [60, 120],
  'carrier-f': [100, 200],
  'carrier-g': [60, 120],
  'carrier-i': [60, 120],
};

const CENSUS_REGIONS: Record<string, string[]> = {
  northeast: ['CT', 'MA', 'ME', 'NH', 'NJ', 'NY', 'PA', 'RI', 'VT'],
  midwest: ['IA', 'IL', 'IN', 'KS', 'MI', 'MN', 'MO', 'ND', 'NE', 'OH', 'SD', 'WI'],
  south: ['AL', 'AR', 'DC', 'DE', 'FL', 'GA', 'KY', 'LA', 'MD', 'MS', 'NC', 'OK', 'SC', 'TN', 'TX', 'VA', 'WV'],
  west: ['AK', 'AZ', 'CA', 'CO', 'HI', 'ID', 'MT', 'NM', 'NV', 'OR', 'UT', 'WA', 'WY'],
};
const CONTIGUOUS = Object.values(CENSUS_REGIONS).flat().filter((s) => s !== 'AK' && s !== 'HI');

/** Where each points-served carrier serves, and how far out (README: the sample networks). */
const SERVICE_AREAS: Record<string, { states: string[]; radiusMiles: number }> = {
  'carrier-a': { states: CONTIGUOUS, radiusMiles: 170 },
  'carrier-b': { states: CONTIGUOUS, radiusMiles: 170 },
  'carrier-e': {
    states: ['CT', 'DC', 'DE', 'MA', 'MD', 'ME', 'NH', 'NJ', 'NY', 'PA', 'RI', 'VA', 'VT', 'WV'],
    radiusMiles: 110,
  },
  'carrier-g': { states: ['AL', 'FL', 'GA', 'MS', 'NC', 'SC', 'TN'], radiusMiles: 110 },
  'carrier-i': { states: ['AZ', 'CA', 'CO', 'ID', 'MT', 'NM', 'NV', 'OR', 'UT', 'WA', 'WY'], radiusMiles: 110 },
};

function haversineMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

function groupBy(rows: Row[], key: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const list = groups.get(row[key]);
    if (list) list.push(row);
    else groups.set(row[key], [row]);
  }
  return groups;
}

const readCsv = (text: string): Row[] => parse(text, { columns: true, skip_empty_lines: true });

/**
 * The rows breaking a rule, described by `describeRow`, first ten only. One expect per rule over
 * 100k rows keeps the test fast and its failure message short.
 */
function violations<T>(rows: Iterable<T>, ok: (row: T) => boolean, describeRow: (row: T) => string): string[] {
  const bad: string[] = [];
  for (const row of rows) {
    if (!ok(row)) bad.push(describeRow(row));
    if (bad.length === 10) break;
  }
  return bad;
}

const terminalLabel = (t: Row) => `${t.carrier} ${t.terminalCode} (${t.city}, ${t.state} ${t.zipCode} ${t.country})`;
const pointLabel = (p: Row) => `${p.carrier} ${p.zip} ${p.city}, ${p.state} -> ${p.terminalCode}`;

let dirs: string[] = [];
let carriers: Record<string, unknown>[];
let terminals: Row[];
let servicePoints: Row[];
let terminalsByCarrier: Map<string, Row[]>;
let pointsByCarrier: Map<string, Row[]>;
let gazetteer: Gazetteer;

beforeAll(async () => {
  dirs = [await mkdtemp(join(tmpdir(), 'sample-a-')), await mkdtemp(join(tmpdir(), 'sample-b-'))];
  for (const dir of dirs) await generateSample(dir);
  carriers = JSON.parse(await readFile(join(dirs[0], 'carriers.json'), 'utf8'));
  terminals = readCsv(await readFile(join(dirs[0], 'terminals.csv'), 'utf8'));
  servicePoints = readCsv(await readFile(join(dirs[0], 'service-points.csv'), 'utf8'));
  terminalsByCarrier = groupBy(terminals, 'carrier');
  pointsByCarrier = groupBy(servicePoints, 'carrier');
  gazetteer = gazetteerOf(readGazetteer());
}, 120_000);

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('sample dataset generation', () => {
  it('is byte-identical across runs and equal to the committed data/sample files', async () => {
    for (const file of FILES) {
      const [first, second, committed] = await Promise.all([
        readFile(join(dirs[0], file)),
        readFile(join(dirs[1], file)),
        readFile(join(COMMITTED_DIR, file)),
      ]);
      expect(first.equals(second), `${file} differs between two runs`).toBe(true);
      expect(first.equals(committed), `data/sample/${file} is stale: run npm run data:sample`).toBe(true);
    }
  });

  it('writes the documented CSV headers, rows sorted', async () => {
    const terminalText = await readFile(join(dirs[0], 'terminals.csv'), 'utf8');
    const pointText = await readFile(join(dirs[0], 'service-points.csv'), 'utf8');
    expect(terminalText.slice(0, terminalText.indexOf('\n'))).toBe(TERMINAL_HEADER);
    expect(pointText.slice(0, pointText.indexOf('\n'))).toBe(SERVICE_POINT_HEADER);
    const terminalKeys = terminals.map((t) => [t.carrier, t.terminalCode]);
    const pointKeys = servicePoints.map((p) => [p.carrier, p.zip, p.city]);
    // Code-unit order, key by key: strictly increasing also means no duplicate keys.
    const ascending = (i: number, keys: string[][]) => {
      const a = keys[i - 1];
      const b = keys[i];
      const k = a.findIndex((value, j) => value !== b[j]);
      return k >= 0 && a[k] < b[k];
    };
    for (const keys of [terminalKeys, pointKeys]) {
      const positions = keys.map((_, i) => i).slice(1);
      expect(violations(positions, (i) => ascending(i, keys), (i) => `${keys[i - 1]} then ${keys[i]}`)).toEqual([]);
    }
  });
});

describe('carriers.json', () => {
  it('lists the ten sample carriers with their flags', () => {
    expect(carriers.map((c) => c.id)).toEqual(EXPECTED_CARRIERS.map((c) => c.id));
    for (const [i, expected] of EXPECTED_CARRIERS.entries()) {
      expect(carriers[i]).toMatchObject(expected);
      // The documented keys in order; the optional capabilities only where a carrier has them.
      expect(Object.keys(carriers[i])).toEqual(['id', 'name', 'scac', 'kind', 'unified', 'canReach', 'lookup', ...Object.keys(expected).slice(5)]);
      expect(carriers[i].name).toBe(`Carrier ${'ABCDEFGHIJ'[i]}`);
      expect(carriers[i].scac).toMatch(/^[A-Z]{4}$/);
    }
    expect(new Set(carriers.map((c) => c.scac)).size).toBe(10);
  });
});

describe('terminals.csv', () => {
  it('has the network sizes of docs/data-format.md', () => {
    for (const [carrier, [min, max]] of Object.entries(TERMINAL_COUNT_RANGES)) {
      const count = terminalsByCarrier.get(carrier)?.length ?? 0;
      expect(count, carrier).toBeGreaterThanOrEqual(min);
      expect(count, carrier).toBeLessThanOrEqual(max);
    }
    const offices = terminalsByCarrier.get('carrier-c')!;
    expect(offices.length).toBeGreaterThanOrEqual(1500);
    expect(new Set(offices.map((o) => o.country)).size).toBeGreaterThanOrEqual(120);
    expect(terminalsByCarrier.get('carrier-j')!.length).toBeGreaterThanOrEqual(30_000);
    const northAmerica = groupBy(terminalsByCarrier.get('carrier-h')!, 'country');
    expect([...northAmerica.keys()].sort()).toEqual(['CA', 'MX', 'US']);
  });

  it('gives every US location the ZIP, city and state of a gazetteer ZIP', () => {
    const us = terminals.filter((t) => t.country === 'US');
    expect(us.length).toBeGreaterThan(30_000);
    const agrees = (t: Row) => {
      const z = gazetteer.zipIndex(t.zipCode);
      return z >= 0 && gazetteer.zipCity(z) === t.city && gazetteer.zipState(z) === t.state;
    };
    expect(violations(us, agrees, terminalLabel)).toEqual([]);
  });

  it('keeps terminals inside each network footprint', () => {
    const footprints: [string, string[], (t: Row) => boolean][] = [
      ['carrier-a', CONTIGUOUS, () => true],
      ['carrier-b', CONTIGUOUS, () => true],
      ['carrier-d', CONTIGUOUS, () => true],
      ['carrier-f', CONTIGUOUS, () => true],
      ['carrier-h', CONTIGUOUS, (t) => t.country === 'US'],
      ['carrier-e', SERVICE_AREAS['carrier-e'].states, () => true],
      ['carrier-g', SERVICE_AREAS['carrier-g'].states, () => true],
      ['carrier-i', SERVICE_AREAS['carrier-i'].states, () => true],
    ];
    for (const [carrier, states, applies] of footprints) {
      const rows = terminalsByCarrier.get(carrier)!.filter(applies);
      expect(violations(rows, (t) => t.country === 'US' && states.includes(t.state), terminalLabel), carrier).toEqual([]);
    }
  });

  it('has unique codes of the documented shapes', () => {
    for (const [carrier, rows] of terminalsByCarrier) {
      expect(new Set(rows.map((r) => r.terminalCode)).size, carrier).toBe(rows.length);
    }
    const shapes: [string, (t: Row) => boolean][] = [
      ['carrier-a', (t) => /^\d{3,4}$/.test(t.terminalCode)],
      ['carrier-b', (t) => /^\d{3,4}$/.test(t.terminalCode)],
      ['carrier-c', (t) => /^[A-Z]{2}-[A-Z]{3}-\d{2,}$/.test(t.terminalCode) && t.terminalCode.startsWith(t.country)],
      ['carrier-j', (t) => t.terminalCode === `DP${t.zipCode}` && / Post Office( - Station \d+)?$/.test(t.name)],
    ];
    for (const [carrier, ok] of shapes) {
      expect(violations(terminalsByCarrier.get(carrier)!, ok, terminalLabel), carrier).toEqual([]);
    }
  });

  it('has fictional phones and e-mails, unique e-mails per carrier', () => {
    const fictional = (t: Row) =>
      /555-01\d\d$/.test(t.phone) &&
      /555-01\d\d$/.test(t.fax) &&
      /^[a-z0-9-]+@carrier-[a-j]\.example$/.test(t.email) &&
      t.email.endsWith(`@${t.carrier}.example`);
    expect(violations(terminals, fictional, (t) => `${terminalLabel(t)}: ${t.phone} / ${t.fax} / ${t.email}`)).toEqual([]);
    for (const [carrier, rows] of terminalsByCarrier) {
      expect(new Set(rows.map((r) => r.email)).size, carrier).toBe(rows.length);
    }
  });

  it('has coordinates with at most 5 decimals; non-US rows carry a country and no postal code', () => {
    const wellFormed = (t: Row) =>
      [t.latitude, t.longitude].every((v) => /^-?\d{1,3}(\.\d{1,5})?$/.test(v)) &&
      Math.abs(Number(t.latitude)) <= 90 &&
      Math.abs(Number(t.longitude)) <= 180 &&
      (t.country === 'US' ? /^\d{5}$/.test(t.zipCode) : /^[A-Z]{2}$/.test(t.country) && t.zipCode === '');
    expect(violations(terminals, wellFormed, (t) => `${terminalLabel(t)} at ${t.latitude},${t.longitude}`)).toEqual([]);
  });

  it('fills region with the Census region for carrier-d only', () => {
    const regionOf = new Map(Object.entries(CENSUS_REGIONS).flatMap(([region, states]) => states.map((s) => [s, region])));
    const expected = (t: Row) => (t.carrier === 'carrier-d' ? regionOf.get(t.state) : '');
    expect(violations(terminals, (t) => t.region === expected(t), (t) => `${terminalLabel(t)}: ${t.region}`)).toEqual([]);
  });
});

describe('service-points.csv', () => {
  it('covers only the points-served carriers, inside their service states, one row per ZIP', () => {
    expect([...pointsByCarrier.keys()].sort()).toEqual(Object.keys(SERVICE_AREAS).sort());
    for (const [carrier, { states }] of Object.entries(SERVICE_AREAS)) {
      const allowed = new Set(states);
      const rows = pointsByCarrier.get(carrier)!;
      expect(rows.length, carrier).toBeGreaterThan(1000);
      expect(violations(rows, (p) => allowed.has(p.state), pointLabel), carrier).toEqual([]);
      expect(new Set(rows.map((p) => p.zip)).size, carrier).toBe(rows.length);
    }
  });

  it('uses gazetteer ZIPs and well-formed service fields', () => {
    const wellFormed = (p: Row) => {
      const z = gazetteer.zipIndex(p.zip);
      return (
        z >= 0 &&
        gazetteer.zipCity(z) === p.city &&
        gazetteer.zipState(z) === p.state &&
        /^(true|false)$/.test(p.direct) &&
        /^(?=.)M?T?W?R?F?S?U?$/.test(p.serviceDays) &&
        /^\d+$/.test(p.addOnDays)
      );
    };
    expect(violations(servicePoints, wellFormed, (p) => `${pointLabel(p)} ${p.direct} ${p.serviceDays} ${p.addOnDays}`)).toEqual([]);
  });

  it('assigns each ZIP to the nearest terminal of the carrier, within the service radius', () => {
    const t = gazetteer.table;
    for (const [carrier, { radiusMiles }] of Object.entries(SERVICE_AREAS)) {
      const carrierTerminals = terminalsByCarrier.get(carrier)!.map((r) => ({
        code: r.terminalCode,
        lat: Number(r.latitude),
        lng: Number(r.longitude),
      }));
      const byCode = new Map(carrierTerminals.map((r) => [r.code, r]));
      const rows = pointsByCarrier.get(carrier)!;
      const milesOf = (p: Row) => {
        const terminal = byCode.get(p.terminalCode);
        const z = gazetteer.zipIndex(p.zip);
        return terminal ? haversineMiles(t.zipLat[z], t.zipLng[z], terminal.lat, terminal.lng) : Infinity;
      };
      expect(violations(rows, (p) => milesOf(p) <= radiusMiles, (p) => `${pointLabel(p)}: ${milesOf(p)} mi`), carrier).toEqual([]);
      // Checking nearness on every 10th row keeps the test quick.
      const nearest = (p: Row) => {
        const z = gazetteer.zipIndex(p.zip);
        return Math.min(...carrierTerminals.map((c) => haversineMiles(t.zipLat[z], t.zipLng[z], c.lat, c.lng)));
      };
      const sampled = rows.filter((_, i) => i % 10 === 0);
      expect(violations(sampled, (p) => milesOf(p) - nearest(p) < 1e-9, pointLabel), carrier).toEqual([]);
    }
  });

  it('gives near ZIPs daily direct service, farther ones add-on days, and the edge to partners', () => {
    const t = gazetteer.table;
    for (const carrier of Object.keys(SERVICE_AREAS)) {
      const location = new Map(terminalsByCarrier.get(carrier)!.map((r) => [r.terminalCode, [Number(r.latitude), Number(r.longitude)]]));
      const rows = pointsByCarrier.get(carrier)!;
      const milesOf = (p: Row) => {
        const [lat, lng] = location.get(p.terminalCode)!;
        const z = gazetteer.zipIndex(p.zip);
        return haversineMiles(t.zipLat[z], t.zipLng[z], lat, lng);
      };
      const plausible = (p: Row) => {
        const miles = milesOf(p);
        const addOn = Number(p.addOnDays);
        if (miles < 55) return p.serviceDays === 'MTWRF' && addOn === 0 && p.direct === 'true';
        if (miles > 65) return addOn >= 1 && addOn <= 3;
        return addOn <= 1;
      };
      expect(
        violations(rows, plausible, (p) => `${pointLabel(p)}: ${milesOf(p)} mi ${p.serviceDays} +${p.addOnDays} ${p.direct}`),
        carrier,
      ).toEqual([]);
      const partnerMiles = rows.filter((p) => p.direct === 'false').map(milesOf);
      const nextDayMiles = rows.filter((p) => Number(p.addOnDays) <= 1).map(milesOf);
      expect(partnerMiles.length, `${carrier} hands its farthest ZIPs to partners`).toBeGreaterThan(0);
      expect(Math.min(...partnerMiles), `${carrier}: partners serve only the outer edge`).toBeGreaterThan(Math.max(...nextDayMiles));
    }
  });

  it('leaves ZIPs beyond every terminal unserved rather than stretching the radius', () => {
    const served = new Set(pointsByCarrier.get('carrier-a')!.map((p) => p.zip));
    const contiguous = new Set(CONTIGUOUS);
    let inFootprint = 0;
    for (let z = 0; z < gazetteer.zipCount; z++) if (contiguous.has(gazetteer.zipState(z))) inFootprint++;
    expect(served.size).toBeLessThan(inFootprint);
    expect(served.size / inFootprint).toBeGreaterThan(0.9);
  });
});
